"""Is a section written in the report's language? (a zh section is Chinese apart from code,
paths, names and quotes; an en section is not Chinese).

The language's script comes from ``words/<lang>/llm.toml [language_check] script``; a
language with another script (or a pseudo-locale) is not checked. What is not prose is
removed before counting: code blocks and spans, URLs, paths, quoted text, @names, #numbers,
versions and identifiers (``snake_case``, ``camelCase``, ``dotted.names``). What remains is
counted as Chinese characters and Latin words; one Latin word weighs about as much as one
Chinese character in a sentence, so a Chinese section must have at least as many characters
as words left, and an English one must not have more characters than words.
"""

from __future__ import annotations

import re

from prdigest.words import Lang, words

_NOT_PROSE = [
    re.compile(r"```.*?(?:```|$)", re.S),
    re.compile(r"`[^`\n]*`"),
    re.compile(r"\bhttps?://\S+"),
    re.compile(r"[\"“”「」『』‘’]([^\"“”「」『』‘’\n]{0,400})[\"“”「」『』‘’]"),
    re.compile(r"[@#][\w./-]+"),
    re.compile(r"\S*[/\\]\S*"),
    re.compile(r"\b\w*[_\d]\w*\b"),
    re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[A-Z]{2,}\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b"),
    re.compile(r"\b\w+(?:\.\w+)+\b"),
    re.compile(r"\b\w+(?:-\w+)+\b"),
]
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
MIN_WORDS = 3  # shorter texts (a name, "OK") say nothing about their language


def prose_counts(text: str) -> tuple[int, int]:
    """(Chinese characters, Latin words) of `text` once code, paths, names and quotes are out."""
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return len(_HAN.findall(text)), len(_LATIN_WORD.findall(text))


def language_problem(texts: list[str], lang: Lang) -> str | None:
    """Why `texts` (one section's prose) are not in `lang`, or None when they are."""
    try:
        script = words(lang).table("llm", "language_check")["script"]
    except KeyError:
        return None
    han, latin = prose_counts("\n".join(texts))
    foreign = (script == "han" and latin >= MIN_WORDS and han < latin) or (
        script == "latin" and han >= MIN_WORDS and han > latin
    )
    if foreign:
        return f"written in another language ({han} Chinese characters, {latin} words in Latin script)"
    return None
