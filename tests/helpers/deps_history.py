"""A real git history whose PRs exercise the dependency semantics and the ledger.

``example-org/kv`` (all squash-merged, one day apart):

#1 adds ``requirements/kv.txt`` (nixl-cu12 / nixl-cu13, capped) and an image installing it
#2 adds ``cupy-cuda13x<14.1.0`` (a new capped requirement: version lock)
#3 relaxes it to ``cupy-cuda13x!=14.1.0`` (cap to exclusion)
#4 replaces nixl-cu12 and nixl-cu13 with the ``nixl`` meta-package
#5 moves psutil's cap from ``<5.10.0`` to ``<=5.10.1`` in pyproject.toml (capped admission)
#6 downgrades pytest ``>=8.3.5`` to ``==7.4.4`` in requirements-dev.txt
#7 adds ``pip install -U pip pytest`` to a CI workflow
#8 moves torch's release pin and development floor in setup.py (build switch)
#9 installs pytest a second time in the same workflow (no dependency change)
#10 adds twelve steps; #11 installs pytest again far below the first install (no change either)
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.analyzed import analyze_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.store import Store

REPO = "example-org/kv"

PYPROJECT = """[project]
name = "kv"
version = "1.0"
dependencies = [
    "psutil>=5.9.0,{cap}",
]
"""
SETUP = """from setuptools import setup

RELEASE = False

setup(
    name="kv",
    install_requires=["torch=={release}"] if RELEASE else ["torch>={dev}"],
)
"""
WORKFLOW = """name: tests
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: pip install -e .
{extra}"""


def _day(day: int) -> datetime:
    return datetime(2024, 2, day, 12, 0, tzinfo=UTC)


def build_deps_history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "README.md": "# kv\n",
            "pyproject.toml": PYPROJECT.format(cap="<5.10.0"),
            "setup.py": SETUP.format(release="2.5.0", dev="2.5.0.dev0"),
            "requirements-dev.txt": "pytest>=8.3.5\n",
            ".github/workflows/tests.yml": WORKFLOW.format(extra=""),
        },
        "Initial commit",
        date=_day(1),
    )
    repo.squash_pr(
        1,
        "Add KV connectors",
        {
            "requirements/kv.txt": "lmcache>=0.3.9\nnixl-cu12>=0.7.1,<=0.10.1\nnixl-cu13>=0.7.1,<=0.10.1\n",
            "docker/Dockerfile": "FROM python:3.12\nCOPY requirements/kv.txt .\nRUN pip install -r kv.txt\n",
        },
        date=_day(2),
    )
    repo.squash_pr(
        2,
        "Cap cupy below 14.1.0",
        {
            "requirements/kv.txt": "lmcache>=0.3.9\nnixl-cu12>=0.7.1,<=0.10.1\nnixl-cu13>=0.7.1,<=0.10.1\n"
            "cupy-cuda13x<14.1.0\n"
        },
        body="CuPy 14.1.0 imports pytest at import time; hold it below 14.1.0 until a fix ships.",
        date=_day(3),
    )
    repo.squash_pr(
        3,
        "Exclude only cupy 14.1.0",
        {
            "requirements/kv.txt": "lmcache>=0.3.9\nnixl-cu12>=0.7.1,<=0.10.1\nnixl-cu13>=0.7.1,<=0.10.1\n"
            "cupy-cuda13x!=14.1.0\n"
        },
        body="CuPy 14.1.1 fixes the import, so only 14.1.0 is excluded.",
        date=_day(4),
    )
    repo.squash_pr(
        4,
        "Use the nixl meta-package",
        {"requirements/kv.txt": "lmcache>=0.3.9\nnixl>=1.1.0\ncupy-cuda13x!=14.1.0\n"},
        body="nixl 1.1.0 picks the CUDA backend at run time.",
        date=_day(5),
    )
    repo.squash_pr(
        5,
        "Allow psutil 5.10.1",
        {"pyproject.toml": PYPROJECT.format(cap="<=5.10.1")},
        body="psutil 5.10.1 fixes the sensor readings.",
        date=_day(6),
    )
    repo.squash_pr(
        6,
        "Pin pytest to 7.4.4",
        {"requirements-dev.txt": "pytest==7.4.4\n"},
        body="pytest 8 breaks our fixtures.",
        date=_day(7),
    )
    repo.squash_pr(
        7,
        "Install pytest in CI",
        {".github/workflows/tests.yml": WORKFLOW.format(extra="      - run: pip install -U pip pytest\n")},
        date=_day(8),
    )
    repo.squash_pr(
        8,
        "Build against torch 2.6",
        {"setup.py": SETUP.format(release="2.6.0", dev="2.6.0.dev0")},
        date=_day(9),
    )
    repo.squash_pr(
        9,
        "Install pytest in the lint job too",
        {
            ".github/workflows/tests.yml": WORKFLOW.format(
                extra="      - run: pip install -U pip pytest\n      - run: pip install pytest\n"
            )
        },
        date=_day(10),
    )
    filler = "".join(f"      - run: echo step {i}\n" for i in range(12))
    repo.squash_pr(
        10,
        "Add steps to the workflow",
        {
            ".github/workflows/tests.yml": WORKFLOW.format(
                extra="      - run: pip install -U pip pytest\n      - run: pip install pytest\n" + filler
            )
        },
        date=_day(11),
    )
    repo.squash_pr(
        11,
        "Install pytest for the last step",
        {
            ".github/workflows/tests.yml": WORKFLOW.format(
                extra="      - run: pip install -U pip pytest\n      - run: pip install pytest\n"
                + filler
                + "      - run: pip install pytest\n"
            )
        },
        date=_day(12),
    )
    return repo


def deps_store(root: Path, store: Store) -> Store:
    """The history synced and analyzed into ``store``."""
    return analyze_history(store, build_deps_history(root), REPO)
