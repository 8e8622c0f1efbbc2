"""The verdict and the other analyzers answer the same questions the same way, on a real git
history: one typo rule (the verdict's "typo" and the regression-test check agree), code lines
of a Python file read from its syntax trees (as the regression-test check reads them), and a
dependency cap or pin read by `packaging`, as the dependency analyzer reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.behaviour import ChangedLines, changed_lines, file_changes_behaviour
from prdigest.models.facts import Facts, VerdictLevel
from prdigest.models.pullrequest import FileChange, FileStatus
from prdigest.store import Store

REPO = "example-org/rules"
DOCSTRING, QUERIES, ZH_TYPO, PROSE_GRAMMAR, PARSER_GRAMMAR, COMPATIBLE_CAP, MARKER, RELEASE = 1, 2, 3, 4, 5, 6, 7, 8
EXACT_PIN = 9

_DOC_LINES = [f"    line {i} of the explanation of how tokens are read" for i in range(40)]


def _parser(doc: list[str], keyword: str = "recieve") -> str:
    return "\n".join(
        [
            "def parse(text):",
            '    """Parse the text.',
            "",
            *doc,
            '    """',
            f"    {keyword} = text.split()",
            f"    return {keyword}",
            "",
        ]
    )


def _queries(table: str) -> str:
    names = ("users", "orders", "items", "carts", "prices", "stock")
    return "".join(f'{n.upper()} = """SELECT id, name FROM {table}_{n} WHERE id = ?"""\n' for n in names)


def _grammar(rule: str) -> str:
    return f"RULES = {{\n    'statement': {rule!r},\n}}\n\n\ndef rule(name):\n    return RULES[name]\n"


def _pyproject(requirement: str) -> str:
    return f'[project]\nname = "rules"\nversion = "1.0"\ndependencies = [\n    "{requirement}",\n]\n'


def _history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "README.md": "# rules\n",
            "src/rules/parse.py": _parser(_DOC_LINES),
            "src/rules/queries.py": _queries("shop"),
            "src/rules/grammar.py": _grammar("expr"),
            "pyproject.toml": _pyproject("httpcore>=1.0"),
            "src/rules/__init__.py": '"""Rules."""\n\n__version__ = "1.0"\n',
        },
        "Initial commit",
    )
    reworded = [line.replace("explanation", "description") for line in _DOC_LINES]
    repo.squash_pr(DOCSTRING, "Reword the parser's docstring", {"src/rules/parse.py": _parser(reworded)})
    repo.squash_pr(QUERIES, "Read from the archive tables", {"src/rules/queries.py": _queries("archive")})
    repo.squash_pr(ZH_TYPO, "修正错别字", {"src/rules/parse.py": _parser(reworded, keyword="receive")})
    repo.squash_pr(PROSE_GRAMMAR, "Fix grammar in error messages", {"src/rules/parse.py": _parser(reworded, "words")})
    repo.squash_pr(PARSER_GRAMMAR, "Fix grammar for match statements", {"src/rules/grammar.py": _grammar("match")})
    repo.squash_pr(
        COMPATIBLE_CAP, "Stay on compatible httpcore releases", {"pyproject.toml": _pyproject("httpcore~=1.4")}
    )
    repo.squash_pr(
        MARKER,
        "Require httpcore 1.2 on old Pythons",
        {"pyproject.toml": _pyproject("httpcore>=1.2; python_version < '3.10'")},
    )
    repo.squash_pr(RELEASE, "Release 1.1", {"src/rules/__init__.py": '"""Rules."""\n\n__version__ = "1.1"\n'})
    repo.squash_pr(EXACT_PIN, "Hold httpcore at 1.4.2", {"pyproject.toml": _pyproject("httpcore==1.4.2")})
    repo.set_origin(f"https://github.com/{REPO}.git")
    return repo


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("rules")
    repo = _history(root / "repo")
    return analyzed_history(repo, REPO, root / "rules.db")


def _facts(store: Store, number: int) -> Facts:
    return stored_facts(store, REPO, number)


@pytest.mark.parametrize("number", [ZH_TYPO, PROSE_GRAMMAR, PARSER_GRAMMAR])
def test_the_verdict_and_the_regression_test_check_agree_on_typo_fixes(store: Store, number: int) -> None:
    facts = _facts(store, number)
    typo = "typo" in reason_codes(facts)
    # A code change owes a test exactly when it is no typo fix (no test file changed here).
    assert facts.tests_ci.missing_tests is not typo


def test_a_parser_grammar_is_no_prose_grammar(store: Store) -> None:
    facts = _facts(store, PARSER_GRAMMAR)
    assert "typo" not in reason_codes(facts)
    assert facts.tests_ci.missing_tests
    assert "typo" in reason_codes(_facts(store, ZH_TYPO))
    assert "typo" in reason_codes(_facts(store, PROSE_GRAMMAR))


def test_a_reworded_docstring_has_no_code_line_even_where_the_hunk_hides_its_quotes(store: Store) -> None:
    facts = _facts(store, DOCSTRING)
    assert not facts.tests_ci.missing_tests
    assert "core-change" not in reason_codes(facts)
    assert "comment-only" in reason_codes(facts)
    assert facts.verdict.level is VerdictLevel.SKIP


def test_code_holding_triple_quoted_strings_is_code(store: Store) -> None:
    facts = _facts(store, QUERIES)
    core = next(r for r in facts.verdict.reasons if r.code == "core-change")
    assert core.items[0].params["lines"] == "12"
    assert "comment-only" not in reason_codes(facts)


def test_a_version_constant_is_neither_code_nor_a_comment(store: Store) -> None:
    facts = _facts(store, RELEASE)
    assert not facts.tests_ci.missing_tests
    assert reason_codes(facts) == {"version-only"}
    assert facts.verdict.level is VerdictLevel.SKIP


def test_a_compatible_release_cap_is_a_version_lock(store: Store) -> None:
    facts = _facts(store, COMPATIBLE_CAP)
    decision = next(r for r in facts.verdict.reasons if r.code == "dependency-decision")
    assert decision.items[0].template == "dependency-decision.lock"
    assert decision.items[0].params["package"] == "httpcore"


def test_an_exact_pin_is_worded_as_a_pin_not_a_cap(store: Store) -> None:
    facts = _facts(store, EXACT_PIN)
    decision = next(r for r in facts.verdict.reasons if r.code == "dependency-decision")
    assert decision.items[0].template == "dependency-decision.pin"
    assert decision.items[0].params == {"package": "httpcore", "after": "==1.4.2"}


def test_a_less_than_in_a_marker_is_no_cap(store: Store) -> None:
    facts = _facts(store, MARKER)
    templates = [i.template for r in facts.verdict.reasons for i in r.items]
    assert "dependency-decision.lock" not in templates


def test_no_code_line_is_counted_where_the_syntax_trees_agree() -> None:
    before = '"""Doc."""\n\nVALUE = 1  # one\n'
    after = '"""Doc,\nreworded."""\n\n\n\nVALUE = 1  # the value one\n'
    patch = "".join(
        [
            "@@ -1,3 +1,6 @@\n",
            '-"""Doc."""\n+"""Doc,\n+reworded."""\n \n+\n+\n',
            "-VALUE = 1  # one\n+VALUE = 1  # the value one\n",
        ]
    )
    change = FileChange(
        path="src/m.py", status=FileStatus.MODIFIED, patch=patch, content_before=before, content_after=after
    )
    assert not file_changes_behaviour(change)
    assert changed_lines(change, "python") == ChangedLines(quiet=5, layout=2)
    edited = change.model_copy(
        update={"content_after": after.replace("= 1", "= 2"), "patch": patch.replace("+VALUE = 1", "+VALUE = 2")}
    )
    assert file_changes_behaviour(edited)
    assert changed_lines(edited, "python") == ChangedLines(code=2, quiet=5)


def test_imports_put_in_another_order_change_no_behaviour() -> None:
    before = "import sys\nimport os\nfrom json import loads, dumps\n\nVALUE = os.sep\n"
    after = "import os\nimport sys\nfrom json import dumps, loads\n\nVALUE = os.sep\n"
    patch = (
        "@@ -1,3 +1,3 @@\n-import sys\n import os\n+import sys\n"
        "-from json import loads, dumps\n+from json import dumps, loads\n"
    )
    change = FileChange(
        path="src/m.py", status=FileStatus.MODIFIED, patch=patch, content_before=before, content_after=after
    )
    assert not file_changes_behaviour(change)
    assert changed_lines(change, "python") == ChangedLines(layout=4)
    # another import, not another order: behaviour may change
    added = change.model_copy(
        update={
            "content_after": after.replace("import sys", "import re"),
            "patch": patch.replace("+import sys", "+import re"),
        }
    )
    assert file_changes_behaviour(added)
    # the same import moved into a function: loaded lazily, a change of behaviour
    eager = "import sys\nimport os\n\n\ndef f():\n    return sys\n"
    lazy_patch = "@@ -1,6 +1,6 @@\n-import sys\n import os\n \n \n def f():\n+    import sys\n     return sys\n"
    lazy_after = "import os\n\n\ndef f():\n    import sys\n    return sys\n"
    lazy = change.model_copy(update={"content_before": eager, "content_after": lazy_after, "patch": lazy_patch})
    assert file_changes_behaviour(lazy)


def test_a_go_pointer_assignment_is_code_and_a_block_comments_inner_line_is_not() -> None:
    patch = (
        "@@ -1,6 +1,6 @@\n"
        " /*\n"
        "- * Unix milliseconds.\n"
        "+ * Unix milliseconds, since Go 1.17.\n"
        "  */\n"
        " func set(dest *time.Time, n int64) {\n"
        "-\t*dest = time.Unix(n/1e3, (n%1e3)*1e6) // TODO: time.UnixMilli\n"
        "+\t*dest = time.UnixMilli(n)\n"
        " }\n"
    )
    change = FileChange(path="binder.go", status=FileStatus.MODIFIED, patch=patch)
    assert changed_lines(change, "go") == ChangedLines(code=2, quiet=2)
