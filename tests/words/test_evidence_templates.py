"""Every risk-tag evidence, verdict reason and key-file reason renders in both languages, and
the Chinese sentences hold no English words outside code spans, quotes and the facts they name
(paths, packages, versions, symbols, ids)."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from prdigest.analyzers.key_files import KEY_REASON_CODES
from prdigest.analyzers.risk_vocabulary import load_vocabulary
from prdigest.analyzers.risks import EVIDENCE_TEMPLATES
from prdigest.analyzers.verdict import REASON_TEMPLATES
from prdigest.facts_view.evidence import fill, key_reason, reason_text, risk_evidence
from prdigest.models.facts import Evidence, EvidenceParams, FileFact, RiskTag, VerdictReason
from prdigest.words import labels

# Facts a sentence may name, in ASCII: each sample value below is one of these and is removed
# before the check; vocabulary ids (kinds, outcomes, tags) are given real ids so their labels
# are checked too.
FACT_VALUE = "pkg-name"
LABELLED_SAMPLES: dict[str, list[str]] = {
    "kinds": ["cap-to-exclusion", "cap-added", "pinned", "markers-changed", "variant-renamed", "other"],
    "symbol_kind": ["function"],
    "outcome": ["no-reply"],
    "tags": list(load_vocabulary().tags),
    "module": ["dependency config"],
}
ALLOWED_WORDS = {"CI", "PR"}  # acronyms Chinese technical prose keeps (as the seeds do)
_CODE = re.compile(r"(`+).+?\1")
_QUOTE = re.compile(r"「[^」]*」|“[^”]*”")
_ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def _params(sentence: str) -> EvidenceParams:
    params: EvidenceParams = {}
    for _, name, _, _ in Formatter().parse(sentence):
        if name:
            params[name] = LABELLED_SAMPLES.get(name, [FACT_VALUE, FACT_VALUE])
    return params


def _english_words(text: str) -> list[str]:
    stripped = _QUOTE.sub("", _CODE.sub("", text)).replace(FACT_VALUE, "")
    return [w for w in _ENGLISH_WORD.findall(stripped) if w not in ALLOWED_WORDS]


def _vocabulary_tables() -> dict[str, set[str]]:
    prefixes = {
        "evidence": EVIDENCE_TEMPLATES,
        "reason_details": REASON_TEMPLATES,
        "key_reasons": KEY_REASON_CODES,
    }
    return {table: set(keys) for table, keys in prefixes.items()}


@pytest.mark.parametrize("table", ["evidence", "reason_details", "key_reasons"])
def test_every_template_the_analyzers_emit_has_zh_and_en_sentences(table: str) -> None:
    wanted = _vocabulary_tables()[table]
    for lang in ("zh", "en"):
        sentences = labels(lang).tables[table]
        missing = wanted - set(sentences)
        assert not missing, f"{lang} {table} lacks {sorted(missing)}"
        # Variants belong to a known template; nothing stale is left behind.
        stale = {key for key in sentences if _base(key) not in wanted}
        assert not stale, f"{lang} {table} has sentences for no template: {sorted(stale)}"
        # A ".one-" variant (a count of 1) belongs to a sentence of the same table.
        orphans = {key for key in sentences if ".one-" in key and key.rsplit(".one-", 1)[0] not in sentences}
        assert not orphans, f"{lang} {table} has singular variants of nothing: {sorted(orphans)}"
    assert set(labels("zh").tables[table]) == set(labels("en").tables[table])


def _base(key: str) -> str:
    return key.split(".without-")[0].split(".one-")[0]


def test_a_count_of_one_reads_in_the_singular_where_the_language_has_one() -> None:
    en, zh = labels("en"), labels("zh")
    one: EvidenceParams = {"lines": "1", "files": "1", "paths": ["a.py"]}
    assert fill("reason_details", "core-change.lines", one, en, {}) == "1 line of core logic changes in 1 file (`a.py`)"
    many: EvidenceParams = {"lines": "12", "files": "1", "paths": ["a.py"]}
    twelve = "12 lines of core logic change in 1 file (`a.py`)"
    assert fill("reason_details", "core-change.lines", many, en, {}) == twelve
    small: EvidenceParams = {"lines": "1", "paths": []}
    assert fill("reason_details", "small-change.lines", small, en, {}) == "a small change: 1 line of core logic"
    assert fill("key_reasons", "tests", {"lines": "1"}, en, {}) == "tests (1 changed line)"
    assert fill("key_reasons", "tests", {"lines": "10"}, en, {}) == "tests (10 changed lines)"
    assert fill("reason_details", "small-change.lines", small, zh, {}) == "改动很小：核心逻辑改动 1 行"


def test_every_risk_tag_of_the_vocabulary_has_evidence_templates() -> None:
    tagged = {template.split(".", 1)[0] for template in EVIDENCE_TEMPLATES}
    assert set(load_vocabulary().tags) == tagged


@pytest.mark.parametrize("table", ["evidence", "reason_details", "key_reasons"])
def test_zh_sentences_hold_no_english_words(table: str) -> None:
    zh = labels("zh")
    for key, sentence in zh.tables[table].items():
        base = _base(key)
        params = _params(sentence)
        text = fill(table, base, params, zh, {}) if key == base else sentence.format_map({name: "" for name in params})
        assert not _english_words(text), (key, text)


def test_every_vocabulary_label_is_chinese() -> None:
    zh = labels("zh")
    for table_name in ("dependency_kinds", "symbol_kinds", "evidence_text"):
        for key, label in zh.tables[table_name].items():
            assert not _english_words(re.sub(r"\{\w+\}", "", label)), (table_name, key, label)
    for tag in load_vocabulary().tags:
        assert not _english_words(zh.risk_tag(tag).replace("CI", "")), tag


def test_a_tag_renders_from_its_items_in_each_language() -> None:
    tag = RiskTag(
        tag="dependency-constraint-change",
        label_zh="依赖约束策略调整",
        label_en="dependency constraint change",
        evidence="requirements/cuda.txt: cupy-cuda13x <14.1.0 → !=14.1.0 (cap-to-exclusion)",
        items=[
            Evidence(
                template="dependency-constraint-change.change",
                params={
                    "path": "requirements/cuda.txt",
                    "package": "cupy-cuda13x",
                    "before": "<14.1.0",
                    "after": "!=14.1.0",
                    "kinds": ["cap-to-exclusion"],
                },
            )
        ],
        more=2,
    )
    zh = risk_evidence(tag, labels("zh"))
    assert zh == "`requirements/cuda.txt` 中 cupy-cuda13x 由 `<14.1.0` 改为 `!=14.1.0`（上限改为精确排除）（另有 2 处）"
    en = risk_evidence(tag, labels("en"))
    assert en.startswith("cupy-cuda13x goes from `<14.1.0` to `!=14.1.0` in `requirements/cuda.txt`")
    assert "cupy-cuda13x cupy-cuda13x" not in en
    # Facts from before structured evidence fall back to the English text, in English only:
    # a Chinese report never shows English detail or raw keys (the bullet names the tag alone).
    assert risk_evidence(tag.model_copy(update={"items": []}), labels("en")) == tag.evidence
    assert risk_evidence(tag.model_copy(update={"items": []}), labels("zh")) == ""


def test_empty_params_pick_the_variant_and_versions_read_as_any_version() -> None:
    zh = labels("zh")
    reason = VerdictReason(
        code="lineage",
        detail="restores #103",
        weight=3.0,
        items=[Evidence(template="lineage.restores-after-revert", params={"refs": ["#103"], "reverts": []})],
    )
    assert "曾被回退" in reason_text(reason, zh, {})
    added = Evidence(
        template="dependency-upgrade.change",
        params={"path": "r.txt", "package": "numpy", "before": "", "after": ">=2"},
    )
    assert "由 任意版本 升到 `>=2`" in fill("evidence", added.template, added.params, zh, {})


def test_key_reasons_render_in_the_output_language() -> None:
    fact = FileFact(path="setup.py", key_reason="core logic (build script), 4 changed lines")
    fact.key_reason_code = "core-logic"
    fact.key_reason_params = {"module": "build script", "lines": "4"}
    assert key_reason(fact, labels("zh")) == "核心逻辑（构建脚本，改动 4 行）"
    assert key_reason(fact, labels("en")) == "core logic of build script (4 changed lines)"
    assert key_reason(FileFact(path="a", key_reason="old text"), labels("en")) == "old text"
    assert key_reason(FileFact(path="a", key_reason="old text"), labels("zh")) == ""
