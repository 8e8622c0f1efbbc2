"""A lock file is generated, yet what it pins is what gets installed: a PR that moves CI actions
and rewrites the lock (a tool's new major version) is no "CI-only" change."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/locks"
WORKFLOW = (
    "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@{v}\n"
)
LOCK = 'version = 1\n\n[[package]]\nname = "mypy"\nversion = "{v}"\n'


def test_ci_files_beside_a_lock_file_are_not_ci_only(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit(
        {
            "README.md": "# locks\n",
            ".github/workflows/ci.yml": WORKFLOW.format(v="v3"),
            "uv.lock": LOCK.format(v="1.19"),
        },
        "Initial commit",
    )
    repo.squash_pr(1, "Move checkout to v4", {".github/workflows/ci.yml": WORKFLOW.format(v="v4")})
    repo.squash_pr(
        2,
        "Update dev tools, notably mypy 2.0",
        {".github/workflows/ci.yml": WORKFLOW.format(v="v5"), "uv.lock": LOCK.format(v="2.0")},
    )
    store = analyzed_history(repo, REPO, tmp_path / "db.sqlite")
    ci_alone = stored_facts(store, REPO, 1)
    assert ci_alone.tests_ci.ci_only
    assert "ci-only" in reason_codes(ci_alone)
    with_lock = stored_facts(store, REPO, 2)
    assert with_lock.tests_ci.ci_changed
    assert not with_lock.tests_ci.ci_only
    assert "ci-only" not in reason_codes(with_lock)
    assert not any("CI-only" in (f.key_reason or "") for f in with_lock.files.files)
