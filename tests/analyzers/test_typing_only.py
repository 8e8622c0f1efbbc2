"""A Python definition changed only in its type annotations runs as before: the syntax trees of
both sides, annotations left out, are the same, and the report tells users so instead of
"changed behaviour". A default changed beside the annotations, or a class attribute
annotated (a dataclass's field), is a change of behaviour still."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.store.facts_store import get_facts
from prdigest.words import CATALOG

REPO = "example-org/typed"
FIELDS = """class Number:
    places = 2

    def __init__(self, as_string=False, **kwargs):
        self.as_string = as_string


def total(values, start=0):
    result = start
    for value in values:
        result += value
    return result
"""
ANNOTATED = '''class Number:
    places = 2

    def __init__(self, as_string: bool = False, **kwargs: object) -> None:
        """A number field."""
        self.as_string = as_string


def total(values: list[int], start: int = 0) -> int:
    result: int = start
    for value in values:
        result += value
    return result
'''
TYPED_ONLY, DEFAULT_TOO, MOVED = 1, 2, 3


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("typed")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# typed\n", "typed/fields.py": FIELDS}, "Initial commit")
    repo.squash_pr(TYPED_ONLY, "Add missing type annotations", {"typed/fields.py": ANNOTATED})
    changed = ANNOTATED.replace("start: int = 0", "start: int = 1").replace("places = 2", "places: int = 2")
    repo.squash_pr(DEFAULT_TOO, "Annotate and start at one", {"typed/fields.py": changed})
    # a function added right above `total`: the diff's hunk reaches it, nothing of it changed
    moved = changed.replace("\n\ndef total", "\n\ndef first(values):\n    return values[0]\n\n\ndef total")
    repo.squash_pr(MOVED, "Add first", {"typed/fields.py": moved})
    return analyzed_history(repo, REPO, root / "db.sqlite")


def _marked(store: Store, number: int) -> dict[str, bool]:
    facts = get_facts(store, REPO, number)
    assert facts is not None
    return {s.name: s.typing_only for s in facts.symbols.symbols if s.change == "modified"}


def test_annotations_alone_are_marked_and_told_as_such(store: Store) -> None:
    marked = _marked(store, TYPED_ONLY)
    assert marked["total"] is True
    assert marked["Number.__init__"] is True
    users = report_for(store, REPO, TYPED_ONLY, CATALOG.lang("en"), "full", None).risks.impact.users
    assert users.startswith("Only the type annotations of "), users
    assert "`total`" in users
    assert "changed behaviour" not in users
    zh = report_for(store, REPO, TYPED_ONLY, CATALOG.lang("zh"), "full", None).risks.impact.users
    assert "只改了类型注解" in zh


def test_a_default_or_a_value_changed_beside_them_is_behaviour(store: Store) -> None:
    marked = _marked(store, DEFAULT_TOO)
    assert marked["total"] is False  # its default moved
    assert marked["Number"] is False  # a class attribute annotated: a dataclass would read it
    users = report_for(store, REPO, DEFAULT_TOO, CATALOG.lang("en"), "full", None).risks.impact.users
    assert "meet changed behaviour in " in users, users
    assert "`total`" in users


def test_a_definition_that_did_not_change_is_not_said_to_change_its_annotations(store: Store) -> None:
    assert not any(_marked(store, MOVED).values())
    users = report_for(store, REPO, MOVED, CATALOG.lang("en"), "full", None).risks.impact.users
    assert "type annotations" not in users, users
