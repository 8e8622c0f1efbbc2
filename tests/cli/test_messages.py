"""Counts in messages agree with their nouns, and no message says "at at"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import run_main

from prdigest.cli.plural import plural

BUNDLE = {
    "format_version": 1,
    "repository": "o/r",
    "pull": {
        "number": 1,
        "title": "t",
        "state": "open",
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": "2024-01-02T00:00:00Z",
        "base": {"ref": "main", "sha": "a" * 40},
        "head": {"ref": "x", "sha": "b" * 40},
    },
    "files": [],
    "commits": [],
    "reviews": [],
    "review_comments": [],
    "issue_comments": [],
}


def test_plural() -> None:
    assert [plural(n, "bundle") for n in (0, 1, 2)] == ["0 bundles", "1 bundle", "2 bundles"]
    assert plural(1, "file patch", "file patches") == "1 file patch"
    assert plural(3, "file patch", "file patches") == "3 file patches"


def test_one_bundle_one_pull_request(tmp_path: Path) -> None:
    bundle = tmp_path / "one.json"
    bundle.write_text(json.dumps(BUNDLE), encoding="utf-8")
    db = str(tmp_path / "p.db")
    assert run_main("import", str(bundle), "--db", db)[1] == "imported 1 bundle: 1 new, 0 updated, 0 unchanged\n"
    assert run_main("analyze", "--db", db)[1] == "analyzed 1 pull request (0 already current)\n"


def test_a_json_error_says_where_once(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format_version": 1, "pull": {"title": "abc', encoding="utf-8")
    code, _out, err = run_main("import", str(broken), "--db", str(tmp_path / "p.db"))
    assert code == 3
    assert err == (
        f"error: {broken}: $: not valid JSON: Unterminated string starting at (line 1, column 41) (nothing imported)\n"
    )
    assert "at at" not in err
