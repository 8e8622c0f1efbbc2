"""Moved dependency declarations on a real git history (tests.helpers.moves_history): the
dependencies analyzer marks each move once (`moved_from`, `moved_changed`), and the risk rule,
the narrator and the report's dependency history read that mark."""

from __future__ import annotations

import pytest
from tests.helpers.moves_history import REPO, moves_store
from tests.helpers.one_line import facts_clause

from prdigest.models.facts import DependencyChange, Facts
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.store.facts_store import get_facts
from prdigest.words import CATALOG


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("moves")
    return moves_store(root / "repo", Store.open(f"sqlite:///{root / 'moves.db'}"))


def _facts(store: Store, number: int) -> Facts:
    found = get_facts(store, REPO, number)
    assert found is not None
    return found


def _added(facts: Facts, package: str) -> DependencyChange:
    found = [c for c in facts.dependencies.changes if c.package == package and c.after is not None]
    assert len(found) == 1, facts.dependencies.changes
    return found[0]


def _locks(facts: Facts) -> list[str]:
    return [t.evidence for t in facts.risks.tags if t.tag == "version-lock"]


def _steps(store: Store, number: int, lang: str = "en") -> str:
    report = report_for(store, REPO, number, CATALOG.lang(lang), "full", None)
    return " ".join(f"{s.title}: {s.detail}" for s in report.implementation)


def test_setup_py_folded_into_pyproject_is_marked_as_moved_and_brings_no_new_lock(history: Store) -> None:
    facts = _facts(history, 1)
    for package in ("click", "attrs"):
        change = _added(facts, package)
        assert (change.moved_from, change.moved_changed) == (["setup.py"], False)
    rich = _added(facts, "rich")
    assert rich.moved_from == []  # new in this PR
    assert _locks(facts) == []  # attrs<24 was already capped in setup.py
    steps = _steps(history, 1)
    assert "`click`, `attrs` removed from `setup.py` and installed in `pyproject.toml` instead" in steps, steps
    assert "Add rich" in steps


def test_a_pin_changed_on_the_way_is_marked_locked_and_told(history: Store) -> None:
    facts = _facts(history, 2)
    sphinx, furo = _added(facts, "sphinx"), _added(facts, "furo")
    assert (sphinx.moved_from, sphinx.moved_changed) == (["requirements-docs.txt"], True)
    assert (furo.moved_from, furo.moved_changed) == (["requirements-docs.txt"], False)
    assert _locks(facts) == ["pyproject.toml: sphinx (none) → ==7.3.7"]
    steps = _steps(history, 2)
    assert "`==7.2.6` → `==7.3.7` on the way" in steps, steps
    assert "版本由 `==7.2.6` 改为 `==7.3.7`" in _steps(history, 2, "zh")
    report = report_for(history, REPO, 2, CATALOG.lang("en"), "full", None)
    moved = [item for item in report.dependency_history if item.package == "sphinx" and item.after]
    assert [item.moved_from for item in moved] == [["requirements-docs.txt"]]
    assert "moved here from `requirements-docs.txt`" in moved[0].text


def test_a_development_package_made_a_requirement_is_new_to_users_not_moved(history: Store) -> None:
    facts = _facts(history, 3)
    assert _added(facts, "hypothesis").moved_from == []
    assert _locks(facts) == ["pyproject.toml: hypothesis (none) → <7"]
    steps = _steps(history, 3)
    assert "Add hypothesis" in steps, steps
    assert "Move" not in steps, steps


def test_a_ci_install_moved_into_a_dependency_group_is_one_move(history: Store) -> None:
    facts = _facts(history, 4)
    tox = _added(facts, "tox")
    # both workflows' installs moved: as likely, with the same versions
    assert (tox.moved_from, tox.moved_changed) == ([".github/workflows/lint.yml", ".github/workflows/tests.yml"], True)
    steps = _steps(history, 4)
    assert "Move tox" in steps, steps
    assert (
        "`tox` removed from `.github/workflows/lint.yml`, `.github/workflows/tests.yml`"
        " and installed in `pyproject.toml` instead; `any version` → `>=4` on the way" in steps
    ), steps
    report = report_for(history, REPO, 4, CATALOG.lang("en"), "full", None)
    assert facts_clause(report.summary.one_line).startswith(
        "Moves the dependency `tox` from `.github/workflows/lint.yml`, `.github/workflows/tests.yml`"
        " to `pyproject.toml`"
    ), report.summary.one_line
