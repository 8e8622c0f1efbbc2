"""The files of a published site made from every PR at once: each language's feeds and the
index. They are written once every PR's pages are made, as tasks of their own, so that with
``publish --jobs`` the processes that made the pages share them out too."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prdigest.models.feed import FeedItem
from prdigest.render.feed import assemble_feed
from prdigest.render.formats import FEED_FORMATS
from prdigest.render.site_index import IndexRow, feed_path, render_index_html, render_index_markdown
from prdigest.words import Lang


@dataclass(frozen=True)
class FeedsTask:
    """One language's feeds, in every feed format, of the window's items in its order."""

    lang: Lang
    items: list[FeedItem]
    since: datetime | None
    until: datetime | None


@dataclass(frozen=True)
class IndexTask:
    """The index (Markdown and HTML) of every language's rows."""

    languages: list[Lang]
    rows: dict[Lang, list[IndexRow]]


TailTask = FeedsTask | IndexTask


def tail_tasks(
    languages: list[Lang],
    items: dict[Lang, list[FeedItem]],
    rows: dict[Lang, list[IndexRow]],
    since: datetime | None,
    until: datetime | None,
) -> list[TailTask]:
    """The site's last files as tasks, the costliest first (each language's feeds)."""
    return [*(FeedsTask(lang, items[lang], since, until) for lang in languages), IndexTask(languages, rows)]


def write_tail(task: TailTask, out: Path, repository: str) -> int:
    """Write the task's files under ``out``; how many feeds were written."""
    if isinstance(task, IndexTask):
        (out / "index.md").write_text(render_index_markdown(repository, task.languages, task.rows), encoding="utf-8")
        (out / "index.html").write_text(render_index_html(repository, task.languages, task.rows), encoding="utf-8")
        return 0
    feed = assemble_feed(repository, task.items, task.lang, since=task.since, until=task.until)
    for feed_format in FEED_FORMATS.values():
        (out / feed_path(task.lang, feed_format)).write_text(feed_format.render(feed), encoding="utf-8")
    return len(FEED_FORMATS)
