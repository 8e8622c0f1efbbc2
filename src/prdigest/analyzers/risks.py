"""The "risks" analyzer: tags from the controlled vocabulary, each with its evidence.

`derive_risk_tags` is a pure function of the PR and the other analyzers' facts; every
rule names the fact that triggered it (file:line, symbol, package, finding). One tag per
id, and one tag per fact (a dependency change raises the most specific tag its kinds
support, not four overlapping ones): evidence of up to three triggers is joined, and the highest severity is kept (a
rule starts from the vocabulary's default and may raise it). Tag ids come from
``data/risk_tags.toml`` (see `risk_vocabulary`), their stored labels from `prdigest.words`.
"""

from __future__ import annotations

import io
import itertools
import re
import tokenize
from dataclasses import dataclass, field

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.dependencies.admission import admits_every_later, upper_bounded
from prdigest.analyzers.evidence_text import clip as _clip
from prdigest.analyzers.evidence_text import up_to_closing_bracket
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.risk_vocabulary import SEVERITY_ORDER, RiskVocabulary, Severity, load_vocabulary
from prdigest.analyzers.symbol_names import is_public
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.diff import Line, file_diff
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChange,
    DependencyChangeKind,
    DiscussionFacts,
    Evidence,
    EvidenceParams,
    FilesFacts,
    ReferencesFacts,
    RisksFacts,
    RiskTag,
    SymbolsFacts,
    TestsCIFacts,
)
from prdigest.models.pullrequest import FileStatus, PullRequest
from prdigest.words.recorded import labels_to_record

_CONSTRAINT_KINDS: frozenset[DependencyChangeKind] = frozenset(
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
_LOCK_KINDS: frozenset[DependencyChangeKind] = frozenset({"pinned", "cap-added", "cap-tightened"})
_FUTURE_KINDS: frozenset[DependencyChangeKind] = frozenset(
    {"cap-relaxed", "cap-to-exclusion", "unpinned", "exclusion-removed"}
)
_UPGRADE_KINDS: frozenset[DependencyChangeKind] = frozenset({"floor-raised", "pin-changed"})

_CHECK_NAME = re.compile(r"^_*(?:assert|check|validate|ensure|verify|require)_\w+$", re.I)
_RAISE_WITH_HINT = re.compile(r"\braise\s+\w*(?:Error|Exception)\s*\(", re.I)
# An actionable hint: how to get what is missing, not any "requires" in a message.
_INSTALL_HINT = re.compile(
    r"pip install|conda install|apt(?:-get)? install|not installed|please install|\binstall (?:it|the)\b|"
    r"requires? (?:the )?[\w.-]+ (?:package|library|extra)",
    re.I,
)
_PLATFORM_PROBE = re.compile(
    r"torch\.version\.(?:cuda|hip)|current_platform\.is_(?:cuda|rocm|cpu|xpu|tpu)\w*\(|"
    r"\bnvidia-smi\b|\bCUDA_VERSION\b|\bnvcc\s+--version\b|"
    r"\bCUDA_HOME\b|\bROCM_VERSION\b|\brocm-smi\b"
)
# A word each alternative of `_PLATFORM_PROBE` holds: a text with none is not searched.
_PROBE_WORDS = ("torch.version.", "current_platform.is_", "nvidia-smi", "CUDA_", "nvcc", "ROCM_VERSION", "rocm-smi")
# Probes that decide nothing at run time: a "#" line is a preprocessor guard in C-family
# sources (fixed when the kernel is compiled) and a comment everywhere else.
_HASH_LINE = re.compile(r"^\s*#")
_C_FAMILY_PATH = re.compile(r"\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|cu|cuh|inl|ipp|tpp)$", re.I)
_C_COMMENT_LINE = re.compile(r"^\s*(?://|/\*|\*)")
# Other languages whose comments are C's (`//`, `/* */`).
_SLASH_COMMENT = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".swift", ".scala")
# A statement that only prints or logs the value (Python, shell, C); the value is shown, not used.
_PRINT_ONLY = re.compile(
    r"^\s*(?:(?:print|pprint|printf|fprintf|console\.log)\s*\(|"
    r"(?:[\w.]*\.)?(?:_?logger|_?log|logging|LOG)\.(?:debug|info|warning|warn|error|critical|exception|log)\s*\(|"
    r"(?:echo|printf)\s)"
)
# ... unless the line goes on to act on what it printed (`echo $V | grep -q 12 && ...`).
_CHAINED = re.compile(r"\|\||&&|\|\s*[\w-]|;\s*\S")
_SECURITY_LINE = re.compile(
    # eval/exec called bare (Python's builtins, node's child_process exec), not as a method
    # (`model.eval()`, `vim.eval(...)`, `regexp.exec(text)`) nor defined (`def eval(self):`)
    r"shell\s*=\s*True|(?<![.\w])(?<!def )(?<!function )(?:eval|exec)\s*\(|"
    r"pickle\.loads?\s*\(|yaml\.load\s*\((?!.*SafeLoader)|"
    r"\b(?:api[_-]?key|secret|password|passwd|credential|access[_-]?token|auth[_-]?token|private[_-]?key)\b|"
    r"verify\s*=\s*False|trust_remote_code\s*=\s*True",
    re.I,
)
_SECURITY_PATH = re.compile(r"(?:^|/)(?:auth|security|secrets?|credentials?)(?:/|\.|_|$)", re.I)
_DOCKER_PATH = re.compile(r"(?:^|/)(?:docker/|[^/]*Dockerfile[^/]*$|[^/]*\.dockerfile$|[^/]*Containerfile)", re.I)
_REQUIREMENTS_PATH = re.compile(r"(?:^|/)requirements[^/]*(?:/[^/]+)?\.(?:txt|in)$", re.I)
_LOCK_FILE = re.compile(
    r"(?:^|/)(?:uv\.lock|poetry\.lock|Pipfile\.lock|Cargo\.lock|go\.sum|package-lock\.json|"
    r"yarn\.lock|pnpm-lock\.yaml|composer\.lock|Gemfile\.lock|pdm\.lock)$"
)

_QUOTED = re.compile(r"""(["'])([^"'\\\n]{1,300})\1""")
# Names (identifiers, dotted paths, file names) repeat across files by design; a duplicated
# *setting* (an arch list, a flag string, a URL) is what drifts.
_NAME_LIKE = re.compile(r"^[\w.:/-]+$")
_BENCH_OR_EXAMPLE = re.compile(r"(?:^|/)(?:benchmarks?|bench|examples?)/|(?:^|/)bench_[^/]*$", re.I)

LARGE_FILES = 30  # more changed files than this is a large change
LARGE_LINES = 1000  # more added+removed lines than this is a large change
VERY_LARGE_LINES = 5000  # ... and past this, medium severity
MAX_TRIGGERS = 3  # triggers shown per tag; the rest are counted
MIN_DUPLICATED_LITERAL = 12  # shorter quoted values ("utf-8", "cuda") repeat for no reason

# Every evidence template the rules emit, ``<tag>.<variant>``; the label files (prdigest/words/<lang>/labels.toml)
# hold a sentence for each (tests/words checks that none is missing).
EVIDENCE_TEMPLATES = frozenset(
    {
        "dependency-constraint-change.change",
        "version-lock.change",
        "version-lock.added",
        "future-version-regression-risk.admits",
        "future-version-regression-risk.admits-up-to",
        "future-version-regression-risk.change",
        "dependency-downgrade.change",
        "dependency-upgrade.change",
        "missing-regression-test.source",
        "ci-only-change.files",
        "ci-change.files",
        "runtime-image-impact.image-file",
        "runtime-image-impact.installed",
        "error-message-regression.removed-check",
        "error-message-regression.removed-raise",
        "public-api-change.removed",
        "public-api-change.moved",
        "platform-detection-assumption.probe",
        "security-sensitive.line",
        "security-sensitive.path",
        "duplicated-logic-across-files.rewrite",
        "duplicated-logic-across-files.pin",
        "duplicated-logic-across-files.literal",
        "variant-conflict.packages",
        "large-change.size",
        "generated-or-lock-only.paths",
        "revert.pr",
        "revert.commit",
        "revert.title",
        "unresolved-review-concern.thread",
    }
)


@dataclass
class _Trigger:
    english: str
    evidence: Evidence


@dataclass
class _Collector:
    vocabulary: RiskVocabulary
    triggers: dict[str, list[_Trigger]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)

    def add(
        self,
        tag: str,
        template: str,
        params: EvidenceParams,
        english: str,
        severity: Severity | None = None,
    ) -> None:
        """Record one trigger of `tag`: `template` (``<tag>.<variant>``) and its params render it in
        any language; `english` is kept as the tag's plain `evidence` text."""
        if template not in EVIDENCE_TEMPLATES or not template.startswith(f"{tag}."):
            raise ValueError(f"unknown evidence template {template!r} for {tag!r}")
        spec = self.vocabulary.get(tag)
        level = severity or spec.severity
        items = self.triggers.setdefault(tag, [])
        if all(t.english != english for t in items):
            items.append(_Trigger(english, Evidence(template=template, params=params)))
        current = self.severity.get(tag)
        if current is None or SEVERITY_ORDER[level] > SEVERITY_ORDER[current]:
            self.severity[tag] = level

    def tags(self) -> list[RiskTag]:
        result: list[RiskTag] = []
        for tag, items in self.triggers.items():
            self.vocabulary.get(tag)  # an id outside the vocabulary is a bug: say so here
            label_zh, label_en = labels_to_record(tag)
            more = max(0, len(items) - MAX_TRIGGERS)
            shown = "; ".join(t.english for t in items[:MAX_TRIGGERS]) + (f" (+{more} more)" if more else "")
            result.append(
                RiskTag(
                    tag=tag,
                    label_zh=label_zh,
                    label_en=label_en,
                    evidence=shown,
                    severity=self.severity[tag],
                    items=[t.evidence for t in items[:MAX_TRIGGERS]],
                    more=more,
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
    """Every risk tag the facts support."""
    found = _Collector(vocabulary or load_vocabulary())
    _dependency_rules(found, deps, tests)
    _test_and_ci_rules(found, tests)
    _image_rules(found, pr, files, deps)
    _code_rules(found, pr, symbols, _support_paths(files))
    _duplication_rules(found, pr, files, deps)
    _size_rules(found, pr, files)
    _revert_rules(found, pr, refs)
    _discussion_rules(found, discussion)
    return RisksFacts(tags=found.tags())


def version_part(requirement: str | None, package: str = "") -> str:
    """``<14.1.0`` of ``cupy-cuda13x<14.1.0``: the line without its name (and comment); of a
    line `packaging` does not read (go.mod's ``example.org/mod v1.2.0``), what follows ``package``."""
    if requirement is None:
        return ""
    line = requirement.split("#", 1)[0].strip()
    try:
        parsed = Requirement(line)
    except InvalidRequirement:
        return line.removeprefix(package).lstrip() if package and line.startswith(f"{package} ") else line
    spec = str(parsed.specifier)
    if parsed.extras:
        spec = f"[{','.join(sorted(parsed.extras))}]{spec}"
    if parsed.marker is not None:
        spec = f"{spec}; {parsed.marker}".strip()
    return spec


def _dependency_params(change: DependencyChange) -> dict[str, str | list[str]]:
    return {
        "path": change.path,
        "package": change.package,
        "before": version_part(change.before, change.package),
        "after": version_part(change.after, change.package),
    }


# Scopes whose changes reach the package's users (unknown: the file does not say it does not).
_USER_SCOPES = frozenset({"runtime", "optional", "build", "unknown"})


def _dependency_rules(found: _Collector, deps: DependenciesFacts, tests: TestsCIFacts) -> None:
    """One tag per dependency change, the most specific its kinds support (a lock, an
    upgrade, admitted future versions, else a constraint change), at the highest severity of
    the tags it stands for: one fact, one tag. A constraint or version change owes no
    regression test (`missing-regression-test` is for behaviour-changing source)."""
    del tests  # kept in the signature: rules receive every fact they might read
    for change in deps.changes:
        if change.scope == "ci":
            continue  # a tool a CI job installs is not a requirement of the project
        kinds = set(change.kinds)
        params = _dependency_params(change)
        before = (str(params["before"]) or "(any)") if change.before is not None else "(none)"
        after = (str(params["after"]) or "(any)") if change.after is not None else "(removed)"
        text = f"{change.path}: {change.package} {before} → {after}"
        # A new requirement that arrives capped or pinned blocks later fixes just like a new
        # cap; one moved here unchanged from another list for the same users (requirements
        # files folded into pyproject.toml) brings no cap they did not have. A pin changed on
        # the way is new.
        moved_unchanged = bool(change.moved_from) and not change.moved_changed
        new_lock = (
            change.before is None and change.after is not None and upper_bounded(change.after) and not moved_unchanged
        )
        candidates: list[str] = []
        if "downgraded" in kinds:
            candidates.append("dependency-downgrade")
        if kinds & _LOCK_KINDS or new_lock:
            candidates.append("version-lock")
        if kinds & _UPGRADE_KINDS and _moved_up(str(params["before"]), str(params["after"])):
            candidates.append("dependency-upgrade")
        if kinds & _FUTURE_KINDS:
            candidates.append("future-version-regression-risk")
        if kinds & _CONSTRAINT_KINDS:
            candidates.append("dependency-constraint-change")
        if not candidates:
            continue
        severity: Severity = max(
            (found.vocabulary.get(c).severity for c in candidates), key=lambda v: SEVERITY_ORDER[v]
        )
        if change.scope not in _USER_SCOPES:
            severity = "low"  # a development list (tests, docs, lint) reaches no user
        chosen = candidates[0]
        if chosen == "dependency-downgrade":
            found.add("dependency-downgrade", "dependency-downgrade.change", params, text, severity)
        elif chosen == "version-lock":
            lock = "version-lock.added" if change.before is None else "version-lock.change"
            found.add("version-lock", lock, params, text, severity)
        elif chosen == "dependency-upgrade":
            found.add("dependency-upgrade", "dependency-upgrade.change", params, text, severity)
        elif chosen == "future-version-regression-risk":
            if change.newly_admitted:
                admitted = change.newly_admitted[:3]
                # "and every later release" only when packaging says the new specifier has no upper end
                open_ended = change.after is not None and admits_every_later(change.after, change.newly_admitted[-1])
                found.add(
                    "future-version-regression-risk",
                    "future-version-regression-risk.admits"
                    if open_ended
                    else "future-version-regression-risk.admits-up-to",
                    {**params, "versions": admitted},
                    f"{text} (admits {', '.join(admitted)}{' and every later release' if open_ended else ''})",
                    severity,
                )
            else:
                found.add(
                    "future-version-regression-risk", "future-version-regression-risk.change", params, text, severity
                )
        else:
            shown: list[str] = sorted(kinds & _CONSTRAINT_KINDS)
            # (a new requirement's kinds are "added" alone: only a changed one reaches here)
            found.add(
                "dependency-constraint-change",
                "dependency-constraint-change.change",
                {**params, "kinds": shown},
                f"{text} ({', '.join(shown)})",
                severity,
            )


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
        found.add(
            "missing-regression-test",
            "missing-regression-test.source",
            {},
            "source changed and no test file changed",
        )
    shown = tests.ci_files[:3]
    if tests.ci_only:
        found.add(
            "ci-only-change", "ci-only-change.files", {"paths": shown}, "only CI files changed: " + ", ".join(shown)
        )
    elif tests.ci_changed:
        found.add("ci-change", "ci-change.files", {"paths": shown}, "CI files changed: " + ", ".join(shown))


def _image_rules(found: _Collector, pr: PullRequest, files: FilesFacts, deps: DependenciesFacts) -> None:
    # a page about Dockerfiles (docs/writing-a-dockerfile.md) builds no image
    docs = {f.path for f in files.files if f.category == "docs"}
    paths = [f.path for f in pr.files]
    images = [f for f in pr.files if _DOCKER_PATH.search(f.path) and f.path not in docs]
    for image in images:
        found.add(
            "runtime-image-impact", "runtime-image-impact.image-file", {"path": image.path}, f"{image.path} changed"
        )
    # A requirements file counts only when a container build or script in this PR names it:
    # whether some image elsewhere in the repository does is not seen here, so it is not claimed.
    image_texts = [
        line
        for f in [*images, *(f for f in pr.files if f.path.endswith(".sh"))]
        for line in (f.content_after or f.patch or "").splitlines()
        if not _HASH_LINE.match(line.lstrip("+- "))  # a comment names a file, it installs nothing
    ]
    changed_requirements = {c.path for c in deps.changes if _REQUIREMENTS_PATH.search(c.path) and c.scope != "ci"}
    changed_requirements.update(p for p in paths if _REQUIREMENTS_PATH.search(p))
    for path in sorted(changed_requirements):
        if any(_names_file(line, path) for line in image_texts):
            found.add(
                "runtime-image-impact",
                "runtime-image-impact.installed",
                {"path": path},
                f"{path} is named by a changed image/script",
            )


def _names_file(line: str, path: str) -> bool:
    """Whether `line` names the file at `path`: its name as a whole word (not the end of
    ``dev-requirements.txt``), and, when the word has a folder, one that is the file's own
    (``docs/requirements.txt`` is not ``requirements.txt``; ``/app/requirements.txt`` may be,
    an image copies files where it likes)."""
    folder, _, name = path.rpartition("/")
    for match in re.finditer(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", line):
        word = re.search(r"[\w./${}-]*$", line[: match.start()])
        prefix = (word.group(0) if word else "").rstrip("/")
        if prefix in ("", ".") or "$" in prefix or (prefix.startswith("/") and not folder):
            return True  # no folder, one a variable holds, or an absolute one the image chose
        if folder and (prefix == folder or prefix.endswith(f"/{folder}")):
            return True
    return False


# Categories of files that show, test or explain the code rather than being it.
_SUPPORT_CATEGORIES = frozenset({"test", "docs", "example"})


# Type declarations (TypeScript's .d.ts, Python's stubs): names and types, no code that runs.
_DECLARATION_ONLY = (".d.ts", ".pyi")


def _support_paths(files: FilesFacts) -> set[str]:
    """Tests, benchmarks and examples: code that probes platforms, execs snippets and drops
    assertion helpers as a matter of course, so the code rules do not read them; nor generated
    files (bundles, source maps, vendored code), which nobody wrote in the PR."""
    return {
        f.path
        for f in files.files
        if f.category in _SUPPORT_CATEGORIES or f.type == "test" or f.generated or _BENCH_OR_EXAMPLE.search(f.path)
    }


def _code_rules(found: _Collector, pr: PullRequest, symbols: SymbolsFacts, support: set[str]) -> None:
    # Where the PR defines each name anew: a name removed from one file and added to another moved.
    added_in: dict[tuple[str, str], list[str]] = {}
    for symbol in symbols.symbols:
        if symbol.change == "added":
            added_in.setdefault((symbol.name, symbol.kind), []).append(symbol.path)
    for symbol in symbols.symbols:
        if symbol.path in support:
            continue
        last = symbol.name.rsplit(".", 1)[-1]
        moved_to = [p for p in added_in.get((symbol.name, symbol.kind), ()) if p != symbol.path]
        if symbol.change == "removed" and _CHECK_NAME.match(last) and not moved_to:
            found.add(
                "error-message-regression",
                "error-message-regression.removed-check",
                {"path": symbol.path, "symbol": symbol.name},
                f"{symbol.path}: removed {symbol.name}()",
            )
        is_test = "test" in symbol.path.lower().rsplit("/", 1)[-1] or "/tests/" in f"/{symbol.path}"
        # Dunders too are left out: a removed `__init__` is told by its class or its signature.
        public = is_public(symbol.name, symbol.kind, symbol.language, symbol.exported) and not last.startswith("_")
        if symbol.change == "removed" and public and not is_test and moved_to:
            # still a change for whoever imports it from the old place, but no removal
            found.add(
                "public-api-change",
                "public-api-change.moved",
                {"path": symbol.path, "symbol": symbol.name, "symbol_kind": symbol.kind, "to": moved_to[0]},
                f"{symbol.path}: {symbol.kind} {symbol.name} moved to {moved_to[0]}",
            )
        elif symbol.change == "removed" and public and not is_test:
            found.add(
                "public-api-change",
                "public-api-change.removed",
                {"path": symbol.path, "symbol": symbol.name, "symbol_kind": symbol.kind},
                f"{symbol.path}: removed {symbol.kind} {symbol.name}",
            )
    for change in pr.files:
        if change.path in support or change.path.endswith(_DECLARATION_ONLY):
            continue  # (a declaration's line runs nothing; its removed names still count above)
        lines = file_diff(change).changes()
        added_text = "\n".join(line.text for line in lines if line.kind == "+")
        # A line's match is a match in its side's lines joined (no pattern reads a line's ends):
        # a side with none needs no line searched.
        probes = any(w in added_text for w in _PROBE_WORDS) and _PLATFORM_PROBE.search(added_text) is not None
        sensitive = _SECURITY_LINE.search(added_text) is not None
        raises = _RAISE_WITH_HINT.search("\n".join(line.text for line in lines if line.kind == "-")) is not None
        if not (probes or sensitive or raises):
            lines = []
        for index, line in enumerate(lines):
            if line.kind == "-" and not raises:
                continue
            where = f"{change.path}:{line.number}" if line.number else change.path
            code = _clip(line.text)
            if line.kind == "-":
                # The hint is often on the lines after `raise X(`: read the removed statement,
                # up to its closing bracket (a hint in the next statement is not this error's).
                block = _statement(lines, index)
                removed_raise = _RAISE_WITH_HINT.search(line.text) and _INSTALL_HINT.search(block)
                if removed_raise and line.text.strip() not in added_text:
                    found.add(
                        "error-message-regression",
                        "error-message-regression.removed-raise",
                        {"where": where, "code": code},
                        f"{where}: removed `{code}`",
                    )
                continue
            if probes and _PLATFORM_PROBE.search(line.text) and _decides_on_probe(change.path, line.text):
                found.add(
                    "platform-detection-assumption",
                    "platform-detection-assumption.probe",
                    {"where": where, "code": code},
                    f"{where}: `{code}`",
                )
            if sensitive and _SECURITY_LINE.search(_without_comment(change.path, line.text)):
                found.add(
                    "security-sensitive",
                    "security-sensitive.line",
                    {"where": where, "code": code},
                    f"{where}: `{code}`",
                )
        if _SECURITY_PATH.search(change.path) and change.status != FileStatus.REMOVED:
            found.add(
                "security-sensitive",
                "security-sensitive.path",
                {"path": change.path},
                f"{change.path} is security-related",
                "medium",
            )


def _statement(lines: list[Line], index: int) -> str:
    """The removed lines from `index` on that close the brackets its first line opens."""
    removed = itertools.takewhile(lambda line: line.kind == "-", lines[index:])
    return " ".join(up_to_closing_bracket(line.text for line in removed))


def _decides_on_probe(path: str, text: str) -> bool:
    """False for a platform probe that cannot steer anything at run time: a compile-time
    guard or comment, a line that only prints/logs the probed value, or (Python) one that
    names the probe only in the message of a `raise` or `assert`."""
    if _HASH_LINE.match(text):
        return False
    if _C_FAMILY_PATH.search(path) and _C_COMMENT_LINE.match(text):
        return False
    if path.endswith(".py"):
        code, strings = _python_parts(text, strings=True)
        if not _PLATFORM_PROBE.search(code):
            message_only = code.split(maxsplit=1)[:1] in (["raise"], ["assert"])
            if message_only or not _PLATFORM_PROBE.search(" ".join(strings)):
                return False
    return not (_PRINT_ONLY.match(text) and not _CHAINED.search(text))


def _python_parts(text: str, *, strings: bool) -> tuple[str, list[str]]:
    """A Python line read by its tokens: the code with its comment blanked (and, with
    `strings`, its plain string literals, which are returned apart; an f-string's fields are
    code, so an f-string stays in the code)."""
    code = list(text)
    literals: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] != 1:
                break
            prefix = token.string.split("'")[0].split('"')[0].lower()
            plain = strings and token.type == tokenize.STRING and "f" not in prefix
            if plain or token.type == tokenize.COMMENT:
                end = token.end[1] if token.end[0] == 1 else len(text)
                if plain:
                    literals.append(token.string)
                code[token.start[1] : end] = " " * (end - token.start[1])
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # a line cut from its statement (an open bracket): the tokens read so far stand
    return "".join(code), literals


def _without_comment(path: str, text: str) -> str:
    """`text` without its comment: a line that only mentions a password explains, it holds none."""
    if path.endswith(".py"):
        return _python_parts(text, strings=False)[0]
    comment = _C_COMMENT_LINE if _C_FAMILY_PATH.search(path) or path.endswith(_SLASH_COMMENT) else _HASH_LINE
    return "" if comment.match(text) else text


def _duplication_rules(found: _Collector, pr: PullRequest, files: FilesFacts, deps: DependenciesFacts) -> None:
    for finding in deps.findings:
        where = ", ".join(finding.paths) or ", ".join(finding.packages)
        params: dict[str, str | list[str]] = {"paths": finding.paths, "packages": finding.packages}
        if finding.kind == "duplicated-rewrite":
            found.add(
                "duplicated-logic-across-files",
                "duplicated-logic-across-files.rewrite",
                params,
                f"{where}: {finding.detail}",
            )
        elif finding.kind == "duplicated-pin":
            found.add(
                "duplicated-logic-across-files",
                "duplicated-logic-across-files.pin",
                params,
                f"{where}: {finding.detail}",
            )
        elif finding.kind == "variant-conflict":
            found.add("variant-conflict", "variant-conflict.packages", params, f"{where}: {finding.detail}")
    for literal, paths in duplicated_literals(pr, files):
        found.add(
            "duplicated-logic-across-files",
            "duplicated-logic-across-files.literal",
            {"paths": paths, "literal": literal},
            f"the same value {literal!r} is added in {', '.join(paths)}",
        )


def duplicated_literals(pr: PullRequest, files: FilesFacts) -> list[tuple[str, list[str]]]:
    """Quoted values of at least `MIN_DUPLICATED_LITERAL` characters that the PR adds to two or
    more files (tests, docs and generated files aside) and removes nowhere, i.e. the same
    setting written twice (setup.py and a Dockerfile ENV line), not code moved between files."""
    skipped = {f.path for f in files.files if f.generated or f.category in _SUPPORT_CATEGORIES}
    added: dict[str, list[str]] = {}
    removed: set[str] = set()
    for change in pr.files:
        if change.path in skipped or _LOCK_FILE.search(change.path):
            continue
        json_file = change.path.lower().endswith(".json")
        for line in file_diff(change).changes():
            for match in _QUOTED.finditer(line.text):
                value = match.group(2).strip()
                if len(value) < MIN_DUPLICATED_LITERAL:
                    continue
                if json_file and line.text[match.end() :].lstrip().startswith(":"):
                    continue  # a key names a field (a package.json dependency's name), it sets nothing
                if line.kind == "-":
                    removed.add(value)
                elif change.path not in added.setdefault(value, []):
                    added[value].append(change.path)
    kind_of = {f.path: (f.category, f.type, f.language) for f in files.files}
    found = [
        (value, paths)
        for value, paths in added.items()
        if len(paths) >= 2
        and value not in removed
        and not _NAME_LIKE.match(value)
        # the same value in two files of one kind is usually parallel code (kernels for
        # several architectures), not a setting kept in two places that can drift
        and len({kind_of.get(path) for path in paths}) >= 2
    ]
    return sorted(found, key=lambda item: (-len(item[1]), item[0]))[:MAX_TRIGGERS]


def _size_rules(found: _Collector, pr: PullRequest, files: FilesFacts) -> None:
    file_count = max(files.total_files, pr.changed_files_count or 0, len(pr.files))
    lines = max(files.total_additions + files.total_deletions, pr.additions + pr.deletions)
    if file_count > LARGE_FILES or lines > LARGE_LINES:
        severity: Severity = "medium" if lines > VERY_LARGE_LINES else "low"
        found.add(
            "large-change",
            "large-change.size",
            {"files": str(file_count), "lines": str(lines)},
            f"{file_count} files, {lines} lines changed",
            severity,
        )
    considered = [f.path for f in files.files if f.generated or _LOCK_FILE.search(f.path)]
    if files.files and len(considered) == len(files.files):
        found.add(
            "generated-or-lock-only",
            "generated-or-lock-only.paths",
            {"paths": considered[:3]},
            ", ".join(considered[:3]),
        )
    elif not files.files and pr.files and all(_LOCK_FILE.search(f.path) for f in pr.files):
        shown = [f.path for f in pr.files[:3]]
        found.add("generated-or-lock-only", "generated-or-lock-only.paths", {"paths": shown}, ", ".join(shown))


def _revert_rules(found: _Collector, pr: PullRequest, refs: ReferencesFacts) -> None:
    reverted = [r for r in refs.references if r.relation == "reverts"]
    for ref in reverted:
        same = ref.repository.lower() == pr.repository.lower()
        target = f"#{ref.number}" if same else f"{ref.repository}#{ref.number}"
        found.add(
            "revert",
            "revert.pr",
            {"ref": target},
            f"reverts {ref.repository}#{ref.number}: {ref.evidence}",
        )
    for sha in refs.reverted_commits:
        found.add("revert", "revert.commit", {"sha": sha[:12]}, f"reverts commit {sha[:12]}")
    # the title's first word, not its first letters: "Reverting is now one click" reverts nothing
    first = pr.title.split(maxsplit=1)[0].strip("[](){}:\"'").lower() if pr.title.strip() else ""
    if not reverted and not refs.reverted_commits and first in ("revert", "reverts", "reverted"):
        found.add("revert", "revert.title", {"title": _clip(pr.title)}, f"title: {_clip(pr.title)}")


def _discussion_rules(found: _Collector, discussion: DiscussionFacts) -> None:
    """A correctness point nobody answered (or left unresolved) is a risk the merge carries,
    whether a person or a code-review bot raised it."""
    for thread in discussion.threads:
        if thread.kind != "correctness" or thread.outcome not in ("unresolved", "no-reply"):
            continue
        who = list(dict.fromkeys(thread.participants or [q.author for q in thread.quotes]))[:3]
        topic = _clip(thread.topic, 160)
        found.add(
            "unresolved-review-concern",
            "unresolved-review-concern.thread",
            {"who": who, "topic": topic, "outcome": thread.outcome, "path": thread.path or ""},
            f"{', '.join(who) or 'a reviewer'}: {topic} ({thread.outcome})",
        )


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


# v4: platform probes in compile-time guards, comments and print/log-only lines do not count
# v5: one tag per dependency change; no missing-regression-test for dependency changes; an
#     upgrade compares versions, not digits of the package name (urllib3)
ANALYZER = Analyzer(
    name="risks",
    version=DEFAULT_VERSIONS["risks"],
    run=_run,
    requires=("files", "tests_ci", "dependencies", "symbols", "references", "discussion"),
)
