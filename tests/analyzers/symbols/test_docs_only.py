"""A function whose docstring alone changed is marked so, and the report does not tell its
callers they meet changed behaviour; a function whose code changed is still named. On a real
git history."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/ops"
PR = 1


def _ops(note: str = "", body: str = "return sum(values)") -> str:
    return "".join(
        [
            "def reduce(values):\n",
            '    """Reduce the values."""\n',
            f"    {body}\n",
            "\n\n",
            "def gather(values):\n",
            f'    """Gather the values{note}."""\n',
            "    return list(values)\n",
        ]
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("ops")
    repo = GitRepoBuilder(root / "repo")
    before = _ops()
    repo.commit({"README.md": "# ops\n", "src/ops/core.py": before, "src/ops/api.py": before}, "Initial")
    repo.squash_pr(
        PR,
        "Reduce with max",
        {"src/ops/core.py": _ops(body="return max(values)"), "src/ops/api.py": _ops(note=" in a list")},
    )
    return analyzed_history(repo, REPO, root / "ops.db")


def test_a_docstring_only_change_is_marked(store: Store) -> None:
    marks = {(s.path, s.name): s.docs_only for s in stored_facts(store, REPO, PR).symbols.symbols}
    assert marks == {("src/ops/core.py", "reduce"): False, ("src/ops/api.py", "gather"): True}


def test_callers_are_told_of_the_code_change_only(store: Store) -> None:
    report = report_for(store, REPO, PR, CATALOG.lang("en"), "full", None)
    users = report.risks.impact.users
    assert "`reduce`" in users  # core.py's code changed
    assert "gather" not in users  # only its docstring did
