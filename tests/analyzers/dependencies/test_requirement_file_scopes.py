"""Who installs a plain requirements file, decided only from the PR's own files, on a real git
history: the file installing the project itself in editable mode (a development checkout,
even when that line is far outside the hunk), a test-/CI-named file, a pyproject.toml of the
PR reading the file as its dependencies; otherwise the scope stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import DependencyChange
from prdigest.store import Store

REPO = "example-org/reqs"
EDITABLE, TEST_NAMED, READ_BY_PYPROJECT, PLAIN = 1, 2, 3, 4

_TOOLS = [f"tool{i}==1.{i}" for i in range(12)]


def _dev_requirements(mypy: str) -> str:
    return "\n".join(["# working copy", "-e .[http2]", "", *_TOOLS, f"mypy=={mypy}", ""])


PYPROJECT = '[project]\nname = "reqs"\nversion = "1.0"\ndependencies = ["idna>=3"]\n'
DYNAMIC = (
    '[project]\nname = "reqs"\nversion = "1.0"\ndynamic = ["dependencies"]\n\n'
    '[tool.setuptools.dynamic]\ndependencies = {file = ["requirements/base.txt"]}\n'
)


def _history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "pyproject.toml": PYPROJECT,
            "requirements.txt": _dev_requirements("1.0"),
            "test-requirements.txt": "pytest==7.0\n",
            "deploy/requirements.txt": "gunicorn==21.0\n",
        },
        "Initial commit",
    )
    repo.squash_pr(EDITABLE, "Bump mypy", {"requirements.txt": _dev_requirements("1.1")})
    repo.squash_pr(TEST_NAMED, "Bump pytest", {"test-requirements.txt": "pytest==7.1\n"})
    repo.squash_pr(
        READ_BY_PYPROJECT,
        "Read the dependencies from a requirements file",
        {"pyproject.toml": DYNAMIC, "requirements/base.txt": "idna>=3\nanyio>=4\n"},
    )
    repo.squash_pr(PLAIN, "Bump gunicorn", {"deploy/requirements.txt": "gunicorn==22.0\n"})
    repo.set_origin(f"https://github.com/{REPO}.git")
    return repo


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("reqs")
    repo = _history(root / "repo")
    return analyzed_history(repo, REPO, root / "reqs.db")


def _change(store: Store, number: int, package: str) -> DependencyChange:
    facts = stored_facts(store, REPO, number)
    found = [c for c in facts.dependencies.changes if c.package == package]
    assert len(found) == 1, facts.dependencies.changes
    return found[0]


def test_a_file_installing_the_project_editable_is_a_development_environment(store: Store) -> None:
    assert _change(store, EDITABLE, "mypy").scope == "dev"


def test_a_test_named_file_is_read_and_scoped_by_its_name(store: Store) -> None:
    change = _change(store, TEST_NAMED, "pytest")
    assert (change.before, change.after, change.scope) == ("pytest==7.0", "pytest==7.1", "dev")


def test_a_file_the_prs_pyproject_reads_as_dependencies_is_run_time(store: Store) -> None:
    assert _change(store, READ_BY_PYPROJECT, "anyio").scope == "runtime"


def test_a_plain_file_nothing_explains_stays_unknown(store: Store) -> None:
    assert _change(store, PLAIN, "gunicorn").scope == "unknown"
