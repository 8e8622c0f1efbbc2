"""The one-line summary is never a PR template's text: labelled sections ("SUMMARY:",
"TEST PLAN:"), their placeholders, HTML comments and checklists are not the author's words;
nor are caveats or a subsection's sentence."""

from __future__ import annotations

import pytest

from prdigest.analyzers.pr_text import split_body
from prdigest.narrate.extractive.text import summary_sentence


@pytest.mark.parametrize(
    "body",
    [
        "SUMMARY: please provide a brief summary\n\nTEST PLAN: please describe how you tested",
        "SUMMARY:\nPlease provide a brief summary of the change.\n\nTEST PLAN:\nN/A",
        "<!-- describe your change -->\n## Checklist\n- [ ] This PR adds tests\n",
        "Note: this PR changes the default timeout for every client.",
        "## Context\nWhy now.\n\n### Other changes\nThis PR makes two adjustments to the thresholds.",
    ],
)
def test_no_template_caveat_or_subsection_becomes_the_summary(body: str) -> None:
    assert summary_sentence(body) is None


def test_a_filled_in_label_section_is_the_summary() -> None:
    body = "SUMMARY: Adds a retry loop around the upload so that flaky networks do not fail the job.\n\nTEST PLAN: CI"
    assert summary_sentence(body) == "Adds a retry loop around the upload so that flaky networks do not fail the job."
    assert split_body(body).tests == ["CI"]
