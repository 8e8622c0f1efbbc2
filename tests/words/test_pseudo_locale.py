"""Adding a language is adding data files: a pseudo-locale, made only of files in a folder,
narrates and renders every document with no missing key, and every label in them is its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.narrate.extractive.seed_records import cupy_facts, cupy_pr, humming_facts, humming_pr
from tests.words.pseudo import OPEN, PSEUDO, build_pseudo_catalog, unwrapped

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.atom import render_feed_atom
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.html import render_feed_html, render_report_html
from prdigest.render.json_schema import render_feed_json, render_report_json
from prdigest.render.markdown import render_feed_markdown, render_report_markdown
from prdigest.words import CATALOG, Catalog, Lang

LENGTHS: tuple[Length, ...] = ("full", "brief")
_FIELD = re.compile(r"\{[^{}]*\}")


def _records() -> list[tuple[PullRequest, Facts]]:
    return [(cupy_pr(), cupy_facts()), (humming_pr(), humming_facts())]


def _documents(catalog: Catalog, lang: Lang) -> dict[str, str]:
    """Every document of both PRs: reports (full, brief × md, html, json) and the feed (md, html, json, atom)."""
    documents: dict[str, str] = {}
    entries = []
    for pr, facts in _records():
        for length in LENGTHS:
            narrative = narrate_extractive(pr, facts, [], lang, length, catalog=catalog)
            if length == "brief":
                entries.append((pr, facts, narrative))
            report = build_report(pr, facts, narrative, lang, length, catalog=catalog)
            documents[f"{pr.number}.{length}.md"] = render_report_markdown(report, catalog=catalog)
            documents[f"{pr.number}.{length}.html"] = render_report_html(report, catalog=catalog)
            documents[f"{pr.number}.{length}.json"] = render_report_json(report)
    feed = build_feed("vllm-project/vllm", entries, lang, catalog=catalog)
    documents["feed.md"] = render_feed_markdown(feed, catalog=catalog)
    documents["feed.html"] = render_feed_html(feed, catalog=catalog)
    documents["feed.json"] = render_feed_json(feed)
    documents["feed.atom"] = render_feed_atom(feed, catalog=catalog)
    return documents


def _english_phrases() -> set[str]:
    """The literal parts of every English text with two words or more: what a document would
    show if a label came from the packaged English words instead of the pseudo-locale."""
    found: set[str] = set()
    for tables in CATALOG.words("en").files.values():
        for table in tables.values():
            for value in table.values():
                for part in _FIELD.split(value):
                    part = part.strip(" .,:;()—-")
                    if len(part) >= 8 and " " in part and re.search(r"[a-z]{3}", part):
                        found.add(part)
    return found


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return build_pseudo_catalog(tmp_path_factory.mktemp("words"))


def test_the_pseudo_locale_is_found_from_its_folder_alone(pseudo: Catalog) -> None:
    assert pseudo.languages() == (PSEUDO,)
    assert pseudo.missing_keys() == {PSEUDO: []}


def test_every_document_renders_in_the_pseudo_locale(pseudo: Catalog) -> None:
    documents = _documents(pseudo, PSEUDO)
    assert len(documents) == 2 * 2 * 3 + 4
    english = _english_phrases()
    data = "".join(pr.model_dump_json() + facts.model_dump_json() for pr, facts in _records())
    # Phrases the PRs themselves contain may show as data; any other must come wrapped.
    leaks_if_shown = {phrase for phrase in english if phrase not in data}
    for name, text in documents.items():
        assert OPEN in text, name
        rest = unwrapped(text)
        leaked = sorted(phrase for phrase in leaks_if_shown if phrase in rest)
        assert not leaked, (name, leaked)
    assert f'lang="{PSEUDO}"' in documents["feed.html"]
    assert '"lang": "qps"' in documents["feed.json"]


def test_the_packaged_english_leaks_would_be_seen() -> None:
    # The check above is not vacuous: English documents show those phrases unwrapped.
    documents = _documents(CATALOG, Lang("en"))
    english = _english_phrases()
    for name, text in documents.items():
        assert any(phrase in text for phrase in english), name


def test_a_pseudo_locale_missing_a_key_fails_naming_it(tmp_path: Path) -> None:
    catalog = build_pseudo_catalog(tmp_path)
    labels_file = tmp_path / PSEUDO / "labels.toml"
    text = labels_file.read_text(encoding="utf-8")
    labels_file.write_text(re.sub(r'^"summary" = .*\n', "", text, count=1, flags=re.M), encoding="utf-8")
    with pytest.raises(KeyError, match=r"qps/labels\.toml \[headings\] has no key 'summary'"):
        _documents(catalog, PSEUDO)
