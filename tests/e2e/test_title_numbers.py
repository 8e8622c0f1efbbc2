"""A number a title names without a word for how ("Add the missing changelog link (#40)") is
told by the history: an earlier merged PR is followed up, a smaller number that no PR of the
history has is the issue the PR addresses, anything else stays a mention (issue 25)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/titles"


def _ref(facts: dict[str, object], number: int) -> tuple[str, str]:
    refs = facts["references"]["references"]  # type: ignore[index]
    (ref,) = [r for r in refs if r["number"] == number]
    return ref["relation"], ref["where"]


def test_a_titles_number_is_told_by_the_history(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# titles\n", "CHANGES.md": "# Changes\n"}, "Initial commit")
    repo.squash_pr(40, "Add a retry option", {"src/retry.py": "def retry(times=3):\n    return times\n"})
    # #40 is an earlier merged PR: completing its changelog entry follows it up.
    repo.squash_pr(44, "Add the missing changelog line (#40)", {"CHANGES.md": "# Changes\n\n- retry option\n"})
    # #31 is no PR of this history, and smaller: the issue this PR was opened for.
    repo.squash_pr(
        45, "Allow a zero retry count (#31)", {"src/retry.py": "def retry(times=3):\n    return max(times, 0)\n"}
    )
    # #90 is larger than the PR itself and no PR: nothing can be told of it.
    repo.squash_pr(46, "Document retries (#90)", {"README.md": "# titles\n\nRetries: see src/retry.py\n"})
    repo.squash_pr(50, "Explain retries", {"docs/en/retry.md": "# Retries\n\nThree by default.\n"})
    repo.squash_pr(51, "German docs for retries", {"docs/de/retry.md": "# Wiederholungen\n"}, body="Sync with #50.")
    # Names #50 and rewrites the line #50 wrote (git blame): a follow-up.
    repo.squash_pr(52, "Reword the retry docs", {"docs/en/retry.md": "# Retries\n\nThree.\n"}, body="See #50.")
    # Names #50 and only adds to its file: nothing of #50's is changed, no telling.
    repo.squash_pr(
        54, "Add a retry example", {"docs/en/retry.md": "# Retries\n\nThree.\n\n    retry(2)\n"}, body="See #50."
    )
    repo.squash_pr(
        53,
        "Clamp negative retries",
        {"src/retry.py": "def retry(times=3):\n    return max(int(times), 0)\n"},
        body="Fixes #45, which let a float through.",
    )
    # A one-commit branch's squash body: its block is the title with the number.
    repo.squash_pr(
        55,
        "feat(retry): add a retry limit",
        {"src/limit.py": "LIMIT = 10\n"},
        body="* feat: add a retry limit (#33)\r\n\r\n"
        "* Fix incorrect import path (#40)\r\n\r\nFixes #39\r\n\r\n* Apply it",
    )
    # Only merged work can be reverted or hold a bug: #34 and #35 are issues.
    repo.squash_pr(56, "Revert the float clamp (#34)", {"src/limit.py": "LIMIT = 11\n"})
    # "Revert #38": the number is the verb's object, a PR merged without its number, perhaps.
    repo.squash_pr(61, "Revert #38 because of build failures", {"src/limit.py": "LIMIT = 13\n"})
    repo.squash_pr(57, "Fix regression in #35", {"src/limit.py": "LIMIT = 12\n"})
    # The owner alone before the number names this repository's #36.
    repo.squash_pr(58, "Allow unlimited retries (example-org#36)", {"src/limit.py": "LIMIT = None\n"})
    # A subject cut short inside its number ("(#3…"): the cut number is no reference; the
    # block that is the title keeps the whole one.
    long_title = "Explain the difference between retry and retry_forever in the docs"
    repo.squash_pr(
        59,
        f"{long_title} (#3\u2026",
        {"docs/en/forever.md": "# Forever\n"},
        body=f"* {long_title} (#37)\n\n* Nit (#37)",
    )
    repo.squash_pr(60, "Document the retry limit", {"docs/en/limit.md": "# Limit\n"}, body="Was forgotten in #55.")
    # #39 was never merged: building on it re-does it.
    repo.squash_pr(62, "Retry on timeouts", {"src/timeouts.py": "RETRY = True\n"}, body="Builds upon PR #39.")
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)

    follow = run.facts(f"{REPO}#44", db)
    assert _ref(follow, 40) == ("follow-up-to", "title")
    assert [f["number"] for f in follow["lineage"]["follows_up"]] == [40]
    assert [f["number"] for f in run.facts(f"{REPO}#40", db)["lineage"]["followed_up_by"]] == [44]
    assert _ref(run.facts(f"{REPO}#45", db), 31) == ("fixes", "title")
    assert _ref(run.facts(f"{REPO}#46", db), 90) == ("mentions", "title")
    assert _ref(run.facts(f"{REPO}#51", db), 50) == ("follow-up-to", "body")  # the German counterpart
    assert _ref(run.facts(f"{REPO}#52", db), 50) == ("follow-up-to", "body")  # rewrites #50's line
    assert _ref(run.facts(f"{REPO}#54", db), 50) == ("mentions", "body")  # only adds to its file
    own_block = run.facts(f"{REPO}#55", db)
    assert _ref(own_block, 33) == ("fixes", "title")
    assert {r["number"] for r in own_block["references"]["references"]} == {33}  # #40's block is #40's
    assert _ref(run.facts(f"{REPO}#56", db), 34) == ("fixes", "title")
    assert _ref(run.facts(f"{REPO}#61", db), 38) == ("reverts", "title")
    assert _ref(run.facts(f"{REPO}#57", db), 35) == ("fixes", "title")
    assert _ref(run.facts(f"{REPO}#58", db), 36) == ("fixes", "title")
    cut = run.facts(f"{REPO}#59", db)
    assert {r["number"] for r in cut["references"]["references"]} == {37}
    assert _ref(cut, 37) == ("fixes", "title")
    assert _ref(run.facts(f"{REPO}#60", db), 55) == ("follow-up-to", "body")
    assert _ref(run.facts(f"{REPO}#62", db), 39) == ("restores", "body")
    assert _ref(run.facts(f"{REPO}#53", db), 45) == ("follow-up-to", "body")  # #45 is a merged PR

    en = run("report", f"{REPO}#45", "--db", db, "--lang", "en").stdout
    assert "This PR fixes #31" in en
    zh = run("report", f"{REPO}#44", "--db", db, "--lang", "zh").stdout
    assert "本 PR 是 #40 的后续" in zh

    # The pass made again on every analysis tells the same.
    before = {n: run.facts(f"{REPO}#{n}", db) for n in (40, 44, 45, 46, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59)}
    run("analyze", "--repo", REPO, "--db", db, "--all")
    for number, facts in before.items():
        again = run.facts(f"{REPO}#{number}", db)
        assert (again["references"], again.get("lineage")) == (facts["references"], facts.get("lineage"))
