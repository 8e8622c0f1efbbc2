"""Signals of substance that carry across histories (issue 28), on a real git history synced
and analyzed by the CLI: a change to a module much of the code imports says so (from the
import graph read in the clone), a leaf module's change does not; a description that explains
the change and names the code it changes, written as code, is a fact of the verdict; a long
body whose only such name is a plain English word ("the total"), or a short one, is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/signals"
CORE = "def total(values):\n    result = 0\n    for value in values:\n        result += value\n    return result\n"
EXPLAINED = (
    "Sums over an empty generator returned None before this change. The loop in `total` never ran, "
    "and a caller that streamed its values got nothing back, so the report crashed later when it "
    "formatted the figure. The fix starts result at zero and keeps the loop, which is what every "
    "caller of the function already assumed."
)
UNRELATED = (
    "This is a long paragraph about our release process and the way the team plans its work for the "
    "next quarter, which has nothing to do with any particular function or file of the code base, "
    "written only to be long enough that its length alone would pass, and it says the total is right."
)


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    users = {
        f"calc/use_{i}.py": f"from calc.core import total\n\n\ndef f{i}(v):\n    return total(v)\n" for i in range(6)
    }
    repo.commit(
        {
            "README.md": "# calc\n",
            "calc/__init__.py": "",
            "calc/core.py": CORE,
            "calc/leaf.py": CORE,
            "tests/test_core.py": "from calc.core import total\n\n\ndef test_total():\n    assert total([]) == 0\n",
            **users,
        },
        "Initial commit",
    )
    changed = CORE.replace("result += value", "result += value * 1")
    repo.squash_pr(1, "Change total in core", {"calc/core.py": changed})
    repo.squash_pr(2, "Change total in leaf", {"calc/leaf.py": changed})
    fixed = changed.replace("result = 0", "result = 0  # never None")
    repo.squash_pr(3, "Start the sum at zero", {"calc/leaf.py": fixed.replace("* 1", "* 2")}, body=EXPLAINED)
    repo.squash_pr(4, "Tweak the sum", {"calc/leaf.py": fixed.replace("* 1", "* 3")}, body=UNRELATED)
    return repo


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, object]]:
    root = tmp_path_factory.mktemp("signals")
    history = _history(root / "repo")
    db = root / "db.sqlite"
    run = Cli(root / "home")
    run("sync", "git", history.path, "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    found: dict[int, dict[str, object]] = {
        n: json.loads(run("facts", f"{REPO}#{n}", "--db", db, "--json").stdout) for n in (1, 2, 3, 4)
    }
    # the reports' words for the fan-in, by language (key 0 is not a PR)
    found[0] = {lang: run("report", f"{REPO}#1", "--lang", lang, "--db", db).stdout for lang in ("en", "zh")}
    return found


def _reasons(facts: dict[str, object]) -> dict[str, dict[str, object]]:
    verdict = facts["verdict"]
    assert isinstance(verdict, dict)
    return {r["code"]: r for r in verdict["reasons"]}


def test_a_change_to_a_module_six_files_import_says_so(facts: dict[int, dict[str, object]]) -> None:
    fan_in = _reasons(facts[1])["fan-in"]
    params = fan_in["items"][0]["params"]
    assert params["path"] == "calc/core.py"
    assert params["count"] == "6"
    assert len(params["sha"]) == 12
    assert fan_in["weight"] > 0
    # the count leaves the test that imports it out, and the report says so
    en, zh = facts[0]["en"], facts[0]["zh"]
    assert isinstance(en, str)
    assert isinstance(zh, str)
    assert "6 other files of the repository, tests aside, import `calc/core.py`" in en
    assert "除测试外，仓库中另有 6 个文件导入 `calc/core.py`" in zh


def test_a_leaf_modules_change_claims_no_fan_in(facts: dict[int, dict[str, object]]) -> None:
    assert "fan-in" not in _reasons(facts[2])


def test_a_description_that_explains_the_change_is_a_reason(facts: dict[int, dict[str, object]]) -> None:
    explained = _reasons(facts[3])["explained"]
    assert explained["items"][0]["params"]["names"] == ["total"]
    assert int(explained["items"][0]["params"]["length"]) >= 40
    assert "explained" not in _reasons(facts[1])  # no body


def test_a_name_used_only_as_an_english_word_explains_nothing(facts: dict[int, dict[str, object]]) -> None:
    assert "explained" not in _reasons(facts[4])
