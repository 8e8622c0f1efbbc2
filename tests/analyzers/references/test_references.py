"""References: every place, every form, relations, code ignored, dedup."""

from __future__ import annotations

from prdigest.analyzers.references import ANALYZER, extract_references, references_in_text
from prdigest.models.facts import Reference
from prdigest.models.pullrequest import Comment, Commit, PullRequest, Review, ReviewComment, ReviewThread

REPO = "vllm-project/vllm"


def _by_number(refs: list[Reference]) -> dict[int, Reference]:
    return {r.number: r for r in refs}


def test_every_place_and_form_is_found() -> None:
    pr = PullRequest(
        repository=REPO,
        number=500,
        title="Fix crash in loader (#101)",
        body=(
            "See https://github.com/vllm-project/vllm/pull/102 and "
            "https://github.com/vllm-project/vllm/issues/103 for context.\n\n"
            "Also related: pytorch/pytorch#104 and GH-105."
        ),
        commits=[Commit(sha="a" * 40, author="x", message="wip\n\nbased on #106")],
        comments=[Comment(author="rev", body="Is this the same as #107?")],
        reviews=[Review(author="rev", state="COMMENTED", body="Compare with #108.")],
        review_threads=[
            ReviewThread(path="a.py", comments=[ReviewComment(author="rev", body="This duplicates #109.")])
        ],
        closing_issues=[110],
    )
    refs = _by_number(extract_references(pr).references)
    assert sorted(refs) == list(range(101, 111))
    assert refs[101].where == "title"
    assert refs[102].target_kind == "pr"
    assert refs[103].target_kind == "issue"
    assert refs[104].repository == "pytorch/pytorch"
    assert refs[105].repository == REPO
    assert refs[106].where == "commit"
    assert refs[107].where == "comment"
    assert refs[108].where == "review"
    assert refs[109].where == "review"
    assert (refs[110].where, refs[110].relation, refs[110].target_kind) == ("closing-issue", "fixes", "issue")


def test_code_blocks_inline_code_entities_and_headings_are_ignored() -> None:
    body = (
        "# Title\n\n"
        "```python\nx = foo()  # see #11\n```\n"
        "Use `bar(#12)` here. It&#39;s fine &#40; ok.\n"
        "<!-- FIX #13 (link existing issues this PR will resolve) -->\n"
        "Step #2 is optional. Color at https://example.com/page#14 too.\n"
        "Real one: #15."
    )
    refs = references_in_text(body, REPO)
    assert [r.number for r in refs] == [15]


def test_relations_stated_near_the_reference() -> None:
    text = (
        "Fixes #1, #2 and #3. "
        "This is a follow-up to #4. "
        "Supersedes #5. "
        "Alternative to #6. "
        "Depends on #7. "
        "Root cause in #8. "
        "This restores #9 with a fix. "
        "Reverted by #10. "
        "Nothing special about #11. "
        "Re-lands #12."
    )
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {
        1: "fixes",
        2: "fixes",
        3: "fixes",
        4: "follow-up-to",
        5: "supersedes",
        6: "alternative-to",
        7: "depends-on",
        8: "root-cause-in",
        9: "restores",
        10: "reverted-by",
        11: "mentions",
        12: "restores",
    }


def test_third_party_relation_is_not_ours() -> None:
    text = "#43492 temporarily reverted #42540, but #43528 showed the failure persists."
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {43492: "mentions", 42540: "mentions", 43528: "mentions"}


def test_revert_title_and_reverted_commit() -> None:
    pr = PullRequest(
        repository=REPO,
        number=43492,
        title='Revert "Add humming-kernels support (#42540)"',
        body="This reverts commit abc1234def.\n\nThe nightly image breaks, see #43480.",
        commits=[
            Commit(
                sha="b" * 40,
                author="x",
                message='Revert "Add humming-kernels support (#42540)"\n\nThis reverts commit abc1234def.',
            )
        ],
    )
    facts = extract_references(pr)
    refs = _by_number(facts.references)
    assert refs[42540].relation == "reverts"
    assert refs[42540].where == "title"  # first evidence kept: the title came first
    assert refs[43480].relation == "mentions"
    assert facts.reverted_commits == ["abc1234def"]


def test_dedup_keeps_strongest_relation_and_drops_self() -> None:
    pr = PullRequest(
        repository=REPO,
        number=43530,
        title="Fix CuPy runtime deps and restore humming",
        body="Earlier work: #42540. This restores #42540 with the real fix. Self link #43530.",
        comments=[Comment(author="m", body="see https://github.com/vllm-project/vllm/pull/42540")],
    )
    refs = extract_references(pr).references
    assert [r.number for r in refs] == [42540]
    assert refs[0].relation == "restores"
    assert "restores #42540" in refs[0].evidence
    assert refs[0].target_kind == "pr"  # learned from the URL occurrence


def test_evidence_is_the_sentence_and_short() -> None:
    long_tail = "word " * 80
    text = f"First sentence here. The crash is caused by #77 in the loader {long_tail}. Last."
    (ref,) = references_in_text(text, REPO)
    assert ref.relation == "root-cause-in"
    assert ref.evidence.startswith("The crash is caused by #77")
    assert len(ref.evidence) <= 162
    assert "First sentence" not in ref.evidence


def test_merge_commits_are_skipped_and_analyzer_metadata() -> None:
    pr = PullRequest(
        repository=REPO,
        number=9,
        title="t",
        commits=[Commit(sha="c" * 40, author="x", message="Merge pull request #8 from x/y")],
    )
    assert extract_references(pr).references == []
    assert ANALYZER.name == "references"
    assert ANALYZER.requires == ()


def test_evidence_keeps_inline_code_verbatim_but_code_hides_references() -> None:
    body = "#103 was reverted in #105 because `max_batch` was unbounded, so a batch grew. Try `fix(#12)` too."
    refs = _by_number(references_in_text(body, REPO))
    assert sorted(refs) == [103, 105]  # `#12` inside backticks is no reference
    assert "because `max_batch` was unbounded" in refs[105].evidence
    assert refs[103].evidence == refs[105].evidence


def test_a_relation_between_two_other_prs_is_not_this_prs() -> None:
    pr = PullRequest(
        repository=REPO,
        number=107,
        title="Restore paged attention scheduler with a bounded batch",
        body="#103 was reverted in #105; this restores it with a bounded batch.",
    )
    relations = {r.number: r.relation for r in extract_references(pr).references}
    assert relations == {103: "restores", 105: "mentions"}


def test_participles_after_a_reference_describe_that_reference() -> None:
    text = (
        "Re-lands #103 (reverted in #105) with `max_batch`. "
        "Closes #1, which was fixed by #2. "
        "PR #3, which added the cache, was replaced by #4. "
        "#5 and #6 were reverted in #7; this re-applies them."
    )
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {
        103: "restores",
        105: "mentions",
        1: "fixes",
        2: "mentions",
        3: "mentions",
        4: "mentions",
        5: "restores",
        6: "restores",
        7: "mentions",
    }


def test_this_pr_as_subject_keeps_its_relation() -> None:
    text = (
        "This PR was reverted in #20. "
        "#21 broke the build, and this PR was superseded by #22. "
        "#23 crashes on start; this fixes it. "
        "#24 is flaky, fixes #25."
    )
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {
        20: "reverted-by",
        21: "mentions",
        22: "superseded-by",
        23: "fixes",
        24: "mentions",
        25: "fixes",
    }


def test_zh_passive_between_two_other_prs() -> None:
    text = "#103 在 #105 中被回退，本 PR 恢复了它。"
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {103: "restores", 105: "mentions"}


def test_the_root_cause_of_what_this_pr_fixes_is_kept() -> None:
    text = "Fixes #1234, a crash introduced in #1200. #77 was caused by #70; this fixes it. #5 broke #6."
    relations = {r.number: r.relation for r in references_in_text(text, REPO)}
    assert relations == {
        1234: "fixes",
        1200: "root-cause-in",
        77: "fixes",
        70: "root-cause-in",
        5: "mentions",
        6: "mentions",
    }


def test_ci_run_numbers_in_links_and_after_run_words_are_not_references() -> None:
    body = (
        "[Nightly run #353](https://github.com/o/r/actions/runs/32205961784) completed the canary.\n"
        "| job | [#4214](https://github.com/o/r/actions/runs/25402485487) | #4214 vs median |\n"
        "The stale value is read on run #2 and later; build #77 and pipeline #9 passed, workflow #5 too.\n"
        "Fixes [#501](https://github.com/o/r/issues/501) and [the crash](https://github.com/o/r/pull/502); "
        "see [#503](../pull/503) and #504."
    )
    refs = references_in_text(body, "o/r")
    # a PR link's own text (#501, #503) cites it again: those stay references
    assert sorted({r.number for r in refs}) == [501, 502, 503, 504]
    assert refs[0].relation == "fixes"


def test_link_text_to_a_doc_page_is_no_reference() -> None:
    refs = references_in_text("Details in [issue #12 write-up](https://example.com/notes#12). Fixes #13.", "o/r")
    assert [(r.number, r.relation) for r in refs] == [(13, "fixes")]


def test_ordinal_gap_and_part_numbers_are_not_references() -> None:
    body = "- Gap #1 (blocker): re-zero the counter.\n- Part #2 of the plan, stage #3 too. Fixes #40."
    assert [r.number for r in references_in_text(body, "o/r")] == [40]


def test_a_cherry_picked_commit_subject_only_mentions_its_pr() -> None:
    pr = PullRequest(
        repository="o/r",
        number=4669,
        title="Release cherry-picks",
        commits=[
            Commit(sha="a" * 40, author="x", message="fix(gemm): restore bmm_fp8 auto fallback (#4645)"),
            Commit(
                sha="b" * 40, author="x", message="fix(moe): restore kernels broken by #4500 (#4602)\n\nFixes #4601."
            ),
            Commit(sha="c" * 40, author="x", message='Revert "Add paged attention (#103)"'),
        ],
    )
    refs = _by_number(extract_references(pr).references)
    assert refs[4645].relation == "mentions"
    assert refs[4602].relation == "mentions"
    assert refs[4500].relation == "root-cause-in"  # "broken by #4500" is still read
    assert refs[4601].relation == "fixes"  # the body of the commit is read as before
    assert refs[103].relation == "reverts"  # inside a quoted revert the suffix is what is reverted


def test_a_reference_naming_a_revert_is_not_reverted() -> None:
    body = (
        "Mirrors the v0.6.16 revert (#4246, commit 0a27ba39) on main. "
        "A follow-up (#12) will add docs. This reverts the cache change (#13). Revert (#14) too."
    )
    relations = {r.number: r.relation for r in references_in_text(body, "o/r")}
    assert relations == {4246: "mentions", 12: "mentions", 13: "reverts", 14: "reverts"}
