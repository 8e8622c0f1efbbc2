"""File-classification rules: ordered glob patterns, defaults shipped in a TOML data file.

A per-repository rules file has the same shape as ``data/default_rules.toml``; its parts
are put in front of the defaults, so they win::

    # Optional: more CI paths (tests_ci reads job names from them).
    ci_paths = ["ci/pipelines/**"]

    [[rule]]                      # any number, tried in order
    pattern = "vllm/v1/core/**"   # glob on the path; required
    module = "v1 engine core"     # each of these is optional:
    category = "source"           #   source | test | config | infra | docs | example | other
    type = "core-logic"           #   core-logic | configuration | infrastructure |
                                  #   dependency-wiring | test | docs | example
    language = "python"
    generated = false             # true for generated / vendored / lock files

    [languages]                   # glob -> language name
    "*.tpl" = "jinja"

    [module_names_zh]             # accepted for older rules files and not shown: module
    "v1 engine core" = "V1 引擎核心" # names in reports come from prdigest.words (labels [modules])

For each field the first matching rule that sets it wins, so a repository rule may set
only ``module`` and keep the default category and type. Globs: ``*`` and ``?`` stay within
one path segment, ``**`` crosses segments, ``{a,b}`` lists alternatives, and a pattern
without ``/`` matches the file name in any directory. The parsed table is what
`AnalysisContext.rules` holds; `load_rules_file` reads and validates one from disk.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import cast, get_args

from prdigest.errors import ConfigError
from prdigest.models.facts import FileCategory, FileFact, FileType

_CATEGORIES = set(get_args(FileCategory))
_TYPES = set(get_args(FileType))
_RULE_FIELDS = {"pattern", "category", "type", "module", "language", "generated"}
_TOP_KEYS = {"rule", "ci_paths", "languages", "module_names_zh"}
_MEMO_SIZE = 20_000  # paths remembered per rule set

# The module the default rules give lock files (uv.lock, go.sum, Cargo.lock, package-lock.json):
# generated, yet what they pin is what gets installed.
LOCK_MODULE = "lock files"
# The module the default rules give test-helper folders (`test_utils/`), and the files
# analyzer a folder only tests import (`test_support`).
TEST_SUPPORT_MODULE = "test support"


def is_lock_file(fact: FileFact) -> bool:
    """A generated file the rules call a lock file: what it pins is installed."""
    return fact.generated and fact.module == LOCK_MODULE


class Glob:
    """A compiled path glob (see the module docstring for the syntax)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._regexes = [_compile(alternative) for alternative in _expand_braces(pattern)]

    def matches(self, path: str) -> bool:
        name = PurePosixPath(path).name
        return any(regex.fullmatch(name if basename else path) for regex, basename in self._regexes)


def _expand_braces(pattern: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    expanded: list[str] = []
    for option in match.group(1).split(","):
        expanded.extend(_expand_braces(head + option + tail))
    return expanded


def _compile(pattern: str) -> tuple[re.Pattern[str], bool]:
    basename = "/" not in pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(char))
            i += 1
    return re.compile("".join(out)), basename


@dataclass(frozen=True)
class Rule:
    glob: Glob
    category: FileCategory | None = None
    type: FileType | None = None
    module: str | None = None
    language: str | None = None
    generated: bool | None = None


@dataclass(frozen=True)
class Classification:
    category: FileCategory
    type: FileType
    module: str | None  # None when no rule names one: the caller derives it from the path
    language: str | None
    generated: bool


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...] = ()
    ci_paths: tuple[Glob, ...] = ()
    languages: tuple[tuple[Glob, str], ...] = ()
    module_names_zh: Mapping[str, str] = field(default_factory=dict)
    # Answers per path: the same files come back PR after PR, and every rule is a regex.
    _classified: dict[str, Classification] = field(default_factory=dict, compare=False, repr=False)
    _ci: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    def classify(self, path: str) -> Classification:
        found = self._classified.get(path)
        if found is None:
            if len(self._classified) >= _MEMO_SIZE:
                self._classified.clear()
            found = self._classified[path] = self._classify(path)
        return found

    def _classify(self, path: str) -> Classification:
        category: FileCategory | None = None
        file_type: FileType | None = None
        module: str | None = None
        language: str | None = None
        generated: bool | None = None
        for rule in self.rules:
            if not rule.glob.matches(path):
                continue
            category = category or rule.category
            file_type = file_type or rule.type
            module = module or rule.module
            language = language or rule.language
            generated = rule.generated if generated is None else generated
        if language is None:
            language = next((name for glob, name in self.languages if glob.matches(path)), None)
        return Classification(
            category=category or "other",
            type=file_type or "core-logic",
            module=module,
            language=language,
            generated=bool(generated),
        )

    def is_ci(self, path: str) -> bool:
        found = self._ci.get(path)
        if found is None:
            if len(self._ci) >= _MEMO_SIZE:
                self._ci.clear()
            found = self._ci[path] = any(glob.matches(path) for glob in self.ci_paths)
        return found


def _problem(where: str, message: str) -> ConfigError:
    return ConfigError(f"{where}: {message}")


def _str_map(value: object, where: str, key: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise _problem(where, f"[{key}] must map strings to strings")
    return dict(cast(Mapping[str, str], value))


def _parse_rule(raw: object, where: str, index: int) -> Rule:
    label = f"rule #{index + 1}"
    if not isinstance(raw, Mapping):
        raise _problem(where, f"{label} must be a table")
    unknown = set(raw) - _RULE_FIELDS
    if unknown:
        raise _problem(where, f"{label} has unknown keys {sorted(unknown)}")
    pattern = raw.get("pattern")
    if not isinstance(pattern, str) or not pattern.strip():
        raise _problem(where, f"{label} needs a non-empty string 'pattern'")
    category, file_type = raw.get("category"), raw.get("type")
    # A non-string (an array, a table) is a wrong value too, not a crash on hashing it.
    if category is not None and (not isinstance(category, str) or category not in _CATEGORIES):
        raise _problem(where, f"{label} ({pattern}): category {category!r} is not one of {sorted(_CATEGORIES)}")
    if file_type is not None and (not isinstance(file_type, str) or file_type not in _TYPES):
        raise _problem(where, f"{label} ({pattern}): type {file_type!r} is not one of {sorted(_TYPES)}")
    for key in ("module", "language"):
        if raw.get(key) is not None and not isinstance(raw.get(key), str):
            raise _problem(where, f"{label} ({pattern}): {key} must be a string")
    generated = raw.get("generated")
    if generated is not None and not isinstance(generated, bool):
        raise _problem(where, f"{label} ({pattern}): generated must be true or false")
    return Rule(
        glob=Glob(pattern),
        category=cast(FileCategory | None, category),
        type=cast(FileType | None, file_type),
        module=cast(str | None, raw.get("module")),
        language=cast(str | None, raw.get("language")),
        generated=generated,
    )


def parse_rules(data: Mapping[str, object], where: str = "rules") -> RuleSet:
    """Validate one parsed rules table (defaults or per-repository) into a `RuleSet`."""
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise _problem(where, f"unknown keys {sorted(unknown)} (expected {sorted(_TOP_KEYS)})")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        raise _problem(where, "'rule' must be an array of tables ([[rule]])")
    ci_paths = data.get("ci_paths", [])
    if not isinstance(ci_paths, list) or not all(isinstance(p, str) for p in ci_paths):
        raise _problem(where, "'ci_paths' must be a list of strings")
    languages = _str_map(data.get("languages", {}), where, "languages")
    return RuleSet(
        rules=tuple(_parse_rule(raw, where, i) for i, raw in enumerate(raw_rules)),
        ci_paths=tuple(Glob(p) for p in ci_paths),
        languages=tuple((Glob(p), name) for p, name in languages.items()),
        module_names_zh=_str_map(data.get("module_names_zh", {}), where, "module_names_zh"),
    )


@cache
def default_rules() -> RuleSet:
    text = resources.files("prdigest.analyzers").joinpath("data/default_rules.toml").read_text("utf-8")
    return parse_rules(tomllib.loads(text), "default_rules.toml")


def rules_for(overrides: Mapping[str, object] | None) -> RuleSet:
    """The rules of one repository: its own in front of the defaults."""
    defaults = default_rules()
    if not overrides:
        return defaults
    # The same table comes with every PR of a run: build (and validate) it once. repr tells
    # TOML values of different types apart and keeps the order, which decides rule priority.
    key = repr(overrides)
    found = _combined.get(key)
    if found is None:
        if len(_combined) >= 8:
            _combined.clear()
        found = _combined[key] = _combine(parse_rules(overrides, "repository rules"), defaults)
    return found


_combined: dict[str, RuleSet] = {}


def _combine(own: RuleSet, defaults: RuleSet) -> RuleSet:
    return RuleSet(
        rules=own.rules + defaults.rules,
        ci_paths=own.ci_paths + defaults.ci_paths,
        languages=own.languages + defaults.languages,
        module_names_zh={**defaults.module_names_zh, **own.module_names_zh},
    )


def load_rules_file(path: Path) -> dict[str, object]:
    """Read and validate a per-repository rules TOML; the result goes in `AnalysisContext.rules`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read rules file: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: rules file is not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: rules file is not valid TOML: {exc}") from exc
    parse_rules(data, str(path))
    return data
