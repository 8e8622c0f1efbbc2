"""Diff compression: the changed files of a PR rendered into a token budget.

Files are ordered by importance (key files first, then source > test > config > infra >
docs > other, then by changed lines). Every file is at least named in one line
``### path (+a −d, category)``; when even the names do not fit (thousands of files), the
tail is counted per category and module in one line. The rest of the budget goes to hunks:
first one hunk of each file, then the other hunks, and last deletion-only hunks and hunks
of generated or lock files. Whatever is left out is listed in `DiffDigest.omitted`; nothing
is cut silently.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from prdigest.models.facts import Facts, FileFact, SymbolChange
from prdigest.models.pullrequest import FileChange, PullRequest
from prdigest.narrate.llm.prompt_hunks import PromptHunk, prompt_hunks
from prdigest.narrate.llm.tokens import estimate_tokens, line_tokens

CATEGORY_RANK = {"source": 0, "test": 1, "config": 2, "infra": 3, "docs": 4, "other": 5}
LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "Pipfile.lock",
        "Cargo.lock",
        "go.sum",
        "composer.lock",
        "Gemfile.lock",
        "flake.lock",
    }
)
# Share of the budget the one-line file names may take before the tail is only counted.
NAMES_SHARE = 0.4
# A hunk cut to fit must keep at least this many lines, else it is left out whole.
MIN_CUT_LINES = 3
# Budget reserved for the counted-tail line and the "files not listed by the source" line.
TAIL_RESERVE = 90
MAX_OMITTED_ENTRIES = 60


@dataclass
class _File:
    change: FileChange
    fact: FileFact | None
    symbols: list[SymbolChange]
    header: str = ""
    hunks: list[PromptHunk] | None = None  # parsed lazily: huge PRs never parse their tail
    chosen: dict[int, int] = field(default_factory=dict)  # hunk index -> lines kept

    @property
    def path(self) -> str:
        return self.change.path

    @property
    def category(self) -> str:
        return self.fact.category if self.fact else "other"

    @property
    def module(self) -> str:
        if self.fact and self.fact.module:
            return self.fact.module
        parent = PurePosixPath(self.path).parts
        return parent[0] if len(parent) > 1 else "(root)"

    @property
    def low_value(self) -> bool:
        return bool(self.fact and self.fact.generated) or PurePosixPath(self.path).name in LOCK_FILES

    @property
    def changed(self) -> int:
        return self.change.additions + self.change.deletions

    def parsed(self) -> list[PromptHunk]:
        if self.hunks is None:
            patch = self.change.patch
            self.hunks = prompt_hunks(patch, self.change.content_after, self.symbols) if patch else []
        return self.hunks


@dataclass(frozen=True)
class DiffDigest:
    text: str
    tokens: int
    omitted: list[str]
    named: list[str]
    counted: int
    lines_included: int
    lines_total: int
    # Files with a diff of which nothing reached the text (named only, or only counted), in
    # order of importance: what file-group summaries stand in for (`groups`).
    diff_left_out: list[str] = field(default_factory=list)


def rank_files(pr: PullRequest, facts: Facts) -> list[_File]:
    """The PR's files, most important first."""
    by_path = {fact.path: fact for fact in facts.files.files}
    symbols: dict[str, list[SymbolChange]] = {}
    for symbol in facts.symbols.symbols:
        symbols.setdefault(symbol.path, []).append(symbol)
    files = [_File(change, by_path.get(change.path), symbols.get(change.path, [])) for change in pr.files]
    files.sort(
        key=lambda f: (
            not (f.fact is not None and f.fact.is_key),
            f.low_value,
            CATEGORY_RANK.get(f.category, 5),
            -f.changed,
            f.path,
        )
    )
    return files


def file_header(item: _File) -> str:
    change = item.change
    notes = [f"+{change.additions} −{change.deletions}", item.category]
    if item.fact is not None and item.fact.is_key:
        # Why it is key is said once, in the output language, in the prompt's facts block.
        notes.append("key")
    if change.previous_path and change.previous_path != change.path:
        notes.append(f"renamed from {change.previous_path}")
    elif change.status.value in ("added", "removed"):
        notes.append(change.status.value)
    if item.low_value:
        notes.append("generated/lock")
    if change.binary:
        notes.append("binary")
    elif not change.patch:
        notes.append("no diff from source")
    return f"### {item.path} ({', '.join(notes)})"


def compress_diff(pr: PullRequest, facts: Facts, budget: int) -> DiffDigest:
    """Render the PR's changes within `budget` tokens (by `estimate_tokens`)."""
    files = rank_files(pr, facts)
    for item in files:
        item.header = file_header(item)
    unlisted = max((pr.changed_files_count or 0) - len(pr.files), 0)
    named, tail = _split_named(files, budget, unlisted)
    tail_lines = _tail_lines(tail, unlisted)
    used = sum(line_tokens(item.header) + 1 for item in named)
    used += sum(line_tokens(line) + 1 for line in tail_lines)
    _choose_hunks(named, budget - used)
    text = _render(named, tail_lines)
    # The estimate is additive over lines, so this only guards against rounding slips.
    while estimate_tokens(text) > budget and _drop_last_hunk(named):
        text = _render(named, tail_lines)
    total_lines = sum(item.changed for item in files)
    included = sum(_kept_changed(item) for item in named)
    return DiffDigest(
        text=text,
        tokens=estimate_tokens(text),
        omitted=_omitted(named, tail, unlisted),
        named=[item.path for item in named],
        counted=len(tail),
        lines_included=included,
        lines_total=total_lines,
        diff_left_out=[item.path for item in [*named, *tail] if _has_diff(item) and not item.chosen],
    )


def _has_diff(item: _File) -> bool:
    return bool(item.change.patch) and not item.change.binary


def _split_named(files: list[_File], budget: int, unlisted: int) -> tuple[list[_File], list[_File]]:
    costs = [line_tokens(item.header) + 1 for item in files]
    reserve = TAIL_RESERVE if unlisted else 0
    if sum(costs) + reserve <= budget * NAMES_SHARE:
        return files, []
    limit = budget * NAMES_SHARE - TAIL_RESERVE * (2 if unlisted else 1)
    spent = 0
    count = 0
    for cost in costs:
        if spent + cost > limit:
            break
        spent += cost
        count += 1
    return files[:count], files[count:]


def _tail_lines(tail: list[_File], unlisted: int) -> list[str]:
    lines: list[str] = []
    if tail:
        categories = Counter(item.category for item in tail)
        modules = Counter(item.module for item in tail)
        added = sum(item.change.additions for item in tail)
        removed = sum(item.change.deletions for item in tail)
        by_category = ", ".join(f"{n:,} {name}" for name, n in categories.most_common())
        top = modules.most_common(6)
        by_module = ", ".join(f"{name} {n:,}" for name, n in top)
        rest = len(tail) - sum(n for _, n in top)
        if rest:
            by_module += f", other modules {rest:,}"
        lines.append(
            f"… and {len(tail):,} more files (+{added:,} −{removed:,}), only counted: {by_category};"
            f" by module: {by_module}"
        )
    if unlisted:
        lines.append(f"… and {unlisted:,} more changed files the source did not list")
    return lines


def _choose_hunks(named: list[_File], budget: int) -> None:
    """Fill `budget` tokens with hunks: one per file first, then the rest, low-value last."""
    remaining = budget
    with_patch = [item for item in named if item.change.patch and not item.change.binary]
    if not with_patch:
        return
    share = max(150, remaining // max(1, min(len(with_patch), 12)))

    def place(item: _File, index: int, allowance: int) -> int:
        hunk = item.parsed()[index]
        full = _hunk_cost(hunk)
        if full <= allowance:
            item.chosen[index] = len(hunk.lines)
            return full
        kept, cost = _cut(hunk, allowance)
        if kept >= MIN_CUT_LINES:
            item.chosen[index] = kept
            return cost
        return 0

    # Pass 1: the first substantive hunk of each file, within a fair share.
    for item in with_patch:
        if remaining < 30:
            return
        hunks = item.parsed()
        first = next((i for i, h in enumerate(hunks) if not (h.deletion_only or item.low_value)), None)
        if first is not None:
            remaining -= place(item, first, min(share, remaining))
    # Pass 2: the other substantive hunks; pass 3: deletion-only and generated/lock hunks.
    for low_pass in (False, True):
        for item in with_patch:
            if remaining < 30:
                return
            for index, hunk in enumerate(item.parsed()):
                if index in item.chosen or (hunk.deletion_only or item.low_value) != low_pass:
                    continue
                remaining -= place(item, index, remaining)


def _hunk_cost(hunk: PromptHunk) -> int:
    return line_tokens(hunk.header) + 1 + sum(line_tokens(line) + 1 for line in hunk.lines)


def _cut_marker(left: int) -> str:
    return f"… ({left} more lines of this hunk left out)"


def _cut(hunk: PromptHunk, allowance: int) -> tuple[int, int]:
    """How many leading lines of `hunk` fit in `allowance` with the cut marker, and their cost."""
    cost = line_tokens(hunk.header) + 1 + line_tokens(_cut_marker(len(hunk.lines))) + 1
    kept = 0
    for line in hunk.lines:
        step = line_tokens(line) + 1
        if cost + step > allowance:
            break
        cost += step
        kept += 1
    return kept, cost


def _render(named: list[_File], tail_lines: list[str]) -> str:
    out: list[str] = []
    for item in named:
        out.append(item.header)
        hunks = item.hunks or []
        for index in sorted(item.chosen):
            hunk = hunks[index]
            kept = item.chosen[index]
            out.append(hunk.header)
            out.extend(hunk.lines[:kept])
            if kept < len(hunk.lines):
                out.append(_cut_marker(len(hunk.lines) - kept))
    out.extend(tail_lines)
    return "\n".join(out)


def _drop_last_hunk(named: list[_File]) -> bool:
    for item in reversed(named):
        if item.chosen:
            del item.chosen[max(item.chosen)]
            return True
    return False


def _kept_changed(item: _File) -> int:
    hunks = item.hunks or []
    return sum(sum(1 for line in hunks[i].lines[:kept] if line[:1] in ("+", "-")) for i, kept in item.chosen.items())


def _omitted(named: list[_File], tail: list[_File], unlisted: int) -> list[str]:
    entries: list[str] = []
    for item in named:
        if not item.change.patch or item.change.binary:
            continue
        hunks = item.hunks
        if hunks is None or not item.chosen:
            entries.append(f"{item.path}: diff left out (named only)")
            continue
        left = [i for i in range(len(hunks)) if i not in item.chosen]
        cut = [i for i, kept in item.chosen.items() if kept < len(hunks[i].lines)]
        if left:
            entries.append(f"{item.path}: {len(left)} of {len(hunks)} hunks left out")
        for i in cut:
            entries.append(f"{item.path}: hunk {i + 1} cut after {item.chosen[i]} of {len(hunks[i].lines)} lines")
    if len(entries) > MAX_OMITTED_ENTRIES:
        rest = len(entries) - MAX_OMITTED_ENTRIES + 1
        entries = [*entries[: MAX_OMITTED_ENTRIES - 1], f"… and {rest:,} more files with diffs left out"]
    if tail:
        entries.append(f"{len(tail):,} files only counted, not named (see the count line in the prompt)")
    if unlisted:
        entries.append(f"{unlisted:,} changed files not listed by the source")
    return entries
