"""Hand-built pull requests and facts rebuilding the situations of seeds 000 and 002 (and a
hostile one for escaping tests). Loaded by the conftests of tests/render and
tests/narrate/extractive."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.analyzers.risks import derive_risk_tags
from prdigest.analyzers.verdict import judge
from prdigest.models.facts import (
    CodeExcerpt,
    DependenciesFacts,
    DependencyChange,
    DependencyFinding,
    DiscussionFacts,
    DiscussionThread,
    Facts,
    FileFact,
    FilesFacts,
    Quote,
    Reference,
    ReferencesFacts,
    RisksFacts,
    RiskTag,
    SymbolChange,
    SymbolsFacts,
    TestsCIFacts,
    VerdictFacts,
    VerdictLevel,
    VerdictReason,
)
from prdigest.models.pullrequest import (
    Comment,
    Commit,
    FileChange,
    PRState,
    PullRequest,
    Review,
    ReviewComment,
    ReviewThread,
)

REPO = "vllm-project/vllm"

CUPY_BODY = """<!-- markdownlint-disable -->
## Purpose

PR #43530 capped cupy-cuda13x at <14.1.0 because CuPy 14.1.0 imports pytest from cupy.testing._random,
which crashed the runtime image during PyTorch custom op registration.
14.1.1 (released 2026-06-01) fixes the root cause, so the hard upper bound is no longer needed.
This PR relaxes cupy-cuda13x to !=14.1.0 so kv connector images get 14.1.1 and later fixes.
I checked open PRs: #44258 is the only CuPy-adjacent one (avoid CUDA init during tests).

## Test Plan

Verified that 14.1.0 and 14.1.1 both exist on PyPI; pre-commit passes.

## Essential Elements of an Effective PR Description Checklist
- [ ] The purpose of the PR, such as "Fix some issue (link existing issues this PR will resolve)".
- [x] The test plan, such as providing test command.
"""


def cupy_pr() -> PullRequest:
    """Seed 000: a one-line dependency relaxation, no review comments, bot notices."""
    return PullRequest(
        repository=REPO,
        number=44301,
        title="[Deps] Relax cupy-cuda13x pin to exclude only 14.1.0",
        body=CUPY_BODY,
        author="mmangkad",
        state=PRState.MERGED,
        created_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),
        merged_at=datetime(2026, 6, 3, 9, 30, tzinfo=UTC),
        url="https://github.com/vllm-project/vllm/pull/44301",
        head_sha="a" * 40,
        additions=2,
        deletions=2,
        files=[
            FileChange(
                path="requirements/kv_connectors.txt",
                additions=2,
                deletions=2,
                patch="@@ -3,2 +3,2 @@\n-# Use <14.1.0 until a fixed newer release is verified\n-cupy-cuda13x<14.1.0\n"
                "+# 14.1.1 fixes the root cause, so only 14.1.0 is excluded\n+cupy-cuda13x!=14.1.0\n",
            )
        ],
        commits=[
            Commit(sha="1" * 40, author="mmangkad", message="Relax cupy-cuda13x pin\n\nOnly 14.1.0 is broken."),
            Commit(sha="f373bc7" + "0" * 33, author="mmangkad", message="Merge branch 'main' into cupy"),
            Commit(sha="239e2178" + "0" * 32, author="mmangkad", message="Merge branch 'main' into cupy"),
        ],
        reviews=[Review(author="njhill", state="APPROVED")],
        comments=[
            Comment(
                author="mmangkad",
                body="could you also help check #42599? IIRC, you added this before due to CI issues as well",
            ),
            Comment(
                author="mergify[bot]",
                body="This pull request has merge conflicts that must be resolved.",
                author_is_bot=True,
            ),
            Comment(author="mergify[bot]", body="Hi, the pre-commit checks have failed.", author_is_bot=True),
            Comment(author="njhill", body="/ci run"),
        ],
    )


def _cupy_facts() -> Facts:
    return Facts(
        repository=REPO,
        number=44301,
        head_sha="a" * 40,
        analyzer_versions={"files": "1", "dependencies": "1"},
        files=FilesFacts(
            files=[
                FileFact(
                    path="requirements/kv_connectors.txt",
                    category="config",
                    type="configuration",
                    module="dependency config",
                    language="pip-requirements",
                    additions=2,
                    deletions=2,
                    is_key=True,
                    key_reason="only changed file",
                )
            ],
            total_files=1,
            total_additions=2,
            total_deletions=2,
            modules=["dependency config"],
        ),
        dependencies=DependenciesFacts(
            changes=[
                DependencyChange(
                    path="requirements/kv_connectors.txt",
                    package="cupy-cuda13x",
                    before="cupy-cuda13x<14.1.0",
                    after="cupy-cuda13x!=14.1.0",
                    kinds=["cap-to-exclusion"],
                    versions_considered=["14.0.1", "14.1.0", "14.1.1"],
                    newly_admitted=["14.1.1"],
                    variant_family="cupy",
                )
            ]
        ),
        tests_ci=TestsCIFacts(source_changed=False, tests_changed=False, missing_tests=False),
        references=ReferencesFacts(
            references=[
                Reference(
                    repository=REPO,
                    number=43530,
                    target_kind="pr",
                    relation="follow-up-to",
                    where="body",
                    evidence="PR #43530 capped cupy-cuda13x at <14.1.0",
                ),
                Reference(
                    repository=REPO,
                    number=44258,
                    target_kind="pr",
                    relation="mentions",
                    where="body",
                    evidence="#44258 is the only CuPy-adjacent one",
                ),
                Reference(
                    repository=REPO,
                    number=42599,
                    target_kind="pr",
                    relation="mentions",
                    where="comment",
                    evidence="could you also help check #42599?",
                ),
            ]
        ),
        discussion=DiscussionFacts(
            threads=[
                DiscussionThread(
                    topic="Should #42599 get the same review?",
                    kind="question",
                    outcome="no-reply",
                    origin="conversation",
                    participants=["mmangkad"],
                    quotes=[
                        Quote(
                            author="mmangkad",
                            text="could you also help check #42599? IIRC, you added this "
                            "before due to CI issues as well",
                        )
                    ],
                )
            ],
            review_comment_count=0,
            conversation_comment_count=2,
            bot_notice_count=2,
            approvals=["njhill"],
            participants=["mmangkad", "njhill"],
        ),
        risks=RisksFacts(
            tags=[
                RiskTag(
                    tag="dependency-constraint-change",
                    label_zh="依赖约束策略调整",
                    label_en="dependency constraint change",
                    evidence="cupy-cuda13x: <14.1.0 -> !=14.1.0 in requirements/kv_connectors.txt",
                    severity="medium",
                ),
                RiskTag(
                    tag="runtime-image-impact",
                    label_zh="运行时镜像影响",
                    label_en="runtime image impact",
                    evidence="requirements/kv_connectors.txt is installed into images",
                    severity="medium",
                ),
                RiskTag(
                    tag="missing-regression-test",
                    label_zh="缺少回归测试",
                    label_en="missing regression test",
                    evidence="dependency constraint changed and no test changed",
                    severity="medium",
                ),
                RiskTag(
                    tag="future-version-regression-risk",
                    label_zh="未来版本回归风险",
                    label_en="future-version regression risk",
                    evidence="cupy-cuda13x releases after 14.1.1 are now admitted",
                    severity="medium",
                ),
            ]
        ),
        verdict=VerdictFacts(
            level=VerdictLevel.QUICK_READ,
            score=0.4,
            reasons=[
                VerdictReason(
                    code="dependency-practice",
                    detail="cap replaced by an exact exclusion once upstream fixed it",
                    weight=1.0,
                )
            ],
        ),
    )


HUMMING_BODY = """## Purpose
#43492 temporarily reverted #42540, but #43528 shows the same pytest failure persists after removing humming.
The root cause is that vllm-openai:nightly installs KV connectors by default,
and lmcache pulls the recently released cupy-cuda13x==14.1.0,
which imports pytest when PyTorch custom op registration walks loaded modules with inspect.
This PR caps cupy and restores humming.

## Test Plan
CI.
"""

HUMMING_EXCERPT = """ from vllm.platforms import current_platform
-try:
-    from humming.layer import HummingMethod
-except ModuleNotFoundError:
-    HummingMethod = None
+if current_platform.is_cuda():
+    from humming.layer import HummingMethod
@@
     def __init__(self, full_config: dict[str, Any] | None = None):
-        assert_humming_available()
         self.full_config: dict[str, Any] = full_config or {}"""


def humming_pr() -> PullRequest:
    """Seed 002: restore humming, cap cupy; gemini's correctness comment unanswered."""
    return PullRequest(
        repository=REPO,
        number=43530,
        title="Fix CuPy runtime deps and restore humming",
        body=HUMMING_BODY,
        author="mmangkad",
        state=PRState.MERGED,
        created_at=datetime(2026, 5, 25, 10, 0, tzinfo=UTC),
        merged_at=datetime(2026, 5, 26, 20, 59, tzinfo=UTC),
        url="https://github.com/vllm-project/vllm/pull/43530",
        head_sha="b" * 40,
        additions=40,
        deletions=22,
        files=[
            FileChange(path="vllm/model_executor/layers/quantization/humming.py", additions=20, deletions=18),
            FileChange(path="setup.py", additions=4, deletions=0),
            FileChange(path="docker/Dockerfile", additions=4, deletions=2),
            FileChange(path="requirements/cuda.txt", additions=1, deletions=0),
            FileChange(path="requirements/kv_connectors.txt", additions=2, deletions=0),
        ],
        reviews=[Review(author="mgoin", state="APPROVED")],
        review_threads=[
            ReviewThread(
                path="vllm/model_executor/layers/quantization/humming.py",
                line=40,
                comments=[
                    ReviewComment(
                        author="gemini-code-assist[bot]",
                        author_is_bot=True,
                        body="Removing `assert_humming_available` means users without humming get a NameError "
                        "instead of a clear install hint.",
                    )
                ],
            )
        ],
    )


def _humming_facts() -> Facts:
    humming = "vllm/model_executor/layers/quantization/humming.py"
    return Facts(
        repository=REPO,
        number=43530,
        head_sha="b" * 40,
        files=FilesFacts(
            files=[
                FileFact(
                    path=humming,
                    category="source",
                    type="core-logic",
                    module="quantization",
                    language="python",
                    additions=20,
                    deletions=18,
                    is_key=True,
                ),
                FileFact(
                    path="setup.py",
                    category="source",
                    type="core-logic",
                    module="build script",
                    language="python",
                    additions=4,
                    deletions=0,
                    is_key=True,
                ),
                FileFact(
                    path="docker/Dockerfile",
                    category="infra",
                    type="infrastructure",
                    module="Docker",
                    language="dockerfile",
                    additions=4,
                    deletions=2,
                    is_key=True,
                ),
                FileFact(
                    path="requirements/cuda.txt",
                    category="config",
                    type="configuration",
                    module="dependency config",
                    additions=1,
                    deletions=0,
                    is_key=True,
                ),
                FileFact(
                    path="requirements/kv_connectors.txt",
                    category="config",
                    type="configuration",
                    module="dependency config",
                    additions=2,
                    deletions=0,
                    is_key=True,
                ),
            ],
            total_files=5,
            total_additions=31,
            total_deletions=20,
            modules=["quantization", "build script", "Docker", "dependency config"],
        ),
        symbols=SymbolsFacts(
            symbols=[
                SymbolChange(
                    path=humming,
                    name="assert_humming_available",
                    kind="function",
                    change="removed",
                    language="python",
                    start_line=30,
                    end_line=38,
                ),
                SymbolChange(
                    path=humming,
                    name="HummingConfig.__init__",
                    kind="method",
                    change="modified",
                    language="python",
                    start_line=52,
                    end_line=60,
                ),
            ],
            excerpts=[
                CodeExcerpt(
                    path=humming,
                    symbol="HummingConfig.__init__",
                    language="python",
                    start_line=12,
                    text=HUMMING_EXCERPT,
                    reason="removed check",
                ),
                CodeExcerpt(
                    path="setup.py",
                    language="python",
                    start_line=400,
                    text='+        line = line.replace("humming-kernels[cu13]", "humming-kernels[cu12]")',
                ),
            ],
        ),
        dependencies=DependenciesFacts(
            changes=[
                DependencyChange(
                    path="requirements/kv_connectors.txt",
                    package="cupy-cuda13x",
                    before=None,
                    after="cupy-cuda13x<14.1.0",
                    kinds=["added", "cap-added"],
                    newly_excluded=["14.1.0", "14.1.1"],
                ),
                DependencyChange(
                    path="requirements/cuda.txt",
                    package="humming-kernels",
                    before=None,
                    after="humming-kernels[cu13]==0.1.2",
                    kinds=["added", "pinned"],
                ),
            ],
            findings=[
                DependencyFinding(
                    kind="duplicated-rewrite",
                    detail="humming-kernels[cu13] -> [cu12] rewrite in setup.py and docker/Dockerfile",
                    paths=["setup.py", "docker/Dockerfile"],
                    packages=["humming-kernels"],
                ),
            ],
        ),
        tests_ci=TestsCIFacts(source_changed=True, tests_changed=False, missing_tests=True),
        references=ReferencesFacts(
            references=[
                Reference(
                    repository=REPO,
                    number=43492,
                    target_kind="pr",
                    relation="mentions",
                    where="body",
                    evidence="#43492 temporarily reverted #42540",
                ),
                Reference(
                    repository=REPO,
                    number=42540,
                    target_kind="pr",
                    relation="restores",
                    where="body",
                    evidence="#43492 temporarily reverted #42540",
                ),
                Reference(
                    repository=REPO,
                    number=43528,
                    target_kind="pr",
                    relation="mentions",
                    where="body",
                    evidence="#43528 shows the same pytest failure persists",
                ),
            ]
        ),
        discussion=DiscussionFacts(
            threads=[
                DiscussionThread(
                    topic="Error handling regression: assert_humming_available removed",
                    kind="correctness",
                    outcome="no-reply",
                    path=humming,
                    line=40,
                    participants=["gemini-code-assist[bot]"],
                    automated=True,
                    quotes=[
                        Quote(
                            author="gemini-code-assist[bot]",
                            is_bot=True,
                            text="Removing `assert_humming_available` means users without humming get a "
                            "NameError instead of a clear install hint.",
                        )
                    ],
                ),
                DiscussionThread(
                    topic="Should the cupy cap live in the base deps?",
                    kind="design",
                    outcome="answered",
                    origin="conversation",
                    participants=["mgoin", "mmangkad"],
                    quotes=[
                        Quote(author="mgoin", text="Should we put the cupy cap in the base requirements?"),
                        Quote(
                            author="mmangkad",
                            text="humming does not depend on cupy directly; only lmcache "
                            "pulls it, so kv_connectors.txt is enough.",
                        ),
                    ],
                ),
            ],
            review_comment_count=1,
            conversation_comment_count=3,
            approvals=["mgoin"],
            participants=["gemini-code-assist[bot]", "mgoin", "mmangkad"],
        ),
        risks=RisksFacts(
            tags=[
                RiskTag(
                    tag="error-message-regression",
                    label_zh="错误检查退化",
                    label_en="error-check regression",
                    evidence="assert_humming_available removed from HummingConfig.__init__",
                    severity="high",
                ),
                RiskTag(
                    tag="version-lock",
                    label_zh="依赖版本锁定",
                    label_en="version lock",
                    evidence="cupy-cuda13x<14.1.0 in requirements/kv_connectors.txt",
                    severity="medium",
                ),
                RiskTag(
                    tag="duplicated-logic-across-files",
                    label_zh="跨文件逻辑重复",
                    label_en="duplicated logic across files",
                    evidence="humming-kernels[cu13] -> [cu12] rewrite in setup.py and docker/Dockerfile",
                    severity="medium",
                ),
            ]
        ),
        verdict=VerdictFacts(
            level=VerdictLevel.READ_IN_DEPTH,
            score=0.8,
            reasons=[
                VerdictReason(
                    code="debugging-method", detail="root cause traced from a revert that did not help", weight=1.0
                ),
                VerdictReason(
                    code="design-trap", detail="a removed check turns an install hint into a NameError", weight=0.8
                ),
            ],
        ),
    )


XSS = "<script>alert(1)</script>"


def judged(pr: PullRequest, facts: Facts) -> Facts:
    """`facts` with the risk tags and verdict the real analyzers derive from the other facts."""
    others = (facts.files, facts.tests_ci, facts.dependencies, facts.symbols, facts.references, facts.discussion)
    risks = derive_risk_tags(pr, *others)
    return facts.model_copy(update={"risks": risks, "verdict": judge(pr, *others, risks)})


def cupy_facts() -> Facts:
    """Seed 000's facts; risks and verdict from the analyzers."""
    return judged(cupy_pr(), _cupy_facts())


def humming_facts() -> Facts:
    """Seed 002's facts; risks and verdict from the analyzers."""
    return judged(humming_pr(), _humming_facts())


def hostile_pr() -> PullRequest:
    """Untrusted text everywhere: HTML, markdown structure, newlines, backticks."""
    return PullRequest(
        repository="evil/repo",
        number=7,
        title=f"# {XSS}\nsecond line [x](javascript:alert(2))",
        body=f"{XSS} because <img src=x onerror=alert(3)> breaks things.\n\n# Heading injection\n```\ncode\n```",
        author="mallory<b>",
        state=PRState.OPEN,
        created_at=datetime(2026, 1, 2, 3, 4, tzinfo=UTC),
        url='https://example.com/"><script>alert(4)</script>',
        head_sha="c" * 40,
        files=[FileChange(path="src/<b>x</b>.py", additions=1, deletions=1)],
        comments=[Comment(author="eve", body=f"{XSS} looks wrong")],
    )


def hostile_facts() -> Facts:
    path = "src/<b>x</b>.py"
    return Facts(
        repository="evil/repo",
        number=7,
        head_sha="c" * 40,
        files=FilesFacts(
            files=[
                FileFact(
                    path=path,
                    category="source",
                    type="core-logic",
                    module="<i>mod</i>",
                    additions=1,
                    deletions=1,
                    is_key=True,
                )
            ],
            total_files=1,
            total_additions=1,
            total_deletions=1,
            modules=["<i>mod</i>"],
        ),
        symbols=SymbolsFacts(
            symbols=[SymbolChange(path=path, name="<svg onload=alert(5)>", change="modified")],
            excerpts=[
                CodeExcerpt(path=path, symbol="<svg onload=alert(5)>", text="-a = 1\n+a = '```</pre>" + XSS + "'")
            ],
        ),
        discussion=DiscussionFacts(
            threads=[
                DiscussionThread(
                    topic=f"{XSS}\n# topic",
                    kind="correctness",
                    outcome="unresolved",
                    participants=["eve"],
                    quotes=[Quote(author="eve<script>", text=f"{XSS} looks wrong")],
                )
            ],
            conversation_comment_count=1,
            participants=["eve"],
        ),
        risks=RisksFacts(tags=[RiskTag(tag="x", label_zh=XSS, label_en=XSS, evidence=XSS, severity="high")]),
        references=ReferencesFacts(references=[Reference(repository="evil/repo", number=3, evidence=XSS)]),
    )
