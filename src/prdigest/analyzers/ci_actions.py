"""The CI actions whose version a PR changes: ``uses: owner/action@ref`` lines of a workflow,
read from the diff's removed and added lines. A ref pinned by commit usually carries its
release in a trailing comment (``@ece7cb0… # v6.3.0``): the comment is the version shown.
An action whose ref is the same on both sides, or that only appears on one side, changed no
version and is not listed."""

from __future__ import annotations

import re
from collections import Counter

from prdigest.diff import file_diff
from prdigest.models.facts import CIActionChange
from prdigest.models.pullrequest import FileChange

_USES = re.compile(r"^\s*(?:-\s*)?uses:\s*[\"']?(?P<action>[\w.\-/]+)@(?P<ref>[\w.\-/]+)[\"']?(?:\s*#\s*(?P<tag>\S+))?")
_SHA = re.compile(r"[0-9a-f]{40}")
MAX_ACTIONS = 8


def action_changes(changes: list[FileChange]) -> list[CIActionChange]:
    """Per action, each (before, after) version pair the PR's workflow files show, with the
    number of lines that make it, most lines first."""
    pairs: Counter[tuple[str, str, str]] = Counter()
    for change in changes:
        if change.binary or not change.patch:
            continue
        removed: dict[str, Counter[str]] = {}
        added: dict[str, Counter[str]] = {}
        for line in file_diff(change).changes():
            found = _USES.match(line.text)
            if found is None:
                continue
            side = removed if line.kind == "-" else added
            side.setdefault(found.group("action"), Counter())[_version(found)] += 1
        for action, before in removed.items():
            after = added.get(action)
            if not after or set(before) == set(after):
                continue
            old = before.most_common(1)[0][0]
            for version, count in after.items():
                if version not in before:
                    pairs[(action, old, version)] += count
    ranked = sorted(pairs.items(), key=lambda item: (-item[1], item[0]))
    return [CIActionChange(action=a, before=b, after=v, count=n) for (a, b, v), n in ranked[:MAX_ACTIONS]]


def _version(found: re.Match[str]) -> str:
    ref, tag = found.group("ref"), found.group("tag")
    if tag and _SHA.fullmatch(ref):
        return tag
    return ref[:12] if _SHA.fullmatch(ref) else ref
