"""A one-line summary built from the facts, in the reader's language: the kind of change, its
main object and its consequence ("将 cupy-cuda13x 的约束由 <14.1.0 放宽为 !=14.1.0，放行
14.1.1"). Used when the author's own words are in another language (an English PR read in
Chinese) or say nothing about the whole change."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from prdigest.analyzers.file_rules import TEST_SUPPORT_MODULE
from prdigest.analyzers.revert_scope import is_the_revert
from prdigest.analyzers.symbol_names import in_test_module, is_private
from prdigest.analyzers.title_rules import is_typo_fix
from prdigest.facts_view.code_lines import only_comments, only_messages
from prdigest.facts_view.gaps import files_known
from prdigest.facts_view.selection import key_files, ranked_symbols, short_name
from prdigest.facts_view.symbol_lines import changed_lines_in
from prdigest.models.facts import CodeEdit, DependencyChange, Facts, FileFact, Reference, SymbolChange
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.changes import change_shape, main_kind, specifier
from prdigest.narrate.extractive.code_edits import edits_of, edits_sentence, is_version_edit
from prdigest.narrate.extractive.step_edits import is_step_edit
from prdigest.narrate.extractive.step_parts import join_more
from prdigest.narrate.extractive.text import CODE_SPAN, clean_title
from prdigest.words import Phrases

_RELAX = frozenset({"cap-to-exclusion", "cap-relaxed", "unpinned", "exclusion-removed", "floor-lowered"})
_TIGHTEN = frozenset({"cap-added", "cap-tightened", "exclusion-added", "pinned"})
_RAISE = frozenset({"floor-raised", "pin-changed"})
_MAJOR_SUFFIX = re.compile(r"^v\d+$")  # a Go module's major version element (``/v2``)
_NO_VERSION_MOVE = frozenset({"extras-changed", "markers-changed", "other"})
# The title's first action word says what kind of change the author meant.
_ACTIONS = (
    ("restore", r"restor\w+|re-?enabl\w+|re-?land\w*|reapply\w*|bring\s+back"),
    ("fix", r"fix\w*|correct\w*|resolv\w+|repair\w*|bug\w*|crash\w*|regression"),
    ("remove", r"remov\w+|drop\w*|delet\w+|disabl\w+|unused"),
    ("refactor", r"refactor\w*|renam\w+|clean\w*|simplif\w+"),
    ("improve", r"improv\w+|optimi[sz](?:e[sd]?|ing|ations?)"),  # not "optimizer": a thing, no act
    ("add", r"add(?:s|ed|ing)?|introduc\w+|support\w*|implement\w*|expos\w+|enabl\w+|allow\w*|new|initial"),
    ("change", r"updat\w+|upgrad\w+|bump\w*|chang\w+|switch\w*|replac\w+|us(?:e|es|ed|ing)|mak\w+"),
)
_ACTION_WORDS = [(name, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for name, words in _ACTIONS]
# Words that name the kind only as the title's first word ("Move X to Y", "Cache the check"):
# further on they tell what the code does ("only move the model to the device", "reduction").
_LEADING_ACTIONS = (
    ("refactor", r"mov(?:e|es|ed|ing)|split\w*|extract\w*|unif\w+"),
    ("improve", r"speed\w*|faster|perf\w*|reduc\w+|cach\w+"),
)
_LEADING_WORDS = [
    (name, re.compile(rf"^\W*(?:\w+(?:\([^)]*\))?!?:\s*)?(?:{words})\b", re.IGNORECASE))
    for name, words in _LEADING_ACTIONS
]
# Code in a title is a name, not a verb: `split_between_processes`, torch.nn.Module, get_scale().
_CODE_IN_TITLE = re.compile(r"`[^`]*`|\w+(?:[_.]\w+)+(?:\(\))?|\w+\(\)")
_REVERTED_TITLE = re.compile(r'^\s*revert\s+"(?P<title>.+)"\s*$', re.IGNORECASE)
_NOT_BEHAVIOUR = frozenset({"docs", "example"})
_Named = TypeVar("_Named")
MAX_NAMED = 2  # files, symbols, jobs, packages a one-liner names before it counts the rest
MAX_EDITS = 2  # a one-liner names the two most telling code edits
# Names of code in all: the two the gist lists, and two more the edits name to say what
# changed in them ("`lock` no longer imports `fcntl` under try/except"); more is a list.
MAX_NAMES = 4
_NAMING = re.compile(r"[A-Za-z_]")
MAX_REFS = 2
_WHY_WHERE = frozenset({"title", "body", "closing-issue"})  # the author's words, not a comment's


def action(title: str) -> str:
    """restore | fix | add | remove | refactor | improve | change: the earliest action word of the
    title outside its code, the weaker words only as its first word."""
    words = _CODE_IN_TITLE.sub(lambda m: " " * len(m.group()), title)
    found = [(m.start(), name) for name, pattern in _ACTION_WORDS if (m := pattern.search(words))]
    found += [(0, name) for name, pattern in _LEADING_WORDS if pattern.match(words)]
    return min(found)[1] if found else "change"


def is_revert_gist(pr: PullRequest, facts: Facts) -> bool:
    """Whether the one-liner is "Reverts #N": it says the whole purpose, no intent before it."""
    return _the_reverted(pr, facts) is not None or _REVERTED_TITLE.match(pr.title) is not None


def _the_reverted(pr: PullRequest, facts: Facts) -> Reference | None:
    """What the PR reverts when it is the revert (not a merge of many commits, one of which
    reverts: its gist is the rest of the change)."""
    reverted = [ref for ref in facts.references.references if ref.relation == "reverts"]
    return reverted[0] if reverted and is_the_revert(pr, reverted) else None


def fact_summary(pr: PullRequest, facts: Facts, ph: Phrases) -> str | None:
    """The one-line summary from the facts, or None when the facts say nothing about the change:
    the kind of change and its object, then what the code change does (its first edits)."""
    found = _kind_and_object(pr, facts, ph)
    if found is None:
        return None
    gist, complete = found
    if complete:
        return gist
    gist = _with_why(pr, facts, gist, ph)
    # What a deleted file held is gone with it, not edited: "removes the assertion … in
    # setup.py" would tell a file's deletion as a change of behaviour. Code in documentation
    # and examples shows usage; its assertions are not what the PR does either.
    left_out = {f.path for f in facts.files.files if f.status == "removed" or f.category in _NOT_BEHAVIOUR}
    kept = [edit for edit in edits_of(facts, versions=False) if edit.path not in left_out]
    # A script's or CI file's steps say what the PR does only when it changes no source code
    # (else the gist names source code, and a CI step is not what it does to it); one such
    # clause is a sentence already.
    code = [edit for edit in kept if not is_step_edit(edit)]
    if code:
        edits = _edits_within(gist, code, ph, MAX_EDITS)
    else:
        edits = _edits_within(gist, kept, ph, 1) if change_shape(facts) != "source" else ""
    return ph.say("gist", "with_edits", gist=gist, edits=edits) if edits else gist


def _edits_within(gist: str, edits: list[CodeEdit], ph: Phrases, limit: int) -> str:
    """The first edits (at most ``limit``) whose names, with the gist's, stay within
    `MAX_NAMES`: a one-liner that names more is a list, not a summary ("" when none fits)."""
    for count in range(limit, 0, -1):
        sentence = edits_sentence(edits, ph, limit=count)
        if len(_names(gist) | _names(sentence)) <= MAX_NAMES:
            return sentence
    return ""


def _names(text: str) -> set[str]:
    """The code spans that name something: a value (`10`, `>=2.0`, `"utf-8"`) is no name."""
    return {span for span in CODE_SPAN.findall(text) if _NAMING.search(span) and span[1:2] not in "'\""}


def fixed_kinds(facts: Facts) -> list[str]:
    """The classes of bug the verdict found fixed ("crash", "concurrency"), strongest first."""
    return [
        str(item.params["fix_kind"])
        for reason in facts.verdict.reasons
        if reason.code == "fix"
        for item in reason.items
        if item.template in ("fix.high", "fix.medium") and item.params.get("fix_kind")
    ]


def fixed_refs(pr: PullRequest, facts: Facts) -> list[str]:
    """``#12`` / ``owner/name#12`` for each issue the author's words say the PR fixes."""
    return list(
        dict.fromkeys(
            f"#{r.number}" if r.repository.lower() == pr.repository.lower() else f"{r.repository}#{r.number}"
            for r in facts.references.references
            if r.relation == "fixes" and r.where in _WHY_WHERE
        )
    )


def _with_why(pr: PullRequest, facts: Facts, gist: str, ph: Phrases) -> str:
    """Why, when the facts know it: the class of bug the verdict found fixed (a crash, a race)
    and the issues the title or body says it fixes; else the gist as it is."""
    kinds = fixed_kinds(facts)
    refs = fixed_refs(pr, facts)
    shown = join_more(refs[:MAX_REFS], len(refs) - MAX_REFS, ph) if refs else ""
    if kinds:
        kind = ph.labels.lookup("fix_kinds", kinds[0])
        return ph.say("gist", "why_kind_refs" if refs else "why_kind", gist=gist, kind=kind, refs=shown)
    if refs:
        return ph.say("gist", "why_refs", gist=gist, refs=shown)
    return gist


def _kind_and_object(pr: PullRequest, facts: Facts, ph: Phrases) -> tuple[str, bool] | None:
    """The kind of change and its main object, and whether that says all (a revert, a
    dependency, a version: no edit is added to it)."""
    revert = _revert(pr, facts, ph)
    if revert:
        return revert, True
    shape = change_shape(facts)
    if shape == "empty":
        # A complete file list that is empty: an empty commit, or a merge whose changes were
        # already on the main line (a missing list is the shape "unknown").
        return ph.say("gist", "no_files"), True
    if shape == "dependency-only" or _dependencies_and_bookkeeping(facts):
        dependencies = _dependencies(facts.dependencies.changes, ph, pr.title)
        return (dependencies, True) if dependencies else None
    told_first = shape in ("config-only", "non-source") or (
        shape == "source" and _title_names_dependency(pr.title, facts.dependencies.changes)
    )
    if told_first and (dependencies := _dependencies(facts.dependencies.changes, ph, pr.title)):
        # no code changed, or the title says the requirement is the point ("Upgrade quic-go to
        # 0.48.2"): what the requirements now admit is the news, the other files follow
        declared = {c.path for c in facts.dependencies.changes}
        others, every = _key_and_every(facts, lambda f: f.path not in declared and f.category != "docs")
        if not others:
            return dependencies, True
        return ph.say("gist", "dependency_and_files", text=dependencies, files=_files(others, ph, every)), True
    version = _version(facts, ph)
    if version:
        return version, True
    files = _files(key_files(facts, "full"), ph, _kind_of(facts, lambda f: True) or None)
    typo = is_typo_fix(pr)
    if shape == "docs-only":
        return ph.say("gist", "docs_typo" if typo else "docs", files=files), False
    if shape == "ci-only":
        moved = facts.tests_ci.ci_actions
        if moved:
            first = moved[0]
            text = ph.say(
                "gist",
                "ci_action" if first.count > 1 else "ci_action_once",
                action=ph.code(first.action),
                before=ph.code(first.before),
                after=ph.code(first.after),
                count=first.count,
            )
            if len(moved) > 1:
                more = "ci_action_more" if len(moved) > 2 else "ci_action_more_one"
                text = ph.say("gist", more, text=text, count=len(moved) - 1, total=len(moved))
            return text, False
        jobs = facts.tests_ci.ci_jobs
        if jobs:
            shown = _shown([ph.code(j) for j in jobs], ph)
            return ph.say("gist", "ci_jobs", jobs=shown), False
        return ph.say("gist", "ci", files=files), False
    if shape == "tests-only":
        if all(f.module == TEST_SUPPORT_MODULE for f in facts.files.files if f.category == "test"):
            # helpers the tests use (a test server, fixtures): what they add are no tests
            return ph.say("gist", "test_support", files=files), False
        added = [s for s in facts.symbols.symbols if s.change == "added"]
        if added:
            names = [ph.code(s.name) for s in added]
            return ph.say("gist", "tests_added", names=_shown(names, ph)), False
        return ph.say("gist", "tests", files=files), False
    categories = {f.category for f in facts.files.files}
    if shape == "non-source" and "test" in categories and categories <= {"test", "docs"}:
        tests, every_test = _key_and_every(facts, lambda f: f.category == "test")
        return ph.say("gist", "tests", files=_files(tests, ph, every_test)), False
    if shape == "config-only":
        # Only the configuration files are named as configuration: a changelog beside them is documentation.
        configs, every_config = _key_and_every(facts, lambda f: f.category != "docs")
        if any(f.category == "docs" for f in facts.files.files):
            if not configs:
                return ph.say("gist", "other", files=files), False
            return ph.say("gist", "config_and_docs", files=_files(configs, ph, every_config)), False
        return ph.say("gist", "config", files=files), False
    if shape == "non-source":
        return ph.say("gist", "other", files=files), False
    if typo:
        return ph.say("gist", "typo", files=files), False
    return _source(pr, facts, ph), False


def _title_names_dependency(title: str, changes: list[DependencyChange]) -> bool:
    """The title names a package whose requirement the PR changes (a module by its last name:
    ``quic-go`` of ``github.com/quic-go/quic-go``), or the manifest that declares it (``go.mod``)."""
    return any(_named_in_title(title, c, manifest=True) for c in changes)


def _named_in_title(title: str, change: DependencyChange, *, manifest: bool = False) -> bool:
    parts = [p for p in change.package.split("/") if p and not _MAJOR_SUFFIX.match(p)]
    names = {n for n in (change.package, parts[-1] if parts else "") if len(n) >= 3}
    if manifest:
        names.add(change.path.rsplit("/", 1)[-1])
    if not names:
        return False
    words = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.search(rf"(?<![\w.@/-])(?:{words})(?![\w/-]|\.\w)", title, re.IGNORECASE) is not None


def _dependencies_and_bookkeeping(facts: Facts) -> bool:
    """Declared requirements changed, and every other file is documentation (a changelog
    line) or generated (the lock file the new requirement wrote): the requirements are the change."""
    declared = {c.path for c in facts.dependencies.changes}
    others = [f for f in facts.files.files if f.path not in declared]
    return bool(declared) and files_known(facts) and all(f.category == "docs" or f.generated for f in others)


def _revert(pr: PullRequest, facts: Facts, ph: Phrases) -> str | None:
    ref = _the_reverted(pr, facts)
    if ref is not None:
        same = ref.repository.lower() == pr.repository.lower()
        return ph.say("gist", "revert", ref=f"#{ref.number}" if same else f"{ref.repository}#{ref.number}")
    match = _REVERTED_TITLE.match(pr.title)
    if match:
        return ph.say("gist", "revert_title", title=ph.quote(match.group("title")))
    return None


def _dependencies(changes: list[DependencyChange], ph: Phrases, title: str = "") -> str | None:
    if not changes:
        return None
    # the package the title names first; a Go module's indirect requirements move with the
    # direct one that needs them, and a change of features or markers says less than a version
    # moved: both told last
    ordered = sorted(
        changes,
        key=lambda c: (not _named_in_title(title, c), c.group == "indirect", set(c.kinds) <= _NO_VERSION_MOVE),
    )
    packages = list(dict.fromkeys(c.package for c in ordered))
    direct = list(dict.fromkeys(c.package for c in ordered if c.group != "indirect"))
    if len(direct) == 1 and len(packages) > 1:
        main = [c for c in ordered if c.package == direct[0]]
        text = _one_dependency(main, ph)
        more = "dependency_indirect_more_one" if len(packages) == 2 else "dependency_indirect_more"
        return text + ph.say("gist", more, count=len(packages) - 1)
    if len(packages) > 1:
        named = _named(packages, len(packages))
        first = {p: next(c for c in ordered if c.package == p) for p in named}
        shown = [_package_move(first[p], ph) for p in named]
        return ph.say(
            "gist", "dependencies", count=len(packages), packages=join_more(shown, len(packages) - len(named), ph)
        )
    return _one_dependency(ordered, ph)


def _package_move(change: DependencyChange, ph: Phrases) -> str:
    """```pkg`（`a` → `b`）``: a package named with its versions when both sides have them."""
    name = ph.code(change.package)
    before, after = specifier(change.before, change.package), specifier(change.after, change.package)
    if change.before is None or change.after is None or not before or not after:
        return name
    return ph.say("gist", "dependency_move", package=name, before=ph.code(before), after=ph.code(after))


def _one_dependency(changes: list[DependencyChange], ph: Phrases) -> str:
    moved = next((c for c in changes if c.moved_from), None)
    if moved is not None and (text := _moved(moved, changes, ph)) is not None:
        return text
    change = changes[0]
    if change.before is None:
        return ph.say("gist", "dependency_added", requirement=ph.code((change.after or "").split("#")[0].strip()))
    if change.after is None:
        return ph.say("gist", "dependency_removed", package=ph.code(change.package))
    kind = main_kind(change)
    verb = "relax" if kind in _RELAX else "tighten" if kind in _TIGHTEN else "raise" if kind in _RAISE else "change"
    if {"cap-relaxed", "floor-raised"} <= set(change.kinds):
        verb = "raise"  # the whole range moved up (Cargo's "0.11" to "0.12"): no older release stays
    any_version = ph.say("dependency", "any_version")
    text = ph.say(
        "gist",
        "dependency",
        package=change.package,
        before=ph.code(specifier(change.before, change.package) or any_version),
        after=ph.code(specifier(change.after, change.package) or any_version),
        verb=ph.say("gist", f"verb-{verb}"),
    )
    if set(change.kinds) <= {"pin-changed", "pinned"}:
        return text  # one exact version for another: nothing else is admitted or excluded
    if change.newly_admitted:
        text += ph.say("gist", "dependency_admits", versions=ph.join(change.newly_admitted[:3]))
    if change.newly_excluded:
        text += ph.say("gist", "dependency_excludes", versions=ph.join(change.newly_excluded[:3]))
    return text


def _moved(moved: DependencyChange, changes: list[DependencyChange], ph: Phrases) -> str | None:
    """One package moved (the analyzer's mark): from where to where, and its versions when
    they changed on the way; None when the place it left is not among the changes."""
    left = sorted(
        (c for c in changes if c.after is None and c.path in moved.moved_from),
        key=lambda c: moved.moved_from.index(c.path),  # the likeliest place first
    )
    if not left:
        return None
    if left[0].path == moved.path:
        # between two lists of one manifest: named by their extras or groups
        main = ph.say("dependency", "main_list")
        text = ph.say(
            "gist",
            "dependency_moved_within",
            package=ph.code(moved.package),
            source=_list_name(left[0].group, ph) or main,
            target=_list_name(moved.group, ph) or main,
            path=ph.code(moved.path),
        )
    else:
        text = ph.say(
            "gist",
            "dependency_moved",
            package=ph.code(moved.package),
            source=ph.join([ph.code(c.path) for c in left]),
            target=ph.code(moved.path),
        )
    if not moved.moved_changed:
        return text
    any_version = ph.say("dependency", "any_version")
    return text + ph.say(
        "gist",
        "dependency_moved_versions",
        before=ph.code(specifier(left[0].before, left[0].package) or any_version),
        after=ph.code(specifier(moved.after, moved.package) or any_version),
    )


def _list_name(group: str | None, ph: Phrases) -> str | None:
    """`test` of ``extra:test`` / ``group:test``; None for the main list."""
    return ph.code(group.split(":", 1)[1]) if group and ":" in group else None


def _version(facts: Facts, ph: Phrases) -> str | None:
    """A release: the version constant is the only code that changed."""
    versions = [e for e in facts.symbols.edits if is_version_edit(e)]
    others = [e for e in facts.symbols.edits if e not in versions]
    if not versions or others or facts.symbols.symbols:
        return None
    edit = versions[0]
    return ph.say("gist", "version", before=ph.code(edit.params["before"]), after=ph.code(edit.params["after"]))


def _named(items: list[_Named], total: int) -> list[_Named]:
    """Which of ``total`` things a one-liner names: two, or the first alone beside a count
    (a third name makes a list, not a summary: "`a`, `b` and 3 more" reads as five names)."""
    return items[:MAX_NAMED] if total <= MAX_NAMED else items[:1]


def _shown(names: list[str], ph: Phrases) -> str:
    """The names `_named` keeps, and how many more."""
    kept = _named(names, len(names))
    return join_more(kept, len(names) - len(kept), ph)


def _files(files: list[FileFact], ph: Phrases, among: list[FileFact] | None = None) -> str:
    """The first two of ``files`` (key files, most telling first) and how many more of ``among``
    (every file of that kind, not only the key ones: the count says what the PR changed)."""
    # Two names at most, and one when there are more: "a, b and 4 more files" is a list.
    total = len({f.path for f in files} | {f.path for f in among}) if among is not None else len(files)
    kept = _named(files, total)
    shown = [ph.code(f.path) for f in kept]
    if total > len(shown):
        # zh counts every file (「a、b 等 6 个文件」), en the rest ("a, b and 4 more files")
        rest = total - len(shown)
        key = "more_files_one" if rest == 1 else "more_files"
        return ph.say("gist", key, first=ph.join(shown), count=rest, total=total)
    return ph.join(shown)


def _kind_of(facts: Facts, keep: Callable[[FileFact], bool]) -> list[FileFact]:
    """Every changed file ``keep`` admits, generated ones aside (a lock file is no file of the change)."""
    return [f for f in facts.files.files if keep(f) and not f.generated]


def _key_and_every(facts: Facts, keep: Callable[[FileFact], bool]) -> tuple[list[FileFact], list[FileFact]]:
    """The key files ``keep`` admits (the ones named) and every changed file it admits (the count)."""
    return [f for f in key_files(facts, "full") if keep(f)], _kind_of(facts, keep)


# The title's verb is kept only when the changed symbols bear it out: "Drop NBSP characters"
# edits a comment, it removes no function.
_ACTION_CHANGE = {"add": "added", "remove": "removed"}
_ON_EXISTING = frozenset({"fix", "refactor", "improve", "change"})  # a restore brings back what went
_WHERE_IT_SITS = frozenset({"fix", "improve"})  # verbs that place the change in what they name


def _where_it_sits(symbols: list[SymbolChange], pr: PullRequest) -> list[SymbolChange]:
    """The definitions that hold most of the changed lines, private ones too: "fixes `f`" and
    "improves `f`" say the fix is in `f`, so not a constructor whose one line changed beside
    the method that was rewritten. Ties keep the ranking (public first); [] when no line is placed."""
    counts = {id(s): changed_lines_in(s, pr) for s in symbols}
    most = max(counts.values(), default=0)
    if most == 0:
        return []
    return sorted((s for s in symbols if counts[id(s)] * 2 > most), key=lambda s: -counts[id(s)])


def _source(pr: PullRequest, facts: Facts, ph: Phrases) -> str:
    sources = [f for f in key_files(facts, "full") if f.category == "source"] or key_files(facts, "full")
    in_source = all(f.category == "source" for f in sources)
    every_source = _kind_of(facts, lambda f: f.category == "source" or not in_source) or None
    if only_messages(facts):
        reworded = [f for f in sources if f.messages_only] or sources
        every_reworded = [f for f in every_source or [] if f.messages_only] or every_source
        return ph.say("gist", "messages", files=_files(reworded, ph, every_reworded))
    if only_comments(facts):
        return ph.say("gist", "comments", files=_files(sources, ph, every_source))
    kind = action(clean_title(pr.title))
    # The change is told by the code, not by a file's own tests: the central file is the first
    # whose code changed, and its test module's definitions are left out.
    code = [s for s in ranked_symbols(facts) if not in_test_module(s.name, s.language)]
    coded = {s.path for s in code}
    central = next((f for f in sources if f.path in coded), sources[0] if sources else None)
    symbols = [s for s in code if central is not None and s.path == central.path]
    public = [s for s in symbols if not is_private(s.name, s.language)] or symbols
    if kind in _ACTION_CHANGE:
        borne_out = [s for s in public if s.change == _ACTION_CHANGE[kind]]
        if borne_out or public:
            public, kind = (borne_out, kind) if borne_out else (public, "change")
        elif not all(f.status == _ACTION_CHANGE[kind] for f in sources):
            # Without symbols the files bear the verb: "Adds `pkg/__init__.py`" of an edited file is false.
            kind = "change"
    if kind in _ON_EXISTING and public:
        # "Refactors `f`", "Changes `f`" say `f` was there before: a function the PR adds is
        # added, unless it was moved (the same name removed in another file).
        moved = {short_name(s.name) for s in facts.symbols.symbols if s.change == "removed"}
        existing = [s for s in public if s.change != "added" or short_name(s.name) in moved]
        # what the verb names was changed, not deleted: "fixes `f`" of a removed `f` is false,
        # so the deleted ones are named only when nothing else was changed
        existing = [s for s in existing if s.change != "removed"] or existing
        public, kind = (existing, kind) if existing else (public, "add")
        added = {short_name(s.name) for s in facts.symbols.symbols if s.change == "added"}
        if all(s.change == "removed" and short_name(s.name) not in added for s in public):
            kind = "remove"  # "fixes `f`" of a function the PR deletes (not moves) would be false
    if kind in _WHERE_IT_SITS:
        public = _where_it_sits(symbols, pr) or public
    verb = ph.say("gist", f"action-{kind}")
    if central is not None and public:
        names = [ph.code(s.name) for s in public]
        gist = ph.say(
            "gist",
            "source",
            action=verb,
            module=ph.labels.module(central.module),
            symbols=_shown(names, ph),
        )
    else:
        gist = ph.say("gist", "source_files", action=verb, files=_files(sources, ph, every_source))
    return gist
