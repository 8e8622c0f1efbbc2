"""Who a source change reaches, named concretely: the public functions and classes it removes,
changes or adds, per module; the repository's own tools and benchmarks reach the team, not
users."""

from __future__ import annotations

from dataclasses import dataclass, field

from prdigest.analyzers.symbol_names import in_test_module, is_private
from prdigest.facts_view.code_lines import only_comments, only_messages
from prdigest.facts_view.selection import short_name
from prdigest.models.facts import Facts, FileFact
from prdigest.narrate.extractive.step_parts import join_more
from prdigest.words import Phrases

# Modules the project's developers run, not its users (module ids of the words' labels [modules] table).
DEVELOPER_MODULES = frozenset({"tools", "benchmarks", "examples", "CI scripts", "CI config", "tests"})
BUILD_CONFIG = "build config"  # the module id of the words' labels [modules] table
MAX_NAMES = 3
MAX_MODULES = 4


@dataclass
class SourceReach:
    user_modules: list[str] = field(default_factory=list)  # by churn, largest first
    developer_modules: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # public symbols of user-facing files
    modified: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)  # modified only in their type annotations
    # No line of code changed: only message texts / only comments, docstrings or formatting.
    no_code: str | None = None  # "messages" | "comments"


def source_reach(facts: Facts) -> SourceReach:
    churn: dict[str, int] = {}
    for file in facts.files.files:
        if file.category == "source" and file.module:
            churn[file.module] = churn.get(file.module, 0) + file.additions + file.deletions
    modules = sorted(churn, key=lambda m: -churn[m])
    reach = SourceReach(
        user_modules=[m for m in modules if m not in DEVELOPER_MODULES],
        developer_modules=[m for m in modules if m in DEVELOPER_MODULES],
        no_code="messages" if only_messages(facts) else "comments" if only_comments(facts) else None,
    )
    user_paths = {f.path for f in facts.files.files if f.category == "source" and f.module not in DEVELOPER_MODULES}
    for symbol in facts.symbols.symbols:
        # Hunk-header names are guesses; only parsed symbols are named to the reader.
        if symbol.path not in user_paths or symbol.method != "tree-sitter" or is_private(symbol.name, symbol.language):
            continue
        if symbol.name.startswith("__"):  # a module's `__getattr__`, not an API a user calls
            continue
        if symbol.docs_only:  # its docstring changed, not what callers meet
            continue
        if symbol.typing_only:  # its annotations changed: it runs as before
            if short_name(symbol.name) not in reach.typed:
                reach.typed.append(short_name(symbol.name))
            continue
        if in_test_module(symbol.name, symbol.language):  # Rust's `mod tests`: checks, not behaviour
            continue
        bucket = {"removed": reach.removed, "modified": reach.modified, "added": reach.added}[symbol.change]
        name = short_name(symbol.name)
        if name not in bucket:
            bucket.append(name)
    return reach


def may_reach_users(file: FileFact) -> bool:
    """Whether a changed file that is no source code may still be what users run or see (a shell
    completion template, a syntax definition, a bundled asset): the files' kinds cannot tell, so
    "no effect on users" must not be said of it. Nor of build configuration (``setup.py``,
    ``MANIFEST.in``, a bundler's config): it shapes what users install (``python_requires``).
    A repository's dotfiles (``.gitmodules``), generated files and the other files at its root
    (``Pipfile``, ``CITATION.cff``, ``CHANGES``) are the project's own bookkeeping."""
    if file.generated:
        return False
    if file.module == BUILD_CONFIG:
        return True
    folder, _, name = file.path.rpartition("/")
    return (
        file.category == "other" and bool(folder) and not name.startswith(".") and file.module not in DEVELOPER_MODULES
    )


def user_sentences(reach: SourceReach, ph: Phrases) -> list[str]:
    """What users of the changed modules meet: removals first, then changed, then new names."""
    if not reach.user_modules:
        return []
    modules = _names([ph.labels.module(m) for m in reach.user_modules], MAX_MODULES, ph)
    if reach.no_code:
        # "Users meet changed behaviour in `f`" of a comment inside `f` would be false.
        return [ph.say("impact", "users_messages" if reach.no_code == "messages" else "users_no_code", modules=modules)]
    said: list[str] = []
    if reach.removed:
        said.append(ph.say("impact", "users_removed", symbols=_names(_code(reach.removed, ph), MAX_NAMES, ph)))
    if reach.modified:
        said.append(
            ph.say(
                "impact",
                "users_changed",
                modules=modules,
                symbols=_names(_code(reach.modified, ph), MAX_NAMES, ph),
            )
        )
    if reach.added:
        key = "users_added" if said else "users_added_only"
        said.append(ph.say("impact", key, modules=modules, symbols=_names(_code(reach.added, ph), MAX_NAMES, ph)))
    if not said and reach.typed:
        said.append(ph.say("impact", "users_typing", symbols=_names(_code(reach.typed, ph), MAX_NAMES, ph)))
    if not said:
        said.append(ph.say("impact", "users_source", modules=modules))
    return said


def team_sentences(reach: SourceReach, ph: Phrases) -> list[str]:
    if not reach.developer_modules:
        return []
    modules = _names([ph.labels.module(m) for m in reach.developer_modules], MAX_MODULES, ph)
    return [ph.say("impact", "team_tools", modules=modules)]


def _code(names: list[str], ph: Phrases) -> list[str]:
    return [ph.code(n) for n in names]


def _names(shown: list[str], limit: int, ph: Phrases) -> str:
    return join_more(shown[:limit], len(shown) - limit, ph)
