"""Seed 000: a CuPy cap ``<14.1.0`` relaxed to the exact exclusion ``!=14.1.0`` once the
fixed 14.1.1 shipped, on a real git history, through the CLI."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli, section
from tests.e2e.repos import KV_REQS_PATH, RELAX_PR, RESTORE_PR, STORY_REPO

RELAX = f"{STORY_REPO}#{RELAX_PR}"
RESTORE = f"{STORY_REPO}#{RESTORE_PR}"


def test_facts_name_the_cap_to_exclusion_change(run_cli: Cli, story_db: Path) -> None:
    facts = run_cli.facts(RELAX, story_db)
    changes = facts["dependencies"]["changes"]
    assert [(c["path"], c["package"]) for c in changes] == [(KV_REQS_PATH, "cupy-cuda13x")]
    cupy = changes[0]
    assert cupy["kinds"] == ["cap-to-exclusion"]
    assert cupy["before"].replace(" ", "") == "cupy-cuda13x<14.1.0"
    assert cupy["after"].replace(" ", "") == "cupy-cuda13x!=14.1.0"
    # 14.1.1 is named in the body as the fix; 14.1.0 stays excluded; 14.0.1 was already allowed.
    assert "14.1.1" in cupy["newly_admitted"]
    assert "14.1.0" not in cupy["newly_admitted"]
    assert "14.0.1" not in cupy["newly_admitted"]
    tags = {tag["tag"] for tag in facts["risks"]["tags"]}
    # One change, one tag: what it admits; no constraint-change tag beside it, no test owed.
    assert "future-version-regression-risk" in tags
    assert not tags & {"dependency-constraint-change", "missing-regression-test"}
    assert facts["symbols"]["symbols"] == []
    assert facts["files"]["total_files"] == 1


def test_brief_zh_report_says_unidentified_and_invents_no_review(run_cli: Cli, story_db: Path) -> None:
    brief = run_cli("report", RELAX, "--lang", "zh", "--length", "brief", "--no-llm", "--db", story_db).stdout
    assert brief.startswith(f"# PR #{RELAX_PR} 简要报告\n")
    assert "```" not in brief
    # The brief keeps the discussion section: nothing was said in review, and it says so.
    brief_discussion = section(brief, "评论区精华")
    assert "没有" in brief_discussion
    assert "@" not in brief_discussion
    assert "关键符号：未识别" in brief
    assert "!=14.1.0" in brief
    assert "风险" in section(brief, "风险与影响")
    md = run_cli("report", RELAX, "--lang", "zh", "--no-llm", "--db", story_db).stdout
    assert "关键符号：未识别" in md
    discussion = section(md, "评论区精华")
    # Nothing was said in review: the report says so and quotes nobody.
    assert "没有" in discussion
    assert "@" not in discussion
    assert "「" not in discussion
    assert "!=14.1.0" in md
    assert "<14.1.0" in md
    risks = section(md, "风险与影响")
    assert "风险标记" in risks


def test_related_work_goes_both_ways(run_cli: Cli, story_db: Path) -> None:
    relax = run_cli.report_json(RELAX, story_db, "--length", "brief")
    outgoing = {(note["number"], note["relation"]) for note in relax["related"]}
    # The body names the restore, whose change the ledger shows as the one before: a follow-up.
    assert (RESTORE_PR, "follow-up-to") in outgoing
    assert all(note["number"] != RELAX_PR for note in relax["related"])

    restore = run_cli.report_json(RESTORE, story_db)
    incoming = {note["number"]: note for note in restore["related"]}
    assert incoming[RELAX_PR]["relation"] == "followed-up-by"
    assert incoming[RELAX_PR]["title"] == "Relax the CuPy pin to exclude only 14.1.0"

    md = run_cli("report", RESTORE, "--lang", "zh", "--no-llm", "--db", story_db).stdout
    assert f"PR #{RELAX_PR} Relax the CuPy pin" in section(md, "关联脉络")
