"""What a shell script does, as steps: the commands it runs in order, read from its syntax tree
(tree-sitter's bash grammar), for a report to say "runs `pip install …`, then `python -c …`,
then if `[ … ]`: `pip uninstall …`" instead of "new file (+39)".

A new script is told by its steps; a changed one by the commands it gained and lost (the two
sides compared as command lists, so a command that only moved is neither). Bookkeeping
commands (``echo``, ``set -e``, ``cd``) are not steps. Nothing is inferred: each step is a
command of the file, with its line.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache

import tree_sitter
import tree_sitter_bash

from prdigest.models.facts import CodeEdit
from prdigest.models.pullrequest import FileChange
from prdigest.models.states import FileStatus

SHELL_SUFFIXES = (".sh", ".bash")
MAX_STEPS = 8  # a report names the first ones; the rest are counted
MAX_CHANGED = 4
_CLIP = 100
# Commands that prepare or report rather than do: not steps of what the script does.
_BOOKKEEPING = frozenset(
    {"echo", "printf", "set", "shopt", "cd", "pushd", "popd", "exit", "return", "true", "false", ":", "shift",
     "trap", "read", "sleep", "local", "unset", "source", "."}
)  # fmt: skip
# Statements told whole (their text is the step); every other node is looked into.
_LEAVES = frozenset(
    {"command", "pipeline", "list", "variable_assignment", "declaration_command", "redirected_statement",
     "subshell", "test_command", "negated_command"}
)  # fmt: skip
_SKIPPED = frozenset({"function_definition", "comment"})


@dataclass(frozen=True)
class Step:
    """One step: a command (`run`), or a condition with the commands of its branches."""

    line: int
    run: str = ""
    condition: str = ""
    then: tuple[str, ...] = ()
    otherwise: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        if not self.condition:
            return {"run": self.run, "line": self.line}
        return {"if": self.condition, "then": list(self.then), "else": list(self.otherwise), "line": self.line}


@cache
def _parser_language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_bash.language())


def is_shell_script(path: str) -> bool:
    return path.lower().endswith(SHELL_SUFFIXES)


def _text(node: tree_sitter.Node, source: bytes) -> str:
    text = " ".join(source[node.start_byte : node.end_byte].decode("utf-8", "replace").replace("\\\n", " ").split())
    return text if len(text) <= _CLIP else text[: _CLIP - 1].rstrip() + "…"


def _command_name(node: tree_sitter.Node, source: bytes) -> str:
    name = node.child_by_field_name("name")
    return source[name.start_byte : name.end_byte].decode("utf-8", "replace") if name is not None else ""


def _substitutes(node: tree_sitter.Node) -> bool:
    """True when an assignment runs a command (``X=$(python -c …)``): that is a step."""
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if child.type == "command_substitution":
            return True
        stack.extend(child.children)
    return False


def _is_step(node: tree_sitter.Node, source: bytes) -> bool:
    kind = node.type
    if kind == "command":
        return _command_name(node, source) not in _BOOKKEEPING
    if kind in ("variable_assignment", "declaration_command"):
        return _substitutes(node)
    if kind == "redirected_statement":
        body = node.child_by_field_name("body")
        return body is not None and _is_step(body, source)
    return kind in ("pipeline", "list", "subshell")


def _commands(nodes: list[tree_sitter.Node], source: bytes) -> list[tuple[int, str]]:
    """Every step-worthy command among `nodes` and inside them, in order, branches and loops
    flattened. Function bodies are skipped: a function runs where it is called, and that call
    is a command."""
    found: list[tuple[int, str]] = []
    for node in nodes:
        if node.type in _SKIPPED:
            continue
        if node.type in _LEAVES:
            if _is_step(node, source):
                found.append((node.start_point[0] + 1, _text(node, source)))
        else:
            found.extend(_commands(node.named_children, source))
    return found


def _if_step(node: tree_sitter.Node, source: bytes) -> Step | None:
    condition = node.child_by_field_name("condition")
    branches = [c for c in node.named_children if condition is None or c.start_byte != condition.start_byte]
    then = _commands([c for c in branches if c.type not in ("else_clause", "elif_clause")], source)
    otherwise = _commands([c for c in branches if c.type in ("else_clause", "elif_clause")], source)
    if not then and not otherwise:
        return None
    return Step(
        line=node.start_point[0] + 1,
        condition=_text(condition, source) if condition is not None else "",
        then=tuple(run for _, run in then),
        otherwise=tuple(run for _, run in otherwise),
    )


def script_steps(text: str) -> list[Step]:
    """The script's steps in order: its commands, and each top-level ``if`` as one step."""
    source = text.encode("utf-8", "replace")
    tree = tree_sitter.Parser(_parser_language()).parse(source)
    steps: list[Step] = []
    for node in tree.root_node.named_children:
        if node.type == "if_statement":
            step = _if_step(node, source)
            if step is not None:
                steps.append(step)
        else:
            steps.extend(Step(line=line, run=run) for line, run in _commands([node], source))
    return steps


def _all_commands(text: str) -> list[tuple[int, str]]:
    source = text.encode("utf-8", "replace")
    tree = tree_sitter.Parser(_parser_language()).parse(source)
    return _commands(tree.root_node.named_children, source)


def _missing_from(side: list[tuple[int, str]], other: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The commands of `side` that `other` does not have (as many times as they are missing)."""
    left = Counter(run for _, run in other)
    missing = []
    for line, run in side:
        if left[run] > 0:
            left[run] -= 1
        else:
            missing.append((line, run))
    return missing


def shell_edits(change: FileChange, told_lines: set[int] | None = None) -> list[CodeEdit]:
    """A new script's steps, or the commands a changed script gained and lost; nothing when
    the file's text is not known, nor when each gained command stands on a line another edit
    already tells (`told_lines`: a regex changed in it) and as many were lost."""
    if change.binary or not is_shell_script(change.path):
        return []
    if change.status == FileStatus.ADDED:
        if change.content_after is None:
            return []
        steps = script_steps(change.content_after)
        if not steps:
            return []
        shown = steps[:MAX_STEPS]
        params = {
            "steps": json.dumps([s.as_json() for s in shown], ensure_ascii=False),
            "more": str(len(steps) - len(shown)),
            "first": str(steps[0].line),
            "last": str(steps[-1].line),
        }
        return [CodeEdit(kind="script-steps", path=change.path, line=steps[0].line, params=params, count=len(steps))]
    if change.status != FileStatus.MODIFIED or change.content_before is None or change.content_after is None:
        return []
    before, after = _all_commands(change.content_before), _all_commands(change.content_after)
    gained, lost = _missing_from(after, before), _missing_from(before, after)
    if not gained and not lost:
        return []
    if told_lines and len(gained) == len(lost) and all(line in told_lines for line, _ in gained):
        return []
    params = {
        "added": json.dumps([run for _, run in gained[:MAX_CHANGED]], ensure_ascii=False),
        "removed": json.dumps([run for _, run in lost[:MAX_CHANGED]], ensure_ascii=False),
        "more": str(max(0, len(gained) - MAX_CHANGED) + max(0, len(lost) - MAX_CHANGED)),
    }
    line = gained[0][0] if gained else lost[0][0]
    return [CodeEdit(kind="script-commands-changed", path=change.path, line=line, params=params)]
