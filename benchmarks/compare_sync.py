"""Check that a change to the sync stores exactly what another revision of the code stores.

    .venv/bin/python benchmarks/compare_sync.py CLONE [--against main] [--workdir DIR] [-- SYNC ARGS]
    .venv/bin/python benchmarks/compare_sync.py --databases A.db B.db

With a clone: ``prdigest sync git CLONE`` runs twice into two new SQLite files, once with this
checkout's code and once with the code of the git revision ``--against`` (its ``src`` taken
with ``git archive`` and put first on PYTHONPATH, same virtualenv), then the two databases are
compared. With ``--databases`` only the comparison runs.

The comparison covers every table, the search index's internal tables included, row by row
in row-id order, plus the schema itself; ``--ignore TABLE.COLUMN`` leaves out a column that
holds a wall-clock time (a sync writes none today). Prints one line per table and exits 1 on
any difference, naming the first differing row.

``--records``: for a change of how records are stored (a new schema revision), compare what
readers get instead of the bytes stored. Both files are copied and opened with this
checkout's store (which migrates the reference copy to this schema); every table is compared
row by row, leaving out the storage columns (``pull_requests.record``, ``record_hash``,
``texts``), what quotes them (the search rows' stamps), the write counter of the report cache
and ``file_texts``; the search index by every term instance it holds (FTS5's b-tree segments
follow the write batches, not the content); and every record as ``Store.iter_prs`` hands it
out, as JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from prdigest.models.pullrequest import PullRequest

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]


def tables(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    """(name, create statement) of every table, virtual ones included, by name."""
    rows = connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    return [(str(name), str(sql or "")) for name, sql in rows]


def _columns(connection: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in connection.execute(f'PRAGMA table_info("{table}")')]


def _has_rowid(connection: sqlite3.Connection, table: str) -> bool:
    try:
        connection.execute(f'SELECT rowid FROM "{table}" LIMIT 1').fetchall()
    except sqlite3.OperationalError:
        return False
    return True


def table_rows(connection: sqlite3.Connection, table: str, ignored: set[str]) -> Iterator[tuple[object, ...]]:
    columns = [c for c in _columns(connection, table) if f"{table}.{c}" not in ignored]
    if not columns:
        return  # every column left out
    selected = ", ".join(f'"{c}"' for c in columns)
    if _has_rowid(connection, table):
        query = f'SELECT rowid, {selected} FROM "{table}" ORDER BY rowid'
    else:
        query = f'SELECT {selected} FROM "{table}" ORDER BY {", ".join(str(i + 1) for i in range(len(columns)))}'
    yield from connection.execute(query)


# What --records leaves out of the row-by-row comparison: how a record is stored, what quotes
# its storage (the record hash in search stamps; FTS5 keeps the stamp as column c4), and the
# report cache's write counter (it counts rows written, file texts included).
STORAGE_COLUMNS = {
    "pull_requests.record",
    "pull_requests.record_hash",
    "pull_requests.texts",
    "pr_search.stamp",
    "pr_search_content.c4",
    "report_epoch.value",
}


def compare(first: Path, second: Path, ignored: set[str], *, records: bool = False) -> bool:
    """Print one line per table; True when every table (and the schema) is identical."""
    if records:
        with tempfile.TemporaryDirectory(prefix="prdigest-records-") as scratch:
            copy_a = _readable_copy(first, Path(scratch) / "a.db")
            copy_b = _readable_copy(second, Path(scratch) / "b.db")
            same_tables = compare(copy_a, copy_b, ignored | STORAGE_COLUMNS)
            return compare_records(copy_a, copy_b) and same_tables
    a = sqlite3.connect(f"file:{first}?mode=ro", uri=True)
    b = sqlite3.connect(f"file:{second}?mode=ro", uri=True)
    same = True
    tables_a, tables_b = dict(tables(a)), dict(tables(b))
    if tables_a != tables_b:
        print(
            f"schema differs: only in A {sorted(set(tables_a) - set(tables_b))}, "
            f"only in B {sorted(set(tables_b) - set(tables_a))}, "
            f"changed {sorted(t for t in set(tables_a) & set(tables_b) if tables_a[t] != tables_b[t])}"
        )
        same = False
    for table in sorted(set(tables_a) & set(tables_b)):
        if table in ("file_texts", "pr_search_data", "pr_search_idx") and "pull_requests.texts" in ignored:
            continue  # compared as records, and as search_terms
        rows_a, rows_b = table_rows(a, table, ignored), table_rows(b, table, ignored)
        same = _compare_stream(table, "rows", "rows", rows_a, rows_b, _row_text, _row_difference) and same
    return same


def _readable_copy(db: Path, copy: Path) -> Path:
    """A copy of ``db`` at this checkout's schema, with its search index's every term instance
    written out as a table (``search_terms``)."""
    import shutil

    from prdigest.store import Store

    shutil.copyfile(db, copy)
    for suffix in ("-wal", "-shm"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", f"{copy}{suffix}")
    Store.open(f"sqlite:///{copy}", create=False).close()  # migrates
    connection = sqlite3.connect(copy)
    with connection:
        connection.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, pr_search, 'instance')")
        connection.execute(
            "CREATE TABLE search_terms AS SELECT term, doc, col, offset FROM temp.terms ORDER BY term, doc, col, offset"
        )
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return copy


def compare_records(first: Path, second: Path) -> bool:
    """Every record as this checkout's ``Store.iter_prs`` reads it from each file, as JSON."""
    from prdigest.store import Store

    with (
        Store.open(f"sqlite:///{first}", create=False) as store_a,
        Store.open(f"sqlite:///{second}", create=False) as store_b,
    ):
        return _compare_stream(
            "records (as read)",
            "recs",
            "records",
            store_a.iter_prs(),
            store_b.iter_prs(),
            _record_text,
            _record_difference,
        )


def _compare_stream(
    label: str,
    unit: str,
    noun: str,
    items_a: Iterator[T],
    items_b: Iterator[T],
    text: Callable[[T | None], str],
    difference: Callable[[int, T, T | None], str],
) -> bool:
    """Compare two streams item by item (each item as ``text``), print one line: the count, A's
    digest and where they first differ; True when they are identical."""
    digest_a, digest_b = hashlib.sha256(), hashlib.sha256()
    count = 0
    first_difference: str | None = None
    for item_a in items_a:
        item_b = next(items_b, None)
        text_a, text_b = text(item_a), text(item_b)
        digest_a.update(text_a.encode())
        digest_b.update(text_b.encode())
        count += 1
        if text_a != text_b and first_difference is None:
            first_difference = difference(count, item_a, item_b)
    extra = sum(1 for _ in items_b)
    if extra and first_difference is None:
        first_difference = f"B has {extra} more {noun}"
    verdict = "identical" if first_difference is None else f"DIFFERS ({first_difference})"
    print(f"{label:24s} {count:6d} {unit}  sha256 {digest_a.hexdigest()[:16]}  {verdict}")
    return first_difference is None


def _row_text(row: tuple[object, ...] | None) -> str:
    return repr(row)


def _row_difference(count: int, row_a: tuple[object, ...], row_b: tuple[object, ...] | None) -> str:
    return f"row {count}: A {_short(row_a)} / B {_short(row_b)}"


def _record_text(record: PullRequest | None) -> str:
    return record.model_dump_json() if record is not None else ""


def _record_difference(count: int, record_a: PullRequest, _record_b: PullRequest | None) -> str:
    return f"record {count}: #{record_a.number}"


def _short(row: tuple[object, ...] | None) -> str:
    text = repr(row)
    return text if len(text) <= 160 else text[:157] + "..."


def export_src(revision: str, into: Path) -> Path:
    """The ``src`` folder of a git revision of this checkout, unpacked under ``into``."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def run_sync(clone: Path, db: Path, src: Path, extra: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, "-m", "prdigest", "sync", "git", str(clone), "--db", str(db), *extra]
    started = time.perf_counter()
    completed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"sync failed ({src}): {completed.stderr.strip()}")
    print(f"  {src}: {completed.stdout.strip().splitlines()[0]} ({time.perf_counter() - started:.1f} s)")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", type=Path, nargs="?", help="a local git clone to sync twice")
    parser.add_argument("--against", default="main", help="git revision whose code is the reference (default main)")
    parser.add_argument("--databases", type=Path, nargs=2, metavar=("A", "B"), help="only compare these two files")
    parser.add_argument("--ignore", action="append", default=[], metavar="TABLE.COLUMN", help="column to leave out")
    parser.add_argument("--workdir", type=Path, default=None, help="where the databases go (default: a temp dir)")
    parser.add_argument("--records", action="store_true", help="compare records as read, not as stored")
    parser.add_argument("sync_args", nargs="*", help="more arguments for `sync git` (after --)")
    args = parser.parse_args()
    ignored = set(args.ignore)
    if args.databases is not None:
        return 0 if compare(*args.databases, ignored, records=args.records) else 1
    if args.clone is None:
        parser.error("give a clone or --databases A B")
    with tempfile.TemporaryDirectory(prefix="prdigest-compare-") as scratch:
        work = args.workdir or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        reference = export_src(args.against, Path(scratch))
        first, second = work / "reference.db", work / "this.db"
        for db in (first, second):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
        print(f"sync {args.clone} with {args.against}'s code (A) and this checkout's (B):")
        run_sync(args.clone, first, reference, args.sync_args)
        run_sync(args.clone, second, ROOT / "src", args.sync_args)
        same = compare(first, second, ignored, records=args.records)
    print("identical" if same else "DIFFERENT")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
