"""Dependency semantics on a real git history (tests.helpers.deps_history): removals stay
removals, scopes, downgrades, capped admission, capped additions, CI installs, build switches."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.deps_history import REPO, deps_store

from prdigest.models.facts import DependencyChange, Facts
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.store.facts_store import get_facts
from prdigest.words import CATALOG


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("deps")
    store = Store.open(f"sqlite:///{root / 'deps.db'}")
    deps_store(root / "repo", store)
    return store


def _facts(store: Store, number: int) -> Facts:
    found = get_facts(store, REPO, number)
    assert found is not None
    return found


def _change(facts: Facts, package: str) -> DependencyChange:
    found = [c for c in facts.dependencies.changes if c.package == package]
    assert len(found) == 1, facts.dependencies.changes
    return found[0]


def _templates(facts: Facts, tag: str) -> list[str]:
    return [item.template for t in facts.risks.tags if t.tag == tag for item in t.items]


def test_variant_family_collapsed_into_meta_package_is_two_removals_and_an_addition(history: Store) -> None:
    facts = _facts(history, 4)
    by_package = {c.package: c for c in facts.dependencies.changes}
    assert set(by_package) == {"nixl-cu12", "nixl-cu13", "nixl"}
    for name in ("nixl-cu12", "nixl-cu13"):
        removed = by_package[name]
        assert removed.kinds == ["removed", "replaced-by"]
        assert removed.after is None
        assert removed.replaced_by == "nixl"
        assert "variant-renamed" not in removed.kinds
    added = by_package["nixl"]
    assert added.kinds == ["added"]
    assert added.replaces == ["nixl-cu12", "nixl-cu13"]
    text = report_for(history, REPO, 4, CATALOG.lang("en"), "full", None)
    steps = " ".join(s.detail for s in text.implementation)
    assert "replaced by `nixl`" in steps
    assert "variant renamed" not in steps.lower()


def test_new_capped_requirement_is_a_version_lock(history: Store) -> None:
    facts = _facts(history, 2)
    change = _change(facts, "cupy-cuda13x")
    assert change.kinds == ["added"]
    assert change.scope == "unknown"  # a requirements file that does not say who installs it
    assert _templates(facts, "version-lock") == ["version-lock.added"]


def test_image_impact_only_when_an_image_installs_the_file(history: Store) -> None:
    # #1 changes the Dockerfile that installs kv.txt; #2 changes kv.txt alone
    assert "runtime-image-impact.installed" in _templates(_facts(history, 1), "runtime-image-impact")
    assert _templates(_facts(history, 2), "runtime-image-impact") == []


def test_capped_specifier_admits_no_later_release(history: Store) -> None:
    facts = _facts(history, 5)
    change = _change(facts, "psutil")
    assert change.scope == "runtime"
    assert change.group == "dependencies"
    assert "cap-relaxed" in change.kinds
    assert change.newly_admitted == ["5.10.0", "5.10.1"]
    assert _templates(facts, "future-version-regression-risk") == ["future-version-regression-risk.admits-up-to"]
    for lang in ("en", "zh"):
        report = report_for(history, REPO, 5, CATALOG.lang(lang), "full", None)
        evidence = " ".join(t.evidence for t in report.risks.tags)
        assert "every later release" not in evidence
        assert "及以后的所有版本" not in evidence


def test_downgrade_to_exact_pin_is_a_downgrade_not_a_practice(history: Store) -> None:
    facts = _facts(history, 6)
    change = _change(facts, "pytest")
    assert change.scope == "dev"
    assert {"pinned", "downgraded"} <= set(change.kinds)
    assert "dependency-downgrade" in {t.tag for t in facts.risks.tags}
    assert "dependency-practice" not in {r.code for r in facts.verdict.reasons}
    assert "runtime-image-impact" not in {t.tag for t in facts.risks.tags}
    assert {t.severity for t in facts.risks.tags if t.tag.startswith("dependency")} == {"low"}


def test_pip_install_in_ci_is_a_ci_tool_not_a_project_dependency(history: Store) -> None:
    facts = _facts(history, 7)
    assert {c.package: c.scope for c in facts.dependencies.changes} == {"pip": "ci", "pytest": "ci"}
    tags = {t.tag for t in facts.risks.tags}
    assert not tags & {"dependency-constraint-change", "version-lock", "missing-regression-test"}
    report = report_for(history, REPO, 7, CATALOG.lang("en"), "full", None)
    assert "What gets installed changes" not in report.risks.impact.users
    assert "not a requirement of the project" in " ".join(s.detail for s in report.implementation)


def test_another_copy_of_an_installed_requirement_is_no_change(history: Store) -> None:
    assert _facts(history, 9).dependencies.changes == []
    # the first install lies outside #11's diff hunk: the whole workflow is read
    assert _facts(history, 11).dependencies.changes == []


def test_build_switch_keeps_release_and_development_specifiers_apart(history: Store) -> None:
    facts = _facts(history, 8)
    changes = {c.condition: c for c in facts.dependencies.changes if c.package == "torch"}
    assert set(changes) == {"RELEASE", "not RELEASE"}
    release, dev = changes["RELEASE"], changes["not RELEASE"]
    assert (release.before, release.after) == ("torch==2.5.0", "torch==2.6.0")
    assert release.kinds == ["pin-changed"]
    assert (dev.before, dev.after) == ("torch>=2.5.0.dev0", "torch>=2.6.0.dev0")
    assert dev.kinds == ["floor-raised"]
    assert "2.5.0" in dev.newly_excluded  # the development build no longer takes the release
    assert {release.scope, dev.scope} == {"runtime"}
    report = report_for(history, REPO, 8, CATALOG.lang("en"), "full", None)
    steps = " ".join(s.detail for s in report.implementation)
    assert "when `RELEASE`" in steps
    assert "when `not RELEASE`" in steps


def test_setup_py_without_a_switch_is_read_too(tmp_path: Path) -> None:
    from prdigest.analyzers.dependencies.setup_py import setup_py_requirements

    found = setup_py_requirements(
        "REQS = ['numpy>=1.0', 'tqdm']\n"
        "if x.startswith('torch>=1'):\n    pass\n"
        "setup(install_requires=REQS, extras_require={'test': ['pytest>=7'], 'gpu': ['cupy']})\n"
    )
    assert found is not None
    got = {(r.requirement.normalized, r.keyword) for r in found}
    # an extra named for quality/lint/tests is development scope
    from prdigest.analyzers.dependencies.scopes import scope_of

    assert scope_of("setup", "setup.py", "extra:quality") == "dev"
    assert scope_of("setup", "setup.py", "extra:gpu") == "optional"
    assert got == {
        ("numpy>=1.0", "install_requires"),
        ("tqdm", "install_requires"),
        ("pytest>=7", "extra:test"),
        ("cupy", "extra:gpu"),
    }


def test_setup_py_lists_included_by_reference_keep_their_requirements() -> None:
    from prdigest.analyzers.dependencies.setup_py import setup_py_requirements

    found = setup_py_requirements(
        "extras = {}\n"
        'extras["tensorboard"] = ["tensorflow>=2.6.2", "tensorboard"]\n'
        'extras["test_trackers"] = extras["tensorboard"] + ["wandb"]\n'
        'BASE = ["numpy>=1"]\n'
        'setup(install_requires=BASE + ["psutil"], extras_require=extras)\n'
    )
    assert found is not None
    got = sorted((r.requirement.normalized, r.keyword) for r in found)
    assert got == [
        ("numpy>=1", "install_requires"),
        ("psutil", "install_requires"),
        ("tensorboard", "extra:tensorboard"),
        ("tensorboard", "extra:test_trackers"),
        ("tensorflow>=2.6.2", "extra:tensorboard"),
        ("tensorflow>=2.6.2", "extra:test_trackers"),
        ("wandb", "extra:test_trackers"),
    ]
