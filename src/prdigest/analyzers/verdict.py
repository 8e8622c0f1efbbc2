"""The "verdict" analyzer: is this PR worth reading, and what would a reader learn?

Deterministic score = sum of reason weights. Levels:

    score >= 4.5  read-in-depth  (值得精读)
    score >= 1.5  quick-read     (值得快速精读)
    otherwise     skip           (不值得精读)

Positive reasons (weight):
    debugging-method    body/author comments show root-cause work: "root cause", 根因, bisect,
                        traced, repro, stack trace, profiling ... one bare signal 0.5; one with
                        measurements (numbers with units) 1.0; two or more 2.5, measured 3.0
    test-pattern        tests changed: 0.5; with fixtures/monkeypatch/parametrize/mocks: 1.5
    lineage             restores a reverted PR: 2.0, +1.0 when the revert is named (the story is
                        told), +1.0 when tests pin the fix; a revert that says why: 1.5
    design-trap         human correctness/design threads: 1.0 (1.5 for two or more);
                        error-message-regression tag: +1.5; duplicated-logic-across-files: +1.5;
                        unresolved-review-concern: +1.0 (else an automated correctness point: +0.5)
    dependency-practice constraint kinds that teach governance (cap-to-exclusion, exclusion,
                        cap, pin, variant rename): 1.5; never for a downgrade, a CI tool
                        install or a development list
    hot-path            performance words in title/body or performance threads: 1.0
    (each reason carries language-neutral `items`: a template from REASON_TEMPLATES + params)
    size                source lines changed: 20-800 → 0.5; more → 1.0
    risk                tag severities: high 1.0, medium 0.5, low 0.1, capped at 1.5
    discussion          substantive human threads: 0.5 each, capped at 1.5
Negative reasons:
    docs-only -2.0, typo -1.5 (title says typo/spelling/grammar), bump-only -1.0 (only version
    bumps, no discussion), bot-authored -2.0, trivial-size -0.5 (under 5 changed lines).
"""

from __future__ import annotations

import re
from typing import Protocol

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.discussions.bots import is_bot
from prdigest.analyzers.evidence_text import clip as _clip
from prdigest.analyzers.pr_text import author_paragraphs, author_text
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.risks import version_part
from prdigest.diff import file_diff
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChangeKind,
    DiscussionFacts,
    Evidence,
    EvidenceParams,
    FilesFacts,
    Reference,
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
# A number not glued to a name (cuda13x, py311) followed by a unit, or a product like 4×224.
_MEASUREMENT = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:%|x\b|ms\b|s\b|GB\b|MB\b|GiB\b|tok/s|req/s|threads?\b)|"
    r"(?<![\w.])\d+\s*[×x*]\s*\d+",
    re.I,
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
_PRACTICE_KINDS: frozenset[DependencyChangeKind] = frozenset(
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
_BUMP_KINDS: frozenset[DependencyChangeKind] = frozenset({"floor-raised", "pin-changed"})
_REVERT_WORD = re.compile(r"\brevert(?:s|ed|ing)?\b|回退|撤销", re.I)
_CAUSE_WORDS = re.compile(
    r"\bbecause\b|\bsince\b|\bcaus|\bbr(?:eak|oke)|\bcrash|\bfail|\bregress|\bout of memory\b|\bOOM\b|"
    r"\bleak|\bhang|\bdeadlock|\bslow|\berror|\bbug\b|\bnever\b|导致|失败|崩溃|回归|泄漏",
    re.I,
)

RESTORE_WEIGHT = 2.0
RESTORE_AFTER_REVERT_WEIGHT = 1.0
RESTORE_TESTED_WEIGHT = 1.0
REVERT_WITH_CAUSE_WEIGHT = 1.5
ERROR_REGRESSION_WEIGHT = 1.5
DUPLICATED_LOGIC_WEIGHT = 1.5
UNRESOLVED_CONCERN_WEIGHT = 1.0

# Every template a reason may carry, ``<code>.<variant>``; the label files (prdigest/words/<lang>/labels.toml) hold a
# sentence for each (tests/words checks that none is missing).
REASON_TEMPLATES = frozenset(
    {
        "debugging-method.signals",
        "debugging-method.measured",
        "test-pattern.techniques",
        "test-pattern.files",
        "lineage.restores",
        "lineage.restores-after-revert",
        "lineage.fix-tested",
        "lineage.reverts-with-cause",
        "lineage.reverts",
        "design-trap.threads",
        "design-trap.error-check",
        "design-trap.duplicated",
        "design-trap.unresolved",
        "design-trap.automated",
        "dependency-practice.change",
        "dependency-practice.added",
        "hot-path.words",
        "hot-path.review",
        "size.source-lines",
        "risk.tags",
        "discussion.threads",
        "docs-only.files",
        "typo.title",
        "bump-only.changes",
        "bot-authored.author",
        "trivial-size.lines",
    }
)
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

    def add(code: str, detail: str, weight: float, *items: Evidence) -> None:
        for item in items:
            if item.template not in REASON_TEMPLATES or not item.template.startswith(f"{code}."):
                raise ValueError(f"unknown reason template {item.template!r} for {code!r}")
        reasons.append(VerdictReason(code=code, detail=detail, weight=round(weight, 2), items=list(items)))

    _debugging(pr, add)
    _tests(pr, tests, add)
    _lineage(pr, tests, refs, add)
    _design(discussion, risks, add)
    _practice(deps, add)
    perf_threads = [t for t in discussion.threads if t.kind == "performance"]
    body = author_text(pr.body)
    words = sorted({m.group(0).lower() for m in _PERF_WORDS.finditer(f"{pr.title}\n{body}")})
    words += sorted({m.group(0) for m in _PERF_WORDS_ZH.finditer(body)})
    if words or perf_threads:
        template = "hot-path.review" if perf_threads else "hot-path.words"
        detail = "performance-sensitive change" + (" with perf review" if perf_threads else "")
        add("hot-path", detail, 1.0, Evidence(template=template, params={"words": words[:3]}))
    _size(pr, files, add)
    risk_weight = min(1.5, sum(_SEVERITY_WEIGHT[t.severity] for t in risks.tags))
    if risk_weight > 0:
        ids = [t.tag for t in risks.tags]
        add("risk", ", ".join(ids), risk_weight, Evidence(template="risk.tags", params={"tags": ids}))
    human = [t for t in discussion.threads if not t.automated and t.kind != "style"]
    if human:
        add(
            "discussion",
            f"{len(human)} substantive thread(s)",
            min(1.5, 0.5 * len(human)),
            Evidence(template="discussion.threads", params={"count": str(len(human))}),
        )
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


class _Add(Protocol):
    def __call__(self, code: str, detail: str, weight: float, *items: Evidence) -> None: ...


def _debugging(pr: PullRequest, add: _Add) -> None:
    # The author's words only: a bot's summary in the body is not the author's method.
    texts = [author_text(pr.body)] + [author_text(c.body) for c in pr.comments if c.author == pr.author]
    text = "\n".join(texts)
    signals = sorted({m.group(0).lower() for m in _DEBUG_SIGNALS.finditer(text)})
    if not signals:
        return
    measured = _MEASUREMENT.search(text) is not None
    # One bare word ("fixes the root cause") is a mention, not a method.
    weight = (3.0 if measured else 2.5) if len(signals) >= 2 else 1.0 if measured else 0.5
    detail = ", ".join(signals[:4]) + ("; with measurements" if measured else "")
    template = "debugging-method.measured" if measured else "debugging-method.signals"
    add("debugging-method", detail, weight, Evidence(template=template, params={"signals": signals[:4]}))


def _tests(pr: PullRequest, tests: TestsCIFacts, add: _Add) -> None:
    if not tests.tests_changed:
        return
    test_paths = set(tests.test_files)
    techniques: set[str] = set()
    for change in pr.files:
        if change.path not in test_paths:
            continue
        for line in file_diff(change).changes():
            if line.kind == "+":
                techniques.update(m.group(0).lower().lstrip("@") for m in _TEST_TECHNIQUE.finditer(line.text))
    shown_paths = sorted(test_paths)[:3]
    if techniques:
        shown = sorted(techniques)[:4]
        evidence = Evidence(template="test-pattern.techniques", params={"techniques": shown, "paths": shown_paths})
        add("test-pattern", "tests use " + ", ".join(shown), 1.5, evidence)
    else:
        count = len(test_paths)
        evidence = Evidence(template="test-pattern.files", params={"count": str(count), "paths": shown_paths})
        add("test-pattern", f"{count} test file{'s' if count != 1 else ''} changed", 0.5, evidence)


def _ref(pr: PullRequest, ref: Reference) -> str:
    return f"#{ref.number}" if ref.repository.lower() == pr.repository.lower() else f"{ref.repository}#{ref.number}"


def _lineage(pr: PullRequest, tests: TestsCIFacts, refs: ReferencesFacts, add: _Add) -> None:
    """A restore after a revert, or a revert that says why, tells a story a reader learns from:
    what broke, why it was pulled, and how it came back fixed."""
    restored = [r for r in refs.references if r.relation == "restores"]
    if restored:
        targets = list(dict.fromkeys(_ref(pr, r) for r in restored))
        reverts = list(dict.fromkeys(_ref(pr, r) for r in refs.references if r.relation == "reverted-by"))
        told = bool(reverts) or any(_REVERT_WORD.search(r.evidence) for r in restored)
        weight = RESTORE_WEIGHT + (RESTORE_AFTER_REVERT_WEIGHT if told else 0.0)
        template = "lineage.restores-after-revert" if told else "lineage.restores"
        items = [Evidence(template=template, params={"refs": targets, "reverts": reverts})]
        detail = f"restores {', '.join(targets)}" + (f" (reverted in {', '.join(reverts)})" if reverts else "")
        if tests.tests_changed and tests.test_files:
            # The fix that lets the feature come back is pinned by a test.
            weight += RESTORE_TESTED_WEIGHT
            items.append(Evidence(template="lineage.fix-tested", params={"paths": tests.test_files[:3]}))
            detail += ", with a test for the fix"
        add("lineage", detail, weight, *items)
        return
    reverted = [r for r in refs.references if r.relation == "reverts"]
    if not reverted and not refs.reverted_commits:
        return
    targets = list(dict.fromkeys(_ref(pr, r) for r in reverted)) or [sha[:12] for sha in refs.reverted_commits[:2]]
    cause = _revert_cause(pr.body)
    if cause:
        evidence = Evidence(template="lineage.reverts-with-cause", params={"refs": targets, "cause": cause})
        add("lineage", f"reverts {', '.join(targets)}: {cause}", REVERT_WITH_CAUSE_WEIGHT, evidence)
    else:
        add(
            "lineage",
            f"reverts {', '.join(targets)}",
            0.0,
            Evidence(template="lineage.reverts", params={"refs": targets}),
        )


def _revert_cause(body: str) -> str:
    """The author's first sentence that says what went wrong (not the "This reverts commit" line).

    Quoted as the author's words, so it is read from the author's paragraphs: a bot's release
    notes ("* **Bug Fixes**"), list markers and emphasis are not part of it."""
    for paragraph in author_paragraphs(body):
        for sentence in re.split(r"(?<=[.!?。！？])\s+", paragraph):
            sentence = " ".join(sentence.split())
            if sentence and not sentence.lower().startswith("this reverts") and _CAUSE_WORDS.search(sentence):
                return sentence if len(sentence) <= 160 else sentence[:159] + "…"
    return ""


def _design(discussion: DiscussionFacts, risks: RisksFacts, add: _Add) -> None:
    human = [t for t in discussion.threads if not t.automated and t.kind in ("correctness", "design")]
    automated = [t for t in discussion.threads if t.automated and t.kind == "correctness"]
    tags = {t.tag: t for t in risks.tags}
    weight = 0.0
    details: list[str] = []
    items: list[Evidence] = []
    regression = tags.get("error-message-regression")
    if regression is not None:
        weight += ERROR_REGRESSION_WEIGHT
        details.append("error-check regression")
        # Name the removed check when there is one, else the removed raise line.
        checks = [str(i.params["symbol"]) for i in regression.items if i.params.get("symbol")]
        raises = [str(i.params["code"]) for i in regression.items if i.params.get("code")]
        items.append(Evidence(template="design-trap.error-check", params={"code": (checks or raises)[:1]}))
    duplicated = tags.get("duplicated-logic-across-files")
    if duplicated is not None:
        weight += DUPLICATED_LOGIC_WEIGHT
        first = duplicated.items[0].params if duplicated.items else {}
        paths = _as_list(first.get("paths"))[:3]
        literal = _clip(str(first.get("literal", "")), 60)
        packages = _as_list(first.get("packages"))[:3]
        details.append("duplicated logic in " + ", ".join(paths))
        params: EvidenceParams = {"paths": paths, "literal": literal, "packages": packages}
        items.append(Evidence(template="design-trap.duplicated", params=params))
    unresolved = tags.get("unresolved-review-concern")
    if unresolved is not None:
        weight += UNRESOLVED_CONCERN_WEIGHT
        topics = [str(i.params.get("topic", "")) for i in unresolved.items]
        details.append("unanswered correctness point: " + topics[0])
        items.append(Evidence(template="design-trap.unresolved", params={"topics": topics[:2]}))
    elif automated:
        weight += 0.5
        details.append(f"automated review: {automated[0].topic}")
        items.append(Evidence(template="design-trap.automated", params={"topics": [_clip(automated[0].topic)]}))
    if human:
        # Review threads come last: the trap in the code is the more concrete lesson.
        weight += 1.5 if len(human) >= 2 else 1.0
        details.append("; ".join(f"{t.topic} ({t.kind})" for t in human[:2]))
        items.append(Evidence(template="design-trap.threads", params={"topics": [_clip(t.topic) for t in human[:2]]}))
    if weight:
        add("design-trap", "; ".join(details), weight, *items)


def _practice(deps: DependenciesFacts, add: _Add) -> None:
    # A downgrade is not a practice to copy, and a CI tool or a dev pin teaches no one governance.
    teaching = [
        c
        for c in deps.changes
        if set(c.kinds) & _PRACTICE_KINDS and "downgraded" not in c.kinds and c.scope not in ("ci", "dev")
    ]
    if not teaching:
        return
    practice = sorted({k for c in teaching for k in c.kinds if k in _PRACTICE_KINDS})
    packages = ", ".join(sorted({c.package for c in teaching}))
    items = [
        Evidence(
            template="dependency-practice.added" if c.before is None else "dependency-practice.change",
            params={
                "package": c.package,
                "path": c.path,
                "before": version_part(c.before),
                "after": version_part(c.after),
                "kinds": [k for k in c.kinds if k in _PRACTICE_KINDS],
                "versions": c.newly_admitted[:3],
            },
        )
        for c in teaching[:3]
    ]
    add("dependency-practice", f"{packages}: {', '.join(practice)}", 1.5, *items)


def _size(pr: PullRequest, files: FilesFacts, add: _Add) -> None:
    source = [f for f in files.files if f.category == "source"]
    lines = sum(f.additions + f.deletions for f in source)
    total = files.total_additions + files.total_deletions or pr.additions + pr.deletions
    source_lines = Evidence(template="size.source-lines", params={"lines": str(lines)})
    if lines > 800:
        add("size", f"{lines} source lines changed", 1.0, source_lines)
    elif lines >= 20:
        add("size", f"{lines} source lines changed", 0.5, source_lines)
    elif total < 5:
        add(
            "trivial-size",
            f"{total} lines changed",
            -0.5,
            Evidence(template="trivial-size.lines", params={"lines": str(total)}),
        )


def _negatives(
    pr: PullRequest, files: FilesFacts, deps: DependenciesFacts, discussion: DiscussionFacts, add: _Add
) -> None:
    if files.files and all(f.category == "docs" for f in files.files):
        add("docs-only", "only documentation changed", -2.0, Evidence(template="docs-only.files"))
    if _TYPO.search(pr.title):
        title = pr.title[:80]
        add("typo", f"title: {title}", -1.5, Evidence(template="typo.title", params={"title": title}))
    kinds = {k for c in deps.changes for k in c.kinds}
    non_dep = [f for f in files.files if f.type not in ("configuration", "dependency-wiring")]
    if deps.changes and kinds <= _BUMP_KINDS and not non_dep and not discussion.threads:
        add("bump-only", "only version bumps, no discussion", -1.0, Evidence(template="bump-only.changes"))
    if pr.author and is_bot(pr.author):
        author = Evidence(template="bot-authored.author", params={"author": pr.author})
        add("bot-authored", f"opened by {pr.author}", -2.0, author)


def _as_list(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


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
    version="4",  # v4: checklist items with the author's specifics are read; Markdown links read as text
    run=_run,
    requires=("files", "tests_ci", "dependencies", "symbols", "references", "discussion", "risks"),
)
