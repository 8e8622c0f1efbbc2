"""Checks the file paths, symbols and PR numbers an LLM wrote against the facts.

A mention the facts do not know is a hallucination: it is replaced by a neutral word
("another file", "其他文件") so the sentence stays readable, and counted. What counts:

* paths: tokens with a ``/`` or a bare file name, ending in a known source / config / docs
  extension or a well-known file name (Dockerfile, Makefile...); known when they equal a
  changed path, its previous path, its base name, or a ``/``-aligned suffix of one;
* symbols: call-like tokens ``name()`` / ``A.b()`` and identifiers in backticks; known
  when `SymbolsFacts` names them, or every dotted part occurs as a word in the PR's own text
  (diffs, title, body, comments, commit messages): the model saw those, they are real;
* numbers: ``#123``, ``PR #123``, ``owner/name#123``; known when the PR's references, its
  closing issues or its own number name them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest
from prdigest.words import Lang
from prdigest.words import words as said

_EXTENSIONS = (
    "py|pyi|pyx|pxd|c|h|cc|cpp|cxx|hpp|hh|hxx|cu|cuh|go|rs|js|mjs|cjs|ts|tsx|jsx|java|kt|scala|rb|php|"
    "swift|mm|cs|sh|bash|zsh|ps1|md|rst|txt|toml|yaml|yml|json|jsonc|cfg|ini|conf|proto|sql|html|css|"
    "scss|vue|lock|cmake|gradle|bzl|mk|in|xml|csv|ipynb|tf|j2|jinja|patch"
)
_FILENAMES = "Dockerfile|Containerfile|Makefile|Jenkinsfile|CODEOWNERS|BUILD|WORKSPACE|LICENSE"
_PATH = re.compile(
    r"(?<![\w/.:@#-])"
    rf"((?:[\w.-]+/)*(?:(?:{_FILENAMES})(?:\.[\w-]+)?|[\w.-]*\w\.(?:{_EXTENSIONS})))"
    r"(?![\w/])"
)
# "Node.js"-style product names are not files.
_PRODUCT = re.compile(r"^[A-Z][A-Za-z0-9]*\.(?:js|ts)$")
_NUMBER = re.compile(
    r"(?<![\w/&])(?P<repo>[\w.-]+/[\w.-]+)#(?P<n1>\d{1,9})\b"
    r"|(?:\b(?:PR|pr|Pull Request|pull request|[Ii]ssue)\s*)?(?<![\w&])#(?P<n2>\d{1,9})\b"
)
_IDENT = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_SYMBOL = re.compile(rf"`({_IDENT})(?:\(\))?`|(?<![\w.`])({_IDENT})\(\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
_ALWAYS_KNOWN = frozenset({"None", "True", "False", "self", "cls", "null", "nullptr", "true", "false"})

_MAX_NEUTRAL_PASSES = 4


@dataclass
class KnownMentions:
    """What the facts and the PR's own text allow the prose to mention."""

    repository: str
    paths: frozenset[str]
    symbols: frozenset[str]
    numbers: frozenset[tuple[str, int]]
    corpus: str = ""
    _words: frozenset[str] | None = field(default=None, repr=False)

    @classmethod
    def from_facts(cls, pr: PullRequest, facts: Facts, extra_numbers: Iterable[tuple[str, int]] = ()) -> KnownMentions:
        paths: set[str] = set()
        for fact in facts.files.files:
            paths.add(fact.path)
            if fact.previous_path:
                paths.add(fact.previous_path)
        for change in pr.files:
            paths.add(change.path)
            if change.previous_path:
                paths.add(change.previous_path)
        symbols: set[str] = set()
        for symbol in facts.symbols.symbols:
            parts = symbol.name.split(".")
            symbols.update(".".join(parts[i:]) for i in range(len(parts)))
            symbols.update(parts)
        numbers = {(pr.repository.lower(), pr.number)}
        numbers.update((ref.repository.lower(), ref.number) for ref in facts.references.references)
        numbers.update((pr.repository.lower(), issue) for issue in pr.closing_issues)
        numbers.update((repository.lower(), number) for repository, number in extra_numbers)
        texts = [pr.title, pr.body, *(f.patch or "" for f in pr.files)]
        texts += [c.body for c in pr.comments] + [c.message for c in pr.commits] + [r.body for r in pr.reviews]
        texts += [c.body for t in pr.review_threads for c in t.comments]
        texts += [e.text for e in facts.symbols.excerpts]
        return cls(pr.repository.lower(), frozenset(paths), frozenset(symbols), frozenset(numbers), "\n".join(texts))

    def words(self) -> frozenset[str]:
        if self._words is None:
            self._words = frozenset(_WORD.findall(self.corpus))
        return self._words

    def knows_path(self, token: str) -> bool:
        candidate = token.removeprefix("./")
        if candidate in self.paths:
            return True
        return any(path.endswith("/" + candidate) or PurePosixPath(path).name == candidate for path in self.paths)

    def resolve_path(self, token: str) -> str | None:
        """The one changed path `token` names (exact, or a unique suffix / base name)."""
        candidate = token.strip().strip("`").removeprefix("./")
        if candidate in self.paths:
            return candidate
        matches = [p for p in self.paths if p.endswith("/" + candidate)]
        return matches[0] if len(matches) == 1 else None

    def knows_symbol(self, name: str) -> bool:
        if name in self.symbols or name in _ALWAYS_KNOWN:
            return True
        words = self.words()
        return all(part in words for part in name.split("."))

    def knows_number(self, repository: str | None, number: int) -> bool:
        return ((repository or self.repository).lower(), number) in self.numbers


def path_mentions(text: str) -> list[str]:
    """The path-like tokens of `text` (as the validator sees them)."""
    return [m.group(1) for m in _PATH.finditer(text) if not _PRODUCT.match(m.group(1))]


def clean_mentions(text: str, known: KnownMentions, lang: Lang) -> tuple[str, int]:
    """`text` with unknown mentions replaced by neutral words, and how many were replaced."""
    words = said(lang).table("llm", "neutral_mentions")
    removed = 0
    for _ in range(_MAX_NEUTRAL_PASSES):
        text, count = _replace_once(text, known, words)
        removed += count
        if count == 0:
            return _tidy(text, words.values()), removed
    # Replacements kept forming new path-like tokens (adversarial text): cut them out.
    empty = {"path": "", "symbol": "", "number": ""}
    while True:
        text, count = _replace_once(text, known, empty)
        removed += count
        if count == 0:
            return _tidy(text, words.values()), removed


def _replace_once(text: str, known: KnownMentions, words: Mapping[str, str]) -> tuple[str, int]:
    count = 0

    def path(match: re.Match[str]) -> str:
        nonlocal count
        token = match.group(1)
        if _PRODUCT.match(token) or known.knows_path(token):
            return token
        count += 1
        return words["path"]

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if known.knows_number(match.group("repo"), int(match.group("n1") or match.group("n2"))):
            return match.group(0)
        count += 1
        return words["number"]

    def symbol(match: re.Match[str]) -> str:
        nonlocal count
        name = match.group(1) or match.group(2)
        if known.knows_symbol(name):
            return match.group(0)
        count += 1
        return words["symbol"]

    text = _PATH.sub(path, text)
    text = _NUMBER.sub(number, text)
    text = _SYMBOL.sub(symbol, text)
    return text, count


def _tidy(text: str, neutral_words: Iterable[str]) -> str:
    for word in neutral_words:
        if word:
            text = text.replace(f"`{word}`", word)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return re.sub(r" ([,;:!?，。；：！？)])(?=\s|$)", r"\1", text)
