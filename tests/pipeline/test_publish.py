"""Publishing a repository: every report and feed as files, an index linking them, progress reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.pipeline.conftest import SMALL_REPO

from prdigest.pipeline import report as report_pipeline
from prdigest.pipeline.publish import publish_site
from prdigest.render.formats import feed_format
from prdigest.store import Store


def test_every_report_and_feed_is_written_and_indexed(small_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "site"
    progress: list[str] = []
    written = publish_site(
        small_store,
        SMALL_REPO,
        out,
        ["zh", "en"],
        None,
        on_start=lambda total: progress.append(f"start {total}"),
        on_done=lambda number: progress.append(f"#{number}"),
    )
    # 3 PRs x 2 languages x 2 lengths x 3 formats; 2 languages x 4 feed formats.
    assert (written.reports, written.feeds) == (36, 8)
    assert progress == ["start 3", "#3", "#2", "#1"]
    files = sorted(str(path.relative_to(out)) for path in out.rglob("*") if path.is_file())
    # and what each PR's pages were built from (publishing again skips unchanged ones)
    assert len(files) == 36 + 8 + 2 + 1
    assert ".prdigest-publish.json" in files
    assert "reports/2.en.brief.json" in files
    assert "feed.zh.atom.xml" in files
    index = (out / "index.md").read_text(encoding="utf-8")
    assert index.startswith(f"# {SMALL_REPO}\n")
    assert "reports/1.zh.full.html" in index
    assert "reports/3.en.brief.md" in (out / "index.html").read_text(encoding="utf-8")


def test_publishing_twice_writes_the_same_files(small_store: Store, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    publish_site(small_store, SMALL_REPO, first, ["en"], None)
    publish_site(small_store, SMALL_REPO, second, ["en"], None)
    texts = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    assert texts == {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}


def test_pages_of_prs_write_what_one_page_writes(
    small_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Publishing reads the PRs a page at a time (memory stays flat); where the pages end
    # must not show in any file, and the published feed is the feed command's.
    one_page, pages = tmp_path / "one", tmp_path / "pages"
    publish_site(small_store, SMALL_REPO, one_page, ["zh", "en"], None)
    monkeypatch.setattr(report_pipeline, "PAGE_SIZE", 1)
    publish_site(small_store, SMALL_REPO, pages, ["zh", "en"], None, page_size=1)
    texts = {p.relative_to(one_page): p.read_bytes() for p in one_page.rglob("*") if p.is_file()}
    assert texts == {p.relative_to(pages): p.read_bytes() for p in pages.rglob("*") if p.is_file()}
    feed = report_pipeline.feed_for(small_store, SMALL_REPO, "en", None)
    assert (pages / "feed.en.md").read_text(encoding="utf-8") == feed_format("md").render(feed)
