"""`Labels`: the static headings and labels of documents in one language (``<lang>/labels.toml``),
and the display names of risk tags (``<lang>/risk_tags.toml``).

Everything a reader sees that is not a fact or narrator prose comes from these files. Lookups
of unknown vocabulary items fall back to the item itself (an analyzer may add a kind before
the labels learn it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from prdigest.words.lang import Lang
from prdigest.words.language import LanguageInfo, Words
from prdigest.words.table import WordFile


@dataclass(frozen=True)
class Labels:
    words: Words

    @property
    def lang(self) -> Lang:
        return self.words.lang

    @property
    def info(self) -> LanguageInfo:
        return self.words.info

    @cached_property  # asked for by every label and phrase looked up
    def tables(self) -> WordFile:
        return self.words.file("labels")

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
        """A module in prose: the rules' modules by their label; a code module (a directory)
        by its name, as code ("the `dependencies` module") when that name is one of the
        report's own words, so "Change dependencies" does not read as a package change."""
        if not module:
            return self.text("none_identified")
        table = self.tables["modules"]
        if module in table:
            return table[module]
        if module.lower() in self.text("section_words").split():
            return self.text("code_module").format(module=f"`{module}`")
        return module

    def join(self, items: list[str]) -> str:
        return self.text("list_separator").join(items)

    def more_symbols(self, shown: int, more: int) -> str:
        """What follows a list of `shown` names (" and 12 more", " 等 20 个"); empty when none is left out."""
        if more <= 0:
            return ""
        return " " + self.text("more_symbols").format(count=more, total=shown + more)

    def risk_tag(self, tag: str, recorded: Mapping[Lang, str] | None = None) -> str:
        """The name of risk tag `tag`: the label stored with the facts in this language
        (`recorded`) when there is one, else this language's vocabulary, else the id."""
        stored = (recorded or {}).get(self.lang)
        if stored:
            return stored
        return self.words.table("risk_tags", "risk_tags").get(tag, tag)
