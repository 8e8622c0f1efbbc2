"""A test server kept beside the tests (no test path names it) is test code: a real history
synced from its clone and analyzed by the CLI, where only tests import ``mockserver/``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/fetcher"
CLIENT = "def fetch(url):\n    return url.strip()\n"
SERVER = (
    "import pytest\n\nfrom fetcher.client import fetch\n\n\n"
    "class ServerCase:\n    def start(self):\n        return fetch(' http://127.0.0.1 ')\n"
)


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit(
        {
            "README.md": "# fetcher\n",
            "src/fetcher/__init__.py": "",
            "src/fetcher/client.py": CLIENT,
            "mockserver/__init__.py": "",
            "mockserver/case.py": SERVER,
            "test/test_client.py": (
                "from mockserver.case import ServerCase\n\n\ndef test_start():\n    ServerCase().start()\n"
            ),
        },
        "Initial commit",
    )
    slower = SERVER.replace("return fetch(' http://127.0.0.1 ')", "return fetch(' http://127.0.0.1:8080 ')")
    repo.squash_pr(1, "Serve the test server on a fixed port", {"mockserver/case.py": slower})
    return repo


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str]:
    root = tmp_path_factory.mktemp("support")
    history = _history(root / "repo")
    db = root / "db.sqlite"
    run = Cli(root / "home")
    run("sync", "git", history.path, "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    facts = json.loads(run("facts", f"{REPO}#1", "--db", db, "--json").stdout)
    return facts, run("report", f"{REPO}#1", "--lang", "en", "--db", db).stdout


def test_the_test_server_is_test_support_not_core_logic(analyzed: tuple[dict[str, object], str]) -> None:
    facts, _report = analyzed
    files = facts["files"]
    assert isinstance(files, dict)
    server = next(f for f in files["files"] if f["path"] == "mockserver/case.py")
    assert (server["category"], server["type"], server["module"]) == ("test", "test", "test support")
    tests_ci = facts["tests_ci"]
    assert isinstance(tests_ci, dict)
    assert tests_ci["source_changed"] is False  # no product code changed, so no test is owed


def test_the_report_does_not_tell_the_test_server_as_behaviour_users_meet(
    analyzed: tuple[dict[str, object], str],
) -> None:
    _facts, report = analyzed
    assert "core logic" not in report.lower()
    assert "users may" not in report.lower()


def test_the_one_liner_calls_the_helpers_no_tests(analyzed: tuple[dict[str, object], str]) -> None:
    _facts, report = analyzed
    line = next(row for row in report.splitlines() if row.startswith("- In one line:"))
    assert "changes the code the tests run on, `mockserver/case.py`" in line
    assert "adds the tests" not in line.lower()
