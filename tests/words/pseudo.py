"""A pseudo-locale built from the English words: every text wrapped in ⟦…⟧, so a test can tell
text that came from it from text that did not. Built as files in a folder, as a new language
would be: nothing in prdigest is told about it except through a `Catalog` argument."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prdigest.words import CATALOG, Catalog, Lang

PSEUDO = Lang("qps")
ENGLISH = Lang("en")
OPEN, CLOSE = "⟦", "⟧"
_WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def wrap(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


def unwrapped(text: str) -> str:
    """`text` without every ⟦…⟧ span (innermost first: filled-in templates nest)."""
    while True:
        shorter = _WRAPPED.sub("", text)
        if shorter == text:
            return text
        text = shorter


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def build_pseudo_catalog(root: Path, source: Lang = ENGLISH) -> Catalog:
    """A catalog at `root` holding only `PSEUDO`, made from `source`'s words."""
    words = CATALOG.words(source)
    folder = root / PSEUDO
    (folder / "prompts").mkdir(parents=True)
    info = words.info
    (folder / "language.toml").write_text(
        f"name = {_toml_string(wrap(info.name))}\n"
        f"html_lang = {_toml_string(PSEUDO)}\n"
        f"space_between_scripts = {str(info.space_between_scripts).lower()}\n"
        f"capitalize_sentences = {str(info.capitalize_sentences).lower()}\n",
        encoding="utf-8",
    )
    for name, tables in words.files.items():
        lines: list[str] = []
        for table, entries in tables.items():
            lines.append(f"[{table}]")
            lines += [f"{_toml_string(key)} = {_toml_string(wrap(value))}" for key, value in entries.items()]
        (folder / f"{name}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, text in words.texts.items():
        (folder / f"{name}.md").write_text(wrap(text), encoding="utf-8")
    return Catalog(root)
