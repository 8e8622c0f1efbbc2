"""Sentence templates of the extractive narrator, per language (``phrases/<lang>.toml``)."""

from __future__ import annotations

import string
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
        template = self.tables[section][key]
        if self.lang != "zh":
            return template.format(**values)
        return _spaced_format(template, values)

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

    def sentence(self, text: str, capitalize: bool = True) -> str:
        """`text` ending with a full stop of the language (unless it already ends a sentence);
        `capitalize=False` keeps a leading name (a module, a path) as it is spelled."""
        text = text.strip()
        if capitalize and self.lang == "en" and text[:1].islower():
            text = text[0].upper() + text[1:]
        if not text or text[-1] in ".!?。！？”」":
            return text
        return text + self.tables["quote"]["sentence_end"]


_FORMATTER = string.Formatter()


def _is_cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"


def _is_latin(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char in "`.#+-_/@")


def _spaced_format(template: str, values: dict[str, object]) -> str:
    """`template.format(**values)`, with a space where a filled-in Latin word meets a Chinese
    character of the template ("修改 flashinfer" rather than "修改flashinfer"), as Chinese
    typesetting does; the values themselves are left as they are."""
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        if out and literal and _is_latin(out[-1][-1:]) and _is_cjk(literal[0]):
            out.append(" ")
        out.append(literal)
        if field is None:
            continue
        value = _FORMATTER.get_field(field, (), values)[0]
        value = _FORMATTER.convert_field(value, conversion)
        text = _FORMATTER.format_field(value, spec or "")
        previous = "".join(out)[-1:]
        if text and previous and _is_cjk(previous) and _is_latin(text[0]):
            out.append(" ")
        out.append(text)
    return "".join(out)


@lru_cache(maxsize=4)
def phrases(lang: str) -> Phrases:
    label_set = labels(lang)  # validates lang
    raw = resources.files("prdigest.narrate.extractive").joinpath(f"phrases/{lang}.toml").read_text("utf-8")
    data = tomllib.loads(raw)
    tables = {str(name): {str(k): str(v) for k, v in dict(table).items()} for name, table in data.items()}
    return Phrases(lang=lang, tables=tables, labels=label_set)
