"""Seed 002's review discussion through the bundle path: ``prdigest import`` → ``analyze`` →
``facts --json`` and ``report`` (zh and en). A code-review bot's correctness point, a resolved
design thread between maintainers and the author, a third party's upstream note, merge-bot
noise and an approval must each land where a reader expects them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import Cli, section
from tests.e2e_github.story import FEATURE, QUIET, RESTORE, REVERT, ref

GEMINI = "gemini-code-assist"
NOISE = ("mergify", "/ci run", "merge conflicts", "pre-commit checks have failed", "Code Review")


def _threads(facts: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Threads keyed by who opened them (the first quote's author)."""
    return {t["quotes"][0]["author"]: t for t in facts["discussion"]["threads"]}


def test_facts_hold_each_thread_with_its_kind_and_outcome(run_cli: Cli, bundle_db: Path) -> None:
    facts = run_cli.facts(ref(RESTORE), bundle_db)
    threads = _threads(facts)
    assert set(threads) == {GEMINI, "hana-m", "kai-cupy"}

    bot = threads[GEMINI]
    assert (bot["kind"], bot["outcome"], bot["automated"]) == ("correctness", "no-reply", True)
    assert bot["path"] == "widgets/quant/lumen.py"
    assert "NameError" in bot["quotes"][0]["text"]
    assert bot["quotes"][0]["is_bot"] is True

    design = threads["hana-m"]
    assert design["kind"] == "design"
    assert design["outcome"] in ("resolved", "answered")
    assert design["outcome"] == "resolved"  # the bundle's GraphQL thread says isResolved
    assert design["participants"] == ["hana-m", "ravi-k", "tomas-l"]
    assert "tomas-l" in [q["author"] for q in design["quotes"]]  # the author's answer is quoted

    upstream = threads["kai-cupy"]
    assert (upstream["kind"], upstream["outcome"], upstream["origin"]) == ("other", "no-reply", "conversation")
    assert "!=14.1.0" in upstream["quotes"][0]["text"]

    discussion = facts["discussion"]
    # Two mergify notices, "/ci run" and the bot's review summary: counted, never threads.
    assert discussion["bot_notice_count"] == 4
    assert discussion["approvals"] == ["ravi-k"]
    assert discussion["review_comment_count"] == 4
    for thread in discussion["threads"]:
        text = " ".join(q["text"] for q in thread["quotes"]) + thread["topic"]
        assert not any(noise in text for noise in NOISE), thread
        assert "mergify" not in thread["participants"]


def test_risk_tags_include_the_error_message_regression_and_the_unanswered_point(run_cli: Cli, bundle_db: Path) -> None:
    tags = {t["tag"]: t for t in run_cli.facts(ref(RESTORE), bundle_db)["risks"]["tags"]}
    assert "error-message-regression" in tags
    assert "assert_lumen_available" in tags["error-message-regression"]["evidence"]
    concern = tags["unresolved-review-concern"]
    assert GEMINI in concern["evidence"]
    assert "no-reply" in concern["evidence"]
    # The resolved design thread and the "other" note are not concerns.
    assert "cupy cap" not in concern["evidence"]
    assert "kai-cupy" not in concern["evidence"]


def test_references_tell_the_revert_and_restore_story(run_cli: Cli, bundle_db: Path) -> None:
    restore = {(r["number"], r["relation"]) for r in run_cli.facts(ref(RESTORE), bundle_db)["references"]["references"]}
    assert (FEATURE, "restores") in restore
    revert = run_cli.facts(ref(REVERT), bundle_db)["references"]
    assert (FEATURE, "reverts") in {(r["number"], r["relation"]) for r in revert["references"]}


def _highlights(discussion: str) -> list[str]:
    return re.findall(r"^- \*\*.+$", discussion, re.M)


def _thread_lines(discussion: str) -> list[tuple[str, str, str]]:
    """``- topic (kind): outcome`` lines (not the bold highlights)."""
    return re.findall(r"^- (?!\*\*)(.+) \((\w+)\): ([^—\n]+?)(?: — .*)?$", discussion, re.M)


ZH_OUTCOMES = {"no-reply": "无人回应", "resolved": "已达成一致"}
EN_OUTCOMES = {"no-reply": "no reply", "resolved": "resolved"}


@pytest.mark.parametrize(
    ("lang", "discussion_heading", "risks_heading", "related_heading", "outcomes", "tag_labels", "chain"),
    [
        (
            "zh",
            "评论区精华",
            "风险与影响",
            "关联脉络",
            ZH_OUTCOMES,
            ("错误检查退化", "评审疑点未解决"),
            (f"PR #{FEATURE} Add lumen quantization support（恢复）", f'PR #{REVERT} Revert "Add lumen'),
        ),
        (
            "en",
            "Discussion highlights",
            "Risks and impact",
            "Related work",
            EN_OUTCOMES,
            ("error-check regression", "unresolved review concern"),
            (f"PR #{FEATURE} Add lumen quantization support (restores)", f'PR #{REVERT} Revert "Add lumen'),
        ),
    ],
)
def test_full_report_discussion_risks_and_related(
    run_cli: Cli,
    bundle_db: Path,
    lang: str,
    discussion_heading: str,
    risks_heading: str,
    related_heading: str,
    outcomes: dict[str, str],
    tag_labels: tuple[str, str],
    chain: tuple[str, str],
) -> None:
    md = run_cli("report", ref(RESTORE), "--lang", lang, "--length", "full", "--no-llm", "--db", bundle_db).stdout
    discussion = section(md, discussion_heading)

    highlights = _highlights(discussion)
    assert len(highlights) == 3, discussion
    bot, design, upstream = highlights  # correctness first, then design, then other
    assert f"{GEMINI}" in bot
    assert "NameError" in bot
    assert "assert_lumen_available" in bot
    assert outcomes["no-reply"] in bot
    assert "hana-m" in design
    assert "tomas-l" in design
    assert "base deps" in design  # hana's question, quoted
    assert "only lmcache brings it in" in design  # the author's answer, quoted
    assert outcomes["resolved"] in design
    assert "kai-cupy" in upstream
    assert "!=14.1.0" in upstream
    assert outcomes["no-reply"] in upstream

    lines = _thread_lines(discussion)
    assert [(kind, outcome.strip()) for _, kind, outcome in lines] == [
        ("correctness", outcomes["no-reply"]),
        ("design", outcomes["resolved"]),
        ("other", outcomes["no-reply"]),
    ], discussion
    assert "assert_lumen_available" in lines[0][0]
    assert "cupy cap" in lines[1][0]

    for noise in NOISE:
        assert noise not in discussion, noise
    assert "ravi-k" in discussion.split("\n- ", 1)[0]  # the approval is in the overview
    assert re.search(r"4 (?:条机器人通知|bot notices)", discussion), discussion

    risks = section(md, risks_heading)
    # the top-level tags bullet, not the "N more in the risk tags" risk bullet
    tags_line = next(
        row for row in risks.splitlines() if row.startswith("- ") and ("风险标记" in row or "Risk tags" in row)
    )
    for label in tag_labels:
        assert label in tags_line, tags_line
    assert "assert_lumen_available" in risks

    related = section(md, related_heading)
    for fragment in chain:
        assert fragment in related, related
    if lang == "en":
        assert not re.search(r"[\u4e00-\u9fff]", md), "Chinese text in an English report"


def test_restored_feature_report_shows_the_whole_chain(run_cli: Cli, bundle_db: Path) -> None:
    zh = section(run_cli("report", ref(FEATURE), "--lang", "zh", "--no-llm", "--db", bundle_db).stdout, "关联脉络")
    assert re.search(rf"^- PR #{REVERT} .*（被回退）", zh, re.M), zh
    assert re.search(rf"^- PR #{RESTORE} Fix CuPy runtime deps and restore lumen（被恢复）", zh, re.M), zh
    en = section(run_cli("report", ref(FEATURE), "--lang", "en", "--no-llm", "--db", bundle_db).stdout, "Related work")
    assert re.search(rf"^- PR #{REVERT} .*\(reverted by\)", en, re.M), en
    assert re.search(rf"^- PR #{RESTORE} .*\(restored by\)", en, re.M), en


# lang: the discussion and risks headings, the outcome labels, the two tags of the restore
_BRIEF_WORDS = {
    "zh": ("评论区精华", "风险与影响", ZH_OUTCOMES, ("错误检查退化", "评审疑点未解决")),
    "en": (
        "Discussion highlights",
        "Risks and impact",
        EN_OUTCOMES,
        ("error-check regression", "unresolved review concern"),
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_brief_report_keeps_the_review_highlights_with_outcome_impact_and_tags(
    run_cli: Cli, bundle_db: Path, lang: str
) -> None:
    discussion_heading, risks_heading, outcomes, tag_labels = _BRIEF_WORDS[lang]
    brief = run_cli("report", ref(RESTORE), "--lang", lang, "--length", "brief", "--no-llm", "--db", bundle_db).stdout
    full = run_cli("report", ref(RESTORE), "--lang", lang, "--length", "full", "--no-llm", "--db", bundle_db).stdout
    assert "```" not in brief
    discussion = section(brief, discussion_heading)
    # The two strongest points of the full report's three, each with its outcome, and the
    # thread lines; the approval stays in the overview.
    highlights = _highlights(discussion)
    assert len(highlights) == 2, discussion
    assert outcomes["no-reply"] in highlights[0]
    assert "assert_lumen_available" in highlights[0]
    assert outcomes["resolved"] in highlights[1]
    assert [kind for _, kind, _ in _thread_lines(discussion)] == ["correctness", "design", "other"]
    assert "ravi-k" in discussion.split("\n- ", 1)[0]
    risks = section(brief, risks_heading)
    tags_line = next(
        row for row in risks.splitlines() if row.startswith("- ") and ("风险标记" in row or "Risk tags" in row)
    )
    for label in tag_labels:
        assert label in tags_line, tags_line
    impact = [row for row in risks.splitlines() if row.startswith(("- 影响", "- Impact"))]
    assert len(impact) == 1, risks  # one line, where the full report has three
    assert len(brief) < len(full)


@pytest.mark.parametrize(
    ("lang", "heading", "plain"),
    [("zh", "评论区精华", "本 PR 没有 review 评论"), ("en", "Discussion highlights", "No review comments")],
)
@pytest.mark.parametrize("length", ["full", "brief"])
def test_pr_without_review_comments_says_so(
    run_cli: Cli, bundle_db: Path, lang: str, heading: str, plain: str, length: str
) -> None:
    facts = run_cli.facts(ref(QUIET), bundle_db)
    assert facts["discussion"]["threads"] == []
    assert facts["discussion"]["approvals"] == ["hana-m"]
    md = run_cli("report", ref(QUIET), "--lang", lang, "--length", length, "--no-llm", "--db", bundle_db).stdout
    discussion = section(md, heading)
    assert plain in discussion
    assert "hana-m" in discussion  # the approval is still stated
    assert not re.findall(r"^- ", discussion, re.M), discussion  # no highlight, no thread line
