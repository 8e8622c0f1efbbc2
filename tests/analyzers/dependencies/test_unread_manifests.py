"""Manifests of other ecosystems that prdigest does not read (Gemfile, composer.json, ...; go.mod,
Cargo.toml and package.json are read, see test_ecosystem_manifests) are dependency config: a
change to one is recorded as unread, and the report says so instead of "No direct effect on
users", which would rest on nothing read. Seen on a Go history: a bot's go.mod bump was classed
"other, core logic" and told as reaching no user. On a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.dependencies.sources import READ_MANIFESTS, UNREAD_MANIFESTS, unread_manifest
from prdigest.analyzers.file_rules import rules_for
from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/webkit"
GEM_BUMP, COMPOSER_BUMP, README = 1, 2, 3
GEMFILE = 'source "https://rubygems.org"\n\ngem "rails", "{version}"\n'
COMPOSER = '{{\n  "name": "site/app",\n  "require": {{\n    "monolog/monolog": "{version}"\n  }}\n}}\n'


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("webkit")
    repo = GitRepoBuilder(root / "repo")
    files = {
        "README.md": "# webkit\n",
        "Gemfile": GEMFILE.format(version="~> 7.0.4"),
        "site/composer.json": COMPOSER.format(version="^2.9"),
    }
    repo.commit(files, "Initial")
    repo.squash_pr(GEM_BUMP, "Bump rails from 7.0.4 to 7.0.8", {"Gemfile": GEMFILE.format(version="~> 7.0.8")})
    repo.squash_pr(COMPOSER_BUMP, "Bump monolog", {"site/composer.json": COMPOSER.format(version="^3.5")})
    repo.squash_pr(README, "Describe the site", {"README.md": "# webkit\n\nA small web kit.\n"})
    return analyzed_history(repo, REPO, root / "webkit.db")


@pytest.mark.parametrize(("number", "path"), [(GEM_BUMP, "Gemfile"), (COMPOSER_BUMP, "site/composer.json")])
def test_a_manifest_not_read_is_said_to_be_unread(store: Store, number: int, path: str) -> None:
    facts = stored_facts(store, REPO, number)
    (file,) = facts.files.files
    assert (file.category, file.type, file.module) == ("config", "configuration", "dependency config")
    assert [(f.kind, f.paths) for f in facts.dependencies.findings] == [("unread-format", [path])]
    assert facts.dependencies.changes == []  # nothing is claimed of what it declares
    for lang in ("en", "zh"):
        report = report_format("md").render(report_for(store, REPO, number, CATALOG.lang(lang), "full", None))
        assert ("in a format prdigest does not read" if lang == "en" else "不解析这种格式") in report
        assert "No direct effect on users" not in report
        assert "对用户无直接影响" not in report


def test_other_changes_still_say_they_reach_no_user(store: Store) -> None:
    facts = stored_facts(store, REPO, README)
    assert facts.dependencies.findings == []
    report = report_format("md").render(report_for(store, REPO, README, CATALOG.lang("en"), "full", None))
    assert "No direct effect on users" in report


@pytest.mark.parametrize("name", sorted(UNREAD_MANIFESTS | READ_MANIFESTS | {"widgets.gemspec"}))
def test_the_file_rules_and_the_dependencies_analyzer_name_the_same_manifests(name: str) -> None:
    # Two lists of one thing: the rules class a manifest, the analyzer reads it or says it was not read.
    for path in (name, f"site/{name}"):
        found = rules_for(None).classify(path)
        assert (found.category, found.module) == ("config", "dependency config"), path
        assert unread_manifest(path) == (name not in READ_MANIFESTS)
