"""Golden answers: the LLM path's ceiling, measured on real git histories.

For a restore chain (#10 added, #11 reverted, #12 restored), a dependency relax with its
ledger predecessor (#13 after #12), an install-script change (#14) and a 40-file feature
(file-group summaries, then the synthesis), a local OpenAI-compatible server answers
prdigest's actual prompts with the answers a careful model would give (`golden_answers`),
keyed by the request (PR, language, step). The rendered reports must keep every sentence
the facts support and lose only what grounding must reject, by the rule named for it; the
zh and en reports both render.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import Cli
from tests.e2e.feature_repo import FEATURE_REPO, build_feature_repo
from tests.e2e.golden_answers import EN, FEATURE40, GROUP_SUMMARIES, REJECTED, RELAX, RESTORE, SCRIPT, ZH
from tests.narrate.llm.conftest import FakeLLMServer, Scripted, completion, error, running_llm_server

from prdigest.config import LLMConfig
from prdigest.models.report import Report
from prdigest.pipeline.report import current_facts, narrative_for, report_for
from prdigest.render.markdown import inline, render_report_markdown
from prdigest.store import Store
from prdigest.words import Lang, labels

pytest.importorskip("openai")

STORY_BUDGET = 16_000
FEATURE_BUDGET = 6_000  # small enough that the 40 files' diffs need group summaries
_MAIN = {"en": re.compile(r"^Write the full report of PR (\S+#\d+):"), "zh": re.compile(r"^为 PR (\S+#\d+) 写")}
_GROUP = {
    "en": re.compile(r"^PR (\S+#\d+): .*\nThis is file group (\d+) of"),
    "zh": re.compile(r"^PR (\S+#\d+)：.*\n这是第 (\d+) 组文件"),
}
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")


class GoldenServer:
    """Answers by the request: the synthesis of a PR in a language, or one of its file groups.
    A request it has no answer for (a retry, an unknown PR) is a 500 and is recorded."""

    def __init__(self, server: FakeLLMServer) -> None:
        self.server = server
        self.unexpected: list[str] = []
        self.broken_synthesis: set[str] = set()  # refs whose synthesis answers invalid JSON
        server.respond = self.answer

    def answer(self, payload: dict[str, Any]) -> Scripted:
        user = payload["messages"][-1]["content"]
        for lang in ("en", "zh"):
            group = _GROUP[lang].match(user)
            if group:
                summary = GROUP_SUMMARIES[lang][int(group.group(2))]
                return completion(json.dumps({"summary": summary}), None, None)
            main = _MAIN[lang].match(user)
            if main:
                if main.group(1) in self.broken_synthesis:
                    return completion("I cannot answer in JSON today.", None, None)
                answers = EN if lang == "en" else ZH
                return completion(json.dumps(answers[main.group(1)], ensure_ascii=False), None, None)
        if user.startswith(("The answer above cannot be used", "上面的回答")):
            return completion("Still not JSON.", None, None)
        self.unexpected.append(user[:200])
        return error(500, message="no golden answer for this request")


@pytest.fixture(scope="module")
def golden_db(tmp_path_factory: pytest.TempPathFactory, story_db: Path, run_cli: Cli) -> Path:
    """The analyzed story history and the 40-file feature history in one database."""
    root = tmp_path_factory.mktemp("golden")
    db = root / "golden.db"
    shutil.copyfile(story_db, db)
    build_feature_repo(root / "plugins")
    run_cli("sync", "git", root / "plugins", "--repo", FEATURE_REPO, "--db", db)
    run_cli("analyze", "--db", db)
    return db


@pytest.fixture
def golden() -> Iterator[GoldenServer]:
    with running_llm_server() as server:
        yield GoldenServer(server)


def config_for(server: FakeLLMServer, ref: str, model: str = "test-model") -> LLMConfig:
    budget = FEATURE_BUDGET if ref == FEATURE40 else STORY_BUDGET
    return LLMConfig(
        base_url=server.base_url, model=model, api_key="sk-test", token_budget=budget, group_calls=2, timeout=10
    )


def sentences(answer: dict[str, Any]) -> list[str]:
    """Every sentence of the answer's prose (names, ids, numbers and levels left out)."""
    texts: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, str):
            if key not in {"path", "level", "who"}:
                texts.append(value)
        elif isinstance(value, dict):
            for name, item in value.items():
                if name not in {"facts", "number", "item", "thread"}:
                    walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)

    walk(answer)
    return [s.strip() for text in texts for s in _SENTENCE_END.split(text) if s.strip()]


def report_strings(report: Report) -> str:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(report.model_dump(mode="json"))
    return "\n".join(found)


def narrated(
    db: Path, golden: GoldenServer, ref: str, lang: Lang, *, refresh: bool = False, model: str = "test-model"
) -> tuple[Report, str]:
    repository, number = ref.split("#")
    config = config_for(golden.server, ref, model)
    with Store.open(f"sqlite:///{db}") as store:
        report = report_for(store, repository, int(number), lang, "full", config, refresh=refresh)
        pr = store.get_pr(repository, int(number))
        feed_title = narrative_for(store, pr, current_facts(store, pr), lang, "full", config).feed_title
    return report, feed_title


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ref", [RESTORE, RELAX, SCRIPT, FEATURE40])
def test_every_supported_sentence_reaches_the_report(
    golden_db: Path, golden: GoldenServer, ref: str, lang: Lang
) -> None:
    answer = (EN if lang == "en" else ZH)[ref]
    report, feed_title = narrated(golden_db, golden, ref, lang, refresh=True)
    assert golden.unexpected == []
    assert report.narrator.narrator == "llm"
    assert report.narrator.fallback_sections == []
    shown = report_strings(report) + "\n" + feed_title
    markdown = render_report_markdown(report)
    rejected = REJECTED.get((lang, ref), {})
    for sentence in sentences(answer):
        if sentence in rejected:
            assert sentence not in shown, f"grounding should reject ({rejected[sentence]}): {sentence}"
        else:
            assert sentence in shown, f"a supported sentence was lost: {sentence}"
    assert inline(answer["one_line"]) in markdown
    lab = labels(lang)
    judgement = answer["judgement"]
    for key, heading in (("lesson", "lesson"), ("watch_next", "watch_next"), ("action", "next_action")):
        text = judgement[key]["text"]
        if text and text not in rejected:
            assert f"- {lab.heading(heading)}{lab.text('colon')}{inline(text)}" in markdown


def test_rejections_name_their_rule(golden_db: Path, golden: GoldenServer) -> None:
    relax, _ = narrated(golden_db, golden, RELAX, "en", refresh=True)
    # A number quoted from a linked PR's body is not a fact of this PR: the mention is neutralized.
    assert "The cap was put in place after another PR was reverted." in relax.motivation
    # One level up, with a reason and facts: shown beside the facts' verdict, which stands.
    assert relax.verdict.level == "quick-read"
    assert relax.judgement is not None
    assert relax.judgement.argued_verdict is not None
    assert relax.judgement.argued_verdict.level == "read-in-depth"
    assert "the narrator argues for Worth reading in depth" in render_report_markdown(relax)

    script, _ = narrated(golden_db, golden, SCRIPT, "en", refresh=True)
    assert script.judgement is not None
    assert script.judgement.argued_verdict is None
    with Store.open(f"sqlite:///{golden_db}") as store:
        repository, number = SCRIPT.split("#")
        pr = store.get_pr(repository, int(number))
        config = config_for(golden.server, SCRIPT)
        narrative = narrative_for(store, pr, current_facts(store, pr), "en", "full", config)
    assert narrative.grounding_rejections == ["judgement.verdict: rule verdict-too-far (skip → read-in-depth)"]

    feature, _ = narrated(golden_db, golden, FEATURE40, "en", refresh=True)
    assert feature.judgement is not None
    assert feature.judgement.action is None


def test_the_restore_prompt_carries_the_chain_in_the_linked_prs_own_words(
    golden_db: Path, golden: GoldenServer
) -> None:
    narrated(golden_db, golden, RESTORE, "en", refresh=True)
    prompt = golden.server.user_prompts()[-1]
    linked = prompt.split("## linked (related PRs and issues in their own words)\n", 1)[1].split("\n## ", 1)[0]
    assert "[linked:10] PR #10 (acme/infer, restores): Add blossom quantization support" in linked
    assert "BlossomConfig checks that the kernels are installed and tells the user how to install them." in linked
    assert "assert_blossom_available (function added)" in linked  # #10's diff summary, from the store
    assert "[linked:11] PR #11" in linked
    assert "Only the registration and the" in linked
    assert "[linked:13] PR #13" in linked


def test_the_40_file_feature_is_summarized_in_groups_then_synthesized_and_the_groups_are_cached(
    golden_db: Path, golden: GoldenServer
) -> None:
    golden.broken_synthesis.add(FEATURE40)
    # A model of its own: no earlier success of it is stored to be shown instead.
    failed, _ = narrated(golden_db, golden, FEATURE40, "en", refresh=True, model="synthesis-model")
    # The synthesis answered no JSON twice: the offline text stands, nothing raised.
    assert failed.narrator.narrator == "extractive"
    assert len(golden.server.requests) == 4  # two groups, the synthesis, its retry

    golden.broken_synthesis.clear()
    before = len(golden.server.requests)
    report, _ = narrated(golden_db, golden, FEATURE40, "en", refresh=True, model="synthesis-model")
    assert report.narrator.narrator == "llm"
    assert len(golden.server.requests) == before + 1  # the group summaries were read back
    synthesis = golden.server.user_prompts()[-1]
    for summary in GROUP_SUMMARIES["en"].values():
        assert summary in synthesis
    with Store.open(f"sqlite:///{golden_db}") as store:
        repository, number = FEATURE40.split("#")
        pr = store.get_pr(repository, int(number))
        config = config_for(golden.server, FEATURE40, "synthesis-model")
        narrative = narrative_for(store, pr, current_facts(store, pr), "en", "full", config)
    steps = [(step.step, step.cached) for step in narrative.cost.steps]
    assert steps == [("group 1/2", True), ("group 2/2", True), ("synthesis", False)]
    assert narrative.cost.steps[-1].tokens_in > 0
    assert any("file group 1 of 2" in entry for entry in narrative.omitted_from_prompt)
