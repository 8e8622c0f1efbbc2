"""Build real git repositories in temp dirs for tests.

    from tests.helpers.gitrepo import GitRepoBuilder

    repo = GitRepoBuilder(tmp_path / "repo")          # git init -b main, user config ignored
    repo.commit({"README.md": "# demo\\n"}, "Initial commit")
    repo.squash_pr(12, "Fix the cache", {"cache.py": "x = 2\\n"}, body="Fixes #3.",
                   co_authors=[("Bo", "bo@example.com")])
    repo.merge_pr(13, "alice/feature", "Add feature", {"feature.py": "..."})
    repo.create_pull_ref(14, {"wip.py": "..."})       # refs/pull/14/head, main unchanged
    repo.set_origin("https://github.com/example-org/example-project.git")
    big = write_synthetic_history(tmp_path / "big", prs=500)   # git fast-import, seconds

``files`` map paths to str/bytes contents, None deletes. Times start at 2024-01-01 09:00 UTC
and advance one hour per commit unless ``date=`` is given, so SHAs are reproducible.
``repo.git(...)`` runs any git command in the repository and returns its stdout.

The builder lives in ``prdigest.demo.builder`` (the README demo uses it too); this module is
the stable import path for tests.
"""

from __future__ import annotations

from prdigest.demo.builder import DEFAULT_AUTHOR, DEFAULT_START, Files, Identity, RepoBuilder
from prdigest.demo.synthetic import write_synthetic_history


class GitRepoBuilder(RepoBuilder):
    """A ``RepoBuilder`` for tests; see the module docstring for the API."""


__all__ = ["DEFAULT_AUTHOR", "DEFAULT_START", "Files", "GitRepoBuilder", "Identity", "write_synthetic_history"]
