"""A squash body's embedded commit blocks of other PRs are those PRs' words (issue 25)."""

from __future__ import annotations

from prdigest.analyzers.references import extract_references
from prdigest.analyzers.squash_body import foreign_blocks
from prdigest.models.pullrequest import PullRequest

REPO = "example-org/tool"

BODY = """\
* Fix incorrect import path (#784)

Fixes #766

* Revert "Add the cache (#604)" (#790)

This reverts commit 1a2b3c4d5e6f.

* Support the new config layout

Closes #812, see #700 for the design.

* address review (#830)

---------

Co-authored-by: Bo <bo@example.com>
"""


def _numbers(pr: PullRequest) -> dict[int, str]:
    return {r.number: r.relation for r in extract_references(pr).references}


def test_other_prs_blocks_say_nothing_of_this_pr() -> None:
    pr = PullRequest(repository=REPO, number=830, title="Support the new config layout (#830)", body=BODY)
    found = _numbers(pr)
    # #784's "Fixes #766" and #790's revert of #604 are theirs; the PR's own blocks speak.
    assert found == {812: "fixes", 700: "mentions"}


def test_the_blocks_end_at_the_next_block_or_the_trailer_separator() -> None:
    spans = [BODY[start:end] for start, end in foreign_blocks(BODY, own_number=830)]
    assert [span.splitlines()[0] for span in spans] == [
        "* Fix incorrect import path (#784)",
        '* Revert "Add the cache (#604)" (#790)',
    ]
    assert "Closes #812" not in "".join(spans)
    assert "Co-authored-by" not in "".join(spans)


def test_a_body_without_blocks_is_read_whole() -> None:
    pr = PullRequest(repository=REPO, number=9, title="Fix the parser", body="Fixes #766 (the crash in #784).")
    assert _numbers(pr) == {766: "fixes", 784: "mentions"}


def test_the_block_that_is_the_title_is_the_prs_own_commit() -> None:
    body = "* Add union operators to MutableHeaders (#1239)\n\n* Apply suggestions from code review\n"
    pr = PullRequest(repository=REPO, number=1240, title="Add union operators to MutableHeaders", body=body)
    (ref,) = extract_references(pr).references
    # Read as the title reads it: the number a title ends with, for the history to tell.
    assert (ref.number, ref.relation, ref.where) == (1239, "mentions", "title")
    fix = pr.model_copy(update={"title": "Fix union operators", "body": "* fix: union operators (#1239)\n"})
    assert _numbers(fix) == {}  # another subject than the title: another PR's block


def test_a_title_cut_short_matches_the_block_it_was_cut_from() -> None:
    whole = "Explain 'TestClient(app) as client' vs 'client = TestClient(app)'"
    body = f"* {whole} (#1733)\n\n* Nit (#1733)\n"
    pr = PullRequest(repository=REPO, number=1747, title=f"{whole} (#1\u2026", body=body)
    # "#1…" is a number cut in two, no reference; #1733 ends the PR's own block.
    assert set(_numbers(pr)) == {1733}
    short = pr.model_copy(update={"title": "Explain (#1\u2026"})
    assert set(_numbers(short)) == set()  # too little left of the title to tell it from another


def test_a_typo_mended_in_the_title_leaves_the_block_its_own_but_another_version_does_not() -> None:
    body = "* chore: add devDependencies\r\n\r\n* fix: keep the export same with static properties(#5031)\r\n"
    pr = PullRequest(repository=REPO, number=5109, title="fix: eep the export same with static properties", body=body)
    assert set(_numbers(pr)) == {5031}
    bump = PullRequest(
        repository=REPO, number=20, title="Bump foo from 1.2.3 to 1.2.5", body="* Bump foo from 1.2.3 to 1.2.4 (#12)\n"
    )
    assert _numbers(bump) == {}
