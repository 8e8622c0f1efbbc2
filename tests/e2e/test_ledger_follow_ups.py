"""A dependency change after another PR's change of the same requirement follows it up when
it names that PR or exactly undoes its change (the ledger proves it; issue 25)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/ledger"


def _relations(facts: dict[str, object], number: int) -> list[str]:
    refs = facts["references"]["references"]  # type: ignore[index]
    return [r["relation"] for r in refs if r["number"] == number]


def test_named_predecessor_and_exact_undo_are_follow_ups(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"requirements.txt": "numpy>=1.26\nrequests\n"}, "Initial commit")
    repo.squash_pr(
        40, "Pin numpy below 2.1", {"requirements.txt": "numpy>=1.26,<2.1\nrequests\n"}, body="2.1 breaks us."
    )
    repo.squash_pr(41, "Add a README", {"README.md": "# x\n"}, body="Unrelated; see #40 for the pin.")
    repo.squash_pr(
        42,
        "Allow numpy 2.1.1",
        {"requirements.txt": "numpy>=1.26,!=2.1.0\nrequests\n"},
        body="#40 capped numpy below 2.1 for the import crash; 2.1.1 fixed it upstream.",
    )
    repo.squash_pr(43, "Cap requests", {"requirements.txt": "numpy>=1.26,!=2.1.0\nrequests<3\n"})
    repo.squash_pr(44, "Drop the requests cap", {"requirements.txt": "numpy>=1.26,!=2.1.0\nrequests\n"})
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    relax = run.facts(f"{REPO}#42", db)
    assert _relations(relax, 40) == ["follow-up-to"]  # named, and #40 made the previous change
    assert [f["number"] for f in relax["lineage"]["follows_up"]] == [40]
    assert [f["number"] for f in run.facts(f"{REPO}#40", db)["lineage"]["followed_up_by"]] == [42]
    # #41 names #40 too but changes no requirement: still a mention.
    assert _relations(run.facts(f"{REPO}#41", db), 40) == ["mentions"]
    undo = run.facts(f"{REPO}#44", db)
    (ref,) = [r for r in undo["references"]["references"] if r["number"] == 43]
    assert (ref["relation"], ref["where"]) == ("follow-up-to", "ledger")
    assert "requests" in ref["evidence"]
    assert "#42 follows up on this PR" in run("report", f"{REPO}#40", "--db", db, "--lang", "en").stdout
    # The pass made again on every analysis finds the same, told the same way.
    before = {n: run.facts(f"{REPO}#{n}", db) for n in (40, 42, 43, 44)}
    run("analyze", "--repo", REPO, "--db", db, "--all")
    for number, facts in before.items():
        again = run.facts(f"{REPO}#{number}", db)
        assert (again["references"], again.get("lineage")) == (facts["references"], facts.get("lineage"))
    assert [f["matched_by"] for f in before[42]["lineage"]["follows_up"]] == ["dependency"]
