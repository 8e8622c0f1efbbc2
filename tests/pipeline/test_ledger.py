"""The dependency ledger through the use cases: neighbours in reports, `prdigest deps`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from tests.helpers.deps_history import REPO, deps_store

from prdigest.cli.main import cli
from prdigest.pipeline.ledger import ledger_links, package_history, pr_ledger_entries, prs_ledger_entries
from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.store.facts_store import get_facts
from prdigest.words import CATALOG


def test_each_dependency_change_names_its_predecessor_and_successor(tmp_path: Path, store: Store) -> None:
    deps_store(tmp_path / "repo", store)
    facts = get_facts(store, REPO, 3)
    assert facts is not None
    (link,) = ledger_links(store, REPO, 3, facts)
    assert link.package == "cupy-cuda13x"
    assert link.previous is not None
    assert link.previous.number == 2
    assert link.next is None

    first = report_for(store, REPO, 2, CATALOG.lang("en"), "full", None)
    (item,) = [i for i in first.dependency_history if i.package == "cupy-cuda13x"]
    assert item.previous is None
    assert item.next is not None
    assert item.next.number == 3
    assert item.next.requirement == "cupy-cuda13x!=14.1.0"
    assert item.text == (
        "cupy-cuda13x in requirements/kv.txt: added `<14.1.0`; "
        "before: no earlier change by a synced PR; after: `!=14.1.0` (#3)"
    )
    markdown = report_format("md").render(first)
    assert "## Dependency history" in markdown
    assert "`!=14.1.0` (#3)" in markdown
    html = report_format("html").render(first)
    assert "<code>!=14.1.0</code> (#3)" in html

    removal = report_for(store, REPO, 4, CATALOG.lang("zh"), "full", None)
    cu12 = next(i for i in removal.dependency_history if i.package == "nixl-cu12")
    assert cu12.previous is not None
    assert cu12.previous.number == 1
    assert "#1" in cu12.text
    assert "已同步的 PR 中没有更晚的变更" in cu12.text


def test_history_of_one_package_and_the_deps_command(tmp_path: Path, store: Store) -> None:
    deps_store(tmp_path / "repo", store)
    history = package_history(store, REPO, "Nixl_CU13")
    assert history.package == "nixl-cu13"
    assert [e.number for e in history.entries] == [1, 4]
    db = store.url
    runner = CliRunner()
    text = runner.invoke(cli, ["deps", REPO, "cupy-cuda13x", "--db", db])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0] == "cupy-cuda13x in example-org/kv: 2 changes, in merge order"
    assert lines[1].startswith("#2 ")
    assert "(none) -> <14.1.0 (added; unknown)" in lines[1]
    assert lines[2].startswith("#3 ")
    assert "<14.1.0 -> !=14.1.0 (cap-to-exclusion; unknown)" in lines[2]
    as_json = json.loads(runner.invoke(cli, ["deps", REPO, "torch", "--json", "--db", db]).output)
    assert [(e["number"], e["condition"]) for e in as_json["entries"]] == [(8, "RELEASE"), (8, "not RELEASE")]
    listing = json.loads(runner.invoke(cli, ["deps", REPO, "--json", "--db", db]).output)
    assert {"package": "cupy-cuda13x", "changes": 2, "pull_requests": 2} in listing["packages"]
    none = runner.invoke(cli, ["deps", REPO, "left-pad", "--db", db])
    assert none.output.strip() == f"no changes of left-pad recorded for {REPO}"


def test_several_prs_ledgers_read_at_once_are_each_prs_own(tmp_path: Path, store: Store) -> None:
    deps_store(tmp_path / "repo", store)
    numbers = [s.number for s in store.list_prs(repository=REPO)]
    every = [get_facts(store, REPO, number) for number in numbers]
    facts = [one for one in every if one is not None]
    assert len(facts) == len(numbers) >= 4
    alone = [pr_ledger_entries(store, REPO, one) for one in facts]
    assert any(alone)  # PRs with dependency changes
    assert not all(alone)  # and PRs without
    assert prs_ledger_entries(store, REPO, facts) == alone
    assert prs_ledger_entries(store, REPO, facts[::-1]) == alone[::-1]
    assert prs_ledger_entries(store, REPO, []) == []
