"""Diff compression and prompt budgets: never over budget, every file named or counted."""

from __future__ import annotations

import re

import pytest
from tests.narrate.llm.conftest import generated_pr

from prdigest.models.facts import FileFact
from prdigest.models.pullrequest import FileChange
from prdigest.narrate.llm.budget import compress_diff, rank_files
from prdigest.narrate.llm.prompt import build_prompt
from prdigest.narrate.llm.prompt_hunks import prompt_hunks, trim_context
from prdigest.narrate.llm.tokens import estimate_tokens, line_tokens, truncate_to_tokens


@pytest.mark.parametrize("n_files", [1, 10, 40, 3000])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("budget", [16000, 3000])
def test_prompt_within_budget_and_every_file_named_or_counted(n_files: int, lang: str, budget: int) -> None:
    pr, facts = generated_pr(n_files)
    prompt = build_prompt(pr, facts, [], lang, "full", budget=budget)  # type: ignore[arg-type]
    assert prompt.tokens <= budget
    assert sum(estimate_tokens(m["content"]) + 8 for m in prompt.messages) <= budget
    user = prompt.messages[1]["content"]
    digest = prompt.digest
    assert len(digest.named) + digest.counted == n_files
    for path in digest.named:
        assert f"### {path} (" in user
    if digest.counted:
        match = re.search(r"… and ([\d,]+) more files", user)
        assert match is not None
        assert int(match.group(1).replace(",", "")) == digest.counted
        assert any("only counted" in entry for entry in prompt.omitted)
    # Files named without their diff are listed as left out.
    for path in digest.named:
        shown = re.search(rf"### {re.escape(path)} \(.*\)\n@@", user) is not None
        if not shown:
            assert any(entry.startswith(path + ":") for entry in prompt.omitted) or "… and" in str(prompt.omitted)


def test_small_and_medium_prs_lose_nothing_and_use_only_what_they_need() -> None:
    for n_files in (1, 2, 8, 12):
        pr, facts = generated_pr(n_files, hunks_per_file=3)
        prompt = build_prompt(pr, facts, [], "en", "full", budget=16000)
        assert prompt.omitted == []
        assert prompt.digest.lines_included == prompt.digest.lines_total
        assert "Refactors helpers." in prompt.messages[1]["content"]
        # No padding: the prompt is what the PR needs, far under the budget.
        assert prompt.tokens < 16000 // 2


def test_the_budget_is_honoured_exactly() -> None:
    pr, facts = generated_pr(300)
    for budget in (2000, 5000, 16000):
        prompt = build_prompt(pr, facts, [], "en", "full", budget=budget)
        assert prompt.tokens <= budget
        # Compressed, not starved: the diff fills what the other blocks leave.
        assert prompt.tokens >= budget * 0.9
        assert prompt.omitted


def test_key_files_come_first_and_generated_last() -> None:
    pr, facts = generated_pr(6)
    pr.files.append(FileChange(path="uv.lock", additions=500, deletions=400, patch="@@ -1 +1 @@\n-a\n+b\n"))
    facts.files.files.append(FileFact(path="uv.lock", category="config", additions=500, deletions=400))
    order = [f.path for f in rank_files(pr, facts)]
    assert set(order[:3]) == {f.path for f in facts.files.files if f.is_key}
    assert order[-1] == "uv.lock"


def test_small_budget_cuts_hunks_and_says_so() -> None:
    pr, facts = generated_pr(10, hunks_per_file=4)
    digest = compress_diff(pr, facts, 600)
    assert digest.tokens <= 600
    assert digest.omitted
    assert digest.lines_included < digest.lines_total
    assert len(digest.named) + digest.counted == 10


def test_deletion_only_hunks_go_last() -> None:
    patch = "@@ -1,3 +1,1 @@\n-gone1\n-gone2\n keep\n@@ -20,2 +18,3 @@ def f():\n x\n+added line here\n y\n"
    pr, facts = generated_pr(1)
    pr.files[0] = FileChange(path=pr.files[0].path, additions=1, deletions=2, patch=patch)
    tight = compress_diff(pr, facts, 70)
    assert "+added line here" in tight.text
    assert "-gone1" not in tight.text


def test_unparsable_patch_is_kept_verbatim() -> None:
    hunks = prompt_hunks("@@ -1,9 +1,9 @@\n+only one line\n")
    assert len(hunks) == 1
    assert "+only one line" in hunks[0].lines


def test_missing_final_newline_is_shown_as_git_shows_it() -> None:
    (hunk,) = prompt_hunks("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n")
    assert hunk.lines == ("-a", "\\ No newline at end of file", "+a")


def test_hunk_extends_to_its_enclosing_symbol() -> None:
    from prdigest.models.facts import SymbolChange

    after = "\n".join(["def outer(x):", "    a = 1", "    b = 2", "    c = x", "    return c", ""])
    patch = "@@ -4,1 +4,1 @@\n-    c = 0\n+    c = x\n"
    symbol = SymbolChange(path="m.py", name="outer", start_line=1, end_line=5)
    hunks = prompt_hunks(patch, after, [symbol])
    assert hunks[0].lines[0] == " def outer(x):"
    assert hunks[0].header.endswith(" outer")


def test_trim_context_keeps_one_line_around_changes() -> None:
    lines = [" a", " b", " c", "+x", " d", " e", " f", " g", " h", "-y", " i", " j"]
    assert trim_context(lines) == [" c", "+x", " d", " ⋮", " h", "-y", " i"]


def test_estimator_is_additive_and_truncation_respects_the_budget() -> None:
    a, b = "def f(x):\n    return x + 1", "Plain English prose for people."
    assert estimate_tokens(a + "\n" + b) == estimate_tokens(a) + estimate_tokens(b) + 1
    assert line_tokens("中文") == 2
    text = "\n".join(f"line {i}: value = compute({i})" for i in range(200))
    for budget in (0, 1, 5, 50, 400):
        cut, was_cut = truncate_to_tokens(text, budget)
        assert was_cut
        assert estimate_tokens(cut) <= budget
    assert truncate_to_tokens("short", 100) == ("short", False)


def test_code_costs_more_than_prose_per_byte() -> None:
    code = "x[i] = (y[j] + 3) * z.k(4, 5);"
    prose = "the quick brown fox jumps over"
    assert len(code) == len(prose)
    assert line_tokens(code) > line_tokens(prose)
    assert line_tokens(code) >= len(code) / 2.3
