"""Reading verdicts: a trivial docs typo, a small dependency practice PR, a root-cause fix."""

from __future__ import annotations

from prdigest.analyzers.risks import derive_risk_tags
from prdigest.analyzers.verdict import ANALYZER, QUICK_READ, READ_IN_DEPTH, judge
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChange,
    DiscussionFacts,
    DiscussionThread,
    FileFact,
    FilesFacts,
    Reference,
    ReferencesFacts,
    SymbolsFacts,
    VerdictFacts,
    VerdictLevel,
    VerdictReason,
)
from prdigest.models.facts import TestsCIFacts as CIFacts
from prdigest.models.pullrequest import FileChange, FileStatus, PullRequest


def _verdict(
    pr: PullRequest,
    categories: dict[str, str],
    tests: CIFacts | None = None,
    deps: DependenciesFacts | None = None,
    discussion: DiscussionFacts | None = None,
    refs: ReferencesFacts | None = None,
) -> VerdictFacts:
    files = FilesFacts(
        files=[
            FileFact(
                path=f.path,
                category=categories[f.path],  # type: ignore[arg-type]
                type="docs" if categories[f.path] == "docs" else "core-logic",
                additions=f.additions,
                deletions=f.deletions,
            )
            for f in pr.files
        ],
        total_files=len(pr.files),
        total_additions=sum(f.additions for f in pr.files),
        total_deletions=sum(f.deletions for f in pr.files),
    )
    facts = (files, tests or CIFacts(), deps or DependenciesFacts(), SymbolsFacts(), refs or ReferencesFacts())
    talk = discussion or DiscussionFacts()
    risks = derive_risk_tags(pr, *facts, talk)
    return judge(pr, *facts, talk, risks)


def _codes(verdict: VerdictFacts) -> set[str]:
    return {r.code for r in verdict.reasons}


def test_docs_typo_is_skipped() -> None:
    pr = PullRequest(
        repository="o/r",
        number=1,
        title="Fix typo in README",
        files=[FileChange(path="README.md", additions=1, deletions=1, patch="@@ -1 +1 @@\n-teh\n+the")],
    )
    verdict = _verdict(pr, {"README.md": "docs"})
    assert verdict.level == VerdictLevel.SKIP
    assert {"docs-only", "typo", "trivial-size"} <= _codes(verdict)
    assert verdict.score < 0


def test_small_dependency_practice_pr_is_a_quick_read() -> None:
    kv = "requirements/kv_connectors.txt"
    pr = PullRequest(
        repository="vllm-project/vllm",
        number=44300,
        title="Relax CuPy pin to exclude only 14.1.0",
        body="14.1.1 (released 2026-06-01) fixes the root cause, so the hard upper bound is no longer needed.",
        files=[FileChange(path=kv, additions=2, deletions=2)],
    )
    deps = DependenciesFacts(
        changes=[
            DependencyChange(
                path=kv,
                package="cupy-cuda13x",
                before="cupy-cuda13x<14.1.0",
                after="cupy-cuda13x!=14.1.0",
                kinds=["cap-to-exclusion"],
                newly_admitted=["14.1.1"],
            )
        ]
    )
    question = DiscussionThread(topic="could you also help check #42599?", kind="question", origin="conversation")
    verdict = _verdict(pr, {kv: "config"}, deps=deps, discussion=DiscussionFacts(threads=[question]))
    assert verdict.level == VerdictLevel.QUICK_READ
    assert QUICK_READ <= verdict.score < READ_IN_DEPTH
    practice = next(r for r in verdict.reasons if r.code == "dependency-practice")
    assert "cupy-cuda13x" in practice.detail
    assert "cap-to-exclusion" in practice.detail
    assert "risk" in _codes(verdict)


ROOT_CAUSE_BODY = """Fixes #52330.

Root cause: each DP engine starts torch with the node's full thread count. With 4 engines
on a 224-core node that is 4×224=896 threads. I bisected it to the engine launcher and traced
the `local_world_size=1` in the logs; repro script below. After the fix startup drops from 95 s to 12 s.
"""

TEST_PATCH = """@@ -0,0 +1,12 @@
+import pytest
+
+
+@pytest.fixture
+def executor(monkeypatch):
+    monkeypatch.setenv("OMP_NUM_THREADS", "")
+    return object.__new__(MultiprocExecutor)
+
+
+@pytest.mark.parametrize("dp", [1, 2, 4])
+def test_threads_are_split(executor, dp):
+    assert executor.threads_per_engine(dp) >= 1
"""


def test_root_cause_fix_with_tests_and_discussion_is_read_in_depth() -> None:
    pr = PullRequest(
        repository="vllm-project/vllm",
        number=52331,
        title="Split startup threads across DP engines",
        body=ROOT_CAUSE_BODY,
        files=[
            FileChange(path="vllm/v1/executor/multiproc_executor.py", additions=5, deletions=1),
            FileChange(path="tests/v1/test_executor_threads.py", additions=12, patch=TEST_PATCH),
        ],
    )
    tests = CIFacts(source_changed=True, tests_changed=True, test_files=["tests/v1/test_executor_threads.py"])
    threads = [
        DiscussionThread(topic="What about headless mode?", kind="correctness", outcome="answered"),
        DiscussionThread(topic="Why not compute this in the launcher?", kind="design", outcome="answered"),
    ]
    verdict = _verdict(
        pr,
        {"vllm/v1/executor/multiproc_executor.py": "source", "tests/v1/test_executor_threads.py": "test"},
        tests=tests,
        discussion=DiscussionFacts(threads=threads),
    )
    assert verdict.level == VerdictLevel.READ_IN_DEPTH
    assert {"debugging-method", "test-pattern", "design-trap", "discussion"} <= _codes(verdict)
    debugging = next(r for r in verdict.reasons if r.code == "debugging-method")
    assert "bisect" in debugging.detail
    assert "measurements" in debugging.detail
    pattern = next(r for r in verdict.reasons if r.code == "test-pattern")
    assert "monkeypatch" in pattern.detail
    assert "parametrize" in pattern.detail
    assert verdict.reasons == sorted(verdict.reasons, key=lambda r: -abs(r.weight))


def test_bot_bump_is_skipped_and_verdict_is_deterministic() -> None:
    pr = PullRequest(
        repository="o/r",
        number=3,
        title="Bump foo from 1.2 to 1.3",
        author="dependabot[bot]",
        files=[FileChange(path="requirements/test.txt", additions=1, deletions=1)],
    )
    deps = DependenciesFacts(
        changes=[
            DependencyChange(
                path="requirements/test.txt", package="foo", before="foo==1.2", after="foo==1.3", kinds=["pin-changed"]
            )
        ]
    )
    first = _verdict(pr, {"requirements/test.txt": "config"}, deps=deps)
    assert first.level == VerdictLevel.SKIP
    assert {"bot-authored"} <= _codes(first)
    assert _verdict(pr, {"requirements/test.txt": "config"}, deps=deps) == first
    assert "risks" in ANALYZER.requires


def _reason(verdict: VerdictFacts, code: str) -> VerdictReason:
    return next(r for r in verdict.reasons if r.code == code)


SCHEDULER_TEST = """@@ -0,0 +1,5 @@
+def test_batch_is_bounded():
+    s = PagedScheduler(16, max_batch=2)
+    for n in range(5):
+        s.add(str(n))
+    assert len(s.schedule()) == 2
"""


def test_restoring_a_reverted_feature_with_a_tested_fix_is_read_in_depth() -> None:
    pr = PullRequest(
        repository="o/r",
        number=107,
        title="Restore paged attention scheduler with a bounded batch",
        body="Re-lands #103 (reverted in #105) with `max_batch` so a batch can no longer grow without bound.",
        files=[
            FileChange(path="src/pkg/scheduler.py", status=FileStatus.ADDED, additions=19),
            FileChange(path="tests/test_scheduler.py", status=FileStatus.ADDED, additions=5, patch=SCHEDULER_TEST),
        ],
    )
    evidence = "Re-lands #103 (reverted in #105) with so a batch can no longer grow without bound."
    refs = ReferencesFacts(
        references=[
            Reference(repository="o/r", number=103, relation="restores", evidence=evidence),
            Reference(repository="o/r", number=105, relation="reverted-by", evidence=evidence),
        ]
    )
    tests = CIFacts(source_changed=True, tests_changed=True, test_files=["tests/test_scheduler.py"])
    categories = {"src/pkg/scheduler.py": "source", "tests/test_scheduler.py": "test"}
    verdict = _verdict(pr, categories, tests=tests, refs=refs)
    assert verdict.level == VerdictLevel.READ_IN_DEPTH
    lineage = _reason(verdict, "lineage")
    templates = [i.template for i in lineage.items]
    assert templates == ["lineage.restores-after-revert", "lineage.fix-tested"]
    assert lineage.items[0].params == {"refs": ["#103"], "reverts": ["#105"]}
    # Without the test pinning the fix, the same restore is only a quick read.
    untested = _verdict(pr, categories, refs=refs)
    assert untested.level == VerdictLevel.QUICK_READ


def test_a_revert_that_says_why_is_worth_a_quick_read() -> None:
    pr = PullRequest(
        repository="o/r",
        number=105,
        title='Revert "Add paged attention scheduler (#103)"',
        body="This reverts commit abc.\n\nThe scheduler never caps a batch and ran out of memory under load.",
        files=[FileChange(path="src/pkg/scheduler.py", status=FileStatus.REMOVED, deletions=15)],
    )
    refs = ReferencesFacts(references=[Reference(repository="o/r", number=103, relation="reverts")])
    verdict = _verdict(pr, {"src/pkg/scheduler.py": "source"}, refs=refs)
    lineage = _reason(verdict, "lineage")
    assert lineage.items[0].template == "lineage.reverts-with-cause"
    assert "out of memory" in str(lineage.items[0].params["cause"])
    assert verdict.level == VerdictLevel.QUICK_READ
    silent = pr.model_copy(update={"body": "This reverts commit abc."})
    assert _reason(_verdict(silent, {"src/pkg/scheduler.py": "source"}, refs=refs), "lineage").weight == 0


ARCH = "7.0 7.5 8.0 8.6 8.9 9.0 10.0 12.0"


def test_duplicated_setting_in_dockerfile_and_setup_is_a_design_trap() -> None:
    pr = PullRequest(
        repository="o/r",
        number=109,
        title="Build CUDA 13 wheels in Docker",
        files=[
            FileChange(
                path="Dockerfile",
                additions=2,
                deletions=1,
                patch=f'@@ -1,2 +1,3 @@\n-FROM cuda:12\n+FROM cuda:13\n RUN x\n+ENV TORCH_CUDA_ARCH_LIST="{ARCH}"',
            ),
            FileChange(
                path="setup.py",
                additions=2,
                patch=(
                    f'@@ -1,1 +1,3 @@\n+import os\n+os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "{ARCH}")\n setup()'
                ),
            ),
        ],
    )
    categories = {"Dockerfile": "infra", "setup.py": "source"}
    verdict = _verdict(pr, categories, tests=CIFacts(source_changed=True, missing_tests=True))
    assert verdict.level == VerdictLevel.QUICK_READ
    trap = _reason(verdict, "design-trap")
    assert trap.items[0].template == "design-trap.duplicated"
    assert trap.items[0].params["literal"] == ARCH
    assert trap.items[0].params["paths"] == ["Dockerfile", "setup.py"]


def test_unanswered_correctness_point_and_error_regression_weigh_in() -> None:
    pr = PullRequest(
        repository="o/r",
        number=108,
        title="Remove the availability check",
        files=[
            FileChange(
                path="pkg/kernels.py",
                additions=1,
                deletions=3,
                patch=(
                    '@@ -1,4 +1,2 @@\n-    raise RuntimeError(\n-        "CuPy is required, pip install cupy"\n'
                    "-    )\n+    pass"
                ),
            )
        ],
    )
    thread = DiscussionThread(
        topic="Users without CuPy now get a NameError",
        kind="correctness",
        outcome="no-reply",
        participants=["gemini-code-assist[bot]"],
        automated=True,
    )
    bare = _verdict(pr, {"pkg/kernels.py": "source"})
    talked = _verdict(pr, {"pkg/kernels.py": "source"}, discussion=DiscussionFacts(threads=[thread]))
    templates = [i.template for i in _reason(talked, "design-trap").items]
    assert templates == ["design-trap.error-check", "design-trap.unresolved"]
    assert talked.score >= bare.score + 1.0
    assert talked.level == VerdictLevel.QUICK_READ
