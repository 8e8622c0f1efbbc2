"""Sentence templates of the extractive narrator, per language (``phrases/<lang>.toml``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from prdigest.render.i18n import Labels, labels


@dataclass(frozen=True)
class Phrases:
    lang: str
    tables: dict[str, dict[str, str]]
    labels: Labels

    def say(self, section: str, key: str, **values: object) -> str:
        return self.tables[section][key].format(**values)

    def has(self, section: str, key: str) -> bool:
        return key in self.tables.get(section, {})

    def quote(self, text: str) -> str:
        return f"{self.tables['quote']['open']}{text}{self.tables['quote']['close']}"

    def code(self, text: str) -> str:
        # A backtick inside would end the span early; such text is shown as a quote instead.
        if "`" in text:
            return self.quote(text)
        return f"`{text}`"

    def join(self, items: list[str]) -> str:
        return self.tables["quote"]["list_sep"].join(items)

    def quotes(self, texts: list[str]) -> str:
        return self.tables["quote"]["quote_sep"].join(self.quote(t) for t in texts)

    def sentences(self, texts: list[str]) -> str:
        """Sentences joined as the language does (a space in English, nothing in Chinese)."""
        return self.tables["quote"]["sentence_sep"].join(self.sentence(t) for t in texts if t)

    def sentence(self, text: str) -> str:
        """`text` ending with a full stop of the language (unless it already ends a sentence)."""
        text = text.strip()
        if self.lang == "en" and text[:1].islower():
            text = text[0].upper() + text[1:]
        if not text or text[-1] in ".!?。！？”」":
            return text
        return text + self.tables["quote"]["sentence_end"]


@lru_cache(maxsize=4)
def phrases(lang: str) -> Phrases:
    label_set = labels(lang)  # validates lang
    raw = resources.files("prdigest.narrate.extractive").joinpath(f"phrases/{lang}.toml").read_text("utf-8")
    data = tomllib.loads(raw)
    tables = {str(name): {str(k): str(v) for k, v in dict(table).items()} for name, table in data.items()}
    return Phrases(lang=lang, tables=tables, labels=label_set)
