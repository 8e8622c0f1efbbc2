"""A small database built through the Store API: PRs, hand-built facts, links, search index.

Shared by the store tests and the web tests (import as ``tests.helpers.sample_store``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.models.facts import (
    Facts,
    FileFact,
    FilesFacts,
    Reference,
    ReferencesFacts,
    RisksFacts,
    RiskTag,
    VerdictFacts,
    VerdictLevel,
    VerdictReason,
)
from prdigest.models.pullrequest import Comment, PullRequest
from prdigest.store import Store
from prdigest.store.facts_store import save_facts
from prdigest.store.search_store import reindex

REPO = "acme/widgets"
XSS_TITLE = '<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">Fix &amp; parser &#x3C;b&#x3E;'
XSS_COMMENT = (
    '[click](javascript:window.__xss=3) <a href="javascript:alert(1)" onclick="alert(1)">x</a> <svg onload=alert(1)>'
)


def _risk(tag: str) -> RiskTag:
    return RiskTag(tag=tag, label_zh=f"{tag}（中文）", label_en=tag.replace("-", " "), evidence=f"because {tag}")


def _pr(
    number: int, title: str, *, day: int, author: str, body: str = "", comments: list[str] | None = None
) -> PullRequest:
    return PullRequest(
        repository=REPO,
        number=number,
        title=title,
        body=body,
        author=author,
        created_at=datetime(2026, 3, day, 9, tzinfo=UTC),
        merged_at=datetime(2026, 3, day, 12, tzinfo=UTC),
        additions=10 * number,
        deletions=number,
        comments=[Comment(author="reviewer", body=text) for text in comments or []],
        url=f"https://github.com/{REPO}/pull/{number}",
    )


def _facts(
    number: int, level: VerdictLevel, risks: list[str], modules: list[str], refs: list[Reference] | None = None
) -> Facts:
    return Facts(
        repository=REPO,
        number=number,
        files=FilesFacts(
            files=[
                FileFact(path=f"src/{m}/core.py", module=m, category="source", is_key=True, additions=5)
                for m in modules
            ],
            modules=modules,
        ),
        risks=RisksFacts(tags=[_risk(r) for r in risks]),
        verdict=VerdictFacts(level=level, score=1.0, reasons=[VerdictReason(code="size", detail=f"reason {number}")]),
        references=ReferencesFacts(references=refs or []),
    )


def fill_store(store: Store) -> None:
    prs = [
        _pr(1, "Add the CUDA detection helper", day=1, author="alice", body="Adds `detect_cuda()` for builds."),
        _pr(2, "Revert the CUDA detection helper", day=2, author="bob", body="Reverts #1: it broke ROCm."),
        _pr(3, "Restore CUDA detection with a ROCm guard", day=3, author="alice", body="Restores #1 fixed."),
        _pr(4, XSS_TITLE, day=4, author="mallory", body="<script>window.__xss=4</script>", comments=[XSS_COMMENT]),
        _pr(5, "修复依赖约束：放宽 numpy 上限", day=5, author="chen", body="这个改动存在回归风险，需要补测试。"),
    ]
    store.upsert_prs(prs)
    facts = {
        1: _facts(1, VerdictLevel.READ_IN_DEPTH, ["missing-regression-test"], ["build"]),
        2: _facts(
            2,
            VerdictLevel.QUICK_READ,
            ["revert"],
            ["build"],
            [Reference(repository=REPO, number=1, target_kind="pr", relation="reverts", evidence="Reverts #1")],
        ),
        3: _facts(
            3,
            VerdictLevel.READ_IN_DEPTH,
            ["missing-regression-test", "dependency-upgrade"],
            ["build", "rocm"],
            [Reference(repository=REPO, number=1, target_kind="pr", relation="restores", evidence="Restores #1")],
        ),
        4: _facts(4, VerdictLevel.SKIP, [], ["parser"]),
        5: _facts(5, VerdictLevel.QUICK_READ, ["dependency-constraint-change"], ["deps"]),
    }
    for number, result in facts.items():
        pr_id = store.pr_id(REPO, number)
        save_facts(store, pr_id, result, cache_key="test")
    reindex(store)
