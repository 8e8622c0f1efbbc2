"""Full file texts are stored once each, outside the record JSON, and every reader gets the
record back exactly (SQLite and PostgreSQL); rows of the older layout still read."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from prdigest.models import FileChange, PullRequest
from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.store import Store, migrate
from prdigest.store.facts_store import stored_records
from prdigest.store.file_texts import TextDigests
from prdigest.store.testing import engine_of

OLD = "def f():\n    return 1\n"
NEW = "def f():\n    return 2\n"
NEWER = "def f():\n    return 3  # é, 中文 and \x00\n"


def make_pr(number: int, before: str | None, after: str | None, *, path: str = "pkg/f.py") -> PullRequest:
    return PullRequest(
        repository="org/proj",
        number=number,
        title=f"Change f ({number})",
        merged_at=datetime(2026, 5, number, 12, 0, tzinfo=UTC),
        files=[
            FileChange(path="README.md", additions=1, patch="@@ -0,0 +1 @@\n+x\n"),
            FileChange(
                path=path,
                additions=1,
                deletions=1,
                patch="@@ -1,2 +1,2 @@\n def f():\n-    a\n+    b\n",
                content_before=before,
                content_after=after,
            ),
        ],
        additions=2,
        deletions=1,
    )


def history() -> list[PullRequest]:
    return [make_pr(1, None, OLD), make_pr(2, OLD, NEW), make_pr(3, NEW, NEWER), make_pr(4, NEWER, None)]


def _count(store: Store, sql: str) -> int:
    with engine_of(store).connect() as connection:
        return int(connection.execute(text(sql)).scalar_one())


def test_each_text_is_stored_once_and_records_read_back_exactly(db_url: str) -> None:
    records = history()
    with Store.open(db_url) as store:
        stats = store.upsert_prs(records, batch_size=2)
        assert stats.inserted == 4
        assert _count(store, "SELECT count(*) FROM file_texts") == 3  # OLD, NEW, NEWER
        # The record column no longer carries them.
        assert _count(store, "SELECT count(*) FROM pull_requests WHERE record LIKE '%return%'") == 0
        for pr in records:
            assert store.get_pr("org/proj", pr.number) == pr
            assert store.get_pr("org/proj", pr.number).model_dump_json() == pr.model_dump_json()
        assert list(store.iter_prs(repository="org/proj")) == records
        ids = [store.pr_id("org/proj", pr.number) for pr in records]
        assert stored_records(store, ids) == dict(zip(ids, records, strict=True))


def test_same_records_again_are_unchanged_and_a_changed_text_is_an_update(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.upsert_prs(history())
        again = store.upsert_prs(history())
        assert (again.inserted, again.updated, again.unchanged) == (0, 0, 4)
        edited = make_pr(2, OLD, NEW + "# one more line\n")
        changed = store.upsert_prs([edited])
        assert (changed.updated, changed.unchanged) == (1, 0)
        assert store.get_pr("org/proj", 2) == edited
        assert _count(store, "SELECT count(*) FROM file_texts") == 4


def test_texts_are_shared_across_handles_and_repositories(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.upsert_prs(history())
    other = [pr.model_copy(update={"repository": "org/fork"}) for pr in history()]
    with Store.open(db_url) as store:
        store.upsert_prs(other)  # a new handle: the texts exist already (ON CONFLICT)
        assert _count(store, "SELECT count(*) FROM file_texts") == 3
        assert list(store.iter_prs(repository="org/fork")) == other


def test_texts_are_keyed_by_the_sha256_of_their_utf8_bytes(sqlite_url: str) -> None:
    with Store.open(sqlite_url) as store:
        store.upsert_prs([make_pr(2, OLD, NEW)])
        with engine_of(store).connect() as connection:
            rows = dict(connection.execute(text("SELECT digest, body FROM file_texts")).all())
    assert rows == {hashlib.sha256(t.encode()).hexdigest(): t.encode() for t in (OLD, NEW)}


def test_rows_of_the_older_layout_read_as_before(tmp_path: Path) -> None:
    """A database written before revision 0007 (whole records in ``record``) is migrated
    without rewriting its rows, and reads the same records."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    records = history()
    with Store.open(url) as store:
        migrate.downgrade(engine_of(store), "0006")
        with engine_of(store).begin() as connection:
            connection.execute(text("INSERT INTO repositories (full_name) VALUES ('org/proj')"))
            for pr in records:
                record = pr.model_dump_json()
                connection.execute(
                    text(
                        "INSERT INTO pull_requests (repository_id, number, title, state, additions, deletions, "
                        "changed_files, source, record, record_hash) VALUES (1, :number, :title, 'merged', 2, 1, 2, "
                        "'git', :record, :hash)"
                    ),
                    {
                        "number": pr.number,
                        "title": pr.title,
                        "record": record,
                        "hash": hashlib.sha256(record.encode()).hexdigest(),
                    },
                )
    with Store.open(url) as store:
        with engine_of(store).connect() as connection:
            assert migrate.current_revision(connection) == migrate.HEAD_REVISION
        assert list(store.iter_prs()) == records
        assert store.get_pr("org/proj", 3) == records[2]
        ids = [store.pr_id("org/proj", pr.number) for pr in records]
        assert stored_records(store, ids) == dict(zip(ids, records, strict=True))
        # Analysis reads them like any other record.
        assert analyze_selected(store, AnalyzeRequest(repository="org/proj", jobs=1)).analyzed == 4


def test_text_digests_hold_texts_within_their_character_bound() -> None:
    digests = TextDigests(keep=100, keep_chars=10)
    first, second, large = "a" * 6, "b" * 6, "c" * 11
    for value in (first, second, large):
        digest, body = digests.digest(value)
        assert digest == hashlib.sha256(value.encode()).hexdigest()
        assert body == value.encode()
    assert digests.digest(second) == (hashlib.sha256(b"b" * 6).hexdigest(), second)  # remembered: not encoded again
    assert isinstance(digests.digest(first)[1], bytes)  # dropped for the second one (6 + 6 > 10)
    assert isinstance(digests.digest(large)[1], bytes)  # larger than the bound: never held
