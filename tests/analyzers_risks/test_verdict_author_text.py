"""The verdict reads the author's own words: a bot's summary in the body is not evidence."""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import Comment, FileChange, FileStatus, PullRequest

CODERABBIT = (
    "<!-- This is an auto-generated comment: release notes by coderabbit.ai\n-->\n"
    "## Summary by CodeRabbit\n\n"
    "* **Bug Fixes**\n"
    "* Restored valid execution tactics after the crash was traced and reproduced.\n"
    "* Improved handling of workloads; latency down 30%.\n\n"
    "<!-- end of auto-generated comment: release notes by coderabbit.ai -->"
)


def _facts(body: str, comments: list[Comment] | None = None) -> Facts:
    pr = PullRequest(
        repository="o/r",
        number=4041,
        title='Revert "Add MoE tactic pruning"',
        author="alice",
        body=body,
        files=[FileChange(path="src/pkg/moe.py", status=FileStatus.MODIFIED, additions=3, deletions=40)],
        comments=comments or [],
    )
    return run_all(pr, default_registry(), AnalysisContext(rules={}))


def _reason_codes(facts: Facts) -> set[str]:
    return {r.code for r in facts.verdict.reasons}


def test_a_bot_summary_is_no_revert_cause_and_no_debugging_method() -> None:
    facts = _facts(f"Reverts o/r#3837\n\nSee https://github.com/o/r/pull/3837#issuecomment-1\n\n{CODERABBIT}")
    lineage = next(r for r in facts.verdict.reasons if r.code == "lineage")
    # no cause in the author's words: a plain revert, nothing quoted
    assert [i.template for i in lineage.items] == ["lineage.reverts"]
    assert "Bug Fixes" not in lineage.detail
    assert "debugging-method" not in _reason_codes(facts)
    assert "hot-path" not in _reason_codes(facts)


def test_the_authors_cause_is_quoted_without_markup() -> None:
    body = (
        "Reverts o/r#3837\n\n"
        "* **Why:** the new tactic *crashes* on SM90 with an illegal memory access, traced with "
        "compute-sanitizer and reproduced on two nodes.\n\n"
        f"{CODERABBIT}\n\nThanks to Bob for the stack trace."
    )
    facts = _facts(body)
    lineage = next(r for r in facts.verdict.reasons if r.code == "lineage")
    cause = str(lineage.items[0].params["cause"])
    assert lineage.items[0].template == "lineage.reverts-with-cause"
    assert cause.startswith("Why: the new tactic crashes on SM90 with an illegal memory access")
    assert "*" not in cause
    debugging = next(r for r in facts.verdict.reasons if r.code == "debugging-method")
    # the author's own text after the bot block still counts ("stack trace")
    assert set(debugging.items[0].params["signals"]) == {"reproduced", "stack trace", "traced"}


def test_an_authors_comment_with_a_bot_block_counts_only_its_own_words() -> None:
    comment = Comment(author="alice", body=f"{CODERABBIT}\n\nBisected to the tactic cache; see profile.")
    facts = _facts("Reverts o/r#3837", comments=[comment])
    debugging = next(r for r in facts.verdict.reasons if r.code == "debugging-method")
    assert set(debugging.items[0].params["signals"]) == {"bisected", "profile"}
