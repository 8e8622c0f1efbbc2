"""`WordTable`: one ``[table]`` of a words file, whose missing keys are errors that say where."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from prdigest.errors import ConfigError


class MissingWord(ConfigError, KeyError):
    """A key a language's words file does not have. Also a `KeyError`, so ``in`` / ``.get``
    callers keep working; the message names the language, file, table and key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class WordTable(Mapping[str, str]):
    def __init__(self, where: str, entries: Mapping[str, str]) -> None:
        self.where = where  # "zh/labels.toml [headings]"
        self._entries = dict(entries)

    def __getitem__(self, key: str) -> str:
        try:
            return self._entries[key]
        except KeyError:
            raise MissingWord(f"{self.where} has no key {key!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"WordTable({self.where!r}, {len(self)} keys)"


class WordFile(Mapping[str, WordTable]):
    """The tables of one words file (``zh/labels.toml``); a missing table is a `MissingWord` too."""

    def __init__(self, where: str, tables: Mapping[str, WordTable]) -> None:
        self.where = where
        self._tables = dict(tables)

    def __getitem__(self, name: str) -> WordTable:
        try:
            return self._tables[name]
        except KeyError:
            raise MissingWord(f"{self.where} has no table [{name}]") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)
