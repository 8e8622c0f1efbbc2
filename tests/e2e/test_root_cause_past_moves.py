"""A fix's root cause is the PR that wrote the lines it changes, not a later PR that only moved
them to another file or re-wrapped them (its own diff proves it); a PR that put statements in
another order within a file did change them (issue 25)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.versions import ORIGINS_VERSION

REPO = "example-org/moves"

HELPERS = "import os\n\n\ndef root():\n    return os.getcwd()\n"
COMPUTE = """def compute(values, limit):
    total = 0
    for value in values:
        if value > limit:
            total += value * 2
        else:
            total -= value
    return total
"""


def _indent(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(True))


def _moved_history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# calc\n"}, "Initial commit")
    repo.squash_pr(1, "Add compute", {"calc/helpers.py": HELPERS + "\n\n" + COMPUTE})
    # #2 moves compute into a class of a new module (re-indented, `self` added).
    method = _indent(COMPUTE).replace("(values, limit)", "(self, values, limit)")
    repo.squash_pr(
        2, "Move compute into Calculator", {"calc/helpers.py": HELPERS, "calc/core.py": "class Calculator:\n" + method}
    )
    fixed = method.replace("if value > limit:", "if value >= limit:").replace(
        "total += value * 2", "total += value * 3"
    )
    repo.squash_pr(3, "Fix the limit of compute", {"calc/core.py": "class Calculator:\n" + fixed})
    return repo


def _analyzed(tmp_path: Path, history: GitRepoBuilder) -> tuple[Cli, Path]:
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", history.path, "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    return run, db


def test_lines_moved_to_another_file_are_blamed_on_the_pr_that_wrote_them(tmp_path: Path) -> None:
    history = _moved_history(tmp_path / "repo")
    # What plain blame says of the two changed lines: too few to follow the move, so #2's.
    plain = history.git("blame", "-w", "-M", "-C", "-L", "5,+2", "HEAD~1", "--", "calc/core.py")
    assert {line.split()[0] for line in plain.splitlines()} == {history.git("rev-parse", "--short=8", "HEAD~1").strip()}
    run, db = _analyzed(tmp_path, history)
    fix = run.facts(f"{REPO}#3", db)
    (origin,) = fix["origins"]["origins"]
    assert (origin["number"], origin["lines"], origin["path"], origin["moved_by_number"]) == (1, 2, "calc/core.py", 2)
    (cause,) = fix["lineage"]["root_cause_in"]
    assert (cause["number"], cause["lines"], cause["of_lines"]) == (1, 2, 2)
    assert "fixed_by" not in run.facts(f"{REPO}#2", db).get("lineage", {})
    assert "The root cause lies in #1" in run("report", f"{REPO}#3", "--db", db, "--lang", "en").stdout


def test_rewrapped_lines_are_blamed_on_the_pr_that_wrote_them(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# fmt\n"}, "Initial commit")
    wide = "def send(client, url):\n    return client.request(method='GET', url=url, timeout=5, retries=0)\n"
    repo.squash_pr(1, "Add send", {"net.py": wide})
    wrapped = (
        "def send(client, url):\n    return client.request(\n"
        "        method='GET',\n        url=url,\n        timeout=5,\n        retries=0\n    )\n"
    )
    repo.squash_pr(2, "Reformat net.py", {"net.py": wrapped})
    fixed = wrapped.replace("timeout=5,\n        retries=0", "timeout=30,\n        retries=3")
    repo.squash_pr(3, "Fix send giving up at once", {"net.py": fixed})
    run, db = _analyzed(tmp_path, repo)
    fix = run.facts(f"{REPO}#3", db)
    assert [(o["number"], o["lines"], o["moved_by_number"]) for o in fix["origins"]["origins"]] == [(1, 2, 2)]
    assert [c["number"] for c in fix["lineage"]["root_cause_in"]] == [1]


def test_statements_put_in_another_order_within_a_file_were_changed_there(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# prep\n"}, "Initial commit")
    load, cast, check, wrap = (f"    model = {step}(model)\n" for step in ("load", "cast", "check", "wrap"))
    shard = "    model = shard(model, mesh)\n    model = tie(model)\n"
    head, tail = "def prepare(model, mesh):\n", "    return model\n"
    repo.squash_pr(1, "Add prepare", {"prep.py": head + load + shard + cast + check + wrap + tail})
    # #2 shards after the cast (its diff moves the two shard lines down): that order is the
    # change a later fix of the shard line corrects, though the lines are #1's words.
    reordered = head + load + cast + check + wrap + shard + tail
    repo.squash_pr(2, "Shard after the cast", {"prep.py": reordered})
    assert "+    model = shard(model, mesh)" in repo.git("show", "HEAD")
    repo.squash_pr(3, "Fix the sharding", {"prep.py": reordered.replace("shard(model, mesh)", "shard(model, mesh, 2)")})
    run, db = _analyzed(tmp_path, repo)
    fix = run.facts(f"{REPO}#3", db)
    assert [(o["number"], o.get("moved_by")) for o in fix["origins"]["origins"]] == [(2, None)]


def test_fixes_blamed_the_old_way_are_blamed_again_by_analyze(tmp_path: Path) -> None:
    history = _moved_history(tmp_path / "repo")
    run, db = _analyzed(tmp_path, history)
    # Facts blamed before moves were followed: version 1, the mover as the writer.
    with sqlite3.connect(db) as connection:
        (body,) = connection.execute("SELECT body FROM facts WHERE body LIKE '%\"origins\":{%'").fetchone()
        facts = json.loads(body)
        facts["origins"]["version"] = 1
        for origin in facts["origins"]["origins"]:
            origin["number"], origin["commit"] = origin.pop("moved_by_number"), origin.pop("moved_by")
        connection.execute("UPDATE facts SET body = ? WHERE body = ?", (json.dumps(facts, separators=(",", ":")), body))
    again = run("analyze", "--repo", REPO, "--db", db)
    assert "blamed the changed lines of 1 fix" in again.stdout
    origins = run.facts(f"{REPO}#3", db)["origins"]
    assert origins["version"] == ORIGINS_VERSION
    assert [(o["number"], o["moved_by_number"]) for o in origins["origins"]] == [(1, 2)]
    assert "blamed" not in run("analyze", "--repo", REPO, "--db", db).stdout  # current now
