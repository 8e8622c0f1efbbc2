"""A file read piece by piece gives what parsing the whole file gives.

The reference is the whole-file parse: its outline (`outline_of_tree`) and its shape (the
dump of the tree without docstrings and version constants, as the behaviour analyzer
compared before pieces). Texts here put the cuts where they could go wrong: inside strings,
between decorators and their function, next to a syntax error, with carriage returns.
"""

from __future__ import annotations

import ast
import io
import tokenize

import pytest

from prdigest.analyzers.symbols.py_outline import Outline, outline_of_tree, parse_module
from prdigest.analyzers.symbols.py_pieces import (
    PieceCache,
    _comment_lines,
    is_docstring,
    is_version_assignment,
    quiet_of,
)

_BASE = '''\
"""Module docstring."""
import sys
__version__ = "1.0"
X = 1


@decorator(
    "arg",
)
@other
def first(a, b=2):
    """Doc."""
    assert a
    if sys.platform == "win32":
        raise ValueError(a)
    return b

TEXT = """
def not_a_function():
class NotAClass:
@not_a_decorator
"""

class Thing:
    """A class."""
    version = "2"
    LIMIT = 3

    def method(self, x):
        try:
            import fast
        except ImportError:
            fast = None
        return x
async def later():
    pass
def last(): return 1; X = 2
'''


def _reference_outline(text: str) -> object:
    tree = parse_module(text)
    return _view(outline_of_tree(tree, text) if tree is not None else None)


def _view(outline: Outline | None) -> object:
    if outline is None:
        return None
    functions = [
        (name, line, fn.params, fn.decorators, fn.asserts, fn.raises, fn.handlers)
        for name, (line, fn) in outline.functions().items()
    ]
    return functions, list(outline.constants().items()), list(outline.guards().items()), list(outline.checks().items())


class _Strip(ast.NodeTransformer):
    """The reference strip: docstrings and version constants out of every class and function."""

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        if body and is_docstring(body[0]):
            body = body[1:]
        return [s for s in body if not is_version_assignment(s)] or [ast.Pass()]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.body = self._body(node.body)
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = self._body(node.body)
        self.generic_visit(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        node.body = self._body(node.body)
        self.generic_visit(node)
        return node


def _reference_dump(text: str) -> str | None:
    tree = parse_module(text)
    if tree is None:
        return None
    body = tree.body[1:] if tree.body and is_docstring(tree.body[0]) else tree.body
    tree.body = [s for s in body if not is_version_assignment(s)]
    return ast.dump(_Strip().generic_visit(tree))


_VARIANTS = [
    _BASE,
    _BASE.replace("return b\n", "return b + 1\n"),
    _BASE.replace('__version__ = "1.0"', '__version__ = "1.1"'),
    _BASE.replace('"""A class."""', '"""Another doc."""'),
    _BASE.replace("def later", "def sooner"),
    _BASE.replace('TEXT = """\n', 'TEXT = (\n"""\n').replace('@not_a_decorator\n"""\n', '@not_a_decorator\n""")\n'),
    _BASE.replace("    pass\n", "    pass\n\n" + "def f(x):\n    return '''\n" + "def g():\n" * 10 + "'''\n"),
    _BASE.replace("class Thing:", "class Thing(:"),  # does not parse
    _BASE.replace("@other\n", "@other\n\n# a comment\n"),
    _BASE.replace("\n", "\r\n"),
    _BASE.replace('"""Module docstring."""\n', ""),
    "",
    "# only a comment\n",
    "def f():\n    pass",  # no newline at the end
]


# A class long enough to be read in parts (`py_pieces._CLASS_PARTS_FROM`): its head, then runs
# of members; cuts inside strings and brackets, a nested class, decorators, members after them.
_LONG = (
    '''\
class Long(Base, metaclass=Meta):
    """Doc.

    def not_a_method():
    """
    LIMIT = 1
    __version__ = "1"

    @property
    def a(self):
        """A."""
        if sys.platform == "win32":
            raise OSError(self)
        return 1

    @decorator(
        "x",
    )
    @other
    def b(self, x):
        try:
            import fast
        except ImportError:
            fast = None
        return """
    def inside_a_string():
"""

    class Inner:
        X = 2

        def c(self):
            assert self
    LIMIT = 2
    async def d(self): ...
    # a comment
    def e(self, *args, **kwargs): pass
'''
    + "".join(f"    def m{i}(self, v{i}):\n        return v{i} if os.name == 'nt' else {i}\n\n" for i in range(20))
    + "X = Long()\n"
)
_VARIANTS += [
    _LONG,
    _LONG.replace("X = Long()\n", ""),
    _LONG.replace("return v3 if", "return -v3 if"),
    _LONG.replace('"""A."""', '"""B."""'),
    _LONG.replace('__version__ = "1"', '__version__ = "2"'),
    _LONG.replace("    def m5(self, v5):", "    def m5(self, v5, w):"),
    _LONG.replace("X = Long()\n", "if X:\n    def f(): pass\nelse:\n    pass\n"),
    _LONG.replace("X = Long()\n", "\ndef after():\n    return Long()\n"),
    _LONG.replace("    LIMIT = 2\n", "    LIMIT = 2\n    '''\n    def in_a_string():\n'''\n"),
    _LONG.replace("    # a comment\n", "    # a comment\n    (\n    def_x) = 1\n"),
    _LONG.replace("X = Long()\n", "").replace('"""Doc.\n\n    def not_a_method():\n    """\n', ""),
]


@pytest.mark.parametrize("text", _VARIANTS)
def test_pieces_read_what_the_whole_file_reads(text: str) -> None:
    cache = PieceCache(max_pieces=64, max_files=4)
    assert _view(cache.outline(text)) == _reference_outline(text)
    for other in _VARIANTS:
        same = _reference_dump(text) == _reference_dump(other)
        shapes = cache.shape(text), cache.shape(other)
        assert (shapes[0] is None) == (_reference_dump(text) is None)
        if None not in shapes:
            assert (shapes[0] == shapes[1]) is same


def test_a_long_class_is_read_in_parts_reused_by_the_next_version() -> None:
    cache = PieceCache(max_pieces=256, max_files=4)
    assert cache.outline(_LONG.replace("X = Long()\n", "")) is not None
    before = len(cache._pieces)
    cache.outline(_LONG.replace("X = Long()\n", "").replace("return v3 if", "return -v3 if"))
    assert len(cache._pieces) - before == 2  # the edited run of members, and the class it makes


def test_a_new_version_reuses_the_pieces_it_did_not_touch() -> None:
    cache = PieceCache(max_pieces=64, max_files=4)
    old = cache.outline(_BASE)
    new = cache.outline(_BASE.replace("return b\n", "return b + 1\n"))
    assert old is not None
    assert new is not None
    kept = {id(group) for _first, group in old.groups}
    shared = [group for _first, group in new.groups if id(group) in kept]
    assert len(shared) == len(new.groups) - 1  # only the edited function's piece is new


def test_a_digest_of_the_shape_ignores_docstrings_and_version_constants() -> None:
    cache = PieceCache(max_pieces=64, max_files=8)
    assert cache.shape(_BASE) == cache.shape(_BASE.replace('"""Doc."""', '"""Changed."""'))
    assert cache.shape(_BASE) != cache.shape(_BASE.replace("return x", "return -x"))


_QUIET_VARIANTS = [
    *_VARIANTS,
    _BASE.replace("    pass\n", "    pass\n\nS = '''\n# not a comment\ndef h():\n    '''\n# a comment\n"),
    _BASE.replace("@other\n", "@other\n\f\n"),  # a form feed: str.splitlines numbers lines differently
    "def f():\n    '''Doc\n\n    more.'''\n    # inside\n    return 1  # after code\n\n\nclass C:\n    'doc'\n",
]


@pytest.mark.parametrize("text", _QUIET_VARIANTS)
def test_quiet_lines_piece_by_piece_are_the_whole_files(text: str) -> None:
    cache = PieceCache(max_pieces=64, max_files=4)
    try:
        whole: frozenset[int] | None = quiet_of(ast.parse(text), text)
    except SyntaxError:
        whole = None
    assert cache.quiet_lines(text) == whole
    assert cache.quiet_lines(text) == whole  # and from the cache


def _tokenized_comment_lines(text: str) -> set[int]:
    """The reference: lines where the tokenizer finds a comment and no other token."""
    layout = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    found: set[int] = set()
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            found.add(token.start[0])
        elif token.type not in layout:
            code.update(range(token.start[0], token.end[0] + 1))
    return found - code


_COMMENT_VARIANTS = [
    *_QUIET_VARIANTS,
    "x = 1  # after code\n# alone\n\t# after a tab\n",
    's = """\n# in a string\n"""  # after it\n# after\n',
    "s = '''a\\'''\n# still in it\n'''\n# out\n",
    's = ("a"\n     # between joined strings\n     "b")\n',
    "s = 'a\\\n# continued single-quoted string'\n# out\n",
    "f = f'{x!r:>{w}}#'  # f\nr = r'\\''  # raw\ng = rb\"\\\"#\"\n# last",
    'd = """\\"""\n# in\n"""\n# out\n',
    "x = [\n    1,  # one\n    # alone in brackets\n]\n",
    "s = '#'\n'''\n#'''\n",
]


@pytest.mark.parametrize("text", _COMMENT_VARIANTS)
def test_comment_lines_are_the_tokenizers(text: str) -> None:
    if parse_module(text) is None:
        return  # only texts that parse are asked
    assert _comment_lines(text) == _tokenized_comment_lines(text)


def test_a_text_read_before_finds_its_pieces_again_or_is_cut_again() -> None:
    cache = PieceCache(max_pieces=64, max_files=4)
    expected = _reference_outline(_BASE)
    assert _view(cache.outline(_BASE)) == expected
    pieces = dict(cache._pieces)
    # The whole-file outline and the recent files let go: the layout finds the same pieces.
    cache._outlines.clear()
    cache._recent.clear()
    assert _view(cache.outline(_BASE)) == expected
    assert cache._pieces == pieces
    # A piece of its layout let go since (the layout's were used last): the text is cut again
    # and that piece read again.
    cache._outlines.clear()
    cache._recent.clear()
    cache._pieces.popitem(last=True)
    assert _view(cache.outline(_BASE)) == expected
    assert cache._pieces.keys() == pieces.keys()
    assert cache.quiet_lines(_BASE) == quiet_of(ast.parse(_BASE), _BASE)


def test_one_text_object_is_digested_once_and_an_equal_one_agrees() -> None:
    cache = PieceCache(max_pieces=64, max_files=4)
    copy = "".join(list(_BASE))  # an equal text, another object
    assert copy is not _BASE
    assert cache.shape(_BASE) == cache.shape(copy)
    assert _view(cache.outline(copy)) == _reference_outline(_BASE)
