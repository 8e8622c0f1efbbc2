"""Sentences in the output language from the analyzers' language-neutral evidence.

Risk tags, verdict reasons and key-file reasons carry a template name and params (paths,
packages, versions, symbols, vocabulary ids, counts, verbatim quotes). The sentences live in
``prdigest/words/<lang>/labels.toml`` (tables ``evidence``, ``reason_details``, ``key_reasons``); this module
fills them. Facts written before the analyzers emitted templates fall back to their English
text, so old stored facts still render.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from string import Formatter

from prdigest.facts_view.markup import code
from prdigest.models.facts import Evidence, EvidenceParams, FileFact, RiskTag, VerdictReason
from prdigest.words import Labels
from prdigest.words.recorded import recorded_labels

# How each parameter is shown; a parameter not named here is shown as it is.
_CODE_PARAMS = frozenset({"path", "paths", "where", "before", "after", "literal", "code", "symbol", "sha"})
_CODE_PARAMS |= frozenset({"techniques", "names", "function", "parameter"})
_QUOTED_PARAMS = frozenset({"topic", "topics", "title", "cause", "signals", "words", "quote"})
_LABEL_TABLES = {
    "kinds": "dependency_kinds",
    "symbol_kind": "symbol_kinds",
    "outcome": "thread_outcomes",
    "module": "modules",
    "fix_kind": "fix_kinds",
    "categories": "categories",
    "category": "categories",
}
_VERSION_PARAMS = frozenset({"before", "after"})


def fill(table: str, template: str, params: EvidenceParams, lab: Labels, tag_labels: Mapping[str, str]) -> str:
    """The sentence of `template` from `table`, its placeholders filled in the output language.

    When a placeholder's parameter is empty, a ``<key>.without-<param>`` variant is used if the
    label file has one (variants chain: ``x.without-a.without-b``); then, when a count is 1, a
    ``<key>.one-<param>`` variant if the table has one ("1 line", not "1 lines").
    Unknown templates raise `KeyError` (tests keep the tables complete)."""
    sentences = lab.tables[table]
    key = template
    while True:
        empty = [name for name in _fields(sentences[key]) if name not in _VERSION_PARAMS and not params.get(name)]
        variant = next((f"{key}.without-{name}" for name in empty if f"{key}.without-{name}" in sentences), None)
        if variant is None:
            break
        key = variant
    while True:
        ones = [name for name in _fields(sentences[key]) if params.get(name) == "1"]
        variant = next((f"{key}.one-{name}" for name in ones if f"{key}.one-{name}" in sentences), None)
        if variant is None:
            break
        key = variant
    values = {name: _show(name, value, lab, tag_labels) for name, value in params.items()}
    return sentences[key].format_map(_Missing(values))


@lru_cache(maxsize=1024)  # the templates are few; every sentence of every report asks
def _fields(sentence: str) -> tuple[str, ...]:
    return tuple(name for _, name, _, _ in Formatter().parse(sentence) if name)


class _Missing(dict[str, str]):
    """A template naming a parameter the analyzer did not send shows nothing there."""

    def __missing__(self, key: str) -> str:
        return ""


def _show(name: str, value: str | list[str], lab: Labels, tag_labels: Mapping[str, str]) -> str:
    items = [value] if isinstance(value, str) else list(value)
    if name in _VERSION_PARAMS and not any(items):
        return lab.tables["evidence_text"]["any_version"]
    if name == "tags":
        shown = [tag_labels.get(item) or lab.risk_tag(item) for item in items]
    elif name in _LABEL_TABLES:
        # words of the output language, not code: Chinese joins them without spaces (示例和配置)
        return listing([lab.lookup(_LABEL_TABLES[name], item) for item in items], lab, last="last_separator_words")
    elif name in _CODE_PARAMS:
        shown = [code(item) for item in items if item]
    elif name in _QUOTED_PARAMS:
        text = lab.tables["evidence_text"]
        shown = [f"{text['quote_open']}{' '.join(item.split())}{text['quote_close']}" for item in items if item]
        # Quotes sit next to each other in Chinese (「a」「b」); English separates them.
        return text["quote_separator"].join(shown)
    else:
        shown = [" ".join(item.split()) for item in items if item]
    return listing(shown, lab)


def listing(items: list[str], lab: Labels, last: str = "last_separator") -> str:
    """``a、b 和 c`` / ``a, b and c``; ``last`` names the separator before the last item."""
    if len(items) < 2:
        return "".join(items)
    return lab.join(items[:-1]) + lab.tables["evidence_text"][last] + items[-1]


def tag_label(tag: RiskTag, lab: Labels) -> str:
    """The name of a PR's risk tag in the output language (as stored with its facts when it can be)."""
    return lab.risk_tag(tag.tag, recorded_labels(tag.label_zh, tag.label_en))


def tag_labels(tags: list[RiskTag], lab: Labels) -> dict[str, str]:
    return {t.tag: tag_label(t, lab) for t in tags}


def untranslated(text: str, lab: Labels) -> str:
    """English text of old facts (no template) in the output language's terms: as it is where
    the words allow it, else "" (the caller says the fact without its detail), so that no
    English detail or raw key lands in a report in another language."""
    return lab.tables["evidence_text"]["untranslated"].format(text=text) if text else ""


def risk_evidence(tag: RiskTag, lab: Labels) -> str:
    """What triggered `tag`, in the output language (old facts: see `untranslated`)."""
    if not tag.items:
        return untranslated(tag.evidence, lab)
    parts = [fill("evidence", item.template, item.params, lab, {}) for item in tag.items]
    text = lab.text("semicolon").join(parts)
    if tag.more:
        text += lab.tables["evidence_text"]["more"].format(count=tag.more)
    return text


def reason_text(reason: VerdictReason, lab: Labels, labels_of_tags: Mapping[str, str], limit: int = 0) -> str:
    """Why a verdict reason holds, in the output language (its English detail for old facts).

    Reasons with a lead (design trap, dependency practice) say it once before their items;
    `limit` > 0 keeps that many items."""
    if not reason.items:
        return untranslated(reason.detail, lab)
    items = reason.items[:limit] if limit > 0 else reason.items
    parts = [fill("reason_details", item.template, item.params, lab, labels_of_tags) for item in items]
    joined = lab.text("semicolon").join(parts)
    lead = lab.tables["reason_leads"].get(reason.code)
    return lead.format(items=joined) if lead else joined


def key_reason(file: FileFact, lab: Labels) -> str:
    """Why `file` is a key file, in the output language ("" when the analyzer gave no reason)."""
    if file.key_reason_code is None:
        return untranslated(file.key_reason or "", lab)
    params: EvidenceParams = dict(file.key_reason_params)
    return fill("key_reasons", file.key_reason_code, params, lab, {})


def evidence_sentence(item: Evidence, lab: Labels) -> str:
    """One risk-tag evidence item alone (for callers that lay items out themselves)."""
    return fill("evidence", item.template, item.params, lab, {})
