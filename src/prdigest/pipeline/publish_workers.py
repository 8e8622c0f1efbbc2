"""``publish --jobs``: worker processes that make PRs' pages (offline narration only).

A worker is sent a page of PR numbers, opens the database itself, narrates, builds and
writes each PR's pages and stores its new narratives, and sends back what the feeds, the
index and the stamps need (`publish_pages.PRPages`), or why a PR could not be written. The
main process makes pages too (``--jobs 2`` is it and one worker). Pages are dealt out in
turn, so each gets early and late PRs alike (the late ones are usually the bigger), and
shared out again as they are asked for. Once every page is made, the feeds and the index
(`publish_tail`) are shared out the same way; the main process then writes the stamps.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from prdigest.errors import StoreError
from prdigest.pipeline.publish_pages import PRPages
from prdigest.pipeline.publish_tail import TailTask, write_tail
from prdigest.pipeline.worker_pool import run_pages
from prdigest.store.store import Store
from prdigest.words import Lang

# PRs per page sent to a worker: small, so the pages dealt out even out the workers' loads.
WORKER_PAGE_SIZE = 8


@dataclass(frozen=True)
class PageTask:
    """What every page of a publish shares: the database, the repository, the folder, the
    languages and the code stamp."""

    url: str
    repository: str
    out: str
    languages: list[Lang]
    code: str


class PublishWorker:
    """What a publish worker process runs (`worker_pool.PageWorker`)."""

    def __init__(self, task: PageTask, store: Store | None = None) -> None:
        self.task = task
        self.store = store  # in a worker: opened at its first page
        self.owned = store is None  # closed by this worker

    def page(self, numbers: list[int] | TailTask) -> list[tuple[int, PRPages | str]] | OSError | None:
        from prdigest.pipeline.publish_pages import make_page

        if not isinstance(numbers, list):
            try:
                write_tail(numbers, Path(self.task.out), self.task.repository)
            except OSError as exc:  # raised by the main process, as when it writes the file itself
                return exc
            return None
        if self.store is None:
            self.store = Store.open(self.task.url, create=False, read_only_ok=True)
        task = self.task
        out = Path(task.out)
        return make_page(self.store, task.repository, numbers, out, task.languages, task.code)

    def close(self) -> None:
        if self.store is not None and self.owned:
            self.store.close()


def make_in_workers(
    store: Store,
    task: PageTask,
    numbers: Sequence[int],
    jobs: int,
    then: Callable[[], Sequence[TailTask]] | None = None,
) -> Generator[tuple[int, PRPages | str], None, None]:
    """(number, its pages or why not) for every PR, made by this process and ``jobs - 1``
    worker processes, in the order they finish; then the files of ``then()`` (asked for once
    every PR's pages are taken), written by the same processes. A database failure in a
    worker raises `StoreError` here."""
    pages: list[list[int] | TailTask] = [
        list(numbers[i : i + WORKER_PAGE_SIZE]) for i in range(0, len(numbers), WORKER_PAGE_SIZE)
    ]
    runs = [pages[index::jobs] for index in range(jobs)]
    # This process makes pages too, with its open store: one worker process fewer.
    here = PublishWorker(task, store)
    results = run_pages(PublishWorker(task), runs, name="publish", error=StoreError, local=here, then=then)
    with closing(results):
        for page, made in results:
            if isinstance(page, list):
                yield from made
            elif isinstance(made, OSError):
                raise made
