"""`Phrases`: the sentence templates of the extractive narrator in one language (``<lang>/phrases.toml``)."""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cached_property, lru_cache

from prdigest.words.labels import Labels
from prdigest.words.lang import Lang
from prdigest.words.table import WordFile


@dataclass(frozen=True)
class Phrases:
    labels: Labels

    @property
    def lang(self) -> Lang:
        return self.labels.lang

    @cached_property  # asked for by every label and phrase looked up
    def tables(self) -> WordFile:
        return self.labels.words.file("phrases")

    def say(self, section: str, key: str, /, **values: object) -> str:
        template = self.tables[section][key]
        if not self.labels.info.space_between_scripts:
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
        if capitalize and self.labels.info.capitalize_sentences and text[:1].islower():
            text = text[0].upper() + text[1:]
        if not text or text[-1] in ".!?。！？”」":
            return text
        return text + self.tables["quote"]["sentence_end"]


_FORMATTER = string.Formatter()


def _is_cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"


def _is_wide_punctuation(char: str) -> bool:
    """Chinese punctuation (「）」「，」「」」): no space is wanted beside it either."""
    return "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffef"


def _is_latin(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char in "`.#+-_/@")


def _spaced_format(template: str, values: dict[str, object]) -> str:
    """`template.format(**values)`, with a space where a filled-in Latin word meets a Chinese
    character of the template ("修改 flashinfer" rather than "修改flashinfer"), as Chinese
    typesetting does; the values themselves are left as they are."""
    out: list[str] = []
    tail = ""  # the last character of what ``out`` holds
    for literal, field, spec, conversion in _parsed(template):
        # The template's own space around a placeholder is for a Latin value: between Chinese
        # on both sides ("等 3 个文件 中的"), or after Chinese punctuation ("（…） 等"), it goes.
        if out and literal[:1] == " " and (_is_cjk(tail) or _is_wide_punctuation(tail)) and _is_cjk(literal[1:2]):
            literal = literal[1:]
        if out and literal and _is_latin(tail) and _is_cjk(literal[0]):
            out.append(" ")
            tail = " "
        out.append(literal)
        tail = literal[-1:] or tail
        if field is None:
            continue
        # A plain name is what `get_field` would look up in ``values``.
        value = values[field] if field.isidentifier() else _FORMATTER.get_field(field, (), values)[0]
        if conversion is not None:
            value = _FORMATTER.convert_field(value, conversion)
        text = format(value, spec or "")
        if text and _is_cjk(text[0]) and out and out[-1][-2:-1] and out[-1][-1] == " " and _is_cjk(out[-1][-2]):
            out[-1] = out[-1][:-1]
            tail = out[-1][-1]
        if text and tail and _is_cjk(tail) and _is_latin(text[0]):
            out.append(" ")
        out.append(text)
        tail = text[-1:] or tail
    return "".join(out)


@lru_cache(maxsize=1024)
def _parsed(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    """The template's (literal, field, spec, conversion) parts, parsed once (the phrases are few)."""
    return tuple(_FORMATTER.parse(template))
