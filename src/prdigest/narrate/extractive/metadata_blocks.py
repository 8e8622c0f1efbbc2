"""Blocks of a PR body that a machine wrote for machines: a YAML mapping of keys and values
(a dependency bot's ``updated-dependencies:`` list, a release tool's front matter). They hold
no sentence of anyone's: the motivation quotes none of it."""

from __future__ import annotations

import re
from functools import lru_cache

import yaml

from prdigest.analyzers.pr_text import BULLET, collapse

_BLOCK_BREAK = re.compile(r"\n\s*\n|^\s*(?:---|\.\.\.)\s*$", re.MULTILINE)
# `key: value`, `- key: value`, `key:`: a line of a mapping (a sentence has words before any colon).
_KEY_LINE = re.compile(r"^\s*(?:-\s+)?[\w./-]+:(?:\s|$)")
MIN_LINES = 2
MAX_VALUE_WORDS = 3  # a version, a name, an address with its display name


@lru_cache(maxsize=64)
def metadata_texts(body: str) -> tuple[str, ...]:
    """Each metadata block of `body`, collapsed to one line with list markers taken out (as the
    body's paragraphs are read)."""
    found: list[str] = []
    for block in _BLOCK_BREAK.split(body.replace("\r\n", "\n")):
        lines = [line for line in block.split("\n") if line.strip()]
        if len(lines) < MIN_LINES or not all(_KEY_LINE.match(line) or line.startswith(" ") for line in lines):
            continue
        try:
            parsed = yaml.safe_load(block)
        except yaml.YAMLError:
            continue
        nested = isinstance(parsed, dict) and any(isinstance(v, dict | list) for v in parsed.values())
        if isinstance(parsed, dict) and (len(parsed) > 1 or nested) and _only_values(parsed):
            found.append(collapse(" ".join(BULLET.sub("", line) for line in lines)))
    return tuple(found)


def _only_values(node: object) -> bool:
    """Whether every leaf is a value, not a sentence ("Note: this fixes the cache." is prose)."""
    if isinstance(node, dict):
        return all(_only_values(value) for value in node.values())
    if isinstance(node, list):
        return all(_only_values(value) for value in node)
    text = str(node)
    return len(text.split()) <= MAX_VALUE_WORDS and not text.rstrip().endswith((".", "!", "?"))


def is_metadata(paragraph: str, body: str) -> bool:
    """Whether a paragraph of `body` is (part of) one of its metadata blocks."""
    text = collapse(BULLET.sub("", paragraph)).rstrip(" .…")
    return bool(text) and any(text in block for block in metadata_texts(body))
