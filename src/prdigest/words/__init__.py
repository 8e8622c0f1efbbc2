"""Every word prdigest shows, in every language: one folder per language under this package.

    words/<lang>/language.toml   what differs beyond words (name, HTML lang, typography)
    words/<lang>/labels.toml     headings and labels of reports and feeds, evidence sentences
    words/<lang>/phrases.toml    sentence templates of the extractive narrator
    words/<lang>/risk_tags.toml  display names of the risk-tag vocabulary
    words/<lang>/web.toml        the web UI's own chrome
    words/<lang>/llm.toml        the LLM narrator's length rules and neutral mentions
    words/<lang>/prompts/*.md    the LLM narrator's prompts

Adding a language is adding a folder with the same files and keys. Code asks for text by key
(`labels`, `phrases`, `words`) and never compares language codes; where languages behave
differently, the difference is a property in ``language.toml``. Depends on the standard
library and `prdigest.errors` only, so every other package may use it.
"""

from __future__ import annotations

from prdigest.words.catalog import CATALOG, Catalog
from prdigest.words.labels import Labels
from prdigest.words.lang import DEFAULT_LANG, Lang
from prdigest.words.language import LanguageInfo, Words
from prdigest.words.phrases import Phrases
from prdigest.words.table import MissingWord, WordTable

__all__ = [
    "CATALOG",
    "DEFAULT_LANG",
    "Catalog",
    "Labels",
    "Lang",
    "LanguageInfo",
    "MissingWord",
    "Phrases",
    "WordTable",
    "Words",
    "labels",
    "languages",
    "phrases",
    "words",
]


def languages() -> tuple[Lang, ...]:
    """The packaged languages, the default first."""
    return CATALOG.languages()


def words(lang: str) -> Words:
    return CATALOG.words(lang)


def labels(lang: str) -> Labels:
    return CATALOG.labels(lang)


def phrases(lang: str) -> Phrases:
    return CATALOG.phrases(lang)
