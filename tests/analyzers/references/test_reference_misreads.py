"""Sentences once misread on real repositories, rewritten in our own words."""

from __future__ import annotations

from prdigest.analyzers.references import extract_references, references_in_text
from prdigest.models.pullrequest import PullRequest

REPO = "o/r"


def _relations(text: str, is_subject: bool = False) -> dict[int, str]:
    return {r.number: r.relation for r in references_in_text(text, REPO, is_subject=is_subject)}


def test_a_participle_after_our_verb_describes_the_object_not_this_pr() -> None:
    title = "fix(ci): restore the cutlass version bump mistakenly rolled back in #812"
    assert _relations(title, is_subject=True) == {812: "root-cause-in"}
    assert _relations("Fixes the fallback path reverted in #90 by accident.") == {90: "root-cause-in"}
    # this PR as the subject still reads as reverted
    assert _relations("This PR was rolled back in #91. Reverted by #92.") == {91: "reverted-by", 92: "reverted-by"}


def test_the_lineage_does_not_invert_an_object_participle() -> None:
    pr = PullRequest(
        repository=REPO,
        number=900,
        title="build: restore the submodule pin accidentally rolled back in #812",
        body="The pin was set by #700.",
    )
    refs = {r.number: r.relation for r in extract_references(pr).references}
    assert refs == {812: "root-cause-in", 700: "mentions"}


def test_relanded_in_is_where_something_else_came_back() -> None:
    text = "The fast path added in #300 / relanded in #310 breaks on old drivers. Also restored in #320."
    assert _relations(text) == {300: "mentions", 310: "mentions", 320: "mentions"}
    assert _relations("Relands #310 with a guard.") == {310: "restores"}


def test_a_position_in_a_series_is_no_reference() -> None:
    text = (
        "Part of the cache clean-up (PR #2 of the planned series). "
        "This is #3 of 5, and #4/5 follows. Fixes #66 of the tracker? No: fixes #67."
    )
    numbers = [r.number for r in references_in_text(text, REPO)]
    assert numbers == [66, 67]
    # a real PR number followed by "of the series" is still that PR
    assert [r.number for r in references_in_text("Merged #4312 of the series first.", REPO)] == [4312]


def test_a_revert_or_restore_weighed_or_asked_about_is_not_done() -> None:
    body = (
        "The parentheses removed by #850 are sometimes needed to fit a line. "
        "A regression test is added so that if we try to reapply the #850 change we notice."
    )
    assert _relations(body) == {850: "mentions"}
    assert _relations("If we revert #12, the old error comes back.") == {12: "mentions"}
    assert _relations("Should we re-land #13 later?") == {13: "mentions"}
    assert _relations("We may want to restore #14 once the driver is fixed.") == {14: "mentions"}
    assert _relations("如果需要，我们可以恢复 #15") == {15: "mentions"}
    # done, not weighed: the condition belongs to another phrase, or there is none
    assert _relations("Since the cache breaks if the timeout is None, this reverts #16.") == {16: "reverts"}
    assert _relations("Re-lands #17 with a guard. Should the flag stay on?") == {17: "restores"}


def test_a_pr_guarding_against_a_reapply_restores_nothing() -> None:
    pr = PullRequest(
        repository=REPO,
        number=1080,
        title="Add the failing parenthesis example as a test",
        body="So that if we reapply the #850 change, the case stays fixed.",
    )
    assert {r.number: r.relation for r in extract_references(pr).references} == {850: "mentions"}


def test_introduced_in_names_a_root_cause_only_for_a_problem() -> None:
    title = "Document the style changes introduced in #3489 and #3440"
    assert _relations(title, is_subject=True) == {3489: "mentions", 3440: "mentions"}
    assert _relations("Fix the regression introduced in #20.") == {20: "root-cause-in"}
    assert _relations("The crash was introduced by #21.") == {21: "root-cause-in"}
    assert _relations("This reverts the caching introduced in #22.") == {22: "reverts"}
    assert _relations("Restore the fast path introduced in #23, with a guard.") == {23: "restores"}


def test_a_partial_fix_leaves_the_issue_open() -> None:
    assert _relations("Partial fix for #1581: the slow check goes.") == {1581: "mentions"}
    assert _relations("This partially fixes #20 and fixes #21.") == {20: "mentions", 21: "fixes"}
    assert _relations("Partly resolves #22") == {22: "mentions"}
    assert _relations("部分修复 #23") == {23: "mentions"}
    # a whole fix stays one
    assert _relations("Fix for #24") == {24: "fixes"}


def test_the_owner_or_the_name_alone_before_a_number_names_this_repository() -> None:
    found = references_in_text("Enable constexpr support (fmtlib#3403), see fmt#12", "fmtlib/fmt", "body")
    assert [(r.repository, r.number) for r in found] == [("fmtlib/fmt", 3403), ("fmtlib/fmt", 12)]
    # Another word before the number is another project's shorthand: nothing is known of it.
    assert references_in_text("discussion on hyperium#2741", "fmtlib/fmt", "body") == []


def test_a_kind_word_glued_to_the_number_names_this_repository() -> None:
    found = references_in_text("Fix issue#1275 and see PR#1006; pull#7, Bug#9", "nlohmann-like/json", "body")
    assert [(r.repository, r.number) for r in found] == [("nlohmann-like/json", n) for n in (1275, 1006, 7, 9)]
    assert found[0].relation == "fixes"
    # a word that is no kind stays another project's shorthand, and a word ending in one is a word
    assert references_in_text("see tissue#12 and hyperpr#3", "nlohmann-like/json", "body") == []


def test_a_part_someone_forgot_is_followed_up_and_a_recreated_pr_restored() -> None:
    (forgot,) = references_in_text("Was forgotten in #14359", "example-org/tool", "body")
    assert forgot.relation == "follow-up-to"
    (recreate,) = references_in_text("Recreate #446", "example-org/tool", "title", is_subject=True)
    assert recreate.relation == "restores"
    (where,) = references_in_text("The option was recreated in #446.", "example-org/tool", "body")
    assert where.relation == "mentions"


def test_verbs_right_before_the_number_state_this_prs_act() -> None:
    def relation(text: str, where: str = "body") -> str:
        (ref,) = references_in_text(text, "example-org/tool", where, where == "title")  # type: ignore[arg-type]
        return ref.relation

    assert relation("Solves #1234") == "fixes"
    assert relation("Implements #184") == "fixes"
    assert relation("Mypy raised errors, as reported in #1046.") == "fixes"
    assert relation("We implement the API from #12 here") == "mentions"  # not the verb's object
    assert relation("Accidentally removed in #887") == "follow-up-to"
    assert relation("Cleanly apply #499", "title") == "restores"
    assert relation("This replaces #12") == "supersedes"
    # The title's verb replaces a literal; the number ending it is not what is replaced.
    assert relation("Replace set literal with set() #299", "title") == "mentions"


def test_a_news_fragment_names_the_issue_its_entry_is_for() -> None:
    from prdigest.models.pullrequest import FileChange, FileStatus

    pr = PullRequest(
        repository=REPO,
        number=3500,
        title="Retry reads on a reset connection",
        body="",
        files=[
            FileChange(path="changelog/3412.bugfix.rst", status=FileStatus.ADDED, additions=1),
            FileChange(path="changelog/3500.feature.rst", status=FileStatus.ADDED, additions=1),  # its own number
            FileChange(path="newsfragments/77.removal.md", status=FileStatus.MODIFIED, additions=1),  # not added here
            FileChange(path="docs/changes/12.rst", status=FileStatus.ADDED, additions=1),  # no kind: a page
            FileChange(path="changes/88.feature", status=FileStatus.ADDED, additions=1),
        ],
    )
    refs = {r.number: (r.relation, r.where, r.evidence) for r in extract_references(pr).references}
    assert refs[3412] == ("mentions", "code", "changelog fragment changelog/3412.bugfix.rst")
    assert refs[88][1:] == ("code", "changelog fragment changes/88.feature")
    assert set(refs) & {3500, 77, 12} == set()
