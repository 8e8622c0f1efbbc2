"""GitHub bundles (docs/bundle-format.md) whose data is partial or awkward: a PR whose file list
is missing or cut, review suggestions, a reviewer's repeated body, HTML in bodies. Each is
imported, analyzed and reported through the CLI in both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import Cli, section

REPO = "acme/gaps"
MISSING, TRUNCATED, TALK, COMPLETE = 11, 12, 13, 14
USER = {"login": "ravi-k", "type": "User"}


def _user(login: str) -> dict[str, str]:
    return {"login": login, "type": "User"}


def _bundle(
    number: int, title: str, body: str, files: list[dict[str, Any]], changed: int, **extra: Any
) -> dict[str, Any]:
    sha = f"{number:040d}"
    return {
        "format_version": 1,
        "repository": REPO,
        "source": "github",
        "pull": {
            "number": number,
            "title": title,
            "body": body,
            "state": "closed",
            "user": USER,
            "created_at": "2026-05-01T09:00:00Z",
            "updated_at": "2026-05-01T11:00:00Z",
            "closed_at": "2026-05-01T10:59:00Z",
            "merged_at": "2026-05-01T10:59:00Z",
            "html_url": f"https://github.com/{REPO}/pull/{number}",
            "merge_commit_sha": sha,
            "base": {"ref": "main", "sha": "e" * 40, "repo": {"full_name": REPO}},
            "head": {"ref": f"ravi-k/{number}", "sha": sha},
            "additions": 120,
            "deletions": 30,
            "changed_files": changed,
        },
        "files": files,
        "commits": [],
        "reviews": extra.get("reviews", []),
        "review_comments": extra.get("review_comments", []),
        "issue_comments": extra.get("issue_comments", []),
    }


def _source_file(path: str) -> dict[str, Any]:
    patch = "@@ -1,2 +1,2 @@\n def run():\n-    return 1\n+    return 2\n"
    return {"filename": path, "status": "modified", "additions": 1, "deletions": 1, "changes": 2, "patch": patch}


SUGGESTION = "```suggestion\n        self.budget = max(budget, 0)\n```"
REPEATED = "Please add a regression test for the negative budget; it crashes without the clamp."


@pytest.fixture(scope="module")
def bundle_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("gap_bundles")
    bundles = [
        _bundle(MISSING, "Rework the scheduler", "Moves the budget logic into the scheduler.", [], 3),
        _bundle(TRUNCATED, "Vendor a huge tree", "Imports the generated tables.", [_source_file("src/a.py")], 3500),
        _bundle(
            TALK,
            "Clamp the budget",
            'See <a href="https://example.com/x?a=1&amp;b=2">the design notes</a> &amp; the R&amp;D log; '
            "this fixes the crash.",
            [_source_file("src/engine.py")],
            1,
            review_comments=[
                {
                    "id": 1,
                    "user": _user("hana-m"),
                    "body": SUGGESTION,
                    "path": "src/engine.py",
                    "line": 2,
                    "diff_hunk": "@@ -1,2 +1,2 @@",
                    "created_at": "2026-05-01T10:00:00Z",
                },
                {
                    "id": 2,
                    "user": _user("hana-m"),
                    "body": "```suggestion\n```",
                    "path": "src/engine.py",
                    "line": 1,
                    "diff_hunk": "@@ -1,2 +1,2 @@",
                    "created_at": "2026-05-01T10:01:00Z",
                },
            ],
            reviews=[
                {
                    "id": 10 + i,
                    "user": _user("tomas-l"),
                    "body": REPEATED,
                    "state": "COMMENTED",
                    "submitted_at": f"2026-05-01T10:1{i}:00Z",
                }
                for i in range(4)
            ],
        ),
        _bundle(COMPLETE, "Tidy", "Small tidy-up.", [_source_file("src/tidy.py")], 1),
    ]
    paths = []
    for bundle in bundles:
        path = root / f"{REPO.replace('/', '__')}__{bundle['pull']['number']}.json"
        path.write_text(json.dumps(bundle), encoding="utf-8")
        paths.append(path)
    db = root / "bundles.db"
    run_cli("import", *paths, "--db", db)
    run_cli("analyze", "--db", db)
    return db


def _md(run_cli: Cli, number: int, db: Path, lang: str, length: str = "full") -> str:
    return str(run_cli("report", f"{REPO}#{number}", "--lang", lang, "--length", length, "--no-llm", "--db", db).stdout)


# --- missing or cut file lists ----------------------------------------------------------------------


def test_a_missing_file_list_is_recorded_as_unknown(run_cli: Cli, bundle_db: Path) -> None:
    facts = run_cli.facts(f"{REPO}#{MISSING}", bundle_db)
    coverage = facts["coverage"]
    assert (coverage["file_list"], coverage["files_listed"], coverage["files_expected"]) == ("unknown", 0, 3)
    assert coverage["gaps"] == ["file-list-missing"]
    assert coverage["review_data"] is True  # GitHub holds review data: none here means none
    assert facts["tests_ci"]["missing_tests"] is False
    assert "incomplete-data" in {r["code"] for r in facts["verdict"]["reasons"]}

    truncated = run_cli.facts(f"{REPO}#{TRUNCATED}", bundle_db)["coverage"]
    assert (truncated["file_list"], truncated["files_listed"], truncated["files_expected"]) == ("partial", 1, 3500)
    assert truncated["gaps"] == ["file-list-truncated"]
    assert run_cli.facts(f"{REPO}#{COMPLETE}", bundle_db)["coverage"]["file_list"] == "complete"


_EN_CLAIMS = (
    "No test file changed",
    "No direct effect on users",
    "The analyzers found no specific risk",
    "the only changed file",
)
_ZH_CLAIMS = ("没有测试文件随之修改", "对用户无直接影响", "分析器未发现具体风险", "唯一变更文件")


@pytest.mark.parametrize("number", [MISSING, TRUNCATED])
@pytest.mark.parametrize("length", ["full", "brief"])
def test_no_claim_rests_on_a_missing_or_cut_file_list(run_cli: Cli, bundle_db: Path, number: int, length: str) -> None:
    en = _md(run_cli, number, bundle_db, "en", length)
    for claim in _EN_CLAIMS:
        assert claim not in en, claim
    assert "The file list is " in en.split("# Executive summary")[0]
    assert "no risk finding can rest on it" in section(en, "Risks and impact")
    zh = _md(run_cli, number, bundle_db, "zh", length)
    for claim in _ZH_CLAIMS:
        assert claim not in zh, claim
    assert "文件列表" in zh.split("# 执行摘要")[0]
    assert "风险判断无法以其为依据" in zh
    data = run_cli.report_json(f"{REPO}#{number}", bundle_db, "--lang", "en", "--length", length)
    assert data["coverage"]["file_list"] in ("unknown", "partial")
    assert data["coverage"]["notes"]


def test_the_missing_list_is_said_with_its_numbers(run_cli: Cli, bundle_db: Path) -> None:
    assert "the source says 3 files changed but listed none" in _md(run_cli, MISSING, bundle_db, "en")
    assert "数据源称改动了 3 个文件，却一个也未列出" in _md(run_cli, MISSING, bundle_db, "zh")
    assert "the source listed 1 of 3500 files" in _md(run_cli, TRUNCATED, bundle_db, "en")
    assert "3500 个文件中的 1 个" in _md(run_cli, TRUNCATED, bundle_db, "zh")


def test_a_complete_github_pr_still_says_no_review_comments(run_cli: Cli, bundle_db: Path) -> None:
    # GitHub was asked: there the absence is a fact, and said.
    assert "No review comments" in _md(run_cli, COMPLETE, bundle_db, "en")
    assert "本 PR 没有 review 评论" in _md(run_cli, COMPLETE, bundle_db, "zh")
    assert "Data gaps" not in _md(run_cli, COMPLETE, bundle_db, "en")


def test_the_feed_says_which_verdicts_rest_on_a_partial_file_list(run_cli: Cli, bundle_db: Path) -> None:
    for lang, phrase in (("en", "listed none of its 3 changed files"), ("zh", "数据源未列出其改动的 3 个文件")):
        feed = json.loads(
            run_cli("feed", REPO, "--lang", lang, "--format", "json", "--no-llm", "--db", bundle_db).stdout
        )
        items = {item["number"]: item for item in feed["items"]}
        assert phrase in items[MISSING]["paragraph"]
        assert items[MISSING]["gaps"]
        assert items[COMPLETE]["gaps"] == []


# --- suggestions, repeated reviews, HTML --------------------------------------------------------------


def test_suggestions_are_kept_as_the_change_they_propose(run_cli: Cli, bundle_db: Path) -> None:
    threads = run_cli.facts(f"{REPO}#{TALK}", bundle_db)["discussion"]["threads"]
    suggestions = [t for t in threads if t["suggestion"] is not None]
    assert [t["suggestion"] for t in suggestions] == ["        self.budget = max(budget, 0)", ""]
    assert all(t["topic"] != "(empty)" for t in threads)

    en = _md(run_cli, TALK, bundle_db, "en")
    assert "(empty)" not in en
    assert "hana-m suggests `self.budget = max(budget, 0)`" in en
    assert "suggested change `self.budget = max(budget, 0)`" in en
    assert "hana-m suggests deleting the commented lines" in en
    zh = _md(run_cli, TALK, bundle_db, "zh")
    assert "(empty)" not in zh
    assert "hana-m 建议改为 `self.budget = max(budget, 0)`" in zh
    assert "hana-m 建议删除被评论的这几行" in zh


def test_a_reviewers_repeated_body_counts_once(run_cli: Cli, bundle_db: Path) -> None:
    threads = run_cli.facts(f"{REPO}#{TALK}", bundle_db)["discussion"]["threads"]
    repeated = [t for t in threads if t["origin"] == "review"]
    assert len(repeated) == 1
    assert repeated[0]["participants"] == ["tomas-l"]


def test_html_and_entities_never_reach_quotes(run_cli: Cli, bundle_db: Path) -> None:
    for lang in ("en", "zh"):
        for length in ("full", "brief"):
            text = _md(run_cli, TALK, bundle_db, lang, length)
            assert "<a href" not in text, text
            assert "&amp;" not in text, text
            page = str(
                run_cli(
                    "report", f"{REPO}#{TALK}", "--lang", lang, "--format", "html", "--no-llm", "--db", bundle_db
                ).stdout
            )
            assert "&amp;amp;" not in page
            assert "&lt;a href" not in page
    assert "the design notes & the R&D log" in _md(run_cli, TALK, bundle_db, "en")
