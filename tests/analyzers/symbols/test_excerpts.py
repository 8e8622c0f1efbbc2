"""Key code excerpts: the most significant hunk of each key file, trimmed and named."""

from __future__ import annotations

from typing import Any

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import build_registry, run_all
from prdigest.analyzers.symbols import ANALYZER, analyze_symbols, choose_excerpts, extract_symbol_changes, run
from prdigest.analyzers.symbols.excerpts import MAX_EXCERPT_LINES
from prdigest.analyzers.symbols.trim import trim_lines
from prdigest.diff import Line
from prdigest.models.facts import FileFact, FilesFacts
from prdigest.models.pullrequest import FileChange


def long_function_change() -> tuple[str, str]:
    """A small edit near the top, and a 60-line rewrite of ``rebuild`` further down."""
    header = "import os\n\n\ndef small():\n    return 1\n\n\n"
    body_before = "".join(f"    step_{i} = {i}\n" for i in range(60))
    body_after = "".join(f"    step_{i} = {i} * 2\n" for i in range(60))
    padding = "".join(f"# note {i}\n" for i in range(10))
    before = header + padding + "def rebuild():\n" + body_before + "    return step_0\n"
    after = header.replace("return 1", "return 2") + padding + "def rebuild():\n" + body_after + "    return step_0\n"
    return before, after


def test_excerpt_picks_largest_hunk_trims_and_names_symbol(build: Any) -> None:
    before, after = long_function_change()
    change = build.file_change("pkg/build.py", before, after)
    pr = build.pull_request(change)
    symbols = extract_symbol_changes(change)
    assert {s.name for s in symbols} == {"small", "rebuild"}
    (excerpt,) = choose_excerpts(pr, ["pkg/build.py"], symbols)
    assert excerpt.symbol == "rebuild"
    assert excerpt.language == "python"
    assert excerpt.truncated is True
    lines = excerpt.text.split("\n")
    assert len(lines) <= MAX_EXCERPT_LINES
    assert all(line[:1] in {"+", "-", " "} for line in lines)
    assert any(line.startswith("+    step_") for line in lines)
    assert any(line.startswith("-    step_") for line in lines)
    assert "rebuild" in excerpt.reason
    assert excerpt.start_line is not None
    assert excerpt.start_line > 10
    # A rewrite shows the start of both sides, old lines before new ones.
    first_added = next(i for i, line in enumerate(lines) if line.startswith("+"))
    assert all(not line.startswith("-") for line in lines[first_added:])
    assert "-    step_0 = 0" in lines
    assert "+    step_0 = 0 * 2" in lines


def test_small_hunk_is_whole_with_context(build: Any) -> None:
    before = "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    return a\n"
    after = before.replace("    c = 3\n", "    c = 30\n")
    change = build.file_change("f.py", before, after)
    (excerpt,) = choose_excerpts(build.pull_request(change), ["f.py"], extract_symbol_changes(change))
    assert (
        excerpt.text
        == " def f():\n     a = 1\n     b = 2\n-    c = 3\n+    c = 30\n     d = 4\n     e = 5\n     return a"
    )
    assert excerpt.truncated is False
    assert excerpt.start_line == 1
    assert excerpt.symbol == "f"
    assert excerpt.reason == "largest change in f (+1/-1)"


def test_removed_function_excerpt(build: Any) -> None:
    before = "import os\n\n\ndef gone():\n    os.remove('x')\n    return None\n\n\nKEEP = 1\n"
    after = "import os\n\n\nKEEP = 1\n"
    change = build.file_change("g.py", before, after)
    symbols = extract_symbol_changes(change)
    (excerpt,) = choose_excerpts(build.pull_request(change), ["g.py"], symbols)
    assert excerpt.symbol == "gone"
    assert excerpt.reason.startswith("removes function gone")


def test_config_file_excerpt_has_no_symbol(build: Any) -> None:
    change = build.file_change("requirements/cuda.txt", "torch==2.9\ncupy<14.1.0\n", "torch==2.9\ncupy!=14.1.0\n")
    (excerpt,) = choose_excerpts(build.pull_request(change), ["requirements/cuda.txt"], [])
    assert excerpt.symbol is None
    assert excerpt.language is None
    assert "-cupy<14.1.0" in excerpt.text
    assert "+cupy!=14.1.0" in excerpt.text


def test_at_most_five_files_in_order_skipping_binary(build: Any) -> None:
    files = [build.file_change(f"m{i}.py", "x = 1\n", f"x = {i + 2}\n") for i in range(7)]
    binary = FileChange(path="w.bin", binary=True)
    pr = build.pull_request(binary, *files)
    excerpts = choose_excerpts(pr, ["w.bin", "missing.py", *[f.path for f in files]], [])
    assert [e.path for e in excerpts] == [f"m{i}.py" for i in range(5)]


def test_trim_keeps_densest_window() -> None:
    lines = [Line(" ", "ctx", i, i) for i in range(1, 101)]
    lines[10] = Line("-", "lone", 11, None)
    for i in range(50, 80):
        lines[i] = Line("+", "dense", None, i + 1)
    window = trim_lines(lines, 40)
    shown = [lines[i] for i in window.indices]
    assert len(shown) <= 40
    assert sum(1 for line in shown if line.kind == "+") == 30
    assert window.truncated is True  # the lone removal is left out
    assert trim_lines(lines[:20], 40).truncated is False


def test_run_reads_key_files_from_files_facts(build: Any) -> None:
    before, after = long_function_change()
    key = build.file_change("pkg/build.py", before, after)
    other = build.file_change("pkg/other.py", "def o():\n    return 1\n", "def o():\n    return 2\n")
    generated = build.file_change("pkg/gen_pb2.py", "def g():\n    pass\n", "def g():\n    return 1\n")
    pr = build.pull_request(key, other, generated)
    files = FilesFacts(
        files=[
            FileFact(path="pkg/build.py", is_key=False),
            FileFact(path="pkg/other.py", is_key=True, key_reason="core"),
            FileFact(path="pkg/gen_pb2.py", generated=True),
        ]
    )
    facts = run(pr, AnalysisContext(results={"files": files}))
    assert {s.name for s in facts.symbols} == {"small", "rebuild", "o"}  # the generated file is skipped
    assert [e.path for e in facts.excerpts] == ["pkg/other.py"]
    assert facts.excerpts[0].symbol == "o"


def test_run_without_key_files_uses_largest_changes(build: Any) -> None:
    before, after = long_function_change()
    big = build.file_change("big.py", before, after)
    tiny = build.file_change("tiny.py", "x = 1\n", "x = 2\n")
    pr = build.pull_request(tiny, big)
    facts = run(pr, AnalysisContext(results={"files": FilesFacts(files=[])}))
    assert [e.path for e in facts.excerpts] == ["big.py", "tiny.py"]
    assert analyze_symbols(pr, ["tiny.py"], set()).excerpts[0].path == "tiny.py"


def test_registered_analyzer_runs_after_the_real_files_analyzer(build: Any) -> None:
    from prdigest.analyzers.files import ANALYZER as FILES_ANALYZER

    before, after = long_function_change()
    change = build.file_change("pkg/build.py", before, after)
    config = build.file_change("requirements/cuda.txt", "cupy<14.1.0\n", "cupy!=14.1.0\n")
    pr = build.pull_request(change, config)
    facts = run_all(pr, build_registry([ANALYZER, FILES_ANALYZER]), AnalysisContext())
    assert {s.name for s in facts.symbols.symbols} == {"small", "rebuild"}
    key_paths = {f.path for f in facts.files.key_files()} or {"pkg/build.py", "requirements/cuda.txt"}
    assert {e.path for e in facts.symbols.excerpts} <= key_paths
    assert any(e.symbol == "rebuild" for e in facts.symbols.excerpts)
    assert facts.analyzer_versions["symbols"] == "4"


def test_patch_only_excerpt_names_symbol_from_hunk_header(build: Any) -> None:
    patch = (
        "@@ -1,2 +1,2 @@ import os\n x = 1\n-y = 2\n+y = 3\n"
        "@@ -40,3 +40,4 @@ def load_weights(self, weights):\n"
        "     a = 1\n-    b = 2\n+    b = 3\n+    c = 4\n     d = 5\n"
    )
    change = build.file_change("m.py", "", "", with_contents=False, patch=patch)
    symbols = extract_symbol_changes(change)
    assert [(s.name, s.method) for s in symbols] == [("load_weights", "hunk-header")]
    (excerpt,) = choose_excerpts(build.pull_request(change), ["m.py"], symbols)
    assert excerpt.symbol == "load_weights"
    assert excerpt.start_line == 40
    assert excerpt.reason == "largest change in load_weights (+2/-1)"
