"""A real git history whose PRs move dependency declarations between files and lists.

``example-org/moves`` (all squash-merged, one day apart):

#1 deletes ``setup.py`` and declares the same requirements in a new ``pyproject.toml`` (plus
   one new one, ``rich``): click and the capped attrs moved unchanged
#2 folds ``requirements-docs.txt`` into a ``docs`` dependency group: furo moved unchanged,
   sphinx's pin moved from ``==7.2.6`` to ``==7.3.7`` on the way
#3 makes ``hypothesis<7`` from ``requirements-dev.txt`` a requirement of the package: a
   development list's package now installed by users is new to them, not a move
#4 replaces two CI workflows' ``pip install tox`` with a ``tox`` dependency group
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.analyzed import analyze_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.store import Store

REPO = "example-org/moves"

SETUP = """from setuptools import setup

setup(
    name="moves",
    install_requires=["click>=8.0", "attrs>=22,<24"],
)
"""
WORKFLOW = """name: tests
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: {install}
      - run: tox
"""


def _pyproject(dependencies: list[str], groups: dict[str, list[str]]) -> str:
    listed = "".join(f'    "{d}",\n' for d in dependencies)
    text = f'[project]\nname = "moves"\nversion = "1.0"\ndependencies = [\n{listed}]\n'
    if groups:
        text += "\n[dependency-groups]\n" + "".join(
            f"{name} = [{', '.join(f'{chr(34)}{r}{chr(34)}' for r in requirements)}]\n"
            for name, requirements in groups.items()
        )
    return text


def _day(day: int) -> datetime:
    return datetime(2024, 3, day, 12, 0, tzinfo=UTC)


def build_moves_history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "README.md": "# moves\n",
            "setup.py": SETUP,
            "requirements-docs.txt": "sphinx==7.2.6\nfuro==2024.1.29\n",
            "requirements-dev.txt": "pytest>=8\nhypothesis<7\n",
            ".github/workflows/tests.yml": WORKFLOW.format(install="pip install tox"),
            ".github/workflows/lint.yml": WORKFLOW.format(install="pip install tox"),
        },
        "Initial commit",
        date=_day(1),
    )
    runtime = ["click>=8.0", "attrs>=22,<24", "rich>=13"]
    repo.squash_pr(
        1,
        "Build with pyproject.toml",
        {"setup.py": None, "pyproject.toml": _pyproject(runtime, {})},
        date=_day(2),
    )
    docs = {"docs": ["sphinx==7.3.7", "furo==2024.1.29"]}
    repo.squash_pr(
        2,
        "Fold the docs requirements into a dependency group",
        {"requirements-docs.txt": None, "pyproject.toml": _pyproject(runtime, docs)},
        date=_day(3),
    )
    runtime = [*runtime, "hypothesis<7"]
    repo.squash_pr(
        3,
        "Ship the hypothesis strategies",
        {"requirements-dev.txt": "pytest>=8\n", "pyproject.toml": _pyproject(runtime, docs)},
        date=_day(4),
    )
    repo.squash_pr(
        4,
        "Install tox from a dependency group",
        {
            ".github/workflows/tests.yml": WORKFLOW.format(install="pip install --group tox"),
            ".github/workflows/lint.yml": WORKFLOW.format(install="pip install --group tox"),
            "pyproject.toml": _pyproject(runtime, {**docs, "tox": ["tox>=4"]}),
        },
        date=_day(5),
    )
    return repo


def moves_store(root: Path, store: Store) -> Store:
    """The history synced and analyzed into ``store``."""
    return analyze_history(store, build_moves_history(root), REPO)
