"""No code edit that can contradict its line (issue 26): each `CodeEditKind` is fed a change
that makes it, and a near miss (a line that looks alike: re-indented, re-spaced, moved, the
same pattern respelled) that must not. Edits are read by `code_edits`, as the symbols analyzer
reads them; the regex direction gets its own pairs, since "widens" and "narrows" are claims."""

from __future__ import annotations

import typing
from dataclasses import dataclass

import pytest
from tests.helpers.patches import file_change

from prdigest.analyzers.symbols.edits import code_edits
from prdigest.models.facts import CodeEditKind
from prdigest.models.pullrequest import FileChange

GUARDED = "import sys\n\ntry:\n    import cupy\nexcept ImportError:\n    cupy = None\n\n\ndef f():\n    return cupy\n"
PLAIN = "import sys\n\nimport cupy\n\n\ndef f():\n    return cupy\n"
ON_LINUX = GUARDED.replace("try:", "if sys.platform == 'linux':").replace("except ImportError:", "else:")
# the import made unconditional, and a check about something else in the same file
UNRELATED_CHECK = PLAIN.replace("\n\n\ndef f", "\n\nif sys.platform == 'win32':\n    SEP = '\\\\'\n\n\ndef f")
# the guarded import re-indented into a block of the same try: still guarded
QUIET_GUARD = GUARDED.replace("import sys\n", "import sys\nimport warnings\n").replace(
    "    import cupy\n",
    "    with warnings.catch_warnings():\n        warnings.simplefilter('ignore')\n        import cupy\n",
)
WIN_CHECK = "\n\nif sys.platform == 'win32':\n    SEP = '\\\\'\n"
REGEX = 'import re\n\nPAT = re.compile(r"^pkg\\[cu13\\]>=")\n'
CHECKED = 'int f(int x) {\n  TORCH_CHECK(x > 0, "x must be positive");\n  return x;\n}\n'
UNCHECKED = "int f(int x) {\n  return x;\n}\n"
ASSERTED = "def f(x):\n    assert x > 0\n    return x\n"
BARE = "def f(x):\n    return x\n"
CACHED = "import functools\n\n\n@functools.lru_cache(maxsize=1)\ndef f(a, b=1):\n    return a + b\n"
UNCACHED = "import functools\n\n\ndef f(a, b=1):\n    return a + b\n"
RAISES = "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n    return x\n"
CATCHES = "def f(x):\n    try:\n        return g(x)\n    except KeyError:\n        return None\n"
CALLS = "def f(x):\n    setup(x)\n    run(x)\n    return x\n"
RUNS = "def f(x):\n    run(x)\n    return x\n"
JS_CALLS = "function f(x) {\n  setup(x);\n  run(x);\n  return x;\n}\n"
REWRITE = "X = 1\nREQ = REQ.replace('humming-kernels[cu13]', 'humming-kernels[cu12]')\n"
SCRIPT = "#!/bin/sh\nset -e\npip install a\npytest\n"
WORKFLOW = (
    "name: ci\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
    "      - uses: actions/checkout@v4\n      - name: Test\n        run: pytest\n"
)
LINT = "      - name: Lint\n        run: ruff check .\n"


def py(before: str, after: str, path: str = "pkg/a.py") -> FileChange:
    return file_change(path, before, after)


@dataclass(frozen=True)
class Case:
    kind: CodeEditKind
    makes: FileChange  # a change that shows the edit
    params: dict[str, str]  # ... with these params (a subset of the edit's)
    near_miss: FileChange  # looks alike and does not
    why: str


CASES = [
    Case(
        "import-guard-to-platform-check",
        py(GUARDED, ON_LINUX),
        {"module": "cupy", "check": "sys.platform == 'linux'"},
        py(GUARDED, UNRELATED_CHECK),
        "a check that imports nothing replaces no guard",
    ),
    Case(
        "import-guard-added",
        py(PLAIN, GUARDED),
        {"module": "cupy"},
        py(GUARDED, QUIET_GUARD),
        "a guarded import re-indented under `with` was guarded already",
    ),
    Case(
        "import-guard-removed",
        py(GUARDED, PLAIN),
        {"module": "cupy"},
        py(GUARDED, QUIET_GUARD),
        "... and is still guarded",
    ),
    Case(
        "platform-check-added",
        py(PLAIN, PLAIN + WIN_CHECK),
        {"check": "sys.platform == 'win32'"},
        py(PLAIN + WIN_CHECK, PLAIN + WIN_CHECK.replace("sys.platform == 'win32'", 'sys.platform=="win32"')),
        "the same check re-spaced and re-quoted",
    ),
    Case(
        "regex-changed",
        py(REGEX, REGEX.replace(">=", "")),
        {"before": "^pkg\\[cu13\\]>=", "after": "^pkg\\[cu13\\]"},
        py('import re\n\nPAT = re.compile(r"a+b")\n', "import re\n\nPAT = re.compile(r'a+b')\n"),
        "the same pattern in other quotes",
    ),
    Case(
        "assertion-removed",
        py(CHECKED, UNCHECKED, "csrc/a.cpp"),
        {"code": 'TORCH_CHECK(x > 0, "x must be positive");'},
        py(CHECKED, CHECKED.replace("TORCH_CHECK(x > 0, ", "TORCH_CHECK(\n      x>0,\n      "), "csrc/a.cpp"),
        "an assertion re-spaced and re-wrapped onto three lines",
    ),
    Case(
        "assertion-added",
        py(BARE, ASSERTED),
        {"code": "x > 0"},
        py(ASSERTED, ASSERTED.replace("assert x > 0", "assert (x>0)")),
        "an assertion only reformatted",
    ),
    Case(
        "decorator-applied",
        py(UNCACHED, CACHED),
        {"decorator": "functools.lru_cache", "function": "f"},
        py(CACHED, CACHED.replace("maxsize=1", "maxsize = 1")),
        "a decorator re-spaced",
    ),
    Case(
        "decorator-removed",
        py(CACHED, UNCACHED),
        {"decorator": "functools.lru_cache", "function": "f"},
        py("@a\n@b\ndef f():\n    return 1\n", "@b\n@a\ndef f():\n    return 1\n"),
        "decorators in another order",
    ),
    Case(
        "parameter-added",
        py(UNCACHED, UNCACHED.replace("b=1)", "b=1, c=2)")),
        {"function": "f", "parameter": "c"},
        py(UNCACHED, UNCACHED.replace("(a, b=1)", "(a: int, b: int = 1)")),
        "parameters annotated",
    ),
    Case(
        "parameter-removed",
        py(UNCACHED, UNCACHED.replace("(a, b=1)", "(a)").replace("a + b", "a")),
        {"function": "f", "parameter": "b"},
        py("def f(a, b):\n    return a - b\n", "def f(b, a):\n    return a - b\n"),
        "parameters in another order",
    ),
    Case(
        "default-changed",
        # a sentinel for None is a default changed: callers that passed nothing now get it
        py(UNCACHED.replace("b=1", "b=None"), UNCACHED.replace("b=1", "b=_UNSET")),
        {"function": "f", "parameter": "b", "before": "None", "after": "_UNSET"},
        py("def f(a, b=1000, c='x'):\n    return a\n", 'def f(a, b=1_000, c="x"):\n    return a\n'),
        "the same defaults spelled otherwise",
    ),
    Case(
        "constant-changed",
        py("TIMEOUT = 10\n", "TIMEOUT = 30\n"),
        {"name": "TIMEOUT", "before": "10", "after": "30"},
        py("TIMEOUT = 1000\nLIMIT = 60 * 2\n", "TIMEOUT = 1_000\nLIMIT = 120\n"),
        "the same values spelled otherwise",
    ),
    Case(
        "constant-items-changed",
        py("__all__ = ['a', 'b']\n", "__all__ = ['a', 'b', 'c']\n"),
        {"name": "__all__", "added": "c", "removed": ""},
        py("NAMES = {'a', 'b'}\n", "NAMES = {'b', 'a'}\n"),
        "a set written in another order",
    ),
    Case(
        "raise-added",
        py(BARE, RAISES),
        {"exception": "ValueError"},
        py(RAISES, RAISES.replace("    return x", "    if x > 9:\n        raise ValueError('big')\n    return x")),
        "a second raise of an exception the function raised already",
    ),
    Case(
        "raise-removed",
        py(RAISES, BARE),
        {"exception": "ValueError"},
        py(RAISES, RAISES.replace("'negative'", "'x < 0'")),
        "the message of a raise changed",
    ),
    Case(
        "exception-handler-added",
        py("def f(x):\n    return g(x)\n", CATCHES),
        {"exception": "KeyError"},
        py(
            CATCHES.replace("KeyError", "(KeyError, ValueError)"), CATCHES.replace("KeyError", "(ValueError, KeyError)")
        ),
        "the caught exceptions in another order",
    ),
    Case(
        "exception-handler-removed",
        py(CATCHES, "def f(x):\n    return g(x)\n"),
        {"exception": "KeyError"},
        py(CATCHES, CATCHES.replace("return None", "return {}")),
        "a handler whose body changed still catches",
    ),
    Case(
        "call-added",
        py(RUNS, CALLS),
        {"callee": "setup()", "function": "f"},
        py(CALLS, CALLS.replace("    setup(x)\n    run(x)\n", "    run(x)\n    setup(x)\n")),
        "a call moved to another line of the same function",
    ),
    Case(
        "call-removed",
        py(CALLS, RUNS),
        {"callee": "setup()", "function": "f"},
        py(CALLS, CALLS.replace("setup(x)", "setup(x, fast=True)")),
        "a call whose arguments changed is still made",
    ),
    Case(
        "requirement-rewrite-added",
        py("X = 1\n", REWRITE, "setup.py"),
        {"before": "humming-kernels[cu13]", "after": "humming-kernels[cu12]"},
        py("X = 1\n", "X = 1\nVARIANTS = {'cu12': 'humming-kernels[cu12]'}\n", "setup.py"),
        "a table naming one variant rewrites nothing",
    ),
    Case(
        "requirement-rewrite-removed",
        py(REWRITE, "X = 1\n", "setup.py"),
        {"before": "humming-kernels[cu13]", "after": "humming-kernels[cu12]"},
        py(REWRITE, REWRITE.replace("'", '"'), "setup.py"),
        "the same rewrite in other quotes",
    ),
    Case(
        "script-steps",
        file_change("tools/run.sh", None, SCRIPT),
        {"first": "3", "last": "4"},
        file_change("tools/run.sh", None, "#!/bin/sh\nset -e\necho hello\ncd /tmp\n"),
        "a script of bookkeeping only (set, echo, cd) has no steps",
    ),
    Case(
        "script-commands-changed",
        py(SCRIPT, SCRIPT.replace("pip install a", "uv pip install a"), "tools/run.sh"),
        {"added": '["uv pip install a"]', "removed": '["pip install a"]'},
        py(SCRIPT, "#!/bin/sh\nset -e\npytest\npip install \\\n  a\n", "tools/run.sh"),
        "the same commands in another order, one re-wrapped",
    ),
    Case(
        "ci-run-changed",
        py(WORKFLOW, WORKFLOW.replace("run: pytest", "run: pytest -x"), ".github/workflows/ci.yml"),
        {"before": "pytest", "after": "pytest -x", "jobs": '["t"]'},
        py(WORKFLOW, WORKFLOW.replace("run: pytest", "run: |\n          pytest\n"), ".github/workflows/ci.yml"),
        "the same command as a block scalar",
    ),
    Case(
        "ci-step-added",
        py(WORKFLOW, WORKFLOW + LINT, ".github/workflows/ci.yml"),
        {"job": "t", "steps": '["Lint"]', "run": "ruff check ."},
        py(WORKFLOW, WORKFLOW.replace("name: Test", "name: Run the tests"), ".github/workflows/ci.yml"),
        "a step renamed runs what it ran: neither added nor removed",
    ),
    Case(
        "ci-step-removed",
        py(WORKFLOW + LINT, WORKFLOW, ".github/workflows/ci.yml"),
        {"job": "t", "steps": '["Lint"]'},
        py(WORKFLOW + LINT, WORKFLOW + LINT.replace("Lint", "Lint the code"), ".github/workflows/ci.yml"),
        "... nor is a renamed step removed",
    ),
]

# More near misses of one kind, each a different way to look alike.
MORE_NEAR_MISSES: list[tuple[CodeEditKind, FileChange, str]] = [
    (
        "call-removed",
        py(CALLS, CALLS.replace("    setup(x)\n", "    ok = setup(x)\n")),
        "its result now kept: still called",
    ),
    ("call-removed", py(CALLS, RUNS.replace("return x", "return setup(x)")), "now called in the return: still called"),
    (
        "call-removed",
        py(JS_CALLS, JS_CALLS.replace("  setup(x);", "  const ok = setup(x);"), "pkg/a.js"),
        "the same in JavaScript",
    ),
    (
        "call-added",
        py(CALLS.replace("    setup(x)\n", "    ok = setup(x)\n"), CALLS),
        "it was called before, in an assignment",
    ),
    ("assertion-removed", py(CHECKED, CHECKED.replace("x > 0, ", "x>0,"), "csrc/a.cpp"), "only re-spaced"),
    ("assertion-added", py(CHECKED, CHECKED.replace("x > 0, ", "x>0,"), "csrc/a.cpp"), "only re-spaced"),
]

# Kinds no offline change can make (none today): each with the reason.
NOT_PRODUCIBLE: dict[str, str] = {}


def _edits(change: FileChange, kind: str) -> list[dict[str, str]]:
    return [dict(e.params) for e in code_edits([change], set()) if e.kind == kind]


@pytest.mark.parametrize("case", CASES, ids=[c.kind for c in CASES])
def test_a_change_that_makes_the_edit_gets_it(case: Case) -> None:
    found = _edits(case.makes, case.kind)
    assert any(all(e.get(k) == v for k, v in case.params.items()) for e in found), (case.kind, found)


@pytest.mark.parametrize("case", CASES, ids=[c.kind for c in CASES])
def test_a_near_miss_does_not(case: Case) -> None:
    assert _edits(case.near_miss, case.kind) == [], case.why


@pytest.mark.parametrize(("kind", "change", "why"), MORE_NEAR_MISSES, ids=[m[0] for m in MORE_NEAR_MISSES])
def test_more_near_misses_do_not(kind: CodeEditKind, change: FileChange, why: str) -> None:
    assert _edits(change, kind) == [], why


def test_every_edit_kind_has_a_case() -> None:
    kinds = [c.kind for c in CASES]
    assert len(kinds) == len(set(kinds))
    # a new kind gets its pair here (or a reason in NOT_PRODUCIBLE) before it ships
    assert set(kinds) | set(NOT_PRODUCIBLE) == set(typing.get_args(CodeEditKind))


@pytest.mark.parametrize(
    ("before", "after", "direction"),
    [
        ("^pkg\\[cu13\\]>=", "^pkg\\[cu13\\]", "widened"),  # `>=` dropped: shorter, and matches more
        ("^pkg\\[cu13\\]", "^pkg\\[cu13\\]>=", "narrowed"),
        ("[0-9]+", "[0-9]{1,}", "changed"),  # the same strings: neither
        ("a|b", "[ab]", "changed"),
    ],
)
def test_a_regex_widens_or_narrows_only_by_what_it_matches(before: str, after: str, direction: str) -> None:
    change = py(f'import re\n\nPAT = re.compile(r"{before}")\n', f'import re\n\nPAT = re.compile(r"{after}")\n')
    (edit,) = _edits(change, "regex-changed")
    assert edit["direction"] == direction


def test_a_call_removed_in_javascript_is_still_told() -> None:
    # the near miss above keeps the call in an expression; here it is gone
    removed = py(JS_CALLS, JS_CALLS.replace("  setup(x);\n", ""), "pkg/a.js")
    assert [e["callee"] for e in _edits(removed, "call-removed")] == ["setup()"]
