"""``prdigest watch`` and ``prdigest digest`` as a user runs them: the rules, every format,
reading twice, and the errors that must say what is wrong and exit non-zero."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from tests.helpers.cli import run_main, run_ok
from tests.helpers.watch_history import REPO

from prdigest.cli.main import cli


def _add(runner: CliRunner, db: str, name: str, *rules: str) -> str:
    return run_ok(runner, "watch", "add", name, "--repo", REPO, *rules, "--db", db)


def test_add_list_remove(runner: CliRunner, db: str) -> None:
    said = _add(runner, db, "sched", "--path", "src/sched/**", "--package", "NumPy", "--lang", "en")
    assert said == f"added watch sched on {REPO}: path src/sched/** · package numpy\n"
    said = _add(runner, db, "sched", "--author", "carol", "--min-level", "quick-read")
    assert said == f"updated watch sched on {REPO}: person carol · from quick-read\n"
    listed = run_ok(runner, "watch", "list", "--db", db)
    assert listed.startswith(f"sched\t{REPO}\tzh\tnever read, 0 delivered\tperson carol · from quick-read")
    assert run_ok(runner, "watch", "remove", "sched", "--db", db) == "removed watch sched\n"
    assert "no watch yet" in run_ok(runner, "watch", "list", "--db", db)


def test_a_digest_orders_by_verdict_then_date_and_links_both_reports(runner: CliRunner, db: str) -> None:
    _add(runner, db, "np", "--package", "numpy", "--lang", "en")
    text = run_ok(runner, "digest", "np", "--db", db)
    assert text.startswith(f"# Watch np on {REPO}\n\nWhat you have not read yet · 2 pull requests\n")
    # #6 (quick-read) comes before the older, lower #2 (skip).
    assert text.index("## Allow numpy 2") < text.index("## Depend on numpy below 2")
    assert "**Worth a quick read**" in text
    assert "**Not worth a close read**" in text
    assert "Why it is here: changes the dependency on numpy: cap relaxed" in text
    assert "(<http://127.0.0.1:8000/repos/example-org/tasks/pulls/6?lang=en&length=full>)" in text
    assert "(<http://127.0.0.1:8000/repos/example-org/tasks/pulls/6?lang=en&length=brief>)" in text
    moves = text.split("## Dependency moves", 1)[1]
    assert "- numpy in requirements.txt: (none) → numpy<2,>=1.26, #2" in moves
    assert "- numpy in requirements.txt: numpy<2,>=1.26 → numpy<3,>=1.26, #6" in moves


def test_min_level_leaves_out_what_is_below_it(runner: CliRunner, db: str) -> None:
    _add(runner, db, "np", "--package", "numpy", "--min-level", "quick-read", "--lang", "en")
    body = json.loads(run_ok(runner, "digest", "np", "--format", "json", "--db", db))
    assert [item["number"] for item in body["items"]] == [6]


def test_unread_twice_delivers_nothing_new_the_second_time(runner: CliRunner, db: str) -> None:
    _add(runner, db, "people", "--author", "carol", "--lang", "en")
    first = runner.invoke(cli, ["digest", "people", "--unread", "--mark-read", "--format", "json", "--db", db])
    assert first.exit_code == 0, first.output
    assert [item["number"] for item in json.loads(first.stdout)["items"]] == [6, 3]
    assert first.stderr == "marked 2 pull requests read in watch people\n"
    second = runner.invoke(cli, ["digest", "people", "--unread", "--mark-read", "--db", db])
    assert second.exit_code == 0, second.output
    assert "0 pull requests" in second.stdout
    assert "Nothing new in this watch since you last read." in second.stdout
    assert second.stderr == ""
    # --since still shows what was read, and the list says when it was.
    again = json.loads(run_ok(runner, "digest", "people", "--since", "2024-03-05", "--format", "json", "--db", db))
    assert [item["number"] for item in again["items"]] == [6]
    assert "last read" in run_ok(runner, "watch", "list", "--db", db)
    assert ", 2 delivered" in run_ok(runner, "watch", "list", "--db", db)


def test_an_empty_since_digest_says_so_in_chinese(runner: CliRunner, db: str) -> None:
    _add(runner, db, "docs", "--path", "docs/**", "--lang", "zh")
    text = run_ok(runner, "digest", "docs", "--since", "2025-01-01", "--db", db)
    assert "自 2025-01-01 起，这个关注没有拉取请求。" in text
    full = run_ok(runner, "digest", "docs", "--db", db)
    assert full.startswith(f"# 关注 docs：{REPO}")
    assert "入选原因：改动了 docs/guide.md（关注的路径 docs/**）" in full
    assert "[完整报告](<" in full
    assert "[简要报告](<" in full


def test_html_and_atom_escape_pr_text(runner: CliRunner, db: str) -> None:
    _add(runner, db, "app", "--symbol", "start", "--lang", "en")
    html = run_ok(runner, "digest", "app", "--format", "html", "--db", db)
    assert "<script>alert" not in html
    assert "Make &lt;script&gt;alert(1)&lt;/script&gt; &amp; start faster" in html
    assert 'href="http://127.0.0.1:8000/repos/example-org/tasks/pulls/5?lang=en&amp;length=full"' in html
    atom = run_ok(runner, "digest", "app", "--format", "atom", "--db", db)
    root = ET.fromstring(atom.encode("utf-8"))
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert root.findtext("a:title", namespaces=ns) == f"Watch app on {REPO}"
    (entry,) = root.findall("a:entry", ns)
    assert entry.findtext("a:title", namespaces=ns) == "Make <script>alert(1)</script> & start faster"
    summary = entry.findtext("a:summary", namespaces=ns) or ""
    assert "Why it is here: changes start (watched symbol start)" in summary


def test_the_email_format_is_the_message_send_would_send(runner: CliRunner, db: str) -> None:
    import email
    from email import policy

    _add(runner, db, "app", "--symbol", "start", "--lang", "en")
    raw = run_ok(runner, "digest", "app", "--format", "email", "--db", db)
    message = email.message_from_string(raw, policy=policy.default)
    assert message["Subject"] == f"[prdigest] app: 1 new pull request in {REPO}"
    assert message.get_content_type() == "multipart/alternative"


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["digest", "nope"], "error: no watch named 'nope' (see `prdigest watch list`)", 5),
        (["watch", "remove", "nope"], "error: no watch named 'nope'", 5),
        (
            ["watch", "add", "w", "--repo", "example-org/other", "--path", "x"],
            "error: no pull requests of example-org/other in the database",
            5,
        ),
        (["watch", "add", "w", "--repo", REPO, "--path", "src/[x"], "opens a [class] it never closes", 2),
        (["watch", "add", "w", "--repo", REPO], "needs at least one --path, --package, --symbol or --author", 2),
        (["watch", "add", "bad name", "--repo", REPO, "--path", "x"], "a watch name is up to 100 letters", 2),
        (["watch", "add", "w", "--repo", "nope", "--path", "x"], "--repo expects OWNER/NAME", 2),
        (["digest", "np", "--since", "2024-01-01", "--unread"], "choose one: --since DATE", 2),
        (["digest", "np", "--since", "yesterday"], "--since expects a date", 2),
        (["digest", "np", "--send", "--format", "json"], "--send delivers e-mail and the webhook body itself", 2),
        (["digest", "np", "--send"], "no delivery is configured", 2),
    ],
)
def test_bad_input_is_told_and_exits_non_zero(
    runner: CliRunner, db: str, args: list[str], message: str, code: int
) -> None:
    _add(runner, db, "np", "--package", "numpy")
    exit_code, _out, err = run_main(*args, "--db", db)
    assert exit_code == code, err
    assert message in err


@pytest.mark.parametrize("args", [["watch", "--help"], ["watch", "add", "--help"], ["digest", "--help"]])
def test_help_explains_the_commands(runner: CliRunner, args: list[str]) -> None:
    text = run_ok(runner, *args)
    assert "watch" in text.lower()
    assert "--" in text or "Commands" in text
