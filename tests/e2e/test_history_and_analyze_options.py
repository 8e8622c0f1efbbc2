"""Both history styles and an open ``refs/pull`` PR reach ``list`` and the feed; ``analyze``
is incremental, ``--all`` / ``--since`` / ``--rules`` / ``--versions FILE|URL`` do what they say."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.e2e.driver import Cli
from tests.e2e.pypi_server import serve_pypi
from tests.e2e.repos import (
    FEATURE_PR,
    NIXL_PR,
    OPEN_PR,
    QUANT_PATH,
    RELAX_PR,
    RESTORE_PR,
    STORY_REPO,
    WITHOUT_TESTS_PR,
)

ALL_PRS = set(range(FEATURE_PR, OPEN_PR + 1))
MERGE_COMMIT_PRS = {RESTORE_PR, NIXL_PR}
ATOM = "{http://www.w3.org/2005/Atom}"
CUPY_RELEASES = ["14.0.1", "14.1.0", "14.1.1", "14.2.0", "15.0.0"]


def _analyzed(output: str) -> tuple[int, int]:
    match = re.search(r"analyzed (\d+) pull requests \((\d+) already current", output)
    assert match is not None, output
    return int(match.group(1)), int(match.group(2))


def test_list_and_feed_hold_squash_merge_and_open_prs(run_cli: Cli, story_db: Path) -> None:
    rows = [json.loads(line) for line in run_cli("list", "--json", "--db", story_db).stdout.splitlines()]
    by_number = {row["number"]: row for row in rows}
    assert set(by_number) == ALL_PRS
    assert all(row["repository"] == STORY_REPO for row in rows)
    assert by_number[OPEN_PR]["state"] == "open"
    assert by_number[OPEN_PR]["merged_at"] is None
    for number in ALL_PRS - {OPEN_PR}:
        assert by_number[number]["state"] == "merged", number
    # A merge-commit PR keeps the title from the merge message's body, not "Merge pull request".
    assert by_number[RESTORE_PR]["title"] == "Fix CuPy runtime deps and restore blossom"
    assert by_number[RELAX_PR]["title"] == "Relax the CuPy pin to exclude only 14.1.0"
    table = run_cli("list", "--db", story_db).stdout
    assert f"{STORY_REPO}#{OPEN_PR}" in table
    assert "open" in table

    feed = json.loads(
        run_cli("feed", STORY_REPO, "--lang", "zh", "--format", "json", "--no-llm", "--db", story_db).stdout
    )
    numbers = [item["number"] for item in feed["items"]]
    assert set(numbers) == ALL_PRS
    assert set(numbers) >= MERGE_COMMIT_PRS
    merged = [n for n in numbers if n != OPEN_PR]
    assert merged == sorted(merged, reverse=True)  # newest first

    md = run_cli("feed", STORY_REPO, "--lang", "zh", "--format", "md", "--no-llm", "--db", story_db).stdout
    assert len(re.findall(r"^(?:值得精读|值得速览|不必细读)。", md, re.M)) == len(ALL_PRS)

    atom = run_cli("feed", STORY_REPO, "--format", "atom", "--no-llm", "--db", story_db).stdout
    root = ET.fromstring(atom)
    links = {link.get("href") for link in root.iter(f"{ATOM}link")}
    for number in ALL_PRS:
        assert f"https://github.com/{STORY_REPO}/pull/{number}" in links


def test_analyze_is_incremental_and_all_and_since_select(run_cli: Cli, fresh_db: Path) -> None:
    assert _analyzed(run_cli("analyze", "--db", fresh_db).stdout) == (0, len(ALL_PRS))
    assert _analyzed(run_cli("analyze", "--all", "--db", fresh_db).stdout) == (len(ALL_PRS), 0)

    since = "2024-01-01T20:30"
    listed = {
        json.loads(line)["number"]
        for line in run_cli("list", "--json", "--since", since, "--db", fresh_db).stdout.splitlines()
    }
    assert listed == {WITHOUT_TESTS_PR, OPEN_PR}
    assert _analyzed(run_cli("analyze", "--since", since, "--db", fresh_db).stdout) == (0, len(listed))
    assert _analyzed(run_cli("analyze", "--all", "--since", since, "--db", fresh_db).stdout) == (len(listed), 0)


def test_rules_file_overrides_a_module(run_cli: Cli, fresh_db: Path, tmp_path: Path) -> None:
    rules = tmp_path / "infer-rules.toml"
    rules.write_text(
        '[[rule]]\npattern = "infer/quant/**"\nmodule = "quantization"\n\n'
        '[module_names_zh]\n"quantization" = "量化模块"\n',
        encoding="utf-8",
    )
    before = run_cli.facts(f"{STORY_REPO}#{RESTORE_PR}", fresh_db)
    assert {f["path"]: f["module"] for f in before["files"]["files"]}[QUANT_PATH] != "quantization"

    analyzed, _ = _analyzed(run_cli("analyze", "--rules", rules, "--db", fresh_db).stdout)
    assert analyzed == len(ALL_PRS)  # new rules make every stored fact stale
    after = run_cli.facts(f"{STORY_REPO}#{RESTORE_PR}", fresh_db)
    modules = {f["path"]: f["module"] for f in after["files"]["files"]}
    assert modules[QUANT_PATH] == "quantization"
    assert modules["setup.py"] == {f["path"]: f["module"] for f in before["files"]["files"]}["setup.py"]
    assert "quantization" in after["files"]["modules"]


def test_versions_file_adds_released_versions(run_cli: Cli, fresh_db: Path, tmp_path: Path) -> None:
    versions = tmp_path / "versions.json"
    versions.write_text(json.dumps({"CuPy_CUDA13x": CUPY_RELEASES, "nixl": ["1.0.0", "1.1.0"]}), encoding="utf-8")
    run_cli("analyze", "--versions", versions, "--db", fresh_db)
    _assert_admits_released(run_cli.facts(f"{STORY_REPO}#{RELAX_PR}", fresh_db))


def test_versions_url_asks_a_pypi_style_index(run_cli: Cli, fresh_db: Path) -> None:
    with serve_pypi({"cupy-cuda13x": [*CUPY_RELEASES, "not-a-version"]}) as index:
        out = run_cli("analyze", "--versions", index.base_url, "--db", fresh_db).stdout
    with_dependencies = {n for n in ALL_PRS if run_cli.facts(f"{STORY_REPO}#{n}", fresh_db)["dependencies"]["changes"]}
    assert {RELAX_PR, RESTORE_PR, NIXL_PR} <= with_dependencies
    # Each PR counted once: the ones that change dependencies are redone, the rest current.
    assert _analyzed(out) == (len(with_dependencies), len(ALL_PRS) - len(with_dependencies))
    assert "/pypi/cupy-cuda13x/json" in index.requests
    assert all(re.fullmatch(r"/pypi/[a-z0-9._-]+/json", path) for path in index.requests), index.requests
    assert len(index.requests) == len(set(index.requests))  # one request per package
    _assert_admits_released(run_cli.facts(f"{STORY_REPO}#{RELAX_PR}", fresh_db))


def test_versions_url_respects_since(run_cli: Cli, fresh_db: Path) -> None:
    since = "2024-01-01T14:30"
    listed = run_cli("list", "--json", "--since", since, "--db", fresh_db).stdout.splitlines()
    window = {json.loads(line)["number"] for line in listed}
    assert RELAX_PR in window
    assert RESTORE_PR not in window
    in_window = {n for n in window if run_cli.facts(f"{STORY_REPO}#{n}", fresh_db)["dependencies"]["changes"]}
    with serve_pypi({"cupy-cuda13x": CUPY_RELEASES}) as index:
        out = run_cli("analyze", "--since", since, "--versions", index.base_url, "--db", fresh_db).stdout
    assert _analyzed(out) == (len(in_window), len(window) - len(in_window))
    _assert_admits_released(run_cli.facts(f"{STORY_REPO}#{RELAX_PR}", fresh_db))


def _assert_admits_released(facts: dict[str, object]) -> None:
    dependencies = facts["dependencies"]
    assert isinstance(dependencies, dict)
    [cupy] = [c for c in dependencies["changes"] if c["package"] == "cupy-cuda13x"]
    assert {"14.1.1", "14.2.0", "15.0.0"} <= set(cupy["newly_admitted"])
    assert "14.1.0" not in cupy["newly_admitted"]
    assert "14.0.1" not in cupy["newly_admitted"]
