"""File-group summaries for PRs whose diff does not fit the budget even compressed, against a
local OpenAI-compatible server: a bounded number of calls, each within the budget and costed,
every file named in the final prompt, a failed group listed and said, never a crash."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from tests.narrate.llm.conftest import (
    FakeLLMServer,
    Scripted,
    completion,
    error,
    generated_pr,
    make_config,
    schema_filled,
)

from prdigest.models.facts import Facts
from prdigest.models.narrative import Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.llm import LLMNarrator
from prdigest.narrate.llm.tokens import MESSAGE_OVERHEAD_TOKENS, estimate_tokens

BUDGET = 5000


def big_pr() -> tuple[PullRequest, Facts]:
    return generated_pr(40, hunks_per_file=30)  # 40 files of 30 hunks: ~20x the budget


def prompt_tokens(request: dict[str, Any]) -> int:
    return sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in request["messages"])


def is_group_call(request: dict[str, Any]) -> bool:
    return "summary" in request["response_format"]["json_schema"]["schema"]["properties"]


class Server:
    """Answers group calls with a numbered summary and the main call in its schema; each call
    reports different usage, so the narrative's cost can be checked against the sum."""

    def __init__(self, fail_group: int | None = None) -> None:
        self.fail_group = fail_group
        self.usage: list[tuple[int, int]] = []

    def __call__(self, payload: dict[str, Any]) -> Scripted:
        user = payload["messages"][-1]["content"]
        if is_group_call(payload):
            number = int(user.split("file group ", 1)[1].split(" ", 1)[0])
            if number == self.fail_group:
                return error(401)
            answer = {"summary": f"Group {number} renames the helpers and logs their totals."}
        else:
            schema = payload["response_format"]["json_schema"]["schema"]
            answer = {
                key: schema_filled(node, "The helpers now log their totals.")
                for key, node in schema["properties"].items()
            }
        used = (1000 + 7 * len(self.usage), 50 + len(self.usage))
        self.usage.append(used)
        return completion(json.dumps(answer), prompt_tokens=used[0], completion_tokens=used[1])


def narrate(server: FakeLLMServer, pr: PullRequest, facts: Facts, **config: Any) -> Narrative:
    narrator = LLMNarrator(make_config(server, token_budget=BUDGET, **config), sleep=lambda _s: None)
    try:
        fallback = narrate_extractive(pr, facts, [], "en", "full")
        return narrator.narrate(pr, facts, [], "en", "full", fallback=fallback)
    finally:
        narrator.close()


def test_groups_are_summarized_first_within_the_budget_and_costed(llm_server: FakeLLMServer) -> None:
    pr, facts = big_pr()
    answers = Server()
    llm_server.respond = answers
    result = narrate(llm_server, pr, facts, group_calls=3)

    requests = llm_server.requests
    assert [is_group_call(r) for r in requests] == [True, True, True, False]  # 3 groups, then the whole
    assert result.narrator == "llm"
    assert result.cost.calls == 4
    assert result.cost.tokens_in == sum(used[0] for used in answers.usage)
    assert result.cost.tokens_out == sum(used[1] for used in answers.usage)
    assert all(prompt_tokens(r) <= BUDGET for r in requests)

    final = requests[-1]["messages"][-1]["content"]
    assert all(change.path in final for change in pr.files)  # every changed file named
    for number in (1, 2, 3):
        assert f"Group {number} renames the helpers" in final
    notes = [entry for entry in result.omitted_from_prompt if entry.startswith("file group")]
    assert notes == [f"file group {n} of 3 ({n_files} files): diffs summarized by the model in a separate call"
                     for n, n_files in zip((1, 2, 3), group_sizes(final), strict=True)]  # fmt: skip
    # The compressed diff's own omitted list is kept next to them.
    assert any("diff left out" in entry or "hunks left out" in entry for entry in result.omitted_from_prompt)
    # Each group call named every file of its group.
    for request in requests[:3]:
        user = request["messages"][-1]["content"]
        group = int(user.split("file group ", 1)[1].split(" ", 1)[0])
        files = final.split(f"files of group {group}: ", 1)[1].split("\n", 1)[0].split(", ")
        assert all(path in user for path in files)


def group_sizes(final: str) -> list[int]:
    return [int(final.split(f"group {n} (", 1)[1].split(" ", 1)[0]) for n in (1, 2, 3)]


def test_a_failed_group_is_listed_and_said_never_a_crash(
    llm_server: FakeLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    pr, facts = big_pr()
    llm_server.respond = Server(fail_group=2)
    with caplog.at_level(logging.WARNING):
        result = narrate(llm_server, pr, facts, group_calls=3)
    assert result.narrator == "llm"
    assert result.llm_failure == ""
    assert result.cost.calls == 4
    final = llm_server.requests[-1]["messages"][-1]["content"]
    assert "no summary (the call failed)" in final
    assert "Group 2 renames" not in final
    assert "Group 1 renames" in final
    assert "Group 3 renames" in final
    assert all(change.path in final for change in pr.files)
    failed = [e for e in result.omitted_from_prompt if "summary call failed" in e]
    assert len(failed) == 1
    assert failed[0].startswith("file group 2 of 3")
    assert "HTTP 401" in failed[0]
    lines = [r.getMessage() for r in caplog.records if "file group" in r.getMessage()]
    assert len(lines) == 1
    assert "file group 2 of 3" in lines[0]


def test_the_number_of_calls_is_capped(llm_server: FakeLLMServer) -> None:
    pr, facts = big_pr()
    llm_server.respond = Server()
    result = narrate(llm_server, pr, facts, group_calls=1)
    assert [is_group_call(r) for r in llm_server.requests] == [True, False]
    assert result.cost.calls == 2
    assert all(prompt_tokens(r) <= BUDGET for r in llm_server.requests)
    llm_server.requests.clear()
    narrate(llm_server, pr, facts, group_calls=0)
    assert [is_group_call(r) for r in llm_server.requests] == [False]


def test_a_pr_that_fits_makes_no_group_call(llm_server: FakeLLMServer) -> None:
    pr, facts = generated_pr(4)
    llm_server.respond = Server()
    result = narrate(llm_server, pr, facts, group_calls=3)
    assert [is_group_call(r) for r in llm_server.requests] == [False]
    assert not any(entry.startswith("file group") for entry in result.omitted_from_prompt)
