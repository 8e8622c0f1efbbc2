"""Which PRs a watch holds, and why: by path, package, symbol and person, on a real git history
synced and analyzed through the CLI's pipeline."""

from __future__ import annotations

import pytest
from tests.helpers.watch_history import REPO

from prdigest.errors import ConfigError
from prdigest.facts_view.path_glob import check_glob, matches
from prdigest.facts_view.watch_match import watch_matches
from prdigest.models.facts import DiscussionFacts, Facts
from prdigest.models.watch import Watch
from prdigest.pipeline.digest import build_digest
from prdigest.pipeline.watch_rules import create_watch, new_watch
from prdigest.store import Store
from prdigest.words import Lang

SITE = "http://digest.example:8000"


def _digest_numbers(db: str, **rules: list[str]) -> list[tuple[int, list[str]]]:
    store = Store.open(f"sqlite:///{db}")
    try:
        watch = new_watch("w", REPO, lang="en", **rules)
        create_watch(store, watch)
        built = build_digest(store, watch, SITE, None)
    finally:
        store.close()
    return [(item.number, item.why) for item in built.digest.items]


def test_a_path_glob_holds_the_prs_that_touch_it(db: str) -> None:
    assert _digest_numbers(db, paths=["src/sched/**"]) == [
        (4, ["touches src/sched/core.py (watched path src/sched/**)"]),
        (1, ["touches src/sched/core.py (watched path src/sched/**)"]),
    ]


def test_a_folder_without_wildcards_holds_what_is_below_it(db: str) -> None:
    assert [number for number, _ in _digest_numbers(db, paths=["docs"])] == [3]


def test_a_package_holds_the_prs_the_ledger_records_for_it(db: str) -> None:
    found = _digest_numbers(db, packages=["NumPy"])  # names are compared canonically
    assert found == [
        (6, ["changes the dependency on numpy: cap relaxed"]),
        (2, ["changes the dependency on numpy: added"]),
    ]


def test_a_symbol_holds_the_prs_that_add_change_or_remove_it(db: str) -> None:
    assert _digest_numbers(db, symbols=["Scheduler.run"]) == [
        (4, ["changes Scheduler.run (watched symbol Scheduler.run)"]),
        (1, ["adds Scheduler.run (watched symbol Scheduler.run)"]),
    ]
    assert [n for n, _ in _digest_numbers(db, symbols=["start"])] == [5]


def test_a_person_holds_what_they_wrote(db: str) -> None:
    assert _digest_numbers(db, people=["Carol"]) == [(6, ["authored by carol"]), (3, ["authored by carol"])]


def test_several_rules_say_each_reason(db: str) -> None:
    found = dict(_digest_numbers(db, paths=["requirements.txt"], packages=["numpy"], people=["bob"]))
    assert found[2] == [
        "touches requirements.txt (watched path requirements.txt)",
        "changes the dependency on numpy: added",
        "authored by bob",
    ]
    assert sorted(found) == [2, 4, 6]


def test_a_reviewer_is_a_watched_person_too() -> None:
    facts = Facts(repository=REPO, number=9, discussion=DiscussionFacts(approvals=["Erin"]))
    watch = Watch(name="w", repository=REPO, people=("erin", "frank"), lang=Lang("en"))
    (found,) = watch_matches(watch, facts, author="frank-not")
    assert (found.kind, found.subject) == ("reviewer", "Erin")
    assert [m.kind for m in watch_matches(watch, facts, author="Frank")] == ["reviewer", "author"]


def test_globs() -> None:
    assert matches("src/**/*.py", "src/a/b/c.py")
    assert matches("src/**/*.py", "src/c.py")
    assert not matches("src/*.py", "src/a/c.py")
    assert matches("*.md", "README.md")
    assert not matches("*.md", "docs/guide.md")
    assert matches("**/*.md", "docs/guide.md")
    assert matches("src/[ab]*.py", "src/app.py")
    assert not matches("src/[!ab]*.py", "src/app.py")
    assert matches("docs/", "docs/guide.md")
    assert not matches("doc", "docs/guide.md")


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("", "empty"),
        ("/etc/passwd", "relative to the repository root"),
        ("../x", "cannot leave the repository"),
        ("src/[ab", "never closes"),
        ("src/[]", "empty"),
    ],
)
def test_a_bad_glob_is_refused_with_why(pattern: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_glob(pattern)
