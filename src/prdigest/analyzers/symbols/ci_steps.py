"""What a CI file's change does, read from its two YAML documents: which steps now run another
command (one edit for the same change made in several steps: "9 steps now run
`bash .github/scripts/install.sh` instead of `pip install …`"), which steps and jobs were
added or removed, and which lists of values (a test matrix, a list of path patterns) gained
or lost entries.

A step is any mapping with a command key (``run`` of GitHub Actions and CircleCI, ``command``
/ ``commands`` of Buildkite, ``script`` of GitLab CI); it is known by its job and its name
(else what it uses, else its first command), so steps match across the two sides however
the list around them moved. Nothing is told when either side does not parse.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import yaml

from prdigest.models.facts import CodeEdit
from prdigest.models.pullrequest import FileChange
from prdigest.models.states import FileStatus

_CI_FOLDERS = frozenset({".github", "workflows", ".buildkite", ".circleci", "ci"})
_RUN_KEYS = ("run", "command", "commands", "script")
_NAME_KEYS = ("name", "label", "key", "id")
_CONTAINERS = frozenset({"jobs", "steps", "stages", "workflows", "pipelines"})
_CLIP = 70
MAX_NODES = 50_000
MAX_DEPTH = 40


@dataclass(frozen=True)
class _Step:
    job: str
    name: str
    run: str
    line_hint: str  # the command's first line, to find the line in the file


def is_ci_yaml(path: str) -> bool:
    lower = path.lower()
    if not lower.endswith((".yml", ".yaml")):
        return False
    name = lower.rpartition("/")[2]
    return name.startswith((".gitlab-ci", "azure-pipelines")) or any(
        part in _CI_FOLDERS for part in lower.split("/")[:-1]
    )


def _clip(text: str) -> str:
    # the lines of a multi-line command are separate commands: read as "a; b", not "a b"
    text = "; ".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
    return text if len(text) <= _CLIP else text[: _CLIP - 1].rstrip() + "…"


def _run_text(value: object) -> str | None:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "\n".join(v.strip() for v in value)
    if isinstance(value, dict) and isinstance(value.get("command"), str):  # CircleCI's long form
        return str(value["command"]).strip()
    return None


def _key_text(key: object) -> str:
    # YAML 1.1 reads a bare ``on:`` (GitHub's trigger key) as the boolean true.
    return "on" if key is True else str(key)


def _load(text: str) -> object | None:
    try:
        document: object = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    return document


class _Reader:
    """Steps and value lists of one YAML document, keyed so the two sides can be matched."""

    def __init__(self) -> None:
        # Aliases let a small file name a node many times over: the walk is bounded.
        self.budget = MAX_NODES
        self._jobs_at_top = True
        self.steps: dict[tuple[str, str], _Step] = {}
        self.lists: dict[str, tuple[str, list[str]]] = {}  # dotted key -> (job, values)

    def read_document(self, document: object) -> None:
        # A top-level key is a job only where no container holds the jobs (GitLab CI); in a
        # GitHub workflow "on:", "env:" and "name:" are not jobs.
        jobs_at_top = not (isinstance(document, dict) and any(str(k) in _CONTAINERS for k in document))
        self._jobs_at_top = jobs_at_top
        self.read(document, (), "")

    def read(self, node: object, path: tuple[str, ...], job: str) -> None:
        self.budget -= 1
        if self.budget < 0 or len(path) > MAX_DEPTH:
            return
        if isinstance(node, dict):
            run = next((r for key in _RUN_KEYS if (r := _run_text(node.get(key))) is not None), None)
            if run is not None and path:
                self._step(node, run, job)
            for key, value in node.items():
                key_text = _key_text(key)
                if key_text in _RUN_KEYS and run is not None:
                    continue
                # A job is the key under a container ("jobs: test:"), or a top-level key of a
                # pipeline without one (GitLab CI).
                under_container = bool(path) and path[-1] in _CONTAINERS
                starts_job = (under_container or (not path and self._jobs_at_top)) and key_text not in _CONTAINERS
                inner_job = key_text if starts_job else job
                self.read(value, (*path, key_text), inner_job)
        elif isinstance(node, list):
            scalars = [v for v in node if isinstance(v, str | int | float) and not isinstance(v, bool)]
            if node and len(scalars) == len(node) and path and path[-1] not in _RUN_KEYS:
                self.lists[".".join(path)] = (job, [str(v) for v in scalars])
                return
            for index, value in enumerate(node):
                self.read(value, (*path, str(index)), job)

    def _step(self, node: dict[object, object], run: str, job: str) -> None:
        label = next((str(node[k]) for k in _NAME_KEYS if isinstance(node.get(k), str | int)), "")
        if not label and isinstance(node.get("uses"), str):
            label = str(node["uses"]).split("@", 1)[0]
        name = label or run.splitlines()[0]
        key = (job, name)
        serial = 2
        while key in self.steps:  # the same name twice in a job: told apart by order
            key = (job, f"{name} #{serial}")
            serial += 1
        self.steps[key] = _Step(job=job, name=label, run=run, line_hint=run.splitlines()[0])


def _line_of(text: str, needle: str) -> int | None:
    needle = needle.strip()
    if not needle:
        return None
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None


def differing_parts(old: str, new: str) -> tuple[str, str]:
    """What differs between two commands: the lines one side has and the other not when whole
    lines were added or removed (the other side is then ""); else the differing words with a
    word of context either side and "…" where words were left out, so two long commands that
    differ past the clip, or by one word put in front, never read the same."""
    a = [line.strip() for line in old.splitlines() if line.strip()]
    b = [line.strip() for line in new.splitlines() if line.strip()]
    head = _common_head(a, b)
    tail = _common_head(a[head:][::-1], b[head:][::-1])
    lines_a, lines_b = a[head : len(a) - tail], b[head : len(b) - tail]
    if not lines_a or not lines_b:
        return _clip("\n".join(lines_a)), _clip("\n".join(lines_b))
    # the lines of a command are commands of their own: "a; b", as a shell would read them
    words_a, words_b = "; ".join(lines_a).split(), "; ".join(lines_b).split()
    first = _common_head(words_a, words_b)
    last = _common_head(words_a[first:][::-1], words_b[first:][::-1])
    if first + last == len(words_a) == len(words_b):
        return "", ""  # the same words: only spacing changed
    start = max(0, first - 1)
    shown = []
    for words in (words_a, words_b):
        end = min(len(words), len(words) - last + 1)
        text = " ".join(words[start:end])
        before = "… " if start > 0 or head > 0 else ""
        after = " …" if end < len(words) or tail > 0 else ""
        shown.append(_clip(before + text + after))
    return shown[0], shown[1]


def _common_head(a: list[str], b: list[str]) -> int:
    count = 0
    while count < min(len(a), len(b)) and a[count] == b[count]:
        count += 1
    return count


def _names(items: list[str]) -> str:
    """A JSON list of the names (a report shows the first few and counts the rest)."""
    return json.dumps(list(dict.fromkeys(items)), ensure_ascii=False)


def ci_edits(change: FileChange) -> list[CodeEdit]:
    """The edits of one CI YAML file whose both sides are known (a new file: its steps are
    the file; nothing to compare)."""
    if change.binary or not is_ci_yaml(change.path) or change.status != FileStatus.MODIFIED:
        return []
    if change.content_before is None or change.content_after is None:
        return []
    before_doc, after_doc = _load(change.content_before), _load(change.content_after)
    if before_doc is None or after_doc is None:
        return []
    before, after = _Reader(), _Reader()
    before.read_document(before_doc)
    after.read_document(after_doc)
    path, text = change.path, change.content_after
    edits: list[CodeEdit] = []
    # (what the old command had, what the new one has) -> the steps that changed so: the same
    # edit made in steps whose commands differ elsewhere is still one edit
    switched: dict[tuple[str, str], list[_Step]] = {}
    for key, step in after.steps.items():
        old = before.steps.get(key)
        if old is not None and old.run != step.run:
            parts = differing_parts(old.run, step.run)
            if parts != ("", ""):  # else only spacing changed
                switched.setdefault(parts, []).append(step)
    for (old_part, new_part), steps in sorted(switched.items(), key=lambda item: -len(item[1])):
        jobs = list(dict.fromkeys(s.job for s in steps if s.job))
        params = {
            "before": old_part,
            "after": new_part,
            "steps": _names([_clip(s.name or s.line_hint) for s in steps]),
            "jobs": _names(jobs),
        }
        edits.append(
            CodeEdit(
                kind="ci-run-changed",
                path=path,
                line=_line_of(text, steps[0].line_hint),
                params=params,
                count=len(steps),
            )
        )
    renamed = _renamed(before, after)
    for kind, side, other in (("ci-step-added", after, before), ("ci-step-removed", before, after)):
        by_job: dict[str, list[_Step]] = {}
        for key, step in side.steps.items():
            if key not in other.steps and key not in renamed:
                by_job.setdefault(step.job, []).append(step)
        for job, steps in by_job.items():
            source = text if kind == "ci-step-added" else change.content_before
            names = [_clip(s.name or s.line_hint) for s in steps]
            edits.append(
                CodeEdit(
                    kind=kind,  # type: ignore[arg-type]
                    path=path,
                    line=_line_of(source, steps[0].line_hint),
                    params={
                        "job": job,
                        "steps": _names(names),
                        "run": _clip(steps[0].run),
                        "unnamed": "1" if not steps[0].name else "",  # a step known by its command
                    },
                    count=len(steps),
                )
            )
    # (list name, added, removed) -> the jobs whose list changed so: one edit for all
    lists: dict[tuple[str, str, str], list[str]] = {}
    for dotted, (job, values) in after.lists.items():
        old_side = before.lists.get(dotted)
        if old_side is None or Counter(old_side[1]) == Counter(values):
            continue
        added = [v for v in values if v not in old_side[1]]
        removed = [v for v in old_side[1] if v not in values]
        if added or removed:  # else the same values in another order
            name = _short_key(dotted, job)
            lists.setdefault((name, _clip(", ".join(added)), _clip(", ".join(removed))), []).append(job)
    for (name, added_text, removed_text), jobs in lists.items():
        # No line: a value's text may stand on other lines too, and a wrong line is worse than none.
        params = {"name": name, "added": added_text, "removed": removed_text, "jobs": _names([j for j in jobs if j])}
        edits.append(CodeEdit(kind="constant-items-changed", path=path, params=params, count=len(jobs)))
    return edits


def _renamed(before: _Reader, after: _Reader) -> set[tuple[str, str]]:
    """The keys of steps only renamed: a step gone from a job and one new in it that runs the
    same command are one step under a new name, neither added nor removed."""
    gone = [key for key in before.steps if key not in after.steps]
    pairs: set[tuple[str, str]] = set()
    for key, step in after.steps.items():
        if key in before.steps or not step.run:
            continue
        match = next((g for g in gone if g not in pairs and g[0] == key[0] and before.steps[g].run == step.run), None)
        if match is not None:
            pairs.update((key, match))
    return pairs


def _short_key(dotted: str, job: str) -> str:
    """``jobs.test.strategy.matrix.python-version`` of job ``test`` -> ``strategy.matrix.python-version``:
    the container words and the job (told apart) say nothing a reader needs."""
    parts = [p for p in dotted.split(".") if p not in _CONTAINERS and not p.isdigit()]
    if parts and parts[0] == job and len(parts) > 1:
        parts = parts[1:]
    return ".".join(parts[-3:])
