"""`Words`: everything one language says, read from its folder (``<root>/<lang>/``).

A language folder holds ``language.toml`` (what differs beyond words: typography, names),
word files whose tables map keys to text (``labels.toml``, ``phrases.toml``, ``risk_tags.toml``,
``web.toml``, ``llm.toml``), and whole texts (``prompts/*.md``). Every language has the same
files, tables and keys; `prdigest.words.catalog.missing_keys` says which ones a language lacks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prdigest.errors import ConfigError
from prdigest.words.lang import Lang
from prdigest.words.table import MissingWord, WordFile, WordTable

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

INFO_FILE = "language.toml"
TEXT_FOLDERS = ("prompts",)


@dataclass(frozen=True)
class LanguageInfo:
    """The properties of ``language.toml``: where languages differ in behaviour, not words."""

    name: str  # in the language itself, for language switches ("中文", "English")
    html_lang: str  # the HTML lang attribute ("zh-CN")
    space_between_scripts: bool  # a space where a filled-in Latin word meets a CJK character
    capitalize_sentences: bool  # upper-case a sentence's first letter


@dataclass(frozen=True)
class Words:
    lang: Lang
    info: LanguageInfo
    files: Mapping[str, WordFile]  # "labels" -> its tables
    texts: Mapping[str, str]  # "prompts/system" -> the text of prompts/system.md

    def file(self, name: str) -> WordFile:
        try:
            return self.files[name]
        except KeyError:
            raise MissingWord(f"{self.lang}/ has no words file {name}.toml") from None

    def table(self, file: str, table: str) -> WordTable:
        return self.file(file)[table]

    def text(self, name: str) -> str:
        try:
            return self.texts[name]
        except KeyError:
            raise MissingWord(f"{self.lang}/ has no text {name}.md") from None

    def keys(self) -> set[str]:
        """Every key of the language, spelled ``file [table] key`` (and ``text name``): what
        tests compare across languages."""
        found = {
            f"{file} [{table}] {key}" for file, tables in self.files.items() for table, t in tables.items() for key in t
        }
        found |= {f"text {name}" for name in self.texts}
        found |= {f"language {name}" for name in LanguageInfo.__dataclass_fields__}
        return found


def read_words(folder: Traversable, lang: Lang) -> Words:
    info = _info(folder.joinpath(INFO_FILE), lang)
    files: dict[str, Traversable] = {}
    texts: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_file() and entry.name.endswith(".toml") and entry.name != INFO_FILE:
            files[entry.name.removesuffix(".toml")] = entry
        elif entry.is_dir() and entry.name in TEXT_FOLDERS:
            for text in sorted(entry.iterdir(), key=lambda e: e.name):
                if text.is_file() and text.name.endswith(".md"):
                    texts[f"{entry.name}/{text.name.removesuffix('.md')}"] = text.read_text(encoding="utf-8")
    return Words(lang=lang, info=info, files=WordFiles(lang, files), texts=texts)


class WordFiles(Mapping[str, WordFile]):
    """A language's word files by name, each parsed on first use and kept: a report asks for
    its labels, not for the web's, the prompts' or (with its narrative stored) the phrases."""

    def __init__(self, lang: Lang, entries: Mapping[str, Traversable]) -> None:
        self._lang = lang
        self._entries = dict(entries)
        self._parsed: dict[str, WordFile] = {}

    def __getitem__(self, name: str) -> WordFile:
        found = self._parsed.get(name)
        if found is None:
            entry = self._entries[name]
            found = self._parsed[name] = _word_file(entry, f"{self._lang}/{entry.name}")
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._entries  # without parsing the file (Mapping's asks for it)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _load(entry: Traversable, where: str) -> dict[str, object]:
    try:
        return tomllib.loads(entry.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML: {exc}") from None


def _word_file(entry: Traversable, where: str) -> WordFile:
    tables: dict[str, WordTable] = {}
    for name, table in _load(entry, where).items():
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise ConfigError(f"{where}: [{name}] must be a table of texts")
        tables[name] = WordTable(f"{where} [{name}]", {str(k): v for k, v in table.items()})
    return WordFile(where, tables)


def _info(entry: Traversable, lang: Lang) -> LanguageInfo:
    where = f"{lang}/{INFO_FILE}"
    data = _load(entry, where)
    unknown = sorted(set(data) - set(LanguageInfo.__dataclass_fields__))
    if unknown:
        raise ConfigError(f"{where}: unknown keys {unknown}")

    def value(name: str, kind: type[str] | type[bool]) -> object:
        if name not in data:
            raise MissingWord(f"{where} has no key {name!r}")
        if not isinstance(data[name], kind):
            raise ConfigError(f"{where}: {name} must be a {kind.__name__}")
        return data[name]

    return LanguageInfo(
        name=str(value("name", str)),
        html_lang=str(value("html_lang", str)),
        space_between_scripts=bool(value("space_between_scripts", bool)),
        capitalize_sentences=bool(value("capitalize_sentences", bool)),
    )
