"""The cross-PR pass on real git histories: reverts by SHA, reverted/restored by, restore
diffs, follow-ups, and phrasing that states a relation (issue 10, lineage and references)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import Facts
from prdigest.pipeline.analyze import analyze_stored
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.store.facts_store import get_facts

REPO = "example-org/kernels"


def _analyzed(store: Store, repo: GitRepoBuilder) -> None:
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=REPO)))
    stats = analyze_stored(store, jobs=1)
    assert not stats.failed


def _facts(store: Store, number: int) -> Facts:
    found = get_facts(store, REPO, number)
    assert found is not None
    return found


def _relations(facts: Facts) -> dict[int, str]:
    return {ref.number: ref.relation for ref in facts.references.references if ref.repository == REPO}


def _start(tmp_path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# kernels\n"}, "Initial commit")
    return repo


_ORIGINAL = (
    "from kernels.deps import assert_humming_available\n\n\n"
    "class HummingConfig:\n"
    "    def __init__(self, bits):\n"
    "        assert_humming_available()\n"
    "        self.bits = bits\n"
)
_RESTORED = "class HummingConfig:\n    def __init__(self, bits):\n        self.bits = bits\n"


def test_revert_by_sha_restore_and_restore_diff(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    added = repo.squash_pr(10, "Add humming kernels", {"kernels/humming.py": _ORIGINAL})
    # A revert whose title was cut by GitHub: only git's SHA line names what it reverts.
    repo.squash_pr(
        11,
        'Revert "Add humming kernels…',
        {"kernels/humming.py": None},
        body=f"This reverts commit {added}.",
    )
    repo.squash_pr(
        12,
        "Bring humming back",
        {"kernels/humming.py": _RESTORED},
        body="#11 temporarily reverted #10 because CI broke; this restores it.",
    )
    _analyzed(store, repo)

    assert _relations(_facts(store, 11)) == {10: "reverts"}
    assert _relations(_facts(store, 12)) == {11: "mentions", 10: "restores"}

    original = _facts(store, 10)
    assert [(e.number, e.title) for e in original.lineage.reverted_by] == [(11, 'Revert "Add humming kernels…')]
    assert original.lineage.reverted_by[0].merged_at is not None
    assert [e.number for e in original.lineage.restored_by] == [12]
    assert "this restores it" in original.lineage.restored_by[0].evidence

    (diff,) = _facts(store, 12).lineage.restore_diffs
    assert diff.original == 10
    assert not diff.identical
    assert [line.text for line in diff.lines_not_restored] == [
        "from kernels.deps import assert_humming_available",
        "assert_humming_available()",
    ]
    assert diff.lines_new == []
    # The reverted PR's related notes say who reverted it.
    assert ("reverted-by", 11) in {(n.relation, n.number) for n in related_from_store(store, REPO, 10)}


def test_squashed_fork_history_is_no_relation(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    repo.squash_pr(6, "Add the scheduler", {"sched.py": "x = 1\n"})
    repo.squash_pr(
        20,
        "Port the fork's scheduler",
        {"sched.py": "x = 2\n"},
        body=(
            "* Merge pull request #6 from someone/revert-5-tune\n\n"
            '* Revert "Merge pull request #6 from someone/tune"\n\n'
            "* tune the scheduler"
        ),
    )
    _analyzed(store, repo)
    assert _relations(_facts(store, 20)) == {}
    assert _facts(store, 6).lineage.reverted_by == []


def test_merged_in_history_is_not_the_pr_s_commits(tmp_path: Path, store: Store) -> None:
    """A branch that merged main into itself: main's own reverts are not this PR's."""
    repo = _start(tmp_path)
    repo.squash_pr(30, "Add A", {"a.py": "a = 1\n"})
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit({"b.py": "b = 1\n"}, "Start B\n")
    repo.git("checkout", "-q", "main")
    repo.commit({"a.py": None}, 'Revert "Add A (#30)"\n\nThis reverts commit 0000000.\n')
    repo.git("checkout", "-q", "topic")
    repo.git("merge", "-q", "--no-ff", "--no-edit", "main")
    repo.commit({"b.py": "b = 2\n"}, "Finish B\n")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge pull request #31 from someone/topic\n\nAdd B\n", "topic")
    _analyzed(store, repo)
    record = store.get_pr(REPO, 31)
    assert sorted(c.message.splitlines()[0] for c in record.commits) == [
        "Finish B",
        "Merge branch 'main' into topic",
        "Start B",
    ]
    assert _relations(_facts(store, 31)) == {}


def test_phrasing_states_relations(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    for number in (40, 41, 42):
        repo.squash_pr(number, f"Change {number}", {f"f{number}.py": "x = 1\n"})
    repo.squash_pr(
        43,
        "Prepare the loader",
        {"loader.py": "x = 1\n"},
        body="This is a prerequisite for #44. We can unpin once #41 lands. Re-land of #40.",
    )
    repo.squash_pr(44, "Use the loader", {"use.py": "x = 1\n"}, body="Follow-up to #43.")
    repo.squash_pr(
        45,
        "Bump the kernel library",
        {"reqs.txt": "kern==14.1.1\n"},
        body="14.1.1 fixes the pytest import (cupy/cupy#9963).\n\nCloses #42",
    )
    repo.squash_pr(46, "Back out #42", {"f42.py": None})
    _analyzed(store, repo)
    assert _relations(_facts(store, 43)) == {44: "prerequisite-for", 41: "depends-on", 40: "restores"}
    assert _relations(_facts(store, 46)) == {42: "reverts"}
    bump = _facts(store, 45)
    assert {(r.repository, r.number): r.relation for r in bump.references.references} == {
        ("cupy/cupy", 9963): "mentions",
        (REPO, 42): "follow-up-to",  # "Closes #42" of a merged PR: it fixes what #42 did
    }
    # "Follow-up to #43" links both ways.
    assert [(f.number, f.matched_by) for f in _facts(store, 43).lineage.followed_up_by] == [(44, "reference")]
    assert [f.number for f in _facts(store, 44).lineage.follows_up] == [43]


def test_bot_release_notes_belong_upstream(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    repo.squash_pr(50, "Add tests", {"t.py": "x = 1\n"})
    repo.squash_pr(
        51,
        "Bump pytest from 8.0 to 8.1",
        {"reqs.txt": "pytest==8.1\n"},
        body=(
            "Bumps pytest from 8.0 to 8.1.\n"
            'Release notes\nSourced from <a href="https://github.com/pytest-dev/pytest/releases">'
            "pytest's releases</a>.\n<blockquote>\n<p>Fixes #50 and reverts #12.</p>\n</blockquote>\n"
        ),
        author=("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
    )
    _analyzed(store, repo)
    refs = {(r.repository, r.number): r.relation for r in _facts(store, 51).references.references}
    assert refs == {("pytest-dev/pytest", 50): "mentions", ("pytest-dev/pytest", 12): "mentions"}


_PROMISE = "We should relax this once 14.1.1 ships."


def _cap_with_a_promise(repo: GitRepoBuilder, number: int) -> None:
    """A PR that caps a package and says it will relax the cap later."""
    body = f"14.1.0 breaks the import. {_PROMISE}"
    repo.squash_pr(number, "Cap the kernel library", {"requirements.txt": "kern-cuda13x<14.1.0\n"}, body=body)


def test_follow_ups_by_todo_and_by_deferred_relaxation(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    _cap_with_a_promise(repo, 60)
    repo.squash_pr(
        61,
        "Add a shim for the old loader",
        {"loader.py": "# TODO(#70): drop this shim\nSHIM = True\n"},
    )
    repo.squash_pr(62, "Unrelated docs", {"docs.md": "hi\n"})
    repo.squash_pr(63, "Allow the fixed kernel release", {"requirements.txt": "kern-cuda13x!=14.1.0\n"})
    repo.squash_pr(64, "Drop the loader shim", {"loader.py": "SHIM = False\n"}, body="Closes #70")
    _analyzed(store, repo)

    cap = _facts(store, 60)
    (relaxed,) = cap.lineage.followed_up_by
    assert (relaxed.number, relaxed.matched_by) == (63, "dependency")
    assert relaxed.promise == "We should relax this once 14.1.1 ships."  # the promise, quoted as written
    assert [f.number for f in _facts(store, 63).lineage.follows_up] == [60]

    shim = _facts(store, 61)
    assert _relations(shim) == {70: "followed-up-by"}
    assert [(f.number, f.matched_by) for f in shim.lineage.followed_up_by] == [(64, "todo")]
    assert _facts(store, 64).references.todos_removed == [70]
    assert _facts(store, 62).lineage.is_empty()


def test_a_cap_moved_to_another_file_as_it_was_is_not_its_relaxation(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    _cap_with_a_promise(repo, 60)
    pyproject = '[project]\nname = "kernels"\nversion = "1.0"\ndependencies = [\n    "{requirement}",\n]\n'
    moved = {"requirements.txt": None, "pyproject.toml": pyproject.format(requirement="kern-cuda13x<14.1.0")}
    repo.squash_pr(61, "Declare dependencies in pyproject.toml", moved)
    relaxed = {"pyproject.toml": pyproject.format(requirement="kern-cuda13x!=14.1.0")}
    repo.squash_pr(62, "Allow the fixed kernel release", relaxed)
    _analyzed(store, repo)

    (added,) = [c for c in _facts(store, 61).dependencies.changes if c.after]
    assert added.moved_from == ["requirements.txt"]
    assert [(f.number, f.matched_by) for f in _facts(store, 60).lineage.followed_up_by] == [(62, "dependency")]


def test_pass_is_stable_and_clears_stale_lineage(tmp_path: Path, store: Store) -> None:
    repo = _start(tmp_path)
    first = repo.squash_pr(80, "Add X", {"x.py": "x = 1\n"})
    repo.squash_pr(81, "Revert X", {"x.py": None}, body=f"revert commit {first[:7]}")
    _analyzed(store, repo)
    assert [e.number for e in _facts(store, 80).lineage.reverted_by] == [81]
    again = analyze_stored(store, force=True, jobs=1)
    assert again.lineage[REPO].reverts_resolved_by_sha == 1
    assert [e.number for e in _facts(store, 80).lineage.reverted_by] == [81]
