"""Without a summary sentence in the body, the English one-liner is built from the facts, as the
Chinese one is: what changed, and why when the facts know it (the class of bug fixed, the issue
the author says it fixes); never the title again, never filler. On a real git history."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/pool"
CRASH, PLAIN, COMMENT, DROP, RETIRE, SETTINGS, USAGE, SQUASHED, ACTION = 1, 2, 3, 4, 5, 6, 7, 8, 9
PINS = 10
WORKFLOW = "on: [push]\njobs:\n  test:\n    steps:\n      - uses: actions/checkout@{ref}\n      - run: tox\n"
GUARDED = "def connect(host):\n    if not host:\n        raise ValueError('no host')\n    return host\n"
PORTED = GUARDED + "\n\ndef port(value):\n    return int(value)\n"
CACHED = (
    "class Pool:\n    def get(self, key):\n        return self.cache(key)\n\n"
    + "    def cache(self, key):\n        return key\n"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("pool")
    repo = GitRepoBuilder(root / "repo")
    repo.commit(
        {
            "README.md": "# pool\n",
            "requirements.txt": "alpha>=1\nbeta>=1\ngamma>=1\n",
            "src/pool/core.py": "def connect(host):\n    return host\n",
            "src/pool/cache.py": CACHED,
            "tools/check.py": "def check(pool):\n    assert pool.size > 0\n    return True\n",
            ".github/workflows/test.yml": WORKFLOW.format(ref="v4"),
        },
        "Initial",
    )
    repo.squash_pr(CRASH, "Fix crash on an empty host", {"src/pool/core.py": GUARDED}, body="Fixes #3.")
    repo.squash_pr(PLAIN, "Name the port", {"src/pool/core.py": PORTED})
    repo.squash_pr(
        COMMENT, "Drop stray spaces", {"src/pool/core.py": PORTED.replace("def port", "#  Ports.\ndef port")}
    )
    uncached = "class Pool:\n    def get(self, key):\n        return key\n"
    repo.squash_pr(DROP, "Drop the key cache", {"src/pool/cache.py": uncached})
    repo.squash_pr(RETIRE, "Retire the check tool", {"tools/check.py": None, "setup.cfg": "[metadata]\nname = pool\n"})
    settings = {f"conf/{name}.toml": f"[{name}]\nlevel = 1\n" for name in ("a", "b", "c", "d", "e")}
    repo.squash_pr(SETTINGS, "Split the settings", settings)
    usage = "# Usage\n\n```python\nr = pool.get(1)\nassert r == 1\n```\n"
    repo.squash_pr(USAGE, "Show how to get", {"docs/usage.md": usage, "src/pool/core.py": PORTED + "# done\n"})
    squashed = "* Parse the port as a number\n\n* Reject a port outside the valid range of values\n"
    ranged = PORTED.replace("return int(value)", "port = int(value)\n    assert 0 < port < 65536\n    return port")
    repo.squash_pr(SQUASHED, "Parse the port as a number", {"src/pool/core.py": ranged}, body=squashed)
    repo.squash_pr(
        ACTION, "Bump actions/checkout from 4 to 5", {".github/workflows/test.yml": WORKFLOW.format(ref="v5")}
    )
    repo.squash_pr(PINS, "Raise three pins", {"requirements.txt": "alpha>=2\nbeta>=2\ngamma>=2\n"})
    return analyzed_history(repo, REPO, root / "pool.db")


def _one_line(store: Store, number: int, lang: str) -> str:
    return facts_clause(report_for(store, REPO, number, CATALOG.lang(lang), "full", None).summary.one_line)


def test_the_one_liner_says_what_changed_and_why(store: Store) -> None:
    en = _one_line(store, CRASH, "en")
    assert en != "Fix crash on an empty host"
    assert en.startswith("Fixes `connect` in ")
    assert ", which resolves a crash (#3)" in en
    zh = _one_line(store, CRASH, "zh")
    assert "以解决崩溃（#3）" in zh


def test_without_a_known_why_it_says_what_changed(store: Store) -> None:
    en = _one_line(store, PLAIN, "en")
    assert en != "Name the port"
    assert "`port`" in en
    assert "resolves" not in en


def test_a_comment_edit_is_said_to_be_one_whatever_the_title(store: Store) -> None:
    en = _one_line(store, COMMENT, "en")
    assert en == "Edits comments, docstrings or formatting in `src/pool/core.py`"


def test_the_titles_verb_names_only_the_symbols_that_bear_it_out(store: Store) -> None:
    en = _one_line(store, DROP, "en")
    assert en.startswith("Removes `Pool.cache` in ")
    assert "Pool.get" not in en.split(":")[0]


def test_what_a_deleted_file_held_is_not_told_as_an_edit(store: Store) -> None:
    en = _one_line(store, RETIRE, "en")
    assert "assertion" not in en, en
    assert "pool.size" not in _one_line(store, RETIRE, "zh")


def test_more_files_counts_the_rest_in_english_and_all_in_chinese(store: Store) -> None:
    # one name and the count: "`a`, `b` and 3 more files" is a list of five
    assert _one_line(store, SETTINGS, "en").endswith("the configuration `conf/a.toml` and 4 more files")
    assert _one_line(store, SETTINGS, "zh").endswith("`conf/a.toml` 等 5 个文件")


def test_code_in_documentation_is_not_told_as_an_edit(store: Store) -> None:
    assert "assert" not in _one_line(store, USAGE, "en")
    assert "assert" not in _one_line(store, USAGE, "zh")


def test_a_body_sentence_that_repeats_the_title_is_no_summary(store: Store) -> None:
    report = report_for(store, REPO, SQUASHED, CATALOG.lang("en"), "full", None)
    assert "“Parse the port as a number" not in report.summary.one_line  # the title leads, unquoted
    assert "`port`" in facts_clause(report.summary.one_line)
    assert "Parse the port as a number" not in report.motivation
    assert "Reject a port outside the valid range of values" in report.motivation


def test_a_ci_action_bump_says_which_action_moved_where(store: Store) -> None:
    assert _one_line(store, ACTION, "en") == "Moves the CI action `actions/checkout` from `v4` to `v5`"
    assert _one_line(store, ACTION, "zh") == "将 CI 动作 `actions/checkout` 由 `v4` 改为 `v5`"


def test_three_dependencies_are_one_named_and_a_count(store: Store) -> None:
    en = _one_line(store, PINS, "en")
    assert "`alpha`" in en, en
    assert "`beta`" not in en
    assert "`gamma`" not in en
    assert "3" in en
