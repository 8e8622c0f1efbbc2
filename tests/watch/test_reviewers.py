"""A watched person is matched as a reviewer too: GitHub bundles with reviews, imported and
analyzed through the CLI, then read in a digest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.cli import run_main

REPO = "example-org/reviews"


def _bundle(number: int, title: str, author: str, reviews: list[tuple[str, str]]) -> dict[str, Any]:
    day = f"2024-05-{number:02d}T10:00:00Z"
    return {
        "format_version": 1,
        "pull": {
            "number": number,
            "title": title,
            "body": "Change the parser.",
            "state": "closed",
            "user": {"login": author, "type": "User"},
            "created_at": day,
            "updated_at": day,
            "merged_at": day,
            "html_url": f"https://github.com/{REPO}/pull/{number}",
            "base": {"ref": "main", "sha": "a" * 40, "repo": {"full_name": REPO}},
            "head": {"ref": f"b{number}", "sha": f"{number:x}" * 40},
        },
        "files": [
            {
                "filename": "src/parser.py",
                "status": "modified",
                "additions": 1,
                "deletions": 1,
                "changes": 2,
                "patch": f"@@ -1,2 +1,2 @@\n def parse(text):\n-    return text\n+    return text.strip() # {number}\n",
            }
        ],
        "commits": [],
        "reviews": [
            {
                "id": number * 10 + index,
                "user": {"login": login, "type": "User"},
                "body": "",
                "state": state,
                "submitted_at": day,
                "commit_id": f"{number:x}" * 40,
            }
            for index, (login, state) in enumerate(reviews)
        ],
        "review_comments": [],
        "issue_comments": [],
    }


def _ok(*argv: str) -> str:
    code, out, err = run_main(*argv)
    assert code == 0, err
    return out


def test_reviewed_by_the_watched_person(tmp_path: Path) -> None:
    bundles = [
        _bundle(1, "Strip the input", "alice", [("erin", "APPROVED")]),
        _bundle(2, "Strip only the end", "bob", [("frank", "CHANGES_REQUESTED"), ("Erin", "CHANGES_REQUESTED")]),
        _bundle(3, "Strip nothing", "carol", [("frank", "APPROVED")]),
    ]
    paths = []
    for bundle in bundles:
        path = tmp_path / f"{bundle['pull']['number']}.json"
        path.write_text(json.dumps(bundle), encoding="utf-8")
        paths.append(str(path))
    db = str(tmp_path / "reviews.db")
    _ok("import", *paths, "--db", db)
    _ok("analyze", "--repo", REPO, "--all", "--db", db)
    _ok("watch", "add", "erin", "--repo", REPO, "--author", "erin", "--lang", "en", "--db", db)
    body = json.loads(_ok("digest", "erin", "--format", "json", "--db", db))
    assert [(item["number"], item["why"]) for item in body["items"]] == [
        (2, ["reviewed by Erin"]),
        (1, ["reviewed by erin"]),
    ]
    assert body["items"][0]["url"] == f"https://github.com/{REPO}/pull/2"
