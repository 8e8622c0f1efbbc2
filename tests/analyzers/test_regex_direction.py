"""A changed regular expression widens or narrows by what it matches, never by its length:
dropping a required suffix widens it although the pattern got shorter (issue 26). Unit cases,
then one through sync, analysis and the report of a real git history."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.regex_direction import regex_direction
from prdigest.pipeline.report import report_for
from prdigest.words import CATALOG


@pytest.mark.parametrize(
    ("before", "after", "direction"),
    [
        (r"^mylib\[gpu\]>=", r"^mylib\[gpu\]", "widened"),  # shorter, and matches more
        (r"\(#(\d+)\)", r"#(\d+)", "widened"),
        (r"\r?\n", r"\r?\n|\r", "widened"),
        (r"^[0-9]+.[0-9]+$", r"^[0-9]+\.[0-9]+$", "narrowed"),  # longer, and matches less
        (r"^v\d+", r"^v\d+\.\d+", "narrowed"),
        (r"foo|bar", r"foo|baz", "changed"),  # each matches what the other does not
        (r"(\d+)(st|nd|rd|th)", r"(?<=\d)(st|nd|rd|th)", "changed"),  # the same strings
        (r"[abc", r"[abcd]", "changed"),  # the old one does not compile: nothing to compare
    ],
)
def test_the_direction_is_what_the_patterns_match(before: str, after: str, direction: str) -> None:
    assert regex_direction(before, after) == direction


def test_the_report_says_a_shortened_pattern_widens(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    setup = 'import re\n\nGPU_REQUIREMENT = re.compile(r"^mylib\\[gpu\\]>=")\n'
    repo.commit({"README.md": "# pkg\n", "setup.py": setup}, "Initial")
    repo.squash_pr(1, "Accept every mylib[gpu] requirement", {"setup.py": setup.replace(">=", "")})
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    (edit,) = [e for e in stored_facts(store, "example-org/pkg", 1).symbols.edits if e.kind == "regex-changed"]
    assert edit.params["direction"] == "widened"
    en = report_for(store, "example-org/pkg", 1, CATALOG.lang("en"), "full", None)
    zh = report_for(store, "example-org/pkg", 1, CATALOG.lang("zh"), "full", None)
    en_text = " ".join([en.summary.one_line, *(f.role for f in en.key_files)])
    zh_text = " ".join([zh.summary.one_line, *(f.role for f in zh.key_files)])
    assert "widens" in en_text
    assert "narrows" not in en_text
    assert "放宽" in zh_text
    assert "收窄" not in zh_text
