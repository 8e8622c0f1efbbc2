"""The kind of change the title's words say: an action word, not a noun that looks like one."""

from __future__ import annotations

import pytest

from prdigest.narrate.extractive.gist import action


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Ignore permission errors when reading cache", "change"),
        ("Cache the parsed grammar", "improve"),
        ("Fix cache invalidation", "fix"),
        ("Speed up cache reads", "improve"),
    ],
)
def test_cache_is_an_improvement_only_as_the_verb(title: str, kind: str) -> None:
    assert action(title) == kind
