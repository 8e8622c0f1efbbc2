"""The reading verdict: is this PR worth reading in depth, worth a quick read, or not?

Each reason is a concrete fact of this PR, weighed by substance:

    core-change     lines of core logic that are code (not comments, docstrings, blanks):
                    >=600 → 3.0, >=300 → 2.5, >=150 → 2.0, >=40 → 1.5, >=5 → 1.0, else 0.5;
                    spread over 5+ core files (100+ lines) +0.5
    new-module      added core modules of real size, not moved code        +1.0
    public-api      10+ public names added (not moved)                     +1.0
    fix             a fix of a high-severity class (concurrency, memory safety, leak,
                    data loss, security) +3.0, also when only the title names the class
                    (then not told as a fix); of a crash or hang +0.5; tested +0.5; none
                    from the words of a test/docs/ci/style-typed title
    lineage         restores a reverted PR 2.0 (+1.0 when the revert is named, +0.5 tested);
                    undoes 150+ lines of core logic +1.5; a revert that says why +0.5
    design-trap     review threads on design/correctness, an error check removed, the same
                    logic duplicated in code, an unanswered correctness point
    dependency-decision  a runtime constraint that locks later releases out, or newly admits
                    or excludes versions +1.0 (bumps of a pin are no decision)
    api-default     a public function's parameter default changed in core code +1.0
    explained       the description explains the change: 40+ words of the author's prose
                    that name a changed definition or file +1.0
    review-changed  human review threads the code answered (outdated by a later commit to
                    their file): 0.5 each up to 1.0
    fan-in          a changed core file that 5+ other files of the repository import +0.5,
                    20+ +1.0 (tests aside; from the import graph of the clone, when there is one)
    discussion      substantive human threads, 0.5 each up to 1.5
Negatives: moved code without new behaviour −2.5, docs only −2.0, typo −2.0, bot-authored −2.0,
tests only −1.0, CI only −1.0, bumps only −1.0, only message text changed −1.0 (not said
with a typo title), only comments changed −0.5. Without core
logic a PR reaches no further than a quick read, and neither does one whose data is
incomplete (a shallow clone's boundary, a truncated file list).

The weights above are the hand-set scale; the fitted model (``data/verdict_model.toml``,
see `model`) multiplies each reason's weight by its code's factor and sets the levels'
thresholds (read in depth, quick read, else skip). It is fitted on hand labels of several
public histories and its leave-one-repository-out figures are printed by
benchmarks/verdict_fit.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from prdigest.analyzers.behaviour import is_typo_fix
from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.coverage import file_list_state, holds_review_data
from prdigest.analyzers.dependencies.admission import exact_pin, upper_bounded
from prdigest.analyzers.discussions.bots import is_bot
from prdigest.analyzers.evidence_text import clip as _clip
from prdigest.analyzers.import_graph import ImportGraph
from prdigest.analyzers.pr_text import author_paragraphs, author_text
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.revert_scope import is_the_revert
from prdigest.analyzers.risks import version_part
from prdigest.analyzers.symbol_names import has_private_part
from prdigest.analyzers.verdict.explanation import explanation
from prdigest.analyzers.verdict.fixes import fix_severity, is_fix
from prdigest.analyzers.verdict.model import VerdictModel, default_model
from prdigest.analyzers.verdict.substance import Substance, is_core, measure
from prdigest.analyzers.versions import DEFAULT_VERSIONS
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
from prdigest.models.pullrequest import IncompleteReason, PullRequest

NO_CORE_CAP = 1.0  # without core logic: a quick read at most
INCOMPLETE_CAP = 3.0  # incomplete data: a quick read at most
# Reasons that lift the no-core cap: what they tell is worth reading without core logic.
UNCAPPING_CODES = ("lineage", "dependency-decision", "design-trap")

SPREAD_FILES, SPREAD_LINES, SPREAD_WEIGHT = 5, 100, 0.5
NEW_MODULE_WEIGHT = 1.0
PUBLIC_API_MIN, PUBLIC_API_WEIGHT = 10, 1.0
FIX_HIGH_WEIGHT, FIX_MEDIUM_WEIGHT, FIX_TESTED_WEIGHT = 3.0, 0.5, 0.5
RESTORE_WEIGHT, RESTORE_TOLD_WEIGHT, RESTORE_TESTED_WEIGHT = 2.0, 1.0, 0.5
REVERT_LARGE_LINES, REVERT_LARGE_WEIGHT, REVERT_CAUSE_WEIGHT = 150, 1.5, 0.5
DEPENDENCY_DECISION_WEIGHT = 1.0
API_DEFAULT_WEIGHT = 1.0
# Importers of the most imported changed core file -> weight, most first.
FAN_IN_STEPS = ((20, 1.0), (5, 0.5))
EXPLAINED_WEIGHT = 1.0
REVIEW_CHANGED_WEIGHT, REVIEW_CHANGED_MAX = 0.5, 1.0

_REVERT_WORD = re.compile(r"\brevert(?:s|ed|ing)?\b|回退|撤销", re.IGNORECASE)
_CAUSE_WORDS = re.compile(
    r"\bbecause\b|\bsince\b|\bcaus|\bbr(?:eak|oke)|\bcrash|\bfail|\bregress|\bout of memory\b|\bOOM\b|"
    r"\bleak|\bhang|\bdeadlock|\bslow|\berror|\bbug\b|\bnever\b|导致|失败|崩溃|回归|泄漏",
    re.IGNORECASE,
)
# Constraint kinds that decide which releases users get; version bumps of a pin do not.
_LOCK_KINDS: frozenset[DependencyChangeKind] = frozenset({"cap-added", "pinned"})
_ADMIT_KINDS: frozenset[DependencyChangeKind] = frozenset(
    {"cap-relaxed", "cap-to-exclusion", "exclusion-removed", "unpinned"}
)
_EXCLUDE_KINDS: frozenset[DependencyChangeKind] = frozenset({"exclusion-added"})
_BUMP_KINDS: frozenset[DependencyChangeKind] = frozenset({"floor-raised", "pin-changed"})

# Every template a reason may carry, ``<code>.<variant>``; the label files hold a sentence
# for each (tests/words checks that none is missing).
REASON_TEMPLATES = frozenset(
    {
        "core-change.lines",
        "core-change.spread",
        "new-module.paths",
        "public-api.names",
        "fix.high",
        "fix.medium",
        "fix.tested",
        "fix.named",
        "lineage.restores",
        "lineage.restores-after-revert",
        "lineage.fix-tested",
        "lineage.reverts-large",
        "lineage.reverts-with-cause",
        "lineage.reverts",
        "lineage.reverts-in-commits",
        "design-trap.threads",
        "design-trap.error-check",
        "design-trap.duplicated",
        "design-trap.unresolved",
        "design-trap.automated",
        "api-default.changed",
        "fan-in.importers",
        "explained.body",
        "review-changed.threads",
        "dependency-decision.lock",
        "dependency-decision.pin",
        "dependency-decision.admits",
        "dependency-decision.excludes",
        "discussion.threads",
        "move-only.count",
        "docs-only.files",
        "tests-only.files",
        "ci-only.files",
        "comment-only.lines",
        "messages-only.lines",
        "messages-only.with-comments",
        "typo.title",
        "bump-only.changes",
        "bump-only.versions",
        "bot-authored.author",
        "incomplete-data.shallow-clone-boundary",
        "incomplete-data.file-list-missing",
        "incomplete-data.file-list-truncated",
        "incomplete-data.number-collision",
        "incomplete-data.missing-objects",
        "small-change.lines",
        "version-only.lines",
        "data-only.lines",
        "no-core.categories",
        "no-files.none",
    }
)

_Add = Callable[..., None]


def judge(
    pr: PullRequest,
    files: FilesFacts,
    tests: TestsCIFacts,
    deps: DependenciesFacts,
    symbols: SymbolsFacts,
    refs: ReferencesFacts,
    discussion: DiscussionFacts,
    risks: RisksFacts,
    model: VerdictModel | None = None,
    graph: ImportGraph | None = None,
) -> VerdictFacts:
    """The reading verdict of one PR from its facts (pure, deterministic).

    `model` (default: the shipped, fitted one) scales each reason's weight and sets the
    thresholds of the levels; `graph`, the repository's import graph, tells how much of the
    code imports the changed files (none: no fan-in is claimed)."""
    model = model or default_model()
    reasons: list[VerdictReason] = []

    def add(code: str, detail: str, weight: float, *items: Evidence) -> None:
        for item in items:
            if item.template not in REASON_TEMPLATES or not item.template.startswith(f"{code}."):
                raise ValueError(f"unknown reason template {item.template!r} for {code!r}")
        scaled = model.scale(code, weight)
        reasons.append(VerdictReason(code=code, detail=detail, weight=round(scaled, 2), items=list(items)))

    substance = measure(pr, files, symbols)
    _core_change(substance, model, add)
    _fix(pr, refs, tests, substance, add)
    _lineage(pr, tests, refs, substance, add)
    _design(discussion, risks, files, add)
    _dependency_decisions(deps, add)
    _api_defaults(symbols, files, add)
    if graph is not None:
        _fan_in(substance, graph, add)
    explained = explanation(pr, symbols) if substance.behaviour_lines else None
    if explained is not None:
        names = list(explained.names[:3])
        add(
            "explained",
            f"the description explains it in {explained.words} words, naming {', '.join(names)}",
            EXPLAINED_WEIGHT,
            _ev("explained.body", length=str(explained.words), names=names),
        )
    human = [t for t in discussion.threads if not t.automated and t.kind != "style"]
    answered = [t for t in human if t.outcome == "changed-in-code"]
    if answered:
        # A review that changed the code is where the change got its final shape.
        add(
            "review-changed",
            f"{len(answered)} review thread(s) answered by a later commit",
            min(REVIEW_CHANGED_MAX, REVIEW_CHANGED_WEIGHT * len(answered)),
            _ev("review-changed.threads", count=str(len(answered)), topics=[_clip(t.topic) for t in answered[:2]]),
        )
    if human:
        count = str(len(human))
        add(
            "discussion",
            f"{count} substantive thread(s)",
            min(1.5, 0.5 * len(human)),
            _ev("discussion.threads", count=count),
        )
    known = file_list_state(pr) == "complete"
    if known:
        _negatives(pr, files, tests, deps, discussion, substance, add)
    else:
        # What needs every file (docs-only, bump-only, the size) cannot be judged: say why.
        _incomplete(pr, add)

    score = round(sum(r.weight for r in reasons), 2)
    no_core = capped_to_quick(substance.behaviour_lines > 0, reasons)
    # What was not seen may hold what matters: never more than a quick read.
    unseen = not known or bool(pr.incomplete)
    if no_core:
        score = min(score, NO_CORE_CAP)
    if unseen:
        score = min(score, INCOMPLETE_CAP)
    level = (
        VerdictLevel.READ_IN_DEPTH
        if score >= model.read_in_depth
        else VerdictLevel.QUICK_READ
        if score >= model.quick_read
        else VerdictLevel.SKIP
    )
    if level is VerdictLevel.READ_IN_DEPTH and (no_core or unseen):
        level = VerdictLevel.QUICK_READ  # the caps hold whatever the model's thresholds are
    if level is VerdictLevel.SKIP and known and not any(r.weight < 0 for r in reasons):
        _why_small(substance, add)
    reasons.sort(key=lambda r: -abs(r.weight))
    return VerdictFacts(level=level, score=score, reasons=reasons)


def capped_to_quick(has_core: bool, reasons: list[VerdictReason]) -> bool:
    """Without core logic a PR reaches a quick read at most, unless a reason worth reading
    without code lifts the cap."""
    return not has_core and not _has(reasons, *UNCAPPING_CODES)


def _ev(template: str, **params: str | list[str]) -> Evidence:
    return Evidence(template=template, params=params)


def _has(reasons: list[VerdictReason], *codes: str) -> bool:
    return any(r.code in codes and r.weight > 0 for r in reasons)


def _core_change(substance: Substance, model: VerdictModel, add: _Add) -> None:
    lines = substance.behaviour_lines
    if lines <= 0:
        return
    weight = model.core_weight(lines)
    paths = list(substance.core_files[:3])
    files = str(len(substance.core_files))
    add(
        "core-change",
        f"{lines} lines of core logic in {files} file(s)",
        weight,
        _ev("core-change.lines", lines=str(lines), files=files, paths=paths),
    )
    if len(substance.core_files) >= SPREAD_FILES and lines >= SPREAD_LINES:
        modules = list(substance.modules[:4])
        add(
            "core-change",
            f"spread over {files} core files",
            SPREAD_WEIGHT,
            _ev("core-change.spread", files=files, module=modules),
        )
    if substance.move_dominated:
        return
    if substance.new_modules:
        add(
            "new-module",
            "new modules: " + ", ".join(substance.new_modules[:3]),
            NEW_MODULE_WEIGHT,
            _ev("new-module.paths", paths=list(substance.new_modules[:3])),
        )
    if len(substance.public_added) >= PUBLIC_API_MIN:
        names = [name for name in substance.public_added[:4]]
        more = len(substance.public_added) - len(names)
        add(
            "public-api",
            f"{len(substance.public_added)} public names added",
            PUBLIC_API_WEIGHT,
            _ev(
                "public-api.names", names=names, count=str(len(substance.public_added)), more=str(more) if more else ""
            ),
        )


def _fix(pr: PullRequest, refs: ReferencesFacts, tests: TestsCIFacts, substance: Substance, add: _Add) -> None:
    if not substance.behaviour_lines:
        return
    severity = fix_severity(pr, refs, author_text(pr.body))
    if severity is not None and (severity.level == "high" or is_fix(pr, refs)):
        weight = FIX_HIGH_WEIGHT if severity.level == "high" else FIX_MEDIUM_WEIGHT
        template = f"fix.{severity.level}" if severity.claimed else "fix.named"
        add(
            "fix",
            f"{'fixes' if severity.claimed else 'names'} a {severity.kind}: {severity.quote}",
            weight,
            _ev(template, fix_kind=severity.kind, quote=severity.quote),
        )
    tested = _tested_in(tests)
    if is_fix(pr, refs) and tests.tests_changed and tested:
        add("fix", "the fix is tested", FIX_TESTED_WEIGHT, _ev("fix.tested", paths=tested[:3]))


def _tested_in(tests: TestsCIFacts) -> list[str]:
    """Where the tests that came with the change are: its test files, else the source files
    whose own test module changed (Rust's `mod tests`)."""
    return tests.test_files or tests.in_file_tests


def _ref(pr: PullRequest, ref: Reference) -> str:
    return f"#{ref.number}" if ref.repository.lower() == pr.repository.lower() else f"{ref.repository}#{ref.number}"


def _lineage(pr: PullRequest, tests: TestsCIFacts, refs: ReferencesFacts, substance: Substance, add: _Add) -> None:
    """A restore after a revert, or the revert of real work, tells a story a reader learns from."""
    restored = [r for r in refs.references if r.relation == "restores"]
    if restored:
        targets = list(dict.fromkeys(_ref(pr, r) for r in restored))
        reverts = list(dict.fromkeys(_ref(pr, r) for r in refs.references if r.relation == "reverted-by"))
        told = bool(reverts) or any(_REVERT_WORD.search(r.evidence) for r in restored)
        weight = RESTORE_WEIGHT + (RESTORE_TOLD_WEIGHT if told else 0.0)
        template = "lineage.restores-after-revert" if told else "lineage.restores"
        items = [_ev(template, refs=targets, reverts=reverts)]
        detail = f"restores {', '.join(targets)}" + (f" (reverted in {', '.join(reverts)})" if reverts else "")
        tested = _tested_in(tests)
        if tests.tests_changed and tested:
            weight += RESTORE_TESTED_WEIGHT
            items.append(_ev("lineage.fix-tested", paths=tested[:3]))
        add("lineage", detail, weight, *items)
        return
    reverted = [r for r in refs.references if r.relation == "reverts"]
    if not reverted and not refs.reverted_commits:
        return
    targets = list(dict.fromkeys(_ref(pr, r) for r in reverted)) or [sha[:12] for sha in refs.reverted_commits[:2]]
    if not is_the_revert(pr, reverted):
        # A release or branch merge with a revert among its commits: its diff is all of them,
        # so how much the revert pulls back is not known, and no cause is the PR's own.
        add(
            "lineage",
            f"one of its {len(pr.commits)} commits reverts {', '.join(targets)}",
            0.0,
            _ev("lineage.reverts-in-commits", refs=targets, count=str(len(pr.commits))),
        )
        return
    lines = substance.behaviour_lines
    if lines >= REVERT_LARGE_LINES:
        # A revert's diff is what it undoes: the size of the work pulled back.
        add(
            "lineage",
            f"undoes {', '.join(targets)} ({lines} lines)",
            REVERT_LARGE_WEIGHT,
            _ev("lineage.reverts-large", refs=targets, lines=str(lines)),
        )
    cause = _revert_cause(pr.body)
    if cause:
        add(
            "lineage",
            f"reverts {', '.join(targets)}: {cause}",
            REVERT_CAUSE_WEIGHT,
            _ev("lineage.reverts-with-cause", refs=targets, cause=cause),
        )
    elif lines < REVERT_LARGE_LINES:
        add("lineage", f"reverts {', '.join(targets)}", 0.0, _ev("lineage.reverts", refs=targets))


def _revert_cause(body: str) -> str:
    """The author's first sentence that says what went wrong (not the "This reverts commit" line)."""
    for paragraph in author_paragraphs(body):
        for sentence in re.split(r"(?<=[.!?。！？])\s+", paragraph):
            sentence = " ".join(sentence.split())
            if sentence and not sentence.lower().startswith("this reverts") and _CAUSE_WORDS.search(sentence):
                return sentence if len(sentence) <= 160 else sentence[:159] + "…"
    return ""


def _design(discussion: DiscussionFacts, risks: RisksFacts, files: FilesFacts, add: _Add) -> None:
    human = [t for t in discussion.threads if not t.automated and t.kind in ("correctness", "design")]
    automated = [t for t in discussion.threads if t.automated and t.kind == "correctness"]
    tags = {t.tag: t for t in risks.tags}
    weight = 0.0
    details: list[str] = []
    items: list[Evidence] = []
    regression = tags.get("error-message-regression")
    if regression is not None:
        weight += 1.0
        details.append("error-check regression")
        checks = [str(i.params["symbol"]) for i in regression.items if i.params.get("symbol")]
        raises = [str(i.params["code"]) for i in regression.items if i.params.get("code")]
        items.append(_ev("design-trap.error-check", code=(checks or raises)[:1]))
    duplicated = tags.get("duplicated-logic-across-files")
    if duplicated is not None and duplicated.items:
        first = duplicated.items[0].params
        paths = _as_list(first.get("paths"))[:3]
        # A value repeated in CI or config files is bookkeeping; logic duplicated in code or
        # build files is the trap (the copies drift apart).
        categories = {f.path: f.category for f in files.files}
        if any(categories.get(p) in ("source", "infra") for p in paths):
            weight += 1.0
            details.append("duplicated logic in " + ", ".join(paths))
            params: EvidenceParams = {
                "paths": paths,
                "literal": _clip(str(first.get("literal", "")), 60),
                "packages": _as_list(first.get("packages"))[:3],
            }
            items.append(Evidence(template="design-trap.duplicated", params=params))
    unresolved = tags.get("unresolved-review-concern")
    if unresolved is not None:
        weight += 1.0
        topics = [str(i.params.get("topic", "")) for i in unresolved.items]
        details.append("unanswered correctness point: " + (topics[0] if topics else ""))
        items.append(_ev("design-trap.unresolved", topics=topics[:2]))
    elif automated:
        weight += 0.5
        details.append(f"automated review: {automated[0].topic}")
        items.append(_ev("design-trap.automated", topics=[_clip(automated[0].topic)]))
    if human:
        weight += 1.5 if len(human) >= 2 else 1.0
        details.append("; ".join(f"{t.topic} ({t.kind})" for t in human[:2]))
        items.append(_ev("design-trap.threads", topics=[_clip(t.topic) for t in human[:2]]))
    if weight:
        add("design-trap", "; ".join(details), weight, *items)


def _another_value(before: str, after: str) -> bool:
    """Two literal defaults that give callers another value. A sentinel or ``None`` standing in
    for a value the body fills (``[]`` → ``None``), or one empty collection for another
    (``[]`` → ``()``), is how the code is written, not what callers get."""
    try:
        old, new = ast.literal_eval(before), ast.literal_eval(after)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    if old is None or new is None or old == new:
        return False
    empty = (list, tuple, dict, set, frozenset, str, bytes)
    return not (isinstance(old, empty) and isinstance(new, empty) and not old and not new)


def _api_defaults(symbols: SymbolsFacts, files: FilesFacts, add: _Add) -> None:
    """A public function's default changed: every caller that leaves the argument out now
    gets another value, though no line of theirs changed."""
    core = {f.path for f in files.files if is_core(f)}
    changed = [
        e
        for e in symbols.edits
        if e.kind == "default-changed"
        and e.path in core
        and not has_private_part(e.params.get("function", ""))
        and _another_value(e.params.get("before", ""), e.params.get("after", ""))
    ]
    if not changed:
        return
    first = changed[0].params
    more = sum(e.count for e in changed) - 1
    add(
        "api-default",
        f"{first.get('function')}: {first.get('parameter')} defaults to {first.get('after')}",
        API_DEFAULT_WEIGHT,
        _ev(
            "api-default.changed",
            function=first.get("function", ""),
            parameter=first.get("parameter", ""),
            before=first.get("before", ""),
            after=first.get("after", ""),
            more=str(more) if more else "",
        ),
    )


def _fan_in(substance: Substance, graph: ImportGraph, add: _Add) -> None:
    """A change to a file much of the repository imports reaches all of it."""
    if not substance.behaviour_lines or substance.move_dominated:
        return
    counts = sorted(((graph.fan_in(path), path) for path in substance.core_files), key=lambda item: -item[0])
    if not counts:
        return
    importers, path = counts[0]
    weight = next((w for least, w in FAN_IN_STEPS if importers >= least), 0.0)
    if weight:
        count = str(importers)
        add(
            "fan-in",
            f"{path} is imported by {count} files (at {graph.commit[:12]})",
            weight,
            _ev("fan-in.importers", path=path, count=count, sha=graph.commit[:12]),
        )


def _dependency_decisions(deps: DependenciesFacts, add: _Add) -> None:
    items: list[Evidence] = []
    for change in deps.changes:
        kinds = set(change.kinds)
        # A downgrade is no decision to learn from, and a CI tool or a dev pin binds no user.
        if "downgraded" in kinds or change.scope in ("ci", "dev"):
            continue
        before, after = version_part(change.before, change.package), version_part(change.after, change.package)
        # The cap or pin is read by `packaging`: "~=1.4" and "==1.*" cap too, a "<" in a marker does not.
        if kinds & _LOCK_KINDS and change.after and upper_bounded(change.after):
            lock = "dependency-decision.pin" if exact_pin(change.after) else "dependency-decision.lock"
            items.append(_ev(lock, package=change.package, after=after))
        elif kinds & _ADMIT_KINDS and change.newly_admitted:
            items.append(
                _ev(
                    "dependency-decision.admits",
                    kinds=sorted(kinds & _ADMIT_KINDS),
                    package=change.package,
                    before=before,
                    after=after,
                    versions=change.newly_admitted[:3],
                )
            )
        elif kinds & _EXCLUDE_KINDS and change.newly_excluded:
            items.append(
                _ev(
                    "dependency-decision.excludes",
                    kinds=sorted(kinds & _EXCLUDE_KINDS),
                    package=change.package,
                    before=before,
                    after=after,
                    versions=change.newly_excluded[:3],
                )
            )
    if items:
        packages = ", ".join(dict.fromkeys(str(i.params["package"]) for i in items))
        add("dependency-decision", packages, DEPENDENCY_DECISION_WEIGHT, *items[:3])


def _negatives(
    pr: PullRequest,
    files: FilesFacts,
    tests: TestsCIFacts,
    deps: DependenciesFacts,
    discussion: DiscussionFacts,
    substance: Substance,
    add: _Add,
) -> None:
    if substance.move_dominated and substance.behaviour_lines:
        add(
            "move-only",
            f"{substance.moved} definitions moved",
            -2.5,
            _ev("move-only.count", count=str(substance.moved)),
        )
    categories = {f.category for f in files.files}
    if files.files and categories == {"docs"}:
        add("docs-only", "only documentation changed", -2.0, _ev("docs-only.files"))
    elif files.files and categories == {"test"}:
        add("tests-only", "only tests changed", -1.0, _ev("tests-only.files"))
    elif files.files and tests.ci_only:
        add("ci-only", "only CI changed", -1.0, _ev("ci-only.files"))
    if is_typo_fix(pr):
        title = pr.title[:80]
        add("typo", f"title: {title}", -2.0, _ev("typo.title", title=title))
    kinds = {k for c in deps.changes for k in c.kinds}
    non_dep = [f for f in files.files if f.type not in ("configuration", "dependency-wiring")]
    if deps.changes and kinds <= _BUMP_KINDS and not non_dep and not discussion.threads:
        # "no discussion" only where reviews and comments were fetched: a git clone holds none.
        if holds_review_data(pr):
            add("bump-only", "only version bumps, no discussion", -1.0, _ev("bump-only.changes"))
        else:
            add("bump-only", "only version bumps", -1.0, _ev("bump-only.versions"))
    if pr.author and is_bot(pr.author):
        add("bot-authored", f"opened by {pr.author}", -2.0, _ev("bot-authored.author", author=pr.author))
    if not substance.behaviour_lines and substance.message_lines and not is_typo_fix(pr):
        lines = str(substance.message_lines)
        # comments edited with the messages are said in the same sentence, not in a second "only"
        template = "messages-only.with-comments" if substance.comment_only_lines else "messages-only.lines"
        add("messages-only", "only message text changed in source", -1.0, _ev(template, lines=lines))
    elif not substance.behaviour_lines and substance.comment_only_lines:
        add("comment-only", "only comments or docstrings changed in source", -0.5, _ev("comment-only.lines"))


def _incomplete(pr: PullRequest, add: _Add) -> None:
    """Say that the file list is partial or unknown, and why: the verdict rests on what was seen."""
    params: EvidenceParams = {"listed": str(len(pr.files)), "expected": str(pr.changed_files_count or "")}
    if IncompleteReason.SHALLOW_BOUNDARY.value in pr.incomplete:
        template, detail = "incomplete-data.shallow-clone-boundary", "file list unknown: shallow clone boundary"
    elif IncompleteReason.NUMBER_COLLISION.value in pr.incomplete:
        template, detail = "incomplete-data.number-collision", "part of the PR landed in another commit, not read"
        parts = [c.sha[:7] for c in pr.same_number_commits if c.files_changed and not c.another_pr]
        params = {"sha": parts}
    elif IncompleteReason.MISSING_OBJECTS.value in pr.incomplete:
        template, detail = "incomplete-data.missing-objects", "the clone lacks some changed files' contents"
    elif pr.files:
        template, detail = "incomplete-data.file-list-truncated", "file list truncated by the source"
    else:
        template, detail = "incomplete-data.file-list-missing", "file list missing from the source"
    add("incomplete-data", detail, 0.0, Evidence(template=template, params=params))


def _why_small(substance: Substance, add: _Add) -> None:
    """A skip says what the PR is, not that nothing was found."""
    if not substance.behaviour_lines and substance.version_lines:
        add("version-only", "only a version constant changed in source", 0.0, _ev("version-only.lines"))
        return
    if not substance.behaviour_lines and substance.data_lines:
        lines = str(substance.data_lines)
        add("data-only", f"only {lines} lines of literal data changed", 0.0, _ev("data-only.lines", lines=lines))
        return
    if substance.behaviour_lines:
        lines = str(substance.behaviour_lines)
        add(
            "small-change",
            f"{lines} lines of core logic",
            0.0,
            _ev("small-change.lines", lines=lines, paths=list(substance.core_files[:2])),
        )
        return
    changed = sorted(substance.categories, key=lambda c: -substance.categories[c])
    if not changed:
        add("no-files", "no file changed", 0.0, _ev("no-files.none"))
        return
    add("no-core", "no core logic: " + ", ".join(changed), 0.0, _ev("no-core.categories", categories=changed[:3]))


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
        graph=ctx.import_graph(pr.repository),
    )


ANALYZER = Analyzer(
    name="verdict",
    version=DEFAULT_VERSIONS["verdict"],
    run=_run,
    requires=("files", "tests_ci", "dependencies", "symbols", "references", "discussion", "risks"),
)
