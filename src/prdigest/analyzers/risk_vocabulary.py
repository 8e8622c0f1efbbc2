"""The risk-tag vocabulary, read from ``data/risk_tags.toml`` (or a file the caller names).

Ids, descriptions and default severities only: the tags' names in each language are words
(``prdigest/words/<lang>/risk_tags.toml``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

from prdigest.errors import ConfigError

Severity = Literal["low", "medium", "high"]
SEVERITY_ORDER: dict[Severity, int] = {"low": 0, "medium": 1, "high": 2}


@dataclass(frozen=True)
class RiskTagSpec:
    id: str
    description: str
    severity: Severity


@dataclass(frozen=True)
class RiskVocabulary:
    tags: dict[str, RiskTagSpec]

    def get(self, tag_id: str) -> RiskTagSpec:
        try:
            return self.tags[tag_id]
        except KeyError:
            raise ConfigError(f"risk tag {tag_id!r} is not in the vocabulary") from None


def parse_vocabulary(text: str) -> RiskVocabulary:
    """Parse a vocabulary TOML document; malformed entries raise `ConfigError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"risk vocabulary is not valid TOML: {exc}") from None
    entries = data.get("tag")
    if not isinstance(entries, list):
        raise ConfigError("risk vocabulary needs [[tag]] entries")
    tags: dict[str, RiskTagSpec] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise ConfigError("each [[tag]] must be a table")
        fields: dict[str, str] = {}
        for name in ("id", "description", "severity"):
            value = entry.get(name)
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"risk tag entry {entry.get('id')!r} lacks a text {name!r}")
            fields[name] = value
        if fields["severity"] not in SEVERITY_ORDER:
            raise ConfigError(f"risk tag {fields['id']!r}: severity must be low, medium or high")
        if fields["id"] in tags:
            raise ConfigError(f"risk tag {fields['id']!r} is defined twice")
        tags[fields["id"]] = RiskTagSpec(
            id=fields["id"],
            description=fields["description"],
            severity=_severity(fields["severity"]),
        )
    return RiskVocabulary(tags=tags)


def _severity(value: str) -> Severity:
    if value == "high":
        return "high"
    if value == "medium":
        return "medium"
    return "low"


def load_vocabulary(path: Path | None = None) -> RiskVocabulary:
    """The packaged vocabulary, or the one at `path`."""
    if path is not None:
        return parse_vocabulary(path.read_text(encoding="utf-8"))
    return _packaged_vocabulary()


@lru_cache(maxsize=1)
def _packaged_vocabulary() -> RiskVocabulary:
    # Read once per process: every analyzed PR and every rendered report asks for it.
    text = resources.files("prdigest.analyzers").joinpath("data/risk_tags.toml").read_text(encoding="utf-8")
    return parse_vocabulary(text)
