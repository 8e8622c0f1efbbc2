"""A real git history whose PRs each fall into some watches: paths, a package, a symbol, people.

``example-org/tasks`` (squash-merged, one day apart):

#1 alice adds ``src/sched/core.py`` with ``Scheduler.run``
#2 bob adds ``numpy>=1.26,<2`` to requirements.txt
#3 carol edits ``docs/guide.md`` only
#4 bob changes ``Scheduler.run``
#5 dave changes ``start`` in ``src/app/main.py``, with a hostile title
#6 carol relaxes numpy's cap to ``<3``
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.analyzed import analyze_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.store import Store

REPO = "example-org/tasks"
HOSTILE_TITLE = "Make <script>alert(1)</script> & start faster"

SCHED = """class Scheduler:
    def __init__(self, tasks):
        self.tasks = list(tasks)

    def run(self):
        done = []
        for task in self.tasks:
            done.append(task())
        return done
"""
SCHED_FAST = SCHED.replace(
    "        done = []\n        for task in self.tasks:\n            done.append(task())\n        return done\n",
    "        # One list comprehension: no append per task.\n        return [task() for task in self.tasks]\n",
)
MAIN = "def start(argv):\n    print('starting', argv)\n    return 0\n"
MAIN_FAST = "def start(argv):\n    return 0 if argv is not None else 1\n"


def day(number: int) -> datetime:
    return datetime(2024, 3, number, 12, 0, tzinfo=UTC)


def build_watch_history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "README.md": "# tasks\n",
            "requirements.txt": "requests>=2.31\n",
            "src/app/main.py": MAIN,
            "docs/guide.md": "# Guide\n\nRun it.\n",
        },
        "Initial commit",
        date=day(1),
    )
    repo.squash_pr(
        1, "Add the scheduler", {"src/sched/core.py": SCHED}, author=("alice", "alice@example.com"), date=day(2)
    )
    repo.squash_pr(
        2,
        "Depend on numpy below 2",
        {"requirements.txt": "requests>=2.31\nnumpy>=1.26,<2\n"},
        body="The scheduler's statistics need numpy; numpy 2 changes the C API, so stay below it.",
        author=("bob", "bob@example.com"),
        date=day(3),
    )
    repo.squash_pr(
        3,
        "Explain how to run it",
        {"docs/guide.md": "# Guide\n\nRun it with `tasks run`.\n"},
        author=("carol", "carol@example.com"),
        date=day(4),
    )
    repo.squash_pr(
        4,
        "Run tasks in one comprehension",
        {"src/sched/core.py": SCHED_FAST},
        author=("bob", "bob@example.com"),
        date=day(5),
    )
    repo.squash_pr(5, HOSTILE_TITLE, {"src/app/main.py": MAIN_FAST}, author=("dave", "dave@example.com"), date=day(6))
    repo.squash_pr(
        6,
        "Allow numpy 2",
        {"requirements.txt": "requests>=2.31\nnumpy>=1.26,<3\n"},
        body="numpy 2 works now that the C API users moved.",
        author=("carol", "carol@example.com"),
        date=day(7),
    )
    return repo


def watch_store(root: Path, store: Store) -> Store:
    """The history synced as `REPO` into `store`, every PR analyzed."""
    return analyze_history(store, build_watch_history(root), REPO)
