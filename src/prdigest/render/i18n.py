"""Static headings and labels per output language, read from ``render/labels/<lang>.toml``.

Everything a reader sees that is not a fact or narrator prose comes from these files, so a
new language is one more TOML file. Lookups of unknown vocabulary items fall back to the
item itself (an analyzer may add a kind before the labels learn it).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from prdigest.errors import ConfigError
from prdigest.models.narrative import Lang

LANGUAGES: tuple[Lang, ...] = ("zh", "en")

_TABLES = (
    "headings",
    "fields",
    "text",
    "states",
    "verdicts",
    "categories",
    "types",
    "thread_kinds",
    "thread_outcomes",
    "relations",
    "modules",
    "evidence_text",
    "dependency_kinds",
    "symbol_kinds",
    "evidence",
    "reason_details",
    "key_reasons",
    "reason_leads",
)


@dataclass(frozen=True)
class Labels:
    lang: Lang
    tables: dict[str, dict[str, str]]

    def heading(self, key: str, **values: object) -> str:
        return self.tables["headings"][key].format(**values)

    def field(self, key: str) -> str:
        return self.tables["fields"][key]

    def text(self, key: str) -> str:
        return self.tables["text"][key]

    def lookup(self, table: str, key: str) -> str:
        """The label of a vocabulary item, or the item itself when unknown."""
        return self.tables[table].get(key, key)

    def related_target(self, kind: str, number: int, repository: str | None = None) -> str:
        """ "PR #12", "Issue #12" or plain "#12" by what the target is; `repository` when it is another one's."""
        key = f"related_{kind}" if kind in ("pr", "issue") else "related_unknown"
        ref = f"{repository}#{number}" if repository else f"#{number}"
        return self.text(key).format(ref=ref)

    def verdict(self, level: str) -> str:
        return self.lookup("verdicts", level)

    def relation(self, relation: str) -> str:
        return self.lookup("relations", relation)

    def module(self, module: str) -> str:
        return self.lookup("modules", module) if module else self.text("none_identified")

    def join(self, items: list[str]) -> str:
        return self.text("list_separator").join(items)

    def more_symbols(self, shown: int, more: int) -> str:
        """What follows a list of `shown` names (" and 12 more", " 等 20 个"); empty when none is left out."""
        if more <= 0:
            return ""
        return " " + self.text("more_symbols").format(count=more, total=shown + more)


@lru_cache(maxsize=4)
def labels(lang: Lang | str) -> Labels:
    """The labels of `lang` (``zh`` or ``en``); read once per process (they are package data)."""
    if lang not in ("zh", "en"):
        raise ConfigError(f"unsupported language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    raw = resources.files("prdigest.render").joinpath(f"labels/{lang}.toml").read_text(encoding="utf-8")
    data: dict[str, Any] = tomllib.loads(raw)
    tables = {name: {str(k): str(v) for k, v in dict(data.get(name, {})).items()} for name in _TABLES}
    return Labels(lang=lang, tables=tables)
