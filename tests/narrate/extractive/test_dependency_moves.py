"""The narrator's move steps read the dependencies analyzer's mark (`moved_from`): it does not
pair removals with additions by a key of its own."""

from __future__ import annotations

from prdigest.models.facts import DependencyChange, FileFact
from prdigest.narrate.extractive.dependency_steps import dependency_parts, group_dependencies, relevant_changes
from prdigest.narrate.extractive.step_parts import WhyFinder
from prdigest.words import phrases

REMOVED = DependencyChange(
    path="requirements-tests.txt", package="pytest", before="pytest>=8", kinds=["removed"], scope="dev"
)
ADDED = DependencyChange(
    path="pyproject.toml", package="pytest", after="pytest>=8", kinds=["added"], scope="dev", group="group:tests"
)
FILES = [FileFact(path="requirements-tests.txt", status="removed"), FileFact(path="pyproject.toml")]


def _details(changes: list[DependencyChange]) -> list[str]:
    ph = phrases("en")
    return [p.detail for p in dependency_parts(changes, FILES, WhyFinder([], "full", ph), ph)]


def test_without_the_mark_a_removal_and_an_addition_are_no_move() -> None:
    # same package, same scope: the analyzer did not call it a move, so neither does the narrator
    assert [g.kind for g in group_dependencies([REMOVED, ADDED])] == ["removed", "added"]
    # and the deleted file's removal goes with the file
    assert relevant_changes([REMOVED, ADDED], FILES) == [ADDED]


def test_the_mark_makes_the_move_across_scopes() -> None:
    ci = REMOVED.model_copy(update={"scope": "ci"})
    moved = ADDED.model_copy(update={"moved_from": ["requirements-tests.txt"]})
    assert relevant_changes([ci, moved], FILES) == [ci, moved]
    groups = group_dependencies([ci, moved])
    assert [(g.kind, g.from_paths, g.paths) for g in groups] == [
        ("moved", ["requirements-tests.txt"], ["pyproject.toml"])
    ]
    assert _details([ci, moved]) == [
        "`pytest` removed from `requirements-tests.txt` and installed in `pyproject.toml` instead."
    ]


def test_a_move_that_changed_the_versions_says_so() -> None:
    moved = ADDED.model_copy(
        update={"after": "pytest>=8.2", "moved_from": ["requirements-tests.txt"], "moved_changed": True}
    )
    (detail,) = _details([REMOVED, moved])
    assert detail.endswith("installed in `pyproject.toml` instead; `>=8` → `>=8.2` on the way."), detail
