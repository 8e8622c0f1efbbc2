"""Test code kept in the source tree (`src/pkg/test_utils/`, a crate's `test_helpers`) is tests,
not core logic; and a move counts when code moves between code files, with or without a
leading underscore gained on the way, not when tests move between test files. Seen on real
histories: accelerate's "enable 2 UT cases on XPU" read as core logic (its `test_utils`
helpers), and "Reenable Gather for Metrics" as "4 definitions moved" (a test script moved)
beside its real change; httpx's "Move utility functions from _utils.py to _multipart.py"
was no move because the functions were renamed `_name`. On a real git history, through sync
and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.store import Store

REPO = "example-org/trainer"
HELPERS, TEST_MOVE, PRIVATE_MOVE = 1, 2, 3
WORDS = ["alpha", "beta", "gamma", "delta"]


def _functions(names: list[str], offset: int = 0) -> str:
    return "\n".join(f"def {name}(value):\n    return value * {i + offset} + {i}\n\n" for i, name in enumerate(names))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("trainer")
    repo = GitRepoBuilder(root / "repo")
    tests_before = _functions([f"test_{w}" for w in WORDS])
    repo.commit(
        {
            "README.md": "# trainer\n",
            "src/trainer/core.py": _functions(["train", "evaluate"]),
            "src/trainer/utils.py": _functions(WORDS),
            "src/trainer/test_utils/testing.py": _functions(["require_gpu"]),
            "src/trainer/test_utils/scripts/test_metrics.py": tests_before,
        },
        "Initial",
    )
    helpers = _functions(["require_gpu", "require_xpu", "require_tpu"])
    repo.squash_pr(HELPERS, "Enable two test cases on XPU", {"src/trainer/test_utils/testing.py": helpers})
    moved_tests = {"src/trainer/test_utils/scripts/test_metrics.py": None}
    # moved with more tests beside them: too different for git to see a rename
    more = _functions([f"test_{w}_{n}" for w in WORDS for n in range(3)], offset=9)
    moved_tests["src/trainer/test_utils/scripts/external/test_metrics.py"] = tests_before + more
    moved_tests["src/trainer/core.py"] = _functions(["train", "evaluate"], offset=5)
    repo.squash_pr(TEST_MOVE, "Reenable metrics gathering", moved_tests)
    private = {"src/trainer/utils.py": "", "src/trainer/internal.py": _functions([f"_{w}" for w in WORDS])}
    repo.squash_pr(PRIVATE_MOVE, "Move utility functions into internal.py", private)
    return analyzed_history(repo, REPO, root / "trainer.db")


def test_test_code_in_the_source_tree_is_tests(store: Store) -> None:
    facts = stored_facts(store, REPO, HELPERS)
    (file,) = facts.files.files
    assert (file.category, file.module) == ("test", "test support")
    assert "core-change" not in reason_codes(facts)
    assert "tests-only" in reason_codes(facts)


def test_tests_moved_between_test_files_are_no_move_of_the_code(store: Store) -> None:
    facts = stored_facts(store, REPO, TEST_MOVE)
    assert {"test_alpha", "test_delta"} <= {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert "move-only" not in reason_codes(facts)
    assert "core-change" in reason_codes(facts)


def test_code_moved_and_made_private_on_the_way_is_a_move(store: Store) -> None:
    assert "move-only" in reason_codes(stored_facts(store, REPO, PRIVATE_MOVE))
