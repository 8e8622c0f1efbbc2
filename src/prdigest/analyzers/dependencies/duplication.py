"""The same requirement rewrite or pin written in two files the PR changes.

Two copies of one rule (``setup.py`` rewriting ``humming-kernels[cu13]`` to ``[cu12]`` and
a ``Dockerfile`` ``sed`` line doing the same, or ``foo==1.2`` pinned in two files) must be
edited together forever; the finding names both files so a reader sees the drift risk.
"""

from __future__ import annotations

from collections import defaultdict

from packaging.requirements import InvalidRequirement, Requirement

from prdigest.analyzers.dependencies.change_kinds import spec_shape
from prdigest.analyzers.dependencies.rewrites import Rewrite, rewrites_in_line
from prdigest.diff import file_diff
from prdigest.models.facts import DependencyChange, DependencyFinding
from prdigest.models.pullrequest import PullRequest


def _added_lines(pr: PullRequest) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for change in pr.files:
        if change.binary:
            continue
        if change.patch:
            found[change.path] = file_diff(change).added()
        elif change.content_after is not None and change.content_before is None:
            found[change.path] = change.content_after.splitlines()
    return found


def duplicated_rewrites(pr: PullRequest) -> list[DependencyFinding]:
    where: dict[Rewrite, list[str]] = defaultdict(list)
    for path, lines in _added_lines(pr).items():
        for line in lines:
            for rewrite in rewrites_in_line(line):
                if path not in where[rewrite]:
                    where[rewrite].append(path)
    return [
        DependencyFinding(
            kind="duplicated-rewrite",
            detail=(
                f"the same requirement rewrite {rewrite.describe()} is added in "
                f"{len(paths)} files ({', '.join(paths)}); the copies can drift apart"
            ),
            paths=paths,
            packages=[rewrite.family],
        )
        for rewrite, paths in where.items()
        if len(paths) >= 2
    ]


def duplicated_pins(changes: list[DependencyChange]) -> list[DependencyFinding]:
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    for change in changes:
        if change.after is None:
            continue
        try:
            requirement = Requirement(change.after)
        except InvalidRequirement:
            continue
        pin = spec_shape(requirement.specifier).pin
        if pin is not None and change.path not in where[(change.package, pin)]:
            where[(change.package, pin)].append(change.path)
    return [
        DependencyFinding(
            kind="duplicated-pin",
            detail=(
                f"the same pin {package}=={pin} is written in {len(paths)} files "
                f"({', '.join(paths)}); the copies can drift apart"
            ),
            paths=paths,
            packages=[package],
        )
        for (package, pin), paths in where.items()
        if len(paths) >= 2
    ]
