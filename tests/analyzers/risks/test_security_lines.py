"""What makes a line security-sensitive: running code from a string (``eval``/``exec`` called
bare, Python's builtins or node's child_process ``exec``), not a method of that name
(``model.eval()`` switches a network to inference, ``vim.eval(...)`` reads an editor setting,
``regexp.exec(text)`` matches a regular expression); and a type declaration runs nothing.
Seen on real histories: black's Vim plugin (16 lines) and axios' regular expressions (9)."""

from __future__ import annotations

import pytest

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.pullrequest import FileChange, PullRequest


def _tags(path: str, line: str) -> set[str]:
    change = FileChange(path=path, additions=1, patch=f"@@ -0,0 +1,1 @@\n+{line}\n")
    pr = PullRequest(repository="acme/tool", number=3, title="Change the tool", files=[change])
    return {tag.tag for tag in run_all(pr, default_registry(), AnalysisContext()).risks.tags}


@pytest.mark.parametrize(
    ("path", "line", "sensitive"),
    [
        ("src/tool/run.py", "result = eval(expression)", True),
        ("src/tool/run.py", "exec(compile(source, path, 'exec'))", True),
        ("lib/release.js", "const {stdout} = await exec(`git tag ${name}`);", True),
        ("src/tool/model.py", "model.eval()", False),
        ("src/tool/wrapper.py", "    def eval(self):", False),
        ("plugin/tool.vim", 'length = int(vim.eval("g:tool_line_length"))', False),
        ("lib/parse.js", "while ((match = pattern.exec(text)) !== null) {", False),
        ("index.d.ts", "  password: string;", False),
        ("lib/auth.js", "  const password = config.auth.password || '';", True),
    ],
)
def test_what_runs_code_or_handles_secrets(path: str, line: str, sensitive: bool) -> None:
    assert ("security-sensitive" in _tags(path, line)) is sensitive
