"""The ``tests_ci`` analyzer: were tests changed with the source, and which CI jobs were touched.

A file is a test by its ``files`` category (a deleted test is listed apart: it is no test
"updated alongside the change"), source when its category is ``source`` (not
generated), CI when it matches the rules' ``ci_paths``. CI job names are read from changed
YAML: for each changed line, the enclosing YAML keys are found by indentation (in the file
contents when the record has them, else in the hunk with its header line), then

- Buildkite: the ``label`` of the enclosing ``- label: ...`` step (else its ``key``);
- GitHub Actions: the key directly under ``jobs:``, nothing for lines outside ``jobs:``;
- otherwise: the enclosing top-level key (e.g. ``run_all_patterns``).

A structural keyword of the CI format (``steps``, ``runs-on``, ``env``...) is never a job name.
When only the hunk is known, the key under ``jobs:`` is trusted only at the file's job
indentation (seen below a ``jobs:`` line, else the file's indentation step): the hunk header
says ``jobs:`` but the job's own key may be far above the hunk.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from prdigest.analyzers.behaviour import file_changes_behaviour, is_revert, is_typo_fix
from prdigest.analyzers.ci_actions import action_changes
from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.coverage import file_list_state
from prdigest.analyzers.data_lines import adds_data_only
from prdigest.analyzers.file_rules import is_lock_file, rules_for
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.symbol_names import in_test_module
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.diff import Hunk, file_diff
from prdigest.models.facts import FilesFacts, SymbolsFacts, TestsCIFacts
from prdigest.models.pullrequest import FileChange, PullRequest

_KEY = re.compile(r"^(?P<indent>[ ]*)(?P<dash>-[ ]+)?(?P<key>[\w.\-/]+|\"[^\"]*\"|'[^']*')[ ]*:(?:[ ]+(?P<value>.*))?$")
_STEP_NAME_KEYS = ("label", "name", "group")
_STEP_ID_KEY = "key"  # a Buildkite step's identifier: its name when it has no label
# Keys that structure a CI file (GitHub Actions, Buildkite, GitLab, composite actions): never job names.
STRUCTURAL_KEYS = frozenset(
    {
        "name", "on", "jobs", "steps", "env", "run", "uses", "with", "if", "needs", "strategy", "matrix",
        "concurrency", "permissions", "outputs", "defaults", "runs-on", "timeout-minutes", "container",
        "services", "include", "exclude", "shell", "working-directory", "continue-on-error", "id", "inputs",
        "secrets", "environment", "fail-fast", "max-parallel", "description", "runs", "branding", "author",
        "run-name", "stages", "stage", "script", "variables", "workflow", "image", "before_script",
        "after_script", "cache", "default", "agents", "plugins", "notify", "retry", "timeout_in_minutes",
        "depends_on", "commands", "command", "label", "key", "group", "soft_fail", "priority",
    }
)  # fmt: skip
# How far below a "- " item line its label may sit.
_LABEL_LOOKAHEAD = 40


@dataclass(frozen=True)
class _Key:
    index: int
    indent: int
    key: str
    value: str | None
    item: bool  # the key opens a list item ("- key: value")
    item_key_indent: int


def _clean(text: str | None) -> str | None:
    if text is None:
        return None
    value = re.sub(r"\s+#.*$", "", text).strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value or None


def _parse_key(lines: list[str], index: int) -> _Key | None:
    match = _KEY.match(lines[index].rstrip())
    if match is None:
        return None
    indent = len(match.group("indent"))
    dash = match.group("dash") or ""
    return _Key(
        index=index,
        indent=indent,
        key=_clean(match.group("key")) or "",
        value=_clean(match.group("value")),
        item=bool(dash),
        item_key_indent=indent + len(dash),
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _chain(lines: list[str], index: int) -> list[_Key]:
    """The YAML keys enclosing ``lines[index]``, outermost first (the line's own key last)."""
    chain: list[_Key] = []
    own = _parse_key(lines, index)
    if own is not None:
        chain.append(own)
    line = lines[index]
    limit = _indent(line) if line.strip() else 10**6
    if own is not None and own.item:
        limit = own.indent
    for j in range(index - 1, -1, -1):
        text = lines[j]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = _indent(text)
        if indent < limit:
            key = _parse_key(lines, j)
            if key is not None:
                chain.append(key)
            limit = key.indent if key is not None and key.item else indent
            if indent == 0:
                break
    return chain[::-1]


def _item_keys(lines: list[str], item: _Key, index: int) -> dict[str, str]:
    """The ``key: value`` pairs of the list item ``item`` opens (its own first key included)."""
    found = {item.key: item.value} if item.value else {}
    stop = min(len(lines), item.index + _LABEL_LOOKAHEAD, max(index, item.index) + _LABEL_LOOKAHEAD)
    for j in range(item.index + 1, stop):
        sibling = _parse_key(lines, j)
        if sibling is None:
            continue
        if sibling.indent < item.item_key_indent or (sibling.item and sibling.indent <= item.indent):
            break
        if sibling.indent == item.item_key_indent and sibling.value:
            found.setdefault(sibling.key, sibling.value)
    return found


def _step_label(lines: list[str], chain: list[_Key], index: int) -> str | None:
    for key in reversed(chain):
        if not key.item:
            continue
        keys = _item_keys(lines, key, index)
        for name in (*_STEP_NAME_KEYS, _STEP_ID_KEY):
            if keys.get(name):
                return keys[name]
    return None


def _is_workflow(path: str) -> bool:
    return path.startswith(".github/workflows/")


def job_indent(parts: list[list[str]]) -> int | None:
    """Where a job key sits in a workflow seen only in parts (its hunks, headers excluded).

    Below a visible ``jobs:`` line, the indentation of the first key under it; else the file's
    indentation step (the gcd of its key indentations), since ``jobs:`` sits at the top level.
    """
    indents: list[int] = []
    for lines in parts:
        after_jobs = False
        for j in range(len(lines)):
            key = _parse_key(lines, j)
            if key is None:
                continue
            if after_jobs and key.indent > 0:
                return key.indent
            after_jobs = key.indent == 0 and key.key == "jobs" and key.value is None
            if key.indent > 0:
                indents.append(key.indent)
    if not indents:
        return None
    return math.gcd(*indents)


def _workflow_job(chain: list[_Key], indent: int | None) -> str | None:
    if len(chain) < 2 or chain[0].key != "jobs" or chain[0].indent != 0:
        return None
    job = chain[1]
    if job.item or job.key.lower() in STRUCTURAL_KEYS:
        return None
    if indent is not None and (job.indent != indent or job.value is not None):
        return None  # the hunk does not show the job's own key: this one is nested in it
    return job.key


def job_at(path: str, lines: list[str], index: int, workflow_job_indent: int | None = None) -> str | None:
    """The CI job (or top-level key) that ``lines[index]`` belongs to.

    ``workflow_job_indent`` is given when ``lines`` is only part of a workflow (a hunk): see
    ``job_indent``. Without it the lines are the whole file and the key under ``jobs:`` is exact.
    """
    chain = _chain(lines, index)
    if _is_workflow(path):
        return _workflow_job(chain, workflow_job_indent)
    if path.startswith(".buildkite/") or "buildkite" in path:
        label = _step_label(lines, chain, index)
        if label:
            return label
        if chain and chain[0].key == "steps":
            return None  # inside a step whose label the hunk does not show
    if chain and chain[0].key == "jobs" and len(chain) > 1:
        key = chain[1]
        return None if key.item or key.key.lower() in STRUCTURAL_KEYS else key.key
    if chain and chain[0].indent == 0 and chain[0].key.lower() not in STRUCTURAL_KEYS:
        return chain[0].key
    return None


def _hunk_side(hunk: Hunk, kinds: str) -> tuple[list[str], list[int]]:
    """One side of a hunk as lines (header first), and the positions of changed lines in it."""
    header = hunk.section_header.strip()
    lines = [header] if header else []
    changed: list[int] = []
    for line in hunk.lines:
        if line.kind in kinds:
            if line.kind != " ":
                changed.append(len(lines))
            lines.append(line.text)
    return lines, changed


def ci_jobs(change: FileChange) -> list[str]:
    """Job names a change to one CI YAML file touches, in order of appearance."""
    if not change.path.endswith((".yml", ".yaml")) or change.binary:
        return []
    view = file_diff(change)
    # One indentation for the whole file, from every hunk: a single hunk rarely shows enough.
    seen = [[line.text for line in hunk.lines] for hunk in view.hunks]
    hunk_job_indent = job_indent(seen) if _is_workflow(change.path) else None
    jobs: list[str] = []
    after = change.content_after.splitlines() if change.content_after is not None else None
    before = change.content_before.splitlines() if change.content_before is not None else None
    for hunk in view.hunks:
        for side, kinds, content in (("new", " +", after), ("old", " -", before)):
            numbered = [
                (line.new_line if side == "new" else line.old_line) for line in hunk.lines if line.kind == kinds[1]
            ]
            if content is not None and numbered and all(n is not None for n in numbered):
                found = [job_at(change.path, content, n - 1) for n in numbered if n is not None and n <= len(content)]
            else:
                lines, changed = _hunk_side(hunk, kinds)
                found = [job_at(change.path, lines, i, hunk_job_indent) for i in changed]
            jobs.extend(job for job in found if job and job not in jobs)
    if not view.hunks and change.content_after is not None and change.content_before is None:
        content = change.content_after.splitlines()  # a new file without a patch: all of it
        for i in range(len(content)):
            job = job_at(change.path, content, i)
            if job and job not in jobs:
                jobs.append(job)
    return jobs


def in_file_test_paths(symbols: SymbolsFacts, source_files: set[str]) -> list[str]:
    """Source files whose own test module gained or changed a definition."""
    paths = (
        s.path
        for s in symbols.symbols
        if s.path in source_files and s.change != "removed" and in_test_module(s.name, s.language)
    )
    return list(dict.fromkeys(paths))


def analyze_tests_ci(pr: PullRequest, ctx: AnalysisContext) -> TestsCIFacts:
    files = ctx.result("files", FilesFacts)
    rules = rules_for(ctx.rules)
    by_path = {change.path: change for change in pr.files}
    relevant = [f for f in files.files if not f.generated]
    locks = [f for f in files.files if is_lock_file(f)]
    tests = [f for f in relevant if f.category == "test" or f.type == "test"]
    test_files = [f.path for f in tests if f.status != "removed"]
    removed_tests = [f.path for f in tests if f.status == "removed"]
    files_known = file_list_state(pr) == "complete"
    core = [f for f in relevant if f.category == "source" and f.type == "core-logic"]
    source_files = [f.path for f in core]
    in_file = in_file_test_paths(ctx.result("symbols", SymbolsFacts), set(source_files))
    # A file whose change only rewords messages changes what the code says, not what it does;
    # a deleted file leaves no code behind for a regression test to check.
    behaviour_files = [f.path for f in core if not f.messages_only and f.status != "removed"]
    source_changed = bool(source_files)
    # A test is owed only by a change in behaviour: not by a revert, a typo fix, a version
    # bump or comment/docstring/whitespace edits (`prdigest.analyzers.behaviour`); and never
    # said on a partial file list (the test may be among the files nobody saw).
    owes_test = (
        source_changed
        and files_known
        and not test_files
        and not in_file
        and not is_revert(pr)
        and not is_typo_fix(pr)
        and any(file_changes_behaviour(by_path[p]) for p in behaviour_files if p in by_path)
        # new entries of a table of names or patterns: what it answered before is unchanged
        and not adds_data_only((by_path[f.path], f.language) for f in core if f.path in by_path)
    )
    ci_files = [f.path for f in files.files if rules.is_ci(f.path)]
    jobs: list[str] = []
    for path in ci_files:
        change = by_path.get(path)
        if change is not None:
            jobs.extend(job for job in ci_jobs(change) if job not in jobs)
    return TestsCIFacts(
        source_changed=source_changed,
        tests_changed=bool(test_files or in_file),
        test_files=test_files,
        in_file_tests=in_file,
        removed_test_files=removed_tests,
        missing_tests=owes_test,
        files_known=files_known,
        ci_changed=bool(ci_files),
        ci_files=ci_files,
        ci_jobs=jobs,
        # a lock file is generated, but what it pins is installed: CI and a lock are not CI only
        ci_only=bool(ci_files) and all(rules.is_ci(f.path) for f in relevant + locks),
        ci_actions=action_changes([by_path[p] for p in ci_files if p in by_path]),
    )


# v4: deleted tests told apart; missing_tests only for behaviour-changing source on a complete file list
ANALYZER = Analyzer(
    name="tests_ci", version=DEFAULT_VERSIONS["tests_ci"], run=analyze_tests_ci, requires=("files", "symbols")
)  # v5: one typo rule; v13: a data-only change (table entries) owes no test
