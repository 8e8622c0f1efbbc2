"""The "risks" analyzer: tags from the controlled vocabulary, each with its evidence.

`derive_risk_tags` is a pure function of the PR and the other analyzers' facts; every
rule names the fact that triggered it (file:line, symbol, package, finding). One tag per
id: evidence of up to three triggers is joined, and the highest severity is kept (a
rule starts from the vocabulary's default and may raise it). Tag ids and labels come
from ``data/risk_tags.toml`` (see `risk_vocabulary`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from packaging.version import InvalidVersion, Version

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.patch_lines import changed_lines
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.risk_vocabulary import SEVERITY_ORDER, RiskVocabulary, Severity, load_vocabulary
from prdigest.models.facts import (
    DependenciesFacts,
    DiscussionFacts,
    FilesFacts,
    ReferencesFacts,
    RisksFacts,
    RiskTag,
    SymbolsFacts,
    TestsCIFacts,
)
from prdigest.models.pullrequest import FileStatus, PullRequest

_CONSTRAINT_KINDS = frozenset(
    {
        "cap-added",
        "cap-relaxed",
        "cap-tightened",
        "cap-to-exclusion",
        "exclusion-added",
        "exclusion-removed",
        "floor-raised",
        "floor-lowered",
        "pinned",
        "unpinned",
        "pin-changed",
        "markers-changed",
    }
)
_LOCK_KINDS = frozenset({"pinned", "cap-added", "cap-tightened"})
_FUTURE_KINDS = frozenset({"cap-relaxed", "cap-to-exclusion", "unpinned", "exclusion-removed"})
_UPGRADE_KINDS = frozenset({"floor-raised", "pin-changed"})

_CHECK_NAME = re.compile(r"^_*(?:assert|check|validate|ensure|verify|require)_\w+$", re.I)
_RAISE_WITH_HINT = re.compile(r"\braise\s+\w*(?:Error|Exception)\s*\(", re.I)
_INSTALL_HINT = re.compile(r"pip install|\binstall\b|not installed|is required|requires? ", re.I)
_PLATFORM_PROBE = re.compile(
    r"torch\.version\.(?:cuda|hip)|current_platform\.is_(?:cuda|rocm|cpu|xpu|tpu)\w*\(|"
    r"\bnvidia-smi\b|\bCUDA_VERSION\b|\bnvcc\s+--version\b|torch\.cuda\.is_available\(\)|"
    r"\bCUDA_HOME\b|\bROCM_VERSION\b|\brocm-smi\b"
)
_SECURITY_LINE = re.compile(
    r"shell\s*=\s*True|\beval\s*\(|\bexec\s*\(|pickle\.loads?\s*\(|yaml\.load\s*\((?!.*SafeLoader)|"
    r"\b(?:api[_-]?key|secret|password|passwd|credential|access[_-]?token|auth[_-]?token|private[_-]?key)\b|"
    r"verify\s*=\s*False|trust_remote_code\s*=\s*True",
    re.I,
)
_SECURITY_PATH = re.compile(r"(?:^|/)(?:auth|security|secrets?|credentials?)(?:/|\.|_|$)", re.I)
_DOCKER_PATH = re.compile(r"(?:^|/)(?:docker/|[^/]*Dockerfile[^/]*$|[^/]*\.dockerfile$|[^/]*Containerfile)", re.I)
_REQUIREMENTS_PATH = re.compile(r"(?:^|/)requirements[^/]*(?:/[^/]+)?\.(?:txt|in)$", re.I)
_NON_IMAGE_REQUIREMENTS = re.compile(r"test|dev|lint|docs?|doc-|format|ci\b", re.I)
_LOCK_FILE = re.compile(
    r"(?:^|/)(?:uv\.lock|poetry\.lock|Pipfile\.lock|Cargo\.lock|go\.sum|package-lock\.json|"
    r"yarn\.lock|pnpm-lock\.yaml|composer\.lock|Gemfile\.lock|pdm\.lock)$"
)

LARGE_FILES = 30  # more changed files than this is a large change
LARGE_LINES = 1000  # more added+removed lines than this is a large change
VERY_LARGE_LINES = 5000  # ... and past this, medium severity


@dataclass
class _Collector:
    vocabulary: RiskVocabulary
    evidence: dict[str, list[str]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)

    def add(self, tag: str, evidence: str, severity: Severity | None = None) -> None:
        spec = self.vocabulary.get(tag)
        level = severity or spec.severity
        items = self.evidence.setdefault(tag, [])
        if evidence not in items:
            items.append(evidence)
        current = self.severity.get(tag)
        if current is None or SEVERITY_ORDER[level] > SEVERITY_ORDER[current]:
            self.severity[tag] = level

    def tags(self) -> list[RiskTag]:
        result: list[RiskTag] = []
        for tag, items in self.evidence.items():
            spec = self.vocabulary.get(tag)
            shown = "; ".join(items[:3]) + (f" (+{len(items) - 3} more)" if len(items) > 3 else "")
            result.append(
                RiskTag(
                    tag=tag,
                    label_zh=spec.label_zh,
                    label_en=spec.label_en,
                    evidence=shown,
                    severity=self.severity[tag],
                )
            )
        order = list(self.vocabulary.tags)
        # Most severe first, then in vocabulary order, so reports read the same every time.
        result.sort(key=lambda t: (-SEVERITY_ORDER[t.severity], order.index(t.tag)))
        return result


def derive_risk_tags(
    pr: PullRequest,
    files: FilesFacts,
    tests: TestsCIFacts,
    deps: DependenciesFacts,
    symbols: SymbolsFacts,
    refs: ReferencesFacts,
    discussion: DiscussionFacts,
    vocabulary: RiskVocabulary | None = None,
) -> RisksFacts:
    """Every risk tag the facts support. `discussion` is accepted for future rules."""
    found = _Collector(vocabulary or load_vocabulary())
    _dependency_rules(found, deps, tests)
    _test_and_ci_rules(found, tests)
    _image_rules(found, pr, deps)
    _code_rules(found, pr, symbols)
    for finding in deps.findings:
        where = ", ".join(finding.paths) or ", ".join(finding.packages)
        if finding.kind == "duplicated-rewrite":
            found.add("duplicated-logic-across-files", f"{where}: {finding.detail}")
        elif finding.kind == "variant-conflict":
            found.add("variant-conflict", f"{where}: {finding.detail}")
    _size_rules(found, pr, files)
    _revert_rules(found, pr, refs)
    return RisksFacts(tags=found.tags())


def _dependency_rules(found: _Collector, deps: DependenciesFacts, tests: TestsCIFacts) -> None:
    for change in deps.changes:
        kinds = set(change.kinds)
        text = f"{change.path}: {change.package} {change.before or '(none)'} → {change.after or '(removed)'}"
        if kinds & _CONSTRAINT_KINDS:
            found.add("dependency-constraint-change", f"{text} [{', '.join(sorted(kinds))}]")
            if not tests.tests_changed:
                found.add("missing-regression-test", f"no test changed with {change.package} constraint")
        if kinds & _LOCK_KINDS:
            found.add("version-lock", text)
        if kinds & _FUTURE_KINDS:
            admitted = ", ".join(change.newly_admitted[:3])
            found.add("future-version-regression-risk", text + (f" (admits {admitted})" if admitted else ""))
        if kinds & _UPGRADE_KINDS and _moved_up(change.before, change.after):
            found.add("dependency-upgrade", text)


def _moved_up(before: str | None, after: str | None) -> bool:
    """True when the highest version named in `after` is above the one in `before`."""

    def top(text: str | None) -> Version | None:
        versions: list[Version] = []
        for token in re.findall(r"\d+(?:\.\d+)*(?:[a-z]+\d*)?", text or ""):
            try:
                versions.append(Version(token))
            except InvalidVersion:
                continue
        return max(versions) if versions else None

    old, new = top(before), top(after)
    return old is not None and new is not None and new > old


def _test_and_ci_rules(found: _Collector, tests: TestsCIFacts) -> None:
    if tests.missing_tests:
        found.add("missing-regression-test", "source changed and no test file changed")
    if tests.ci_only:
        found.add("ci-only-change", "only CI files changed: " + ", ".join(tests.ci_files[:3]))
    elif tests.ci_changed:
        found.add("ci-change", "CI files changed: " + ", ".join(tests.ci_files[:3]))


def _image_rules(found: _Collector, pr: PullRequest, deps: DependenciesFacts) -> None:
    paths = [f.path for f in pr.files]
    for path in paths:
        if _DOCKER_PATH.search(path):
            found.add("runtime-image-impact", f"{path} changed")
    # A requirements file counts when a changed Dockerfile/script names it, or when it is
    # not obviously a test/dev/docs list (those rarely reach images).
    image_texts = " ".join(
        (f.content_after or f.patch or "") for f in pr.files if _DOCKER_PATH.search(f.path) or f.path.endswith(".sh")
    )
    changed_requirements = {c.path for c in deps.changes if _REQUIREMENTS_PATH.search(c.path)}
    changed_requirements.update(p for p in paths if _REQUIREMENTS_PATH.search(p))
    for path in sorted(changed_requirements):
        name = path.rsplit("/", 1)[-1]
        if name in image_texts:
            found.add("runtime-image-impact", f"{path} is installed by a changed image/script")
        elif not _NON_IMAGE_REQUIREMENTS.search(name):
            found.add("runtime-image-impact", f"{path} may be installed into runtime images", "low")


def _code_rules(found: _Collector, pr: PullRequest, symbols: SymbolsFacts) -> None:
    for symbol in symbols.symbols:
        last = symbol.name.rsplit(".", 1)[-1]
        if symbol.change == "removed" and _CHECK_NAME.match(last):
            found.add("error-message-regression", f"{symbol.path}: removed {symbol.name}()")
        is_test = "test" in symbol.path.lower().rsplit("/", 1)[-1] or "/tests/" in f"/{symbol.path}"
        if symbol.change == "removed" and not last.startswith("_") and not is_test:
            found.add("public-api-change", f"{symbol.path}: removed {symbol.kind} {symbol.name}")
    for change in pr.files:
        lines = changed_lines(change)
        added_text = "\n".join(line.text for line in lines if line.kind == "+")
        for index, line in enumerate(lines):
            where = f"{change.path}:{line.number}" if line.number else change.path
            if line.kind == "-":
                # The hint is often on the lines after `raise X(`: read the removed block.
                block = " ".join(x.text for x in lines[index : index + 4] if x.kind == "-")
                removed_raise = _RAISE_WITH_HINT.search(line.text) and _INSTALL_HINT.search(block)
                if removed_raise and line.text.strip() not in added_text:
                    found.add("error-message-regression", f"{where}: removed `{_clip(line.text)}`")
                continue
            if _PLATFORM_PROBE.search(line.text):
                found.add("platform-detection-assumption", f"{where}: `{_clip(line.text)}`")
            if _SECURITY_LINE.search(line.text):
                found.add("security-sensitive", f"{where}: `{_clip(line.text)}`")
        if _SECURITY_PATH.search(change.path) and change.status != FileStatus.REMOVED:
            found.add("security-sensitive", f"{change.path} is security-related", "medium")


def _size_rules(found: _Collector, pr: PullRequest, files: FilesFacts) -> None:
    file_count = max(files.total_files, pr.changed_files_count or 0, len(pr.files))
    lines = max(files.total_additions + files.total_deletions, pr.additions + pr.deletions)
    if file_count > LARGE_FILES or lines > LARGE_LINES:
        severity: Severity = "medium" if lines > VERY_LARGE_LINES else "low"
        found.add("large-change", f"{file_count} files, {lines} lines changed", severity)
    considered = files.files or []
    if considered and all(f.generated or _LOCK_FILE.search(f.path) for f in considered):
        found.add("generated-or-lock-only", ", ".join(f.path for f in considered[:3]))
    elif not considered and pr.files and all(_LOCK_FILE.search(f.path) for f in pr.files):
        found.add("generated-or-lock-only", ", ".join(f.path for f in pr.files[:3]))


def _revert_rules(found: _Collector, pr: PullRequest, refs: ReferencesFacts) -> None:
    reverted = [r for r in refs.references if r.relation == "reverts"]
    for ref in reverted:
        found.add("revert", f"reverts {ref.repository}#{ref.number}: {ref.evidence}")
    for sha in refs.reverted_commits:
        found.add("revert", f"reverts commit {sha[:12]}")
    if not reverted and not refs.reverted_commits and pr.title.lower().startswith("revert"):
        found.add("revert", f"title: {_clip(pr.title)}")


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _run(pr: PullRequest, ctx: AnalysisContext) -> RisksFacts:
    return derive_risk_tags(
        pr,
        ctx.result("files", FilesFacts),
        ctx.result("tests_ci", TestsCIFacts),
        ctx.result("dependencies", DependenciesFacts),
        ctx.result("symbols", SymbolsFacts),
        ctx.result("references", ReferencesFacts),
        ctx.result("discussion", DiscussionFacts),
    )


ANALYZER = Analyzer(
    name="risks",
    version="1",
    run=_run,
    requires=("files", "tests_ci", "dependencies", "symbols", "references", "discussion"),
)
