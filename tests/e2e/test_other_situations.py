"""Seed 004 and the other situations of the seeds: a shell script that trusts
``torch.version.cuda``, a variant rename to one package, a CI-only change, and source
changes with and without tests."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli
from tests.e2e.repos import (
    CI_PATH,
    CI_PR,
    CI_STEP_LABEL,
    NIXL_PR,
    SHELL_PATH,
    SHELL_PR,
    STORY_REPO,
    WITH_TESTS_PR,
    WITHOUT_TESTS_PR,
)


def test_shell_script_assuming_torch_cuda_is_tagged(run_cli: Cli, story_db: Path) -> None:
    facts = run_cli.facts(f"{STORY_REPO}#{SHELL_PR}", story_db)
    tags = {tag["tag"]: tag for tag in facts["risks"]["tags"]}
    assert "platform-detection-assumption" in tags
    assert SHELL_PATH in tags["platform-detection-assumption"]["evidence"]
    assert "torch.version.cuda" in tags["platform-detection-assumption"]["evidence"]
    assert facts["symbols"]["symbols"] == []
    [script] = facts["files"]["files"]
    assert script["path"] == SHELL_PATH
    assert script["category"] != "source"

    md = run_cli("report", f"{STORY_REPO}#{SHELL_PR}", "--length", "full", "--no-llm", "--db", story_db).stdout
    assert "关键符号：未识别" in md
    assert "平台检测假设" in md


def test_variant_packages_replaced_by_one(run_cli: Cli, story_db: Path) -> None:
    facts = run_cli.facts(f"{STORY_REPO}#{NIXL_PR}", story_db)
    changes = {(c["path"].rsplit("/", 1)[-1], c["package"]): c for c in facts["dependencies"]["changes"]}
    # each file: the variant removed (replaced by nixl), nixl added in its place
    assert set(changes) == {
        ("kv_connectors.txt", "nixl-cu13"),
        ("kv_connectors.txt", "nixl"),
        ("cuda12.txt", "nixl-cu12"),
        ("cuda12.txt", "nixl"),
    }
    for file, variant in (("kv_connectors.txt", "nixl-cu13"), ("cuda12.txt", "nixl-cu12")):
        removed = changes[(file, variant)]
        assert removed["kinds"] == ["removed", "replaced-by"]
        assert removed["after"] is None
        assert removed["replaced_by"] == "nixl"
        added = changes[(file, "nixl")]
        assert added["kinds"] == ["added"]
        assert added["after"].replace(" ", "") == "nixl>=1.1.0"
        assert added["replaces"] == [variant]
    # each change raises at most one dependency tag, the most specific its kinds support
    per_change = [tag for tag in facts["risks"]["tags"] if tag["tag"].startswith("dependency-")]
    assert len({tag["tag"] for tag in per_change}) <= 1


def test_ci_only_change_names_its_step(run_cli: Cli, story_db: Path) -> None:
    tests_ci = run_cli.facts(f"{STORY_REPO}#{CI_PR}", story_db)["tests_ci"]
    assert tests_ci["ci_only"] is True
    assert tests_ci["ci_files"] == [CI_PATH]
    assert CI_STEP_LABEL in tests_ci["ci_jobs"]
    assert "Engine Unit Tests" not in tests_ci["ci_jobs"]  # untouched step
    assert tests_ci["missing_tests"] is False


def test_tests_present_and_missing(run_cli: Cli, story_db: Path) -> None:
    with_tests = run_cli.facts(f"{STORY_REPO}#{WITH_TESTS_PR}", story_db)
    assert with_tests["tests_ci"]["tests_changed"] is True
    assert with_tests["tests_ci"]["test_files"] == ["tests/test_engine.py"]
    assert with_tests["tests_ci"]["missing_tests"] is False
    assert "missing-regression-test" not in {tag["tag"] for tag in with_tests["risks"]["tags"]}

    without = run_cli.facts(f"{STORY_REPO}#{WITHOUT_TESTS_PR}", story_db)
    assert without["tests_ci"]["source_changed"] is True
    assert without["tests_ci"]["missing_tests"] is True
    assert "missing-regression-test" in {tag["tag"] for tag in without["risks"]["tags"]}
    assert [s["name"] for s in without["symbols"]["symbols"]] == ["Scheduler.__init__"]
