"""Publishing a page of PRs from what is read for the whole page at once (`make_page`) makes
the pages, the stored narratives (ids included) and the stamps that one PR at a time does."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.pipeline.conftest import SMALL_REPO

from prdigest.pipeline.analyze import analyze_stored
from prdigest.pipeline.publish_pages import PRPages, make_page, pages_or_why
from prdigest.pipeline.publish_stamps import page_stamp
from prdigest.pipeline.related import related_from_store
from prdigest.store.publish_store import page_inputs
from prdigest.store.store import Store
from prdigest.words import Lang

LANGUAGES = [Lang("zh"), Lang("en")]
NUMBERS = [3, 2, 1]  # newest first, as publishing goes


def _copy(store: Store, tmp_path: Path, name: str) -> tuple[Store, Path]:
    """A copy of the store's SQLite file (through SQLite's backup, WAL included)."""
    source = Path(store.url.removeprefix("sqlite:///"))
    target = tmp_path / f"{name}.db"
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return Store.open(f"sqlite:///{target}"), target


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _narratives(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT id, pull_request_id, lang, length, cache_key, narrator, model, body FROM narratives ORDER BY id"
        ).fetchall()


def _one_at_a_time(store: Store, out: Path) -> dict[int, PRPages | str]:
    """Each PR read, narrated, saved and stamped alone (the per-PR path)."""
    return {n: pages_or_why(store, SMALL_REPO, n, out, LANGUAGES, None, code="c") for n in NUMBERS}


def test_a_page_makes_what_one_pr_at_a_time_makes(small_store: Store, tmp_path: Path) -> None:
    analyze_stored(small_store)
    alone_store, alone_db = _copy(small_store, tmp_path, "alone")
    page_store, page_db = _copy(small_store, tmp_path, "page")
    try:
        # Twice: first with no narrative stored, then with the stored ones read back.
        for run in ("first", "again"):
            for side in ("alone", "page"):
                (tmp_path / f"{side}-{run}" / "reports").mkdir(parents=True)
            alone = _one_at_a_time(alone_store, tmp_path / f"alone-{run}")
            page = dict(make_page(page_store, SMALL_REPO, NUMBERS, tmp_path / f"page-{run}", LANGUAGES, "c"))
            assert page == alone
            assert all(isinstance(pages, PRPages) and pages.entry is not None for pages in page.values())
            assert _files(tmp_path / f"page-{run}") == _files(tmp_path / f"alone-{run}")
            assert _narratives(page_db) == _narratives(alone_db)
            assert len(_narratives(page_db)) == len(NUMBERS) * len(LANGUAGES) * 2
        # The stamps are those the next publish compares with (read for one PR after the fact).
        inputs = page_inputs(page_store, SMALL_REPO, NUMBERS)
        for number, pages in page.items():
            assert isinstance(pages, PRPages)
            assert pages.entry is not None
            related = related_from_store(page_store, SMALL_REPO, number)
            stamp = page_stamp(page_store, SMALL_REPO, inputs[number], related, pages.entry.packages, LANGUAGES, "c")
            assert pages.entry.stamp == stamp
    finally:
        alone_store.close()
        page_store.close()


def _forget_analysis(db: Path, number: int) -> None:
    """The PR's facts and links gone, as if it had never been analyzed."""
    with sqlite3.connect(db) as connection:
        (pr_id,) = connection.execute("SELECT id FROM pull_requests WHERE number = ?", (number,)).fetchone()
        connection.execute("DELETE FROM facts WHERE pull_request_id = ?", (pr_id,))
        connection.execute("DELETE FROM pr_links WHERE pull_request_id = ?", (pr_id,))


def test_a_pr_analyzed_while_its_page_is_made_shows_in_the_related_work_of_the_prs_after_it(
    small_store: Store, tmp_path: Path
) -> None:
    # #3 (reverts #2) is analyzed when its page is made and its links stored then; #2, after
    # it in the same page and analyzed already, shows the revert, as when each PR is read alone.
    analyze_stored(small_store)
    alone_store, alone_db = _copy(small_store, tmp_path, "alone")
    page_store, page_db = _copy(small_store, tmp_path, "page")
    try:
        for db in (alone_db, page_db):
            _forget_analysis(db, 3)
        for side in ("alone", "page"):
            (tmp_path / side / "reports").mkdir(parents=True)
        alone = _one_at_a_time(alone_store, tmp_path / "alone")
        page = dict(make_page(page_store, SMALL_REPO, NUMBERS, tmp_path / "page", LANGUAGES, "c"))
        assert page == alone
        assert _files(tmp_path / "page") == _files(tmp_path / "alone")
        assert b"#3" in _files(tmp_path / "page")["reports/2.en.full.md"]
        assert _narratives(page_db) == _narratives(alone_db)
    finally:
        alone_store.close()
        page_store.close()
