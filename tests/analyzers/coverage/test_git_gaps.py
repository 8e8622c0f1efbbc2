"""What a git history cannot tell, said in every document: review data (git holds none), the
PR at a shallow clone's cut (its files are unknown), deleted tests (not tests that came with
the change), and examples, setup.py and CI definitions classified as what they are."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tests.e2e.driver import Cli, section
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/gaps"
DELETED_TESTS, EXAMPLES, SETUP, JENKINS = 2, 3, 4, 5
SHALLOW_REPO = "example-org/shallow"


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit(
        {
            "README.md": "# gaps\n",
            "src/gaps/core.py": "def run():\n    return 1\n",
            "tests/test_old.py": "def test_old():\n    assert True\n",
            "setup.py": "from setuptools import setup\nsetup(name='gaps')\n",
        },
        "Initial commit",
    )
    repo.squash_pr(
        DELETED_TESTS,
        "Rework the runner",
        {"src/gaps/core.py": "def run():\n    return 2\n", "tests/test_old.py": None},
        body="The runner returns 2 now; the old test no longer applies.",
    )
    repo.squash_pr(
        EXAMPLES,
        "Add a usage example",
        {"examples/quickstart/run.py": "from gaps.core import run\nprint(run())\n", "demo/app.py": "x = 1\n"},
        body="Shows how to call run().",
    )
    repo.squash_pr(
        SETUP,
        "Package metadata",
        {"setup.py": "from setuptools import setup\nsetup(name='gaps', version='1.0')\n"},
        body="Set the version.",
    )
    repo.squash_pr(JENKINS, "Build on Jenkins", {"Jenkinsfile": "pipeline {\n  agent any\n}\n"}, body="CI on Jenkins.")
    repo.set_origin(f"https://github.com/{REPO}.git")
    return repo


@pytest.fixture(scope="module")
def gaps_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("gaps")
    repo = _history(root / "repo")
    db = root / "gaps.db"
    run_cli("sync", "git", repo.path, "--db", db)
    run_cli("analyze", "--db", db)
    return db


def _report(run_cli: Cli, number: int, db: Path, lang: str, fmt: str = "md", length: str = "full") -> str:
    args = ("report", f"{REPO}#{number}", "--lang", lang, "--format", fmt, "--length", length, "--no-llm", "--db", db)
    return str(run_cli(*args).stdout)


# --- review data ---------------------------------------------------------------------------------


def test_git_facts_record_that_review_data_is_not_available(run_cli: Cli, gaps_db: Path) -> None:
    coverage = run_cli.facts(f"{REPO}#{DELETED_TESTS}", gaps_db)["coverage"]
    assert coverage["review_data"] is False
    assert coverage["file_list"] == "complete"


@pytest.mark.parametrize("length", ["full", "brief"])
def test_git_reports_never_say_no_review_comments(run_cli: Cli, gaps_db: Path, length: str) -> None:
    en = _report(run_cli, DELETED_TESTS, gaps_db, "en", length=length)
    zh = _report(run_cli, DELETED_TESTS, gaps_db, "zh", length=length)
    assert "No review comments" not in en
    assert "no substantive discussion thread" not in en
    assert "没有 review 评论" not in zh
    assert "暂无高价值评论线程" not in zh
    # The brief says nothing about reviews, so it states no review gap either; the full report
    # states it in its discussion and up front, before any claim.
    if length == "full":
        assert "Review data is not available from this source" in section(en, "Discussion highlights")
        assert "该数据源不提供评审数据" in section(zh, "评论区精华")
        assert "Review data is not available from this source" in en.split("# Executive summary")[0]
        assert "该数据源不提供评审数据" in zh.split("# 执行摘要")[0]
        # The gap is stated up front too, before any claim.
        assert "Data gaps" in en.split("# Executive summary")[0]
        assert "数据缺口" in zh.split("# 执行摘要")[0]


def test_git_json_and_html_reports_say_review_data_is_unavailable(run_cli: Cli, gaps_db: Path) -> None:
    for lang, phrase in (("en", "Review data is not available"), ("zh", "该数据源不提供评审数据")):
        data = json.loads(_report(run_cli, DELETED_TESTS, gaps_db, lang, "json"))
        assert data["coverage"]["review_data"] is False
        assert "review-data-unavailable" in data["coverage"]["gaps"]
        assert data["discussion"]["review_data"] is False
        assert phrase in data["discussion"]["overview"]
        assert any(phrase in note for note in data["coverage"]["notes"])
        page = _report(run_cli, DELETED_TESTS, gaps_db, lang, "html")
        assert phrase in page
        assert "No review comments" not in page
        assert "没有 review 评论" not in page


def test_git_feed_items_carry_the_review_data_gap(run_cli: Cli, gaps_db: Path) -> None:
    for lang, phrase in (("en", "Review data is not available"), ("zh", "该数据源不提供评审数据")):
        feed = json.loads(run_cli("feed", REPO, "--lang", lang, "--format", "json", "--no-llm", "--db", gaps_db).stdout)
        assert feed["items"]
        for item in feed["items"]:
            assert any(phrase in gap for gap in item["gaps"])


# --- deleted tests --------------------------------------------------------------------------------


def test_a_deleted_test_is_not_a_test_that_came_with_the_change(run_cli: Cli, gaps_db: Path) -> None:
    facts = run_cli.facts(f"{REPO}#{DELETED_TESTS}", gaps_db)
    tests = facts["tests_ci"]
    assert tests["test_files"] == []
    assert tests["removed_test_files"] == ["tests/test_old.py"]
    assert tests["tests_changed"] is False
    assert tests["missing_tests"] is True  # source changed, no test added or updated
    assert "test-pattern" not in {r["code"] for r in facts["verdict"]["reasons"]}

    en = _report(run_cli, DELETED_TESTS, gaps_db, "en")
    assert "Tests changed with the code" not in en
    assert "Tests changed:" not in en
    assert "Test files deleted: `tests/test_old.py`" in en
    assert "Test files were deleted (`tests/test_old.py`) and no test was added or updated" in en
    zh = _report(run_cli, DELETED_TESTS, gaps_db, "zh")
    assert "测试随改动同步更新" not in zh
    assert "删除的测试文件：`tests/test_old.py`" in zh
    assert "删除了测试文件（`tests/test_old.py`），且没有新增或更新任何测试" in zh


# --- file categories ------------------------------------------------------------------------------


def _files(run_cli: Cli, number: int, db: Path) -> dict[str, dict[str, str]]:
    return {f["path"]: f for f in run_cli.facts(f"{REPO}#{number}", db)["files"]["files"]}


def test_examples_setup_py_and_jenkinsfile_are_what_they_are(run_cli: Cli, gaps_db: Path) -> None:
    examples = _files(run_cli, EXAMPLES, gaps_db)
    for path in ("examples/quickstart/run.py", "demo/app.py"):
        assert (examples[path]["category"], examples[path]["type"]) == ("example", "example")
    facts = run_cli.facts(f"{REPO}#{EXAMPLES}", gaps_db)
    assert facts["tests_ci"]["source_changed"] is False
    assert facts["tests_ci"]["missing_tests"] is False  # an example needs no regression test

    setup = _files(run_cli, SETUP, gaps_db)["setup.py"]
    assert (setup["category"], setup["type"], setup["module"]) == ("config", "configuration", "build config")

    jenkins = run_cli.facts(f"{REPO}#{JENKINS}", gaps_db)
    [jenkinsfile] = jenkins["files"]["files"]
    assert (jenkinsfile["category"], jenkinsfile["module"]) == ("config", "CI config")
    assert jenkins["tests_ci"]["ci_files"] == ["Jenkinsfile"]
    assert jenkins["tests_ci"]["ci_only"] is True

    en = _report(run_cli, EXAMPLES, gaps_db, "en")
    assert "Update examples" in en
    assert "core-logic" not in en
    assert "更新示例" in _report(run_cli, EXAMPLES, gaps_db, "zh")
    assert "Update CI configuration" in _report(run_cli, JENKINS, gaps_db, "en")


# --- shallow clone --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shallow_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("shallow")
    repo = GitRepoBuilder(root / "source")
    files = {f"src/pkg/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(8)}
    repo.commit({"README.md": "# demo\n", **files}, "Initial commit")
    repo.squash_pr(1, "First change", {"src/pkg/m1.py": "def f1():\n    return 10\n"}, body="Tweak f1.")
    repo.merge_pr(
        2,
        "alice/feature",
        "Add a feature",
        {"src/pkg/feature.py": "def feature():\n    return 1\n"},
        body="Root cause: traced with a bisect; 40% faster.",
    )
    repo.squash_pr(3, "Latest change", {"src/pkg/m2.py": "def f2():\n    return 20\n"}, body="Tweak f2.")
    clone = root / "clone"
    subprocess.run(["git", "clone", "--quiet", "--depth=2", f"file://{repo.path}", str(clone)], check=True)
    subprocess.run(
        ["git", "-C", str(clone), "remote", "set-url", "origin", f"git@github.com:{SHALLOW_REPO}.git"], check=True
    )
    db = root / "shallow.db"
    run_cli("sync", "git", clone, "--db", db)
    run_cli("analyze", "--db", db)
    return db


def test_the_pr_at_a_shallow_cut_is_recorded_as_unknown_not_empty(run_cli: Cli, shallow_db: Path) -> None:
    facts = run_cli.facts(f"{SHALLOW_REPO}#2", shallow_db)
    assert facts["coverage"]["file_list"] == "unknown"
    assert "shallow-clone-boundary" in facts["coverage"]["gaps"]
    assert facts["files"]["files"] == []
    assert facts["tests_ci"]["missing_tests"] is False
    assert facts["tests_ci"]["files_known"] is False
    codes = {r["code"] for r in facts["verdict"]["reasons"]}
    assert "incomplete-data" in codes
    assert not codes & {"trivial-size", "docs-only", "bump-only", "size"}
    assert facts["verdict"]["level"] != "read-in-depth" or "incomplete-data" in codes
    assert "missing-regression-test" not in {t["tag"] for t in facts["risks"]["tags"]}
    # The PR after it is complete.
    assert run_cli.facts(f"{SHALLOW_REPO}#3", shallow_db)["coverage"]["file_list"] == "complete"


@pytest.mark.parametrize("length", ["full", "brief"])
def test_reports_of_the_shallow_pr_say_the_file_list_is_unavailable(
    run_cli: Cli, shallow_db: Path, length: str
) -> None:
    ref = f"{SHALLOW_REPO}#2"
    base = ("report", ref, "--length", length, "--no-llm", "--db", shallow_db)
    en = str(run_cli(*base, "--lang", "en").stdout)
    assert "The file list is not available" in en
    assert "shallow clone" in en
    for claim in (
        "No test file changed",
        "No direct effect on users",
        "The analyzers found no specific risk",
        "no file changes recorded",
        "the change is tiny",
    ):
        assert claim not in en, claim
    heading = "Risks and impact"
    assert "The file list is incomplete, so no risk finding can rest on it" in section(en, heading)
    assert "the effect on users cannot be told" in en  # the brief's one impact line too
    zh = str(run_cli(*base, "--lang", "zh").stdout)
    assert "文件列表不可得" in zh
    for claim in ("没有测试文件随之修改", "对用户无直接影响", "分析器未发现具体风险", "未记录文件改动", "改动极小"):
        assert claim not in zh, claim
    assert "文件列表不完整，风险判断无法以其为依据" in zh

    data = run_cli.report_json(ref, shallow_db, "--lang", "en", "--length", length)
    assert data["coverage"]["file_list"] == "unknown"
    assert "shallow-clone-boundary" in data["coverage"]["gaps"]
    html = str(run_cli(*base, "--lang", "zh", "--format", "html").stdout)
    assert "文件列表不可得" in html


def test_the_feed_says_the_shallow_pr_verdict_rests_on_its_words_alone(run_cli: Cli, shallow_db: Path) -> None:
    for lang, phrase in (("en", "file list is not available"), ("zh", "文件列表不可得")):
        for fmt in ("md", "json", "html", "atom"):
            out = str(
                run_cli("feed", SHALLOW_REPO, "--lang", lang, "--format", fmt, "--no-llm", "--db", shallow_db).stdout
            )
            assert phrase in out, (lang, fmt)
