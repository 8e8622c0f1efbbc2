"""`Catalog`: the languages under one folder, found by looking, each read once.

The packaged catalog (`CATALOG`) reads the folders next to this module; a test or a user can
build another over any folder (a `Path`) and hand it to the narrator and the renderers, which
take it as an argument: nothing here is a setting to change.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from pathlib import Path
from typing import TYPE_CHECKING

from prdigest.errors import ConfigError
from prdigest.words.labels import Labels
from prdigest.words.lang import DEFAULT_LANG, Lang
from prdigest.words.language import INFO_FILE, Words, read_words
from prdigest.words.phrases import Phrases

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


@dataclass(frozen=True)
class Catalog:
    root: Traversable

    def languages(self) -> tuple[Lang, ...]:
        """Every language with a folder here: the default first, then by code."""
        return _languages(self)

    def lang(self, code: str) -> Lang:
        """`code` as a `Lang`, or a `ConfigError` naming the languages there are."""
        known = self.languages()
        if code not in known:
            raise ConfigError(f"unsupported language {code!r}; choose one of {', '.join(known)}")
        return Lang(code)

    def words(self, lang: str) -> Words:
        return _words(self, self.lang(lang))

    def labels(self, lang: str) -> Labels:
        return _labels(self, self.lang(lang))

    def phrases(self, lang: str) -> Phrases:
        return _phrases(self, self.lang(lang))

    def missing_keys(self) -> dict[Lang, list[str]]:
        """Per language, the keys some other language has and it lacks (empty lists when complete)."""
        keys = {lang: self.words(lang).keys() for lang in self.languages()}
        every = set().union(*keys.values())
        return {lang: sorted(every - own) for lang, own in keys.items()}


# Read once per process and catalog: the files are package data (or a test's folder) and
# every report, feed item and page asks for them.
@cache
def _languages(catalog: Catalog) -> tuple[Lang, ...]:
    found = sorted(
        Lang(entry.name) for entry in catalog.root.iterdir() if entry.is_dir() and entry.joinpath(INFO_FILE).is_file()
    )
    return tuple(sorted(found, key=lambda lang: lang != DEFAULT_LANG))


@cache
def _words(catalog: Catalog, lang: Lang) -> Words:
    return read_words(catalog.root.joinpath(lang), lang)


@cache
def _labels(catalog: Catalog, lang: Lang) -> Labels:
    return Labels(_words(catalog, lang))


@cache
def _phrases(catalog: Catalog, lang: Lang) -> Phrases:
    return Phrases(_labels(catalog, lang))


_PACKAGE = "prdigest.words"


def _package_folder() -> Traversable:
    """What ``importlib.resources.files`` answers for this package: for a package of plain
    files, the folder of its loader's path, found without loading `importlib.resources` (and
    with it tempfile, shutil and zipfile), which every command would pay for at start."""
    spec = sys.modules[_PACKAGE].__spec__
    loader = None if spec is None else spec.loader
    if isinstance(loader, SourceFileLoader | SourcelessFileLoader):
        return Path(loader.path).parent
    from importlib import resources

    return resources.files(_PACKAGE)


CATALOG = Catalog(_package_folder())
