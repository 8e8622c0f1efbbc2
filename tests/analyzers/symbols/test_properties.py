"""Property tests: no input text, contents or patch, makes symbol extraction crash."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.symbols import extract_symbol_changes
from prdigest.analyzers.symbols.excerpts import choose_excerpts
from prdigest.analyzers.symbols.hunk_headers import symbols_from_hunks
from prdigest.analyzers.symbols.languages import GRAMMARS
from prdigest.analyzers.symbols.trim import trim_lines
from prdigest.diff import Line, parse_patch
from prdigest.models.pullrequest import FileChange, PullRequest

PATHS = ["m.py", "k.cu", "a.cpp", "h.h", "c.c", "s.go", "l.rs", "x.js", "y.ts", "z.tsx", "ci.yaml"]
# Code-ish alphabet so definitions, braces and indentation actually occur.
CODE = st.text(
    alphabet=st.sampled_from([*list("defclasfnuctio(){}[]:;<>*&=,.#@ \t\n\r\"'_xyzAB0123\\"), "�", "é", "\x00"]),
    max_size=400,
)
ANY_TEXT = st.text(max_size=400)


def patch_of(before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), n=2)
    return "".join(list(lines)[2:])


def with_newline(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(PATHS), before=st.one_of(CODE, ANY_TEXT), after=st.one_of(CODE, ANY_TEXT))
def test_arbitrary_contents_never_crash(path: str, before: str, after: str) -> None:
    before, after = with_newline(before.replace("\r", "")), with_newline(after.replace("\r", ""))
    change = FileChange(path=path, patch=patch_of(before, after), content_before=before, content_after=after)
    symbols = extract_symbol_changes(change)
    for symbol in symbols:
        assert symbol.name
        assert symbol.method == "tree-sitter"
        assert symbol.start_line is None or symbol.start_line >= 1
    # The same change without contents goes through the hunk-header fallback.
    assert all(
        s.method == "hunk-header"
        for s in extract_symbol_changes(change.model_copy(update={"content_before": None, "content_after": None}))
    )
    pr = PullRequest(repository="o/r", number=1, title="t", files=[change])
    for excerpt in choose_excerpts(pr, [path], symbols):
        assert all(line[:1] in {"+", "-", " "} for line in excerpt.text.split("\n"))


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(PATHS), patch=st.one_of(ANY_TEXT, CODE), before=ANY_TEXT, after=ANY_TEXT)
def test_arbitrary_patch_text_never_crashes(path: str, patch: str, before: str, after: str) -> None:
    for text in (patch, "@@ -1,2 +1,2 @@ " + patch):
        change = FileChange(path=path, patch=text, content_before=before, content_after=after)
        extract_symbol_changes(change)
        extract_symbol_changes(change.model_copy(update={"content_before": None, "content_after": None}))
        pr = PullRequest(repository="o/r", number=1, title="t", files=[change])
        choose_excerpts(pr, [path], [])


DEFINITION_LINES = st.sampled_from(
    [
        "def f(x):",
        "class A(B):",
        "    def m(self):",
        "        async def inner():",
        "fn g() {",
        "    pub fn h(&self) -> u32 {",
        "impl<T> Display for Box<T> {",
        "func (s *Server) Start() error {",
        "type S struct {",
        "int Foo::bar(int x) {",
        "__global__ void k(float* x) {",
        "struct P {",
        "export const h = (a) => a;",
        "  method(a) {",
        "}",
        "",
    ]
)
hunk_lines = st.lists(
    st.tuples(
        st.sampled_from(["+", "-", " "]),
        st.one_of(DEFINITION_LINES, CODE.map(lambda t: t.replace("\n", "").replace("\r", ""))),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(
    key=st.sampled_from(sorted(GRAMMARS)),
    header=st.one_of(DEFINITION_LINES, CODE.map(lambda t: t.replace("\n", "").replace("\r", ""))),
    lines=hunk_lines,
)
def test_well_formed_hunks_with_arbitrary_lines(key: str, header: str, lines: list[tuple[str, str]]) -> None:
    old = sum(1 for origin, _ in lines if origin != "+")
    new = sum(1 for origin, _ in lines if origin != "-")
    text = f"@@ -1,{old} +1,{new} @@ {header}\n" + "".join(f"{o}{t}\n" for o, t in lines)
    hunks = parse_patch(text).hunks
    if lines:
        assert len(hunks) == 1
        assert hunks[0].added == sum(1 for o, _ in lines if o == "+")
    for symbol in symbols_from_hunks("f", hunks, key):
        assert symbol.name
        assert symbol.method == "hunk-header"
        assert symbol.change in {"added", "removed", "modified"}


@given(origins=st.lists(st.sampled_from(["+", "-", " "]), max_size=200), max_lines=st.integers(-2, 60))
def test_trim_bounds_and_order(origins: list[str], max_lines: int) -> None:
    lines = [Line(o, "x", i, i) for i, o in enumerate(origins)]
    trimmed = trim_lines(lines, max_lines)
    assert len(trimmed.indices) <= max(max_lines, 1)
    assert list(trimmed.indices) == sorted(set(trimmed.indices))
    changed = {i for i, o in enumerate(origins) if o != " "}
    assert trimmed.truncated == (not changed <= set(trimmed.indices))
    if changed:
        assert changed & set(trimmed.indices)
