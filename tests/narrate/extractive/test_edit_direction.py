"""A regex edit's direction is told only in words the build has; anything else reads "changed"."""

from __future__ import annotations

import pytest

from prdigest.models.facts import CodeEdit
from prdigest.narrate.extractive.code_edits import edit_clause
from prdigest.words import phrases


def _regex_edit(direction: str) -> CodeEdit:
    params = {"before": "^a>=", "after": "^a", "direction": direction}
    return CodeEdit(kind="regex-changed", path="setup.py", params=params)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_known_direction_is_told(lang: str) -> None:
    ph = phrases(lang)
    assert ph.say("code_edits", "direction-widened") in edit_clause(_regex_edit("widened"), ph)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unknown_direction_reads_changed(lang: str) -> None:
    ph = phrases(lang)
    clause = edit_clause(_regex_edit("src/a.py"), ph)
    assert "src/a.py" not in clause
    assert ph.say("code_edits", "direction-changed") in clause
