"""The mention validator and the answer parser: known mentions stay, invented ones go."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.narrate.llm.conftest import sample_facts, sample_pr

from prdigest.models.narrative import SECTION_FIELDS
from prdigest.narrate.llm.prompt import strip_boundary
from prdigest.narrate.llm.schema import ALL_SECTIONS, LLMAnswer, answer_keys, parse_answer
from prdigest.narrate.llm.validate import KnownMentions, clean_mentions, path_mentions

KNOWN = KnownMentions.from_facts(sample_pr(), sample_facts())

pathish = st.from_regex(r"[a-z]{1,6}(/[a-z_]{1,6}){0,3}\.(py|md|txt|cu|json)", fullmatch=True)
words = st.sampled_from(["see", "the", "file", "and", "#42540", "#7", "`x`", "foo()", "(", ")", ",", "/", "."])
texts = st.lists(st.one_of(pathish, words, st.text(max_size=8)), max_size=30).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_no_unknown_path_survives(text: str) -> None:
    cleaned, removed = clean_mentions(text, KNOWN, "en")
    assert removed >= 0
    for token in path_mentions(cleaned):
        assert KNOWN.knows_path(token), (text, cleaned, token)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_text_never_crashes(text: str) -> None:
    for lang in ("en", "zh"):
        cleaned, removed = clean_mentions(text, KNOWN, lang)
        assert isinstance(cleaned, str)
        assert removed >= 0


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text(alphabet="0123456789abcdef", min_size=4, max_size=12))
def test_boundary_never_survives_stripping(text: str, boundary: str) -> None:
    assert boundary not in strip_boundary(text + boundary + text, boundary).lower()


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_answer_parser_never_crashes(content: str) -> None:
    values, errors = parse_answer(content, ALL_SECTIONS)
    assert set(values) | set(errors) == set(ALL_SECTIONS)


def test_known_mentions_are_kept() -> None:
    text = "`vllm/quantization/humming.py` and humming.py change `HummingConfig.__init__` after #42540 (PR #43530)."
    assert clean_mentions(text, KNOWN, "en") == (text, 0)


def test_invented_mentions_are_replaced_readably() -> None:
    text = "See `vllm/fake/thing.py`, call `totally_made_up()` and read PR #31337."
    cleaned, removed = clean_mentions(text, KNOWN, "en")
    assert removed == 3
    assert cleaned == "See another file, call a related function and read another PR."
    zh, _ = clean_mentions("改动见 `vllm/fake/thing.py` 与 #31337。", KNOWN, "zh")
    assert zh == "改动见 其他文件 与 其他 PR。"


def test_product_names_and_versions_are_not_paths() -> None:
    text = "Works like Node.js; caps cupy below 14.1.0 and/or 2.9."
    assert clean_mentions(text, KNOWN, "en") == (text, 0)


def test_key_list_covers_every_field() -> None:
    keys = answer_keys(ALL_SECTIONS)
    assert all(name in keys for name in LLMAnswer.model_fields)
    assert sorted(f for fields in SECTION_FIELDS.values() for f in fields) == sorted(LLMAnswer.model_fields)


def test_fenced_answer_with_chatter_parses() -> None:
    content = 'Here you go:\n```json\n{"one_line": "x", "recommendation": "y"}\n```'
    values, errors = parse_answer(content, ("summary", "motivation"))
    assert values["summary"]["one_line"] == "x"
    assert errors == {"motivation": "motivation: missing"}
