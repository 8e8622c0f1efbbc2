"""Seed 002: a quantization feature is added (#10), reverted (#11) and restored without its
availability check (#12), with a CuPy cap and the same CUDA-12 rewrite in setup.py and in
a Dockerfile ``sed`` line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.driver import Cli, section
from tests.e2e.repos import (
    DOCKERFILE_PATH,
    FEATURE_PR,
    QUANT_PATH,
    RESTORE_PR,
    REVERT_PR,
    SETUP_PATH,
    STORY_REPO,
)

from prdigest.analyzers.lineage import lineage_for
from prdigest.models.facts import ReferencesFacts

FEATURE = f"{STORY_REPO}#{FEATURE_PR}"
REVERT = f"{STORY_REPO}#{REVERT_PR}"
RESTORE = f"{STORY_REPO}#{RESTORE_PR}"

SEED_HEADINGS = [
    f"PR #{RESTORE_PR} 完整报告",
    "执行摘要",
    "功能与动机",
    "实现拆解",
    "关键文件",
    "关键符号",
    "关键源码片段",
    "评论区精华",
    "风险与影响",
    "关联脉络",
]


def test_restore_facts_see_the_removed_check_and_the_duplicated_rewrite(run_cli: Cli, story_db: Path) -> None:
    facts = run_cli.facts(RESTORE, story_db)
    symbols = {(s["path"], s["name"]): s["change"] for s in facts["symbols"]["symbols"]}
    assert symbols[(QUANT_PATH, "assert_blossom_available")] == "removed"
    assert symbols[(QUANT_PATH, "BlossomConfig.__init__")] == "modified"

    duplicated = [f for f in facts["dependencies"]["findings"] if f["kind"] == "duplicated-rewrite"]
    assert len(duplicated) == 1
    assert set(duplicated[0]["paths"]) == {SETUP_PATH, DOCKERFILE_PATH}
    assert SETUP_PATH in duplicated[0]["detail"]
    assert DOCKERFILE_PATH in duplicated[0]["detail"]

    caps = [c for c in facts["dependencies"]["changes"] if c["package"] == "cupy-cuda13x"]
    assert [c["kinds"] for c in caps] == [["cap-added"]]
    assert "14.1.0" in caps[0]["newly_excluded"]

    tags = {tag["tag"] for tag in facts["risks"]["tags"]}
    assert {"error-message-regression", "duplicated-logic-across-files"} <= tags
    references = {(r["number"], r["relation"]) for r in facts["references"]["references"]}
    assert (FEATURE_PR, "restores") in references


def test_revert_facts_name_the_reverted_pr_and_commit(run_cli: Cli, story_db: Path) -> None:
    facts = run_cli.facts(REVERT, story_db)
    relations = {(r["number"], r["relation"]) for r in facts["references"]["references"]}
    assert (FEATURE_PR, "reverts") in relations
    # The squash commit of the feature PR is the one the revert names.
    assert facts["references"]["reverted_commits"] == [run_cli.facts(FEATURE, story_db)["head_sha"]]


def test_feature_pr_lineage_shows_revert_and_restore_incoming(run_cli: Cli, story_db: Path) -> None:
    report = run_cli.report_json(FEATURE, story_db, "--length", "brief")
    related = {note["number"]: note["relation"] for note in report["related"]}
    assert related == {REVERT_PR: "reverted-by", RESTORE_PR: "restored-by"}

    # The same story through the lineage function, over the facts the CLI printed.
    keys = [(STORY_REPO, n) for n in (FEATURE_PR, REVERT_PR, RESTORE_PR)]
    references = {
        key: ReferencesFacts.model_validate(run_cli.facts(f"{key[0]}#{key[1]}", story_db)["references"]) for key in keys
    }
    links = lineage_for((STORY_REPO, FEATURE_PR), references)
    seen = {(link.number, link.relation, link.direction) for link in links if link.hop == 1}
    assert (REVERT_PR, "reverted-by", "incoming") in seen
    assert (RESTORE_PR, "restored-by", "incoming") in seen


def test_full_zh_report_has_every_seed_heading_in_order(run_cli: Cli, story_db: Path) -> None:
    md = run_cli("report", RESTORE, "--lang", "zh", "--length", "full", "--no-llm", "--db", story_db).stdout
    positions = []
    for heading in SEED_HEADINGS:
        match = re.search(rf"^(?:#+ )?{re.escape(heading)}", md, re.M)
        assert match is not None, f"missing {heading!r}"
        positions.append(match.start())
    assert positions == sorted(positions)
    assert "`assert_blossom_available`" in md or "assert_blossom_available," in md
    key_symbols = re.search(r"^关键符号：(.*)$", md, re.M)
    assert key_symbols is not None
    assert "assert_blossom_available" in key_symbols.group(1)
    assert "BlossomConfig.__init__" in key_symbols.group(1)
    key_files = re.findall(r"^- `([^`]+)`（模块 ([^；]+)；类别 (\w+)；类型 ([\w-]+)", md, re.M)
    by_path = {path: (module, category, kind) for path, module, category, kind in key_files}
    # the facets in the reader's language (the ids stay in the JSON report)
    assert by_path[DOCKERFILE_PATH][1:] == ("基础设施", "基础设施")
    assert by_path[QUANT_PATH][1:] == ("源码", "核心逻辑")
    risks = section(md, "风险与影响")
    assert "错误检查退化" in risks
    assert "跨文件逻辑重复" in risks
    related = section(md, "关联脉络")
    assert f"PR #{FEATURE_PR} Add blossom quantization support" in related
    # The removed check is visible in the key code excerpt.
    code = md.split("关键源码片段", 1)[1].split("# 评论区精华", 1)[0]
    assert "-        assert_blossom_available()" in code


def test_full_en_report_has_the_same_parts_and_brief_is_shorter(run_cli: Cli, story_db: Path) -> None:
    full = run_cli("report", RESTORE, "--lang", "en", "--no-llm", "--db", story_db).stdout
    headings = [
        f"# PR #{RESTORE_PR} full report",
        "# Executive summary",
        "# What and why",
        "# Implementation",
        "Key files:",
        "Key symbols:",
        "## Key code",
        "# Discussion highlights",
        "# Risks and impact",
        "# Related work",
    ]
    positions = [full.find(f"\n{heading}") if i else full.find(heading) for i, heading in enumerate(headings)]
    assert -1 not in positions, dict(zip(headings, positions, strict=True))
    assert positions == sorted(positions)
    assert not re.search(r"[\u4e00-\u9fff]", full.split("# Related work")[0]), "Chinese text in an English report"
    brief = run_cli("report", RESTORE, "--lang", "en", "--length", "brief", "--no-llm", "--db", story_db).stdout
    assert brief.startswith(f"# PR #{RESTORE_PR} brief report")
    assert len(brief) < len(full)
