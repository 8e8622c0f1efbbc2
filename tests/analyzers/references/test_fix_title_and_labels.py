"""A fix's own words: "Fixes: #12" trailers and the issue a fix title ends with."""

from __future__ import annotations

import pytest

from prdigest.analyzers.references import extract_references
from prdigest.models.pullrequest import PullRequest


def _relations(title: str, body: str = "") -> dict[int, str]:
    pr = PullRequest(repository="acme/lib", number=500, title=title, body=body, author="dev")
    return {ref.number: ref.relation for ref in extract_references(pr).references}


@pytest.mark.parametrize("trailer", ["Fixes: #402", "Resolves: #402", "Closes:  #402"])
def test_a_fix_trailer_with_a_colon_fixes(trailer: str) -> None:
    body = f"The tied-parameter map kept a stale device key.\n\n{trailer}\nSigned-off-by: A Dev <a@example.org>"
    assert _relations("Fix device KeyError in tied_params_map", body) == {402: "fixes"}


def test_a_colon_that_ends_a_sentence_still_breaks_the_clause() -> None:
    body = "We fixed the cache earlier: #402 only reported the symptom."
    assert _relations("Tidy the cache", body) == {402: "mentions"}


@pytest.mark.parametrize(
    "title",
    [
        "Fix crash when several skip comments are used in a multi-part if-clause (#431)",
        "fix(client): handle an empty header list in the adapter's config merge (#431)",
        "Bugfix: keep the trailing newline of standalone comments (#431)",
    ],
)
def test_the_number_a_fix_title_ends_with_is_fixed(title: str) -> None:
    assert _relations(title) == {431: "fixes"}


@pytest.mark.parametrize(
    "title",
    [
        "Standardize type comments to one form (#431)",
        "docs: describe the cache options (#431)",
        "Fix the parser, see #431 for the history",
    ],
)
def test_other_titles_only_mention_the_number(title: str) -> None:
    assert _relations(title) == {431: "mentions"}


def test_a_stated_relation_is_not_overruled_by_the_title_head() -> None:
    assert _relations("Fix the regression introduced in (#431)") == {431: "root-cause-in"}


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("Fixing #431", ""),
        ("Handle an empty header list", "Fixing #431 by skipping the merge when the list is empty."),
        ("Handle an empty header list", "- Fixing #431\n- Adds a test"),
        ("Handle an empty header list", "This PR is fixing #431: the merge no longer drops the list."),
        ("Fixing the page count of a partial last page (#431)", ""),
    ],
)
def test_a_fix_in_the_gerund_that_this_pr_does_fixes(title: str, body: str) -> None:
    assert _relations(title, body) == {431: "fixes"}


@pytest.mark.parametrize(
    "body",
    [
        "While fixing #431 I noticed the merge also drops the list.",
        "After fixing #431, the cache kept stale keys; this evicts them.",
        "The maintainers are still fixing #431 upstream.",
    ],
)
def test_a_gerund_that_is_not_this_prs_act_only_mentions(body: str) -> None:
    assert _relations("Evict stale cache keys", body) == {431: "mentions"}


@pytest.mark.parametrize(
    "title",
    ["[2.x] Fix crash when the header list is empty (#431)", "[release-3.0] fix(client): keep the header (#431)"],
)
def test_a_release_branch_title_follows_up_the_pr_it_ports(title: str) -> None:
    assert _relations(title) == {431: "follow-up-to"}


def test_a_tag_that_names_an_issue_is_no_release_branch() -> None:
    assert _relations("[563] Fix standalone comments in brackets (#431)") == {431: "fixes"}
