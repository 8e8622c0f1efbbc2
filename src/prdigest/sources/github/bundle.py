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
        raise BundleError(f"{origin}: $: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
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
    return LoadedBundle(path, bundle, record)


def load_bundles(paths: Sequence[Path]) -> list[LoadedBundle]:
    """Validate every bundle first; one BundleError lists the problems of all bad files."""
    loaded: list[LoadedBundle] = []
    problems: list[str] = []
    for path in paths:
        try:
            loaded.append(load_bundle(path))
        except BundleError as exc:
            problems.append(str(exc))
    if problems:
        count = len(problems)
        raise BundleError(
            f"{count} invalid bundle{'s' if count > 1 else ''}; nothing imported:\n" + "\n".join(problems)
        )
    return loaded


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
