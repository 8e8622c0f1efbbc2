"""The "verdict" analyzer: is this PR worth reading, and what would a reader learn?

Deterministic score = sum of reason weights. Levels:

    score >= 4.5  read-in-depth  (值得精读)
    score >= 1.5  quick-read     (值得快速精读)
    otherwise     skip           (不值得精读)

Positive reasons (weight):
    debugging-method    body/author comments show root-cause work: "root cause", 根因, bisect,
                        traced, repro, stack trace, profiling ... one bare signal 0.5; one with
                        measurements (numbers with units) 2.0; two or more 2.5, measured 3.0
    test-pattern        tests changed: 0.5; with fixtures/monkeypatch/parametrize/mocks: 1.5
    design-trap         human correctness/design threads: 1.0 (1.5 for two or more);
                        error-message-regression tag: +1.0; automated correctness point: +0.5
    dependency-practice constraint kinds that teach governance (cap-to-exclusion, exclusion,
                        cap, pin, variant rename): 1.5
    hot-path            performance words in title/body or performance threads: 1.0
    size                source lines changed: 20-800 → 0.5; more → 1.0
    risk                tag severities: high 1.0, medium 0.5, low 0.1, capped at 1.5
    discussion          substantive human threads: 0.5 each, capped at 1.5
Negative reasons:
    docs-only -2.0, typo -1.5 (title says typo/spelling/grammar), bump-only -1.0 (only version
    bumps, no discussion), bot-authored -2.0, trivial-size -0.5 (under 5 changed lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.discussions.bots import is_bot
from prdigest.analyzers.patch_lines import changed_lines
from prdigest.analyzers.registry import Analyzer
from prdigest.models.facts import (
    DependenciesFacts,
    DiscussionFacts,
    FilesFacts,
    ReferencesFacts,
    RisksFacts,
    SymbolsFacts,
    TestsCIFacts,
    VerdictFacts,
    VerdictLevel,
    VerdictReason,
)
from prdigest.models.pullrequest import PullRequest

READ_IN_DEPTH = 4.5
QUICK_READ = 1.5

_DEBUG_SIGNALS = re.compile(
    r"root[- ]cause|根因|根本原因|\bbisect(?:ed|ing)?\b|\btraced?\b|\btracing\b|\brepro(?:duce[sd]?|duction)?\b|"
    r"复现|stack ?trace|traceback|\bprofil(?:e|ed|ing|er)\b|\bgdb\b|\bpy-spy\b|\bnsys\b|"
    r"\bcore dump\b|\bdebugg(?:ed|ing)\b|\binvestigat(?:e|ed|ion)\b|定位|排查",
    re.I,
)
_MEASUREMENT = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|x\b|ms\b|s\b|GB\b|MB\b|GiB\b|tok/s|req/s|threads?\b)|\d+\s*[×x*]\s*\d+", re.I
)
_TEST_TECHNIQUE = re.compile(
    r"@pytest\.fixture|\bmonkeypatch\b|@pytest\.mark\.parametrize|\bparametrize\b|\bmock(?:er)?\b|"
    r"\bpatch\(|\bautouse\b|\btmp_path\b|\bcapsys\b|\bcaplog\b|\bfixture\b",
    re.I,
)
_PERF_WORDS = re.compile(
    r"\blatency\b|\bthroughput\b|hot[- ]?path|\boverhead\b|\bspeed ?up\b|\bfaster\b|\bperf(?:ormance)?\b|"
    r"\bkernel launch|\bmemory (?:usage|footprint)\b|\boptimi[sz]",
    re.I,
)
_PERF_WORDS_ZH = re.compile(r"性能|延迟|吞吐|热路径|开销|加速|优化")
_TYPO = re.compile(r"\btypos?\b|\bspelling\b|\bgrammar\b|\bmisspell|错别字|拼写", re.I)
_PRACTICE_KINDS = frozenset(
    {
        "cap-to-exclusion",
        "exclusion-added",
        "exclusion-removed",
        "cap-added",
        "cap-relaxed",
        "pinned",
        "variant-renamed",
        "markers-changed",
    }
)
_BUMP_KINDS = frozenset({"floor-raised", "pin-changed"})
_SEVERITY_WEIGHT = {"high": 1.0, "medium": 0.5, "low": 0.1}


def judge(
    pr: PullRequest,
    files: FilesFacts,
    tests: TestsCIFacts,
    deps: DependenciesFacts,
    symbols: SymbolsFacts,
    refs: ReferencesFacts,
    discussion: DiscussionFacts,
    risks: RisksFacts,
) -> VerdictFacts:
    """The reading verdict of one PR from its facts (pure, deterministic)."""
    reasons: list[VerdictReason] = []

    def add(code: str, detail: str, weight: float) -> None:
        reasons.append(VerdictReason(code=code, detail=detail, weight=round(weight, 2)))

    _debugging(pr, add)
    _tests(pr, tests, add)
    _design(discussion, risks, add)
    practice = sorted({k for c in deps.changes for k in c.kinds if k in _PRACTICE_KINDS})
    if practice:
        packages = ", ".join(sorted({c.package for c in deps.changes if set(c.kinds) & _PRACTICE_KINDS}))
        add("dependency-practice", f"{packages}: {', '.join(practice)}", 1.5)
    perf_threads = [t for t in discussion.threads if t.kind == "performance"]
    if _PERF_WORDS.search(f"{pr.title}\n{pr.body}") or _PERF_WORDS_ZH.search(pr.body) or perf_threads:
        add("hot-path", "performance-sensitive change" + (" with perf review" if perf_threads else ""), 1.0)
    _size(pr, files, add)
    risk_weight = min(1.5, sum(_SEVERITY_WEIGHT[t.severity] for t in risks.tags))
    if risk_weight > 0:
        add("risk", ", ".join(t.tag for t in risks.tags), risk_weight)
    human = [t for t in discussion.threads if not t.automated and t.kind != "style"]
    if human:
        add("discussion", f"{len(human)} substantive thread(s)", min(1.5, 0.5 * len(human)))
    _negatives(pr, files, deps, discussion, add)

    score = round(sum(r.weight for r in reasons), 2)
    level = (
        VerdictLevel.READ_IN_DEPTH
        if score >= READ_IN_DEPTH
        else VerdictLevel.QUICK_READ
        if score >= QUICK_READ
        else VerdictLevel.SKIP
    )
    reasons.sort(key=lambda r: -abs(r.weight))
    return VerdictFacts(level=level, score=score, reasons=reasons)


_Add = Callable[[str, str, float], None]


def _debugging(pr: PullRequest, add: _Add) -> None:
    texts = [pr.body] + [c.body for c in pr.comments if c.author == pr.author]
    text = "\n".join(texts)
    signals = sorted({m.group(0).lower() for m in _DEBUG_SIGNALS.finditer(text)})
    if not signals:
        return
    measured = _MEASUREMENT.search(text) is not None
    # One bare word ("fixes the root cause") is a mention, not a method.
    weight = (3.0 if measured else 2.5) if len(signals) >= 2 else 2.0 if measured else 0.5
    detail = ", ".join(signals[:4]) + ("; with measurements" if measured else "")
    add("debugging-method", detail, weight)


def _tests(pr: PullRequest, tests: TestsCIFacts, add: _Add) -> None:
    if not tests.tests_changed:
        return
    test_paths = set(tests.test_files)
    techniques: set[str] = set()
    for change in pr.files:
        if change.path not in test_paths:
            continue
        for line in changed_lines(change):
            if line.kind == "+":
                techniques.update(m.group(0).lower().lstrip("@") for m in _TEST_TECHNIQUE.finditer(line.text))
    if techniques:
        add("test-pattern", "tests use " + ", ".join(sorted(techniques)[:4]), 1.5)
    else:
        add("test-pattern", f"{len(test_paths)} test file(s) changed", 0.5)


def _design(discussion: DiscussionFacts, risks: RisksFacts, add: _Add) -> None:
    human = [t for t in discussion.threads if not t.automated and t.kind in ("correctness", "design")]
    automated = [t for t in discussion.threads if t.automated and t.kind == "correctness"]
    weight = 0.0
    details: list[str] = []
    if human:
        weight += 1.5 if len(human) >= 2 else 1.0
        details.append("; ".join(f"{t.topic} ({t.kind})" for t in human[:2]))
    if any(t.tag == "error-message-regression" for t in risks.tags):
        weight += 1.0
        details.append("error-check regression")
    if automated:
        weight += 0.5
        details.append(f"automated review: {automated[0].topic}")
    if weight:
        add("design-trap", "; ".join(details), weight)


def _size(pr: PullRequest, files: FilesFacts, add: _Add) -> None:
    source = [f for f in files.files if f.category == "source"]
    lines = sum(f.additions + f.deletions for f in source)
    total = files.total_additions + files.total_deletions or pr.additions + pr.deletions
    if lines > 800:
        add("size", f"{lines} source lines changed", 1.0)
    elif lines >= 20:
        add("size", f"{lines} source lines changed", 0.5)
    elif total < 5:
        add("trivial-size", f"{total} lines changed", -0.5)


def _negatives(
    pr: PullRequest, files: FilesFacts, deps: DependenciesFacts, discussion: DiscussionFacts, add: _Add
) -> None:
    if files.files and all(f.category == "docs" for f in files.files):
        add("docs-only", "only documentation changed", -2.0)
    if _TYPO.search(pr.title):
        add("typo", f"title: {pr.title[:80]}", -1.5)
    kinds = {k for c in deps.changes for k in c.kinds}
    non_dep = [f for f in files.files if f.type not in ("configuration", "dependency-wiring")]
    if deps.changes and kinds <= _BUMP_KINDS and not non_dep and not discussion.threads:
        add("bump-only", "only version bumps, no discussion", -1.0)
    if pr.author and is_bot(pr.author):
        add("bot-authored", f"opened by {pr.author}", -2.0)


def _run(pr: PullRequest, ctx: AnalysisContext) -> VerdictFacts:
    return judge(
        pr,
        ctx.result("files", FilesFacts),
        ctx.result("tests_ci", TestsCIFacts),
        ctx.result("dependencies", DependenciesFacts),
        ctx.result("symbols", SymbolsFacts),
        ctx.result("references", ReferencesFacts),
        ctx.result("discussion", DiscussionFacts),
        ctx.result("risks", RisksFacts),
    )


ANALYZER = Analyzer(
    name="verdict",
    version="1",
    run=_run,
    requires=("files", "tests_ci", "dependencies", "symbols", "references", "discussion", "risks"),
)
