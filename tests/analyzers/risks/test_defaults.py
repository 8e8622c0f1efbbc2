"""The default registry runs every analyzer of prdigest, in dependency order, end to end."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import DEFAULT_ANALYZER_MODULES, default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.facts import VerdictLevel
from prdigest.models.pullrequest import FileChange, PullRequest, ReviewComment, ReviewThread

HUMMING_PATCH = """@@ -1,8 +1,3 @@
-try:
-    import humming
-except ModuleNotFoundError:
-    humming = None
-        raise ImportError(
-            "humming is not installed. Please pip install humming-kernels."
-        )
+if current_platform.is_cuda():
+    import humming
 x = 1
"""


def test_default_registry_orders_all_analyzers() -> None:
    registry = default_registry()
    names = [a.name for a in registry.ordered()]
    assert set(names) == {
        "coverage",
        "files",
        "tests_ci",
        "dependencies",
        "symbols",
        "references",
        "discussion",
        "risks",
        "verdict",
    }
    assert len(DEFAULT_ANALYZER_MODULES) == len(names)
    for analyzer in registry.ordered():
        for required in analyzer.requires:
            assert names.index(required) < names.index(analyzer.name)


def test_run_all_fills_references_discussion_risks_and_verdict() -> None:
    pr = PullRequest(
        repository="vllm-project/vllm",
        number=43530,
        title="Fix CuPy runtime deps and restore humming",
        body="This restores #42540 with a fix. Root cause: cupy 14.1.0 imports pytest.",
        author="mmangkad",
        files=[
            FileChange(
                path="vllm/model_executor/layers/quantization/humming.py",
                additions=2,
                deletions=7,
                patch=HUMMING_PATCH,
            ),
            FileChange(
                path="requirements/kv_connectors.txt",
                additions=1,
                patch="@@ -1 +1,2 @@\n lmcache\n+cupy-cuda13x < 14.1.0",
            ),
        ],
        review_threads=[
            ReviewThread(
                path="vllm/model_executor/layers/quantization/humming.py",
                comments=[
                    ReviewComment(
                        author="gemini-code-assist[bot]",
                        created_at=datetime(2026, 5, 26, tzinfo=UTC),
                        body="Removing the check causes a NameError instead of a clear install error.",
                    )
                ],
            )
        ],
    )
    facts = run_all(pr, default_registry(), AnalysisContext())
    assert [(r.number, r.relation) for r in facts.references.references] == [(42540, "restores")]
    (thread,) = facts.discussion.threads
    assert (thread.automated, thread.kind, thread.outcome) == (True, "correctness", "no-reply")
    tags = {t.tag for t in facts.risks.tags}
    assert {"error-message-regression", "platform-detection-assumption"} <= tags
    assert isinstance(facts.verdict.level, VerdictLevel)
    assert facts.verdict.reasons
    assert set(facts.analyzer_versions) >= {"references", "discussion", "risks", "verdict"}
