"""The narrator and the analyzers agree on what a version constant is: a change the verdict
reads as a release is one the narrator words as a version change."""

from __future__ import annotations

import pytest

from prdigest.analyzers.version_names import VERSION_NAMES
from prdigest.models.facts import CodeEdit
from prdigest.narrate.extractive.code_edits import is_version_edit


@pytest.mark.parametrize("name", sorted(VERSION_NAMES))
def test_every_version_name_is_a_version_edit_for_the_narrator(name: str) -> None:
    edit = CodeEdit(
        kind="constant-changed", path="src/pkg/__init__.py", params={"name": name, "before": "1", "after": "2"}
    )
    assert is_version_edit(edit)
    assert is_version_edit(edit.model_copy(update={"params": {**edit.params, "name": f"pkg.{name}"}}))


def test_the_private_version_name_is_a_version_edit() -> None:
    # `_version` was a version constant to the verdict but not to the narrator.
    edit = CodeEdit(kind="constant-changed", path="a.py", params={"name": "_version", "before": "1.1", "after": "1.2"})
    assert is_version_edit(edit)


def test_other_constants_are_not_version_edits() -> None:
    edit = CodeEdit(kind="constant-changed", path="a.py", params={"name": "TIMEOUT", "before": "1", "after": "2"})
    assert not is_version_edit(edit)
