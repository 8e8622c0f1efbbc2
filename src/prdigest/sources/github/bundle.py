"""Reading, validating and writing JSON bundles (format: docs/bundle-format.md).

Errors name the file, the JSON path of the offending value (``$.files[3].additions``) and
what was expected, so a hand-edited bundle can be fixed without guessing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from prdigest.errors import BundleError
from prdigest.models.pullrequest import PullRequest
from prdigest.sources.github.bundle_models import Bundle
from prdigest.sources.github.normalize import normalize_bundle

MAX_ERRORS_SHOWN = 5


@dataclass(frozen=True)
class LoadedBundle:
    path: Path
    bundle: Bundle
    record: PullRequest
    notes: tuple[str, ...] = ()  # what the normalizer resolved (duplicate ids), one line each


@dataclass(frozen=True)
class Duplicate:
    """Two bundles of one import describe the same PR: `kept` is imported, `dropped` is not."""

    kept: LoadedBundle
    dropped: LoadedBundle

    def note(self) -> str:
        ref = self.kept.record.ref
        why = "updated later" if self.kept.record.updated_at != self.dropped.record.updated_at else "given later"
        return f"{self.dropped.path} and {self.kept.path} are both {ref}; kept {self.kept.path} ({why})"


def json_path(location: Iterable[int | str]) -> str:
    """A pydantic error location as a JSON path: ``("files", 3, "additions")`` → ``$.files[3].additions``."""
    path = "$"
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.isidentifier():
            path += f".{part}"
        else:
            path += "[" + json.dumps(part) + "]"
    return path


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), type(value).__name__
    )


def describe_validation_error(origin: str, error: ValidationError) -> str:
    lines = []
    for item in error.errors()[:MAX_ERRORS_SHOWN]:
        where = json_path(item["loc"])
        if item["type"] == "missing":
            lines.append(f"{origin}: {where}: required key is missing")
        elif item["type"] == "json_invalid":
            detail = str(item.get("ctx", {}).get("error") or item["msg"])
            lines.append(f"{origin}: {where}: not valid JSON: {detail}")
        else:
            lines.append(f"{origin}: {where}: {item['msg']} (got {_type_name(item.get('input'))})")
    hidden = error.error_count() - MAX_ERRORS_SHOWN
    if hidden > 0:
        lines.append(f"{origin}: ({hidden} more problems not shown)")
    return "\n".join(lines)


def parse_bundle(data: bytes | str, origin: str) -> Bundle:
    """Validate one bundle's text; BundleError names the file, JSON path and expectation."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise BundleError(f"{origin}: $: not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        # (line L, column C): json's own messages may end in "at" ("...string starting at").
        raise BundleError(f"{origin}: $: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise BundleError(f"{origin}: $: JSON nested too deeply to read (no bundle nests that far)") from None
    except ValueError:  # an integer of thousands of digits (Python refuses to convert it)
        raise BundleError(f"{origin}: $: a number in the JSON is too long to read") from None
    if not isinstance(document, dict):
        raise BundleError(f"{origin}: $: expected a JSON object (a bundle), got {_type_name(document)}")
    if "format_version" in document and document["format_version"] != 1:
        raise BundleError(
            f"{origin}: $.format_version: this prdigest reads format_version 1, got {document['format_version']!r}"
        )
    try:
        return Bundle.model_validate_json(text)
    except ValidationError as exc:
        raise BundleError(describe_validation_error(origin, exc)) from None


def load_bundle(path: Path) -> LoadedBundle:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BundleError(f"{path}: cannot read: {exc.strerror or type(exc).__name__}") from None
    bundle = parse_bundle(data, str(path))
    try:
        record = normalize_bundle(bundle)
    except ValidationError as exc:
        raise BundleError(describe_validation_error(str(path), exc)) from None
    except BundleError as exc:
        raise BundleError(f"{path}: {exc}") from None
    notes = tuple(f"{path}: {problem}" for problem in duplicate_ids(bundle))
    return LoadedBundle(path, bundle, record, notes)


def duplicate_ids(bundle: Bundle) -> list[str]:
    """Lists holding one id twice (GitHub's pages can overlap while a PR changes): where and
    which. The normalizer keeps the first of each; these lines tell the user so."""
    lists: list[tuple[str, list[tuple[str, object]]]] = [
        ("commits", [(f"$.commits[{i}]", c.sha) for i, c in enumerate(bundle.commits)]),
        ("reviews", [(f"$.reviews[{i}]", r.id) for i, r in enumerate(bundle.reviews)]),
        ("review_comments", [(f"$.review_comments[{i}]", c.id) for i, c in enumerate(bundle.review_comments)]),
        ("issue_comments", [(f"$.issue_comments[{i}]", c.id) for i, c in enumerate(bundle.issue_comments)]),
        (
            "review_threads",
            [
                (f"$.review_threads[{t}].comments.nodes[{n}]", node.databaseId)
                for t, thread in enumerate(bundle.review_threads or [])
                for n, node in enumerate(thread.comments.nodes)
            ],
        ),
    ]
    problems: list[str] = []
    for _name, items in lists:
        first: dict[object, str] = {}
        for where, key in items:
            if key is None:
                continue
            if key in first:
                what = "sha" if isinstance(key, str) else "id"
                problems.append(f"{where}: duplicate {what} {key} (also at {first[key]}); kept the first")
            else:
                first[key] = where
    return problems


def load_bundles(paths: Sequence[Path]) -> list[LoadedBundle]:
    """Validate every bundle first; one BundleError lists the problems of all bad files,
    one line each (a single problem is a single line)."""
    loaded: list[LoadedBundle] = []
    problems: list[str] = []
    bad = 0
    for path in paths:
        try:
            loaded.append(load_bundle(path))
        except BundleError as exc:
            problems.extend(str(exc).splitlines())
            bad += 1
    if len(problems) == 1:
        raise BundleError(f"{problems[0]} (nothing imported)")
    if problems:
        raise BundleError("\n".join([*problems, f"{bad} invalid bundle{'s' if bad > 1 else ''}; nothing imported"]))
    return loaded


def resolve_duplicates(loaded: Sequence[LoadedBundle]) -> tuple[list[LoadedBundle], list[Duplicate]]:
    """One bundle per PR: the one updated last (``pull.updated_at``), on a tie the one given
    last. The others are returned as `Duplicate`s for the caller to report; order is kept."""
    chosen: dict[tuple[str, int], LoadedBundle] = {}
    duplicates: list[Duplicate] = []
    for item in loaded:
        key = (item.record.repository, item.record.number)
        earlier = chosen.get(key)
        if earlier is None:
            chosen[key] = item
            continue
        newer = _updated(item) >= _updated(earlier)
        kept, dropped = (item, earlier) if newer else (earlier, item)
        chosen[key] = kept
        duplicates.append(Duplicate(kept, dropped))
    kept_ids = {id(item) for item in chosen.values()}
    return [item for item in loaded if id(item) in kept_ids], duplicates


def _updated(item: LoadedBundle) -> datetime:
    stamp = item.record.updated_at
    if stamp is None:
        return datetime.min.replace(tzinfo=UTC)
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def bundle_filename(repository: str, number: int) -> str:
    owner, _, name = repository.partition("/")
    return f"{owner}__{name}__{number}.json"


def dump_bundle(bundle: Bundle) -> str:
    return bundle.model_dump_json(by_alias=True, indent=1) + "\n"


def write_bundle(directory: Path, repository: str, bundle: Bundle) -> Path:
    """Write atomically (temp file + rename) so a killed sync never leaves half a bundle."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / bundle_filename(repository, bundle.pull.number)
    fd, temp = tempfile.mkstemp(prefix=".bundle-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(dump_bundle(bundle))
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target
