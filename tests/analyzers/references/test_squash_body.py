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
