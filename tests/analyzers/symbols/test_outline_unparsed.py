"""`py_outline.unparsed` writes what `ast.unparse` writes, for every expression."""

from __future__ import annotations

import ast
from pathlib import Path

import prdigest
from prdigest.analyzers.symbols.py_outline import unparsed

_EDGES = """
f(None, True, False, 0, -1, 10**30, 1_000, 0x1F, 1.5, 1e400, 1j, ..., 'a', u'b', b'c', f'{x}', (1, 2), x.y, x[0])
def g(a=None, b=True, c=0x10, d=-2, *, e=..., f=name, g=u"s"): pass
"""


def _expressions(text: str) -> list[ast.expr]:
    return [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.expr)]


def test_names_and_constants_are_written_as_ast_unparse_writes_them() -> None:
    for node in _expressions(_EDGES):
        assert unparsed(node) == ast.unparse(node), ast.dump(node)


def test_every_expression_of_the_projects_own_analyzers_reads_the_same() -> None:
    folder = Path(prdigest.__file__).parent / "analyzers"
    count = 0
    for path in sorted(folder.rglob("*.py")):
        for node in _expressions(path.read_text(encoding="utf-8")):
            assert unparsed(node) == ast.unparse(node), (path, ast.dump(node))
            count += 1
    assert count > 10_000
