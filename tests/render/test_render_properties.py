"""Every document renders, whatever the facts: both languages, both lengths, every format.

Facts and records are generated field by field from the pydantic models, with evidence
templates drawn from the label files (unknown templates are a test-suite error by design)
and parameters that are sometimes missing, repeated or of the other shape (str / list).
One real PR once raised ``KeyError: 'where'`` here; no generated one may raise anything.
"""

from __future__ import annotations

import types
import typing
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Literal, get_args, get_origin

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from prdigest.models.facts import Evidence, Facts, FileFact, RiskTag, VerdictReason
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.extractive.files import file_roles
from prdigest.narrate.extractive.risks import merged_lines
from prdigest.render.atom import render_feed_atom
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.html import render_feed_html, render_report_html
from prdigest.render.json_schema import render_feed_json, render_report_json
from prdigest.render.markdown import render_feed_markdown, render_report_markdown
from prdigest.words import Lang, labels, phrases

REPORT_RENDERERS = (render_report_markdown, render_report_html, render_report_json)
FEED_RENDERERS = (render_feed_markdown, render_feed_html, render_feed_json, render_feed_atom)
LANGS: tuple[Lang, ...] = ("zh", "en")
LENGTHS: tuple[Length, ...] = ("full", "brief")

# A few words of every kind the renderers treat specially: paths with lines, markup, quotes.
WORDS = st.sampled_from(
    ["src/a.py", "src/a.py:12", "src/a.py:40", "b.cu:7", "numpy", ">=1.2", "<2", "`x`", "<b>", "{where}", "", "  "]
)
TEXT = WORDS | st.text(max_size=12)
STAMPS = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC))


def _template_names(table: str) -> list[str]:
    names = set(labels("en").tables[table]) & set(labels("zh").tables[table])
    return sorted(name for name in names if ".without-" not in name)


def _params() -> st.SearchStrategy[dict[str, str | list[str]]]:
    keys = st.sampled_from(["where", "path", "paths", "package", "before", "after", "count", "tags", "kinds", "topic"])
    return st.dictionaries(keys, TEXT | st.lists(TEXT, max_size=3), max_size=4)


def _evidence(table: str) -> st.SearchStrategy[Evidence]:
    return st.builds(Evidence, template=st.sampled_from(_template_names(table)), params=_params())


def _evidence_lists(table: str) -> st.SearchStrategy[list[Evidence]]:
    # Repeats on purpose: the same template twice is what broke `merged_lines`.
    return st.lists(_evidence(table), max_size=4).flatmap(lambda items: st.just(items) | st.just(items + items[:2]))


OVERRIDES: dict[tuple[type[BaseModel], str], st.SearchStrategy[Any]] = {
    (RiskTag, "items"): _evidence_lists("evidence"),
    (VerdictReason, "items"): _evidence_lists("reason_details"),
    (FileFact, "key_reason_code"): st.none() | st.sampled_from(_template_names("key_reasons")),
    (Facts, "repository"): st.just("o/r"),
    (PullRequest, "repository"): st.just("o/r"),
    (PullRequest, "number"): st.integers(1, 10**6),
}


def for_type(annotation: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """A strategy for one field's annotation; models recurse, lists stay short."""
    origin = get_origin(annotation)
    if origin is Literal:
        return st.sampled_from(get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(for_type(arg, depth) for arg in get_args(annotation)))
    if origin is list:
        return st.lists(for_type(get_args(annotation)[0], depth + 1), max_size=3 if depth < 2 else 1)
    if origin is dict:
        key, value = get_args(annotation)
        return st.dictionaries(for_type(key, depth + 1), for_type(value, depth + 1), max_size=3)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model(annotation, depth + 1)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return st.sampled_from(list(annotation))
    simple: dict[Any, st.SearchStrategy[Any]] = {
        str: TEXT,
        int: st.integers(0, 5000),
        float: st.floats(0, 100, allow_nan=False),
        bool: st.booleans(),
        datetime: STAMPS,
        type(None): st.none(),
    }
    return simple[annotation]


def model(cls: type[BaseModel], depth: int = 0) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    fields = {
        name: OVERRIDES[(cls, name)] if (cls, name) in OVERRIDES else for_type(hints[name], depth)
        for name in cls.model_fields
        if name != "schema_version"
    }
    return st.fixed_dictionaries(fields).map(lambda values: cls.model_validate(values))


@settings(max_examples=60, deadline=None)
@given(pr=model(PullRequest), facts=model(Facts))
def test_every_document_renders_for_generated_facts(pr: PullRequest, facts: Facts) -> None:
    for lang in LANGS:
        feed_entries = []
        for length in LENGTHS:
            narrative = narrate_extractive(pr, facts, [], lang, length)
            report = build_report(pr, facts, narrative, lang, length)
            for render in REPORT_RENDERERS:
                assert isinstance(render(report), str)
            if length == "brief":
                feed_entries.append((pr, facts, narrative))
        feed = build_feed("o/r", feed_entries, lang)
        for render_feed in FEED_RENDERERS:
            assert isinstance(render_feed(feed), str)


def test_repeated_evidence_without_where_is_kept_not_merged() -> None:
    """The PR that raised ``KeyError: 'where'``: one template twice, no ``where`` parameter."""
    template = _template_names("evidence")[0]
    items = [Evidence(template=template, params={"package": "numpy"})] * 2
    tag = RiskTag(tag="t", label_zh="t", label_en="t", evidence="", items=items)
    assert merged_lines(tag, phrases("en")).items == items
    lined = [Evidence(template=template, params={"where": f"a.py:{n}"}) for n in (3, 9)]
    merged = merged_lines(tag.model_copy(update={"items": lined}), phrases("en")).items
    assert [item.params["where"] for item in merged] == ["a.py:3, 9"]


def test_a_duplicated_literal_without_its_value_says_nothing_of_it() -> None:
    """Hypothesis found ``KeyError: 'literal'``: the evidence names the files, not the value."""
    template = "duplicated-logic-across-files.literal"
    item = Evidence(template=template, params={"paths": ["src/a.py", "src/b.py"]})
    tag = RiskTag(tag="duplicated-logic-across-files", label_zh="t", label_en="t", evidence="", items=[item])
    file = FileFact(path="src/a.py", category="source", additions=1, deletions=0)
    facts = Facts(repository="o/r", number=1)
    facts.files.files = [file]
    facts.risks.tags = [tag]
    roles = file_roles(facts, "full", phrases("en"))
    assert roles[0].path == "src/a.py"
    assert "src/b.py" not in roles[0].role
