"""One-line summary from the author's own sentence, key symbols capped and ranked, body
boilerplate (wrapped checklist items, tables, bot summaries) kept out of quotes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.pr_text import split_body
from prdigest.analyzers.symbol_names import is_private
from prdigest.facts_view.selection import key_symbols, key_symbols_counted
from prdigest.models.facts import Facts, FileFact, FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.pullrequest import Commit, PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.extractive.text import commit_points, sentences, summary_sentence

REPO = "acme/widgets"


def _facts(symbols: list[SymbolChange], files: list[FileFact]) -> Facts:
    return Facts(
        repository=REPO,
        number=1,
        files=FilesFacts(files=files, total_files=len(files)),
        symbols=SymbolsFacts(symbols=symbols),
    )


def _pr(body: str, title: str = "feat: add a widget cache") -> PullRequest:
    return PullRequest(repository=REPO, number=1, title=title, body=body)


SOURCE = FileFact(path="src/cache.py", category="source", module="cache", additions=40, deletions=4, is_key=True)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("## Summary\n\nAdds an LRU cache in front of the widget store. It is small.", "Adds an LRU cache in front"),
        ("Context first.\n\nAfter a long debate this PR adds an LRU cache to the widget store.", "this PR adds an LRU"),
        ("Fixes an out-of-bounds read in the widget loader on short inputs.", "Fixes an out-of-bounds read"),
    ],
)
def test_one_line_uses_the_bodys_summary_sentence(body: str, expected: str) -> None:
    # In Chinese, an English sentence is not the reader's language: the facts say it instead.
    n = narrate_extractive(_pr(body), _facts([], [SOURCE]), [], "zh", "full")
    assert expected not in n.one_line
    assert "`src/cache.py`" in n.one_line
    en = narrate_extractive(_pr(body), _facts([], [SOURCE]), [], "en", "full")
    assert en.one_line.startswith(f"“{summary_sentence(body)}”")


def test_one_line_without_a_summary_sentence_is_built_from_the_facts() -> None:
    body = "## Description\n\nThe widget store was slow under load because nothing was cached."
    added = SOURCE.model_copy(update={"status": "added", "deletions": 0})
    n = narrate_extractive(_pr(body), _facts([], [added]), [], "en", "brief")
    assert n.one_line == "Add a widget cache — adds `src/cache.py`"  # the title's intent, then the facts
    assert summary_sentence("Reverts acme/widgets#12") is None
    zh = narrate_extractive(_pr(body), _facts([], [added]), [], "zh", "brief")
    assert zh.one_line == "新增 `src/cache.py`"
    # the title says "add", but an edited file was not added
    edited = narrate_extractive(_pr(body), _facts([], [SOURCE]), [], "en", "brief")
    assert edited.one_line == "Add a widget cache — changes `src/cache.py`"


def test_one_line_names_the_kind_only_when_the_title_does_not() -> None:
    doc = FileFact(path="docs/guide.md", category="docs", module="docs", additions=3)
    plain = narrate_extractive(_pr("", "Explain the cache knobs"), _facts([], [doc]), [], "en", "full")
    assert plain.one_line == "Explain the cache knobs — updates the documentation in `docs/guide.md`"
    body = "This PR explains every knob of the widget cache."
    quoted = narrate_extractive(_pr(body, "Explain the cache knobs"), _facts([], [doc]), [], "en", "full")
    assert quoted.one_line == "“This PR explains every knob of the widget cache.” (a documentation-only change)"
    said = narrate_extractive(_pr(body, "docs: explain the cache knobs"), _facts([], [doc]), [], "en", "full")
    assert said.one_line == "“This PR explains every knob of the widget cache.”"
    zh = narrate_extractive(_pr("", "Explain the cache knobs"), _facts([], [doc]), [], "zh", "full")
    assert zh.one_line == "更新文档 `docs/guide.md`"


def test_summary_sentence_is_not_repeated_in_motivation() -> None:
    body = (
        "## Summary\n\nAdds an LRU cache in front of the widget store.\n\n"
        "Without it every request reloads the store because nothing is kept in memory."
    )
    n = narrate_extractive(_pr(body), _facts([], [SOURCE]), [], "en", "full")
    assert "Adds an LRU cache" in n.one_line
    assert "Adds an LRU cache" not in n.motivation
    assert "every request reloads the store" in n.motivation


def _symbols() -> tuple[list[SymbolChange], list[FileFact]]:
    other = FileFact(path="src/util.py", category="source", module="util", additions=5)
    test = FileFact(path="tests/test_cache.py", category="test", module="tests", additions=30)
    symbols = [
        SymbolChange(path="src/util.py", name="_tiny_helper", change="added"),
        SymbolChange(path="src/util.py", name="format_key", change="added"),
        SymbolChange(path="tests/test_cache.py", name="test_cache_hits", change="added"),
        SymbolChange(path="src/cache.py", name="LRUCache", kind="class", change="added"),
        SymbolChange(path="src/cache.py", name="load_widget", change="modified"),
        SymbolChange(path="src/cache.py", name="legacy_lookup", change="removed"),
        SymbolChange(path="src/cache.py", name="load_widget.inner", change="added"),
        *[SymbolChange(path="src/cache.py", name=f"api_{i}", change="added") for i in range(8)],
    ]
    return symbols, [SOURCE, other, test]


def test_key_symbols_are_capped_and_ranked() -> None:
    symbols, files = _symbols()
    facts = _facts(symbols, files)
    full = [s.name for s in key_symbols(facts, "full")]
    brief = [s.name for s in key_symbols(facts, "brief")]
    assert len(full) == 8
    assert len(brief) == 3
    # key file first, removed and modified before added; private, nested and tests last
    assert full[:3] == ["legacy_lookup", "load_widget", "LRUCache"]
    assert "_tiny_helper" not in full
    assert "load_widget.inner" not in full
    assert "test_cache_hits" not in full
    assert key_symbols_counted(facts, "full")[1] == len(symbols) - 8
    assert key_symbols_counted(facts, "brief")[1] == len(symbols) - 3
    assert [s.name for s in key_symbols_counted(facts, "full")[0]] == full


def test_private_symbols_fill_in_when_few_are_public() -> None:
    facts = _facts(
        [
            SymbolChange(path="src/cache.py", name="_a", change="added"),
            SymbolChange(path="src/cache.py", name="_b", change="modified"),
            SymbolChange(path="src/cache.py", name="run_all", change="added"),
        ],
        [SOURCE],
    )
    assert [s.name for s in key_symbols(facts, "full")] == ["run_all", "_b", "_a"]
    assert is_private("outer.inner")
    assert is_private("_outer.x")
    assert not is_private("Config.__init__")
    assert not is_private("ns::Runner::run")


def test_wrapped_checklist_items_tables_and_bot_summaries_are_not_quoted() -> None:
    body = (
        "## Description\n\nThe cache was never invalidated because the key ignored the version.\n\n"
        "| case | before | after |\n|---|---|---|\n| cold | 10 ms | 2 ms |\n\n"
        "## Pre-commit Checks\n\n- [ ] I have run the hooks manually with `pre-commit run --all-files`\n"
        "and fixed any reported issues.\n\n"
        "## Summary by CodeRabbit\n\n* **New Features**\n  * Faster widgets everywhere.\n"
    )
    sections = split_body(body)
    text = " ".join(sections.motivation)
    assert "fixed any reported issues" not in text
    assert "| cold" not in text
    assert "Faster widgets" not in text
    assert "never invalidated" in text


def test_abbreviations_do_not_end_sentences() -> None:
    assert sentences(["Some inputs (e.g. empty keys) crash the loader. Fixed now."]) == [
        "Some inputs (e.g. empty keys) crash the loader.",
        "Fixed now.",
    ]


def test_commit_points_skip_title_labels_and_boilerplate() -> None:
    messages = [
        "feat: add a widget cache (#1)\n\n## Summary by CodeRabbit\n\n* Bot text\n\n## Changes\n\n"
        "* cache widgets by version\n  and id\n* **Refactor**\n\nSigned-off-by: dev <dev@example.com>",
        "address review comments",
        "Merge branch 'main' into cache",
    ]
    points = commit_points(messages, "feat: add a widget cache")
    assert points == ["cache widgets by version and id", "address review comments"]


def test_empty_body_without_commit_points_says_so_plainly() -> None:
    pr = PullRequest(
        repository=REPO,
        number=1,
        title="feat: add a widget cache",
        commits=[Commit(sha="c" * 40, author="dev", message="feat: add a widget cache (#1)")],
    )
    n = narrate_extractive(pr, _facts([], [SOURCE]), [], "zh", "full")
    assert n.motivation == "PR 正文为空。提交说明也只是标题，没有给出更多动机。"
    template = pr.model_copy(update={"body": "## Checklist\n- [x] tests\n"})
    assert narrate_extractive(template, _facts([], [SOURCE]), [], "en", "full").motivation.startswith(
        "The PR body holds only the template"
    )


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400), st.lists(st.text(max_size=200), max_size=3))
def test_summary_and_commit_points_never_crash_and_stay_verbatim(body: str, messages: list[str]) -> None:
    found = summary_sentence(body)
    if found is not None:
        assert "\n" not in found
        assert all(word.strip("…") in body for word in found.split() if word.strip("…"))
    for point in commit_points(messages, "title"):
        assert "\n" not in point
