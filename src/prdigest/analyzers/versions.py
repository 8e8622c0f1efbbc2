"""The default analyzers' versions, declared without importing them, and the facts cache key.

Deciding whether stored facts are current needs only these strings, not the analyzers: their
modules compile hundreds of patterns and build parsers, most of the start-up of a
``prdigest analyze`` with nothing new and of a ``prdigest report``. Standard library only, so
those paths stay light. `tests/analyzers/test_versions.py` checks that this table equals the
real registry's (`prdigest.analyzers.defaults`) and that `FACTS_SCHEMA` equals
`prdigest.models.facts.FACTS_SCHEMA_VERSION`. Each analyzer reads its version from here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

# Equal to prdigest.models.facts.FACTS_SCHEMA_VERSION (not imported: that module loads pydantic).
FACTS_SCHEMA = 2

# name -> version of every analyzer in DEFAULT_ANALYZER_MODULES: the one place a version is
# bumped (each analyzer reads its own from here). Bump it when its output can change.
# references v6: conditionals, "introduced in" (v7: a partial fix is no fix); tests_ci v5: one
# typo rule; verdict v6: one typo rule, code lines read as syntax, caps read by packaging (v7: an
# exact pin worded as a pin); dependencies v4: requirements scopes; risks v6: a capped or pinned
# requirement moved from another file is no new lock. files v3, tests_ci v6, verdict v8: a
# change that rewords only messages (analyzers/message_text) owes no test and is no core logic.
# symbols v4: a parameter's default changed (`default-changed`); verdict v9: a public one counts.
# dependencies v5 / risks v7: a move marked once (`moved_from`, `moved_changed`), and the risk
# rule reads that mark. tests_ci v7: a deleted source file owes no regression test (v8: CI action
# versions). references v8, tests_ci v9: a squashed branch's revert of its own step is no revert.
# symbols v5: "now raises X" only when the function raised X nowhere before (handlers alike).
# files v4, tests_ci v10, risks v8: docs source folders (docs_src/) are examples, "<x>_tests/"
# folders are tests (risks reads examples as it reads tests: no code rule, no duplicated value);
# verdict v10: a closure or a private class's member is no public name, "no discussion" only
# where reviews were fetched. symbols v6 / verdict v11: one default changed alike in several
# functions of a file is one edit (with its count). tests_ci v11 / verdict v12: one-line imports
# put in another order change no behaviour. symbols v7: a modified symbol changed only in its
# docstrings or comments is marked `docs_only`. risks v9: a removed closure or a member of a
# private name is no public API removed. risks v10 / verdict v13: a name is public by its
# language's rule (Go: an upper-case initial), and none is where a keyword decides (pub, export);
# verdict v13 also: a revert among a merge's many commits is not sized by the merge's diff.
# files v5 / dependencies v6: build output (dist/, source maps) is generated, JavaScript tool
# settings are build or repo config; other ecosystems' manifests (go.mod, package.json, Cargo.toml, ...)
# are dependency config, and a change to one is recorded as unread (finding "unread-format").
# verdict v13 also: a title that names a bug class without claiming a fix is not told as a fix
# ("fix.named"), and a test/docs/ci/style-typed title's class words weigh nothing. risks v10
# also: a JSON key (a package.json dependency's name) is no value written twice, and the code
# rules do not read generated files (bundles, source maps, lock files) nor type declarations,
# and `eval`/`exec` are sensitive only when called bare (not `model.eval()`, `regexp.exec(s)`).
# symbols v8: Rust and JavaScript/TypeScript definitions carry `exported` (`pub`, `export`), by
# which their names are public (risks, verdict). tests_ci v12: a Rust source file's own test
# module (`mod tests`) changed is tests changed (`in_file_tests`), so no missing test is claimed,
# and (verdict v13) its lines are not core logic; symbols v9: no code edit, key-code excerpt or
# file weight is read from it. files v6: test code kept in the source tree (`test_utils/`,
# `test_helpers`) is tests, not core logic. symbols v10: a JavaScript/TypeScript function
# assigned to a member (`module.exports = function f`, `A.prototype.m = …`) is a definition.
# coverage v2 / verdict v14: one gap vocabulary (a number collision is a gap the facts hold); a
# part of the PR in another commit of the same number and title makes the file list partial.
# coverage v3: missing objects say why no file is listed (no second 'file-list-missing' gap).
# references v9: the commit blocks of other PRs embedded in a squash body are not read.
# references v10: "Fixes: #12" is one clause; a fix title's trailing "(#N)" is what it fixes.
# references v11: "Fixing #12" fixes where this PR is the gerund's subject; a release branch's
# title ("[2.x] Fix crash (#431)") follows up the PR it ports.
# symbols v14: what a Rust test module holds beside definitions (a macro of test cases) is no edit.
# files v7: a Rust `tests.rs` / `test.rs` (the file of a `mod tests;`) is test code.
# references v12-15: a squash body's block whose subject is the PR's title is its own commit (its
# number read as the title's); "#1…" is cut short; "OWNER#N" / "NAME#N" of the own repository;
# "forgotten in #N" follows up, "recreate #N" restores; "solves/implements #N" fix it; "replace"
# supersedes only the number right after it.
# tests_ci v13: a change that only adds entries to a table of names or patterns owes no test.
# symbols v11: a changed regex widens or narrows by what the two patterns match (sampled), not
# by their length. symbols v12: a function's calls made as statements (a call removed from a
# constructor), a shell script's commands in order, a CI file's steps that now run another command.
# risks v11 / dependencies v7: no template that can contradict its line (a moved name is moved, a
# probe in a message or comment probes nothing, a comment holds no secret, a pin written twice is
# a pin (`duplicated-pin`), an image names a requirements file by its path, "Reverting ..." is no
# revert title). symbols v13: a guard is replaced by a check only where the check's branches
# import its module; an import re-indented into a block of its `try` is still guarded; an
# assertion re-spaced or re-wrapped is neither removed nor added; a call moved into an
# expression (`ok = check(x)`) is still made; a CI step only renamed is neither added nor removed.
# dependencies v8 / risks v12: go.mod, Cargo.toml and package.json are read for what they require
# (source kinds "go", "cargo", "npm": Go's minimum versions, Cargo's caret default, npm ranges),
# their other manifests stay unread; a requirement's version part is read without its package name.
# tests_ci v14 / files v8 (key files): a lock file changed beside CI files makes no CI-only PR.
# verdict v17 / tests_ci v14: a C-family line "*dest = x" dereferences a pointer, no comment line.
# files v9: a Rust crate's name is its outermost manifest's (a test fixture's Cargo.toml of the
# same name took it, by a set's order, so a file's importers changed from run to run).
# symbols v15: a closure run in place (`defer func() { … }()`) is no call of a name.
# references v16: "Fix PR#1006", "issue#1275": a kind word glued to the number is this repository's.
# symbols v16: a Python definition changed only in its type annotations is marked typing_only.
# files v10: "dev-requirements.txt", "test_requirements.in": a requirements list by any prefix is dependency config.
# files v11: a folder only tests import, which imports a test framework and the tree, is test support.
# references v17: a news fragment the PR adds (`changelog/1234.bugfix.rst`) mentions the number it is named by.
DEFAULT_VERSIONS: Mapping[str, str] = {
    "coverage": "3",
    "files": "11",
    "tests_ci": "14",
    "dependencies": "8",
    "symbols": "16",
    "references": "17",
    "discussion": "3",
    "risks": "12",
    "verdict": "17",
}

# How a fix's changed lines are blamed (`Facts.origins`, pipeline/origins.py), apart from the
# analyzers: facts blamed by an older way are blamed again by `analyze`, without re-analysis.
# 1: plain blame; 2: lines a commit only moved or re-wrapped blamed again past it; 3: the root
# cause read from them counts every blamed line in `of_lines` (the central file still decides),
# so stored lineage is redone with the origins.
ORIGINS_VERSION = 3
# How stored facts show their origins: any, and those blamed by this version (its first field).
ORIGINS_MARK = '"origins":{'
CURRENT_ORIGINS_MARK = f'"origins":{{"version":{ORIGINS_VERSION},'


def versions_digest(versions: Mapping[str, str]) -> str:
    """The part of a facts cache key that names the analyzers (and the facts schema)."""
    text = json.dumps({"schema": FACTS_SCHEMA, **versions}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def facts_key(record_hash: str, versions: Mapping[str, str] = DEFAULT_VERSIONS) -> str:
    """The cache key of facts made from a record (its hash) by analyzers of these versions."""
    return f"{record_hash[:32]}:{versions_digest(versions)}"
