"""``prdigest digest NAME --send``: e-mail received by a real SMTP server on 127.0.0.1 and parsed
back, a webhook body received by a real HTTP server; failures retried, told without secrets,
and never losing the unread mark. ``follow run --send-digests`` sends after its pass."""

from __future__ import annotations

import email
import json
import shutil
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from tests.helpers.cli import run_main
from tests.helpers.watch_history import HOSTILE_TITLE, REPO
from tests.watch.servers import (
    SMTP_PASSWORD,
    SMTP_USER,
    WEBHOOK_PATH,
    Hook,
    Mailbox,
    self_signed,
    smtp_server,
    webhook_server,
)

SITE = "https://prdigest.example"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        "[digest]\n"
        f'site_url = "{SITE}"\n'
        "smtp_starttls = false\n"  # the test server has no certificate
        'email_from = "prdigest@example.com"\n'
        "retries = 2\n"
        "retry_delay = 0\n"
        "timeout = 5\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("PRDIGEST_CONFIG", str(path))
    return path


def _mail_env(monkeypatch: pytest.MonkeyPatch, port: int) -> None:
    monkeypatch.setenv("PRDIGEST_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("PRDIGEST_SMTP_PORT", str(port))
    monkeypatch.setenv("PRDIGEST_SMTP_USER", SMTP_USER)
    monkeypatch.setenv("PRDIGEST_SMTP_PASSWORD", SMTP_PASSWORD)
    monkeypatch.setenv("PRDIGEST_DIGEST_EMAIL_TO", "reader@example.com, second@example.com")


def _ok(*argv: str) -> str:
    code, out, err = run_main(*argv)
    assert code == 0, err
    return out


def _unread(db: str, name: str) -> list[int]:
    body = json.loads(_ok("digest", name, "--unread", "--format", "json", "--db", db))
    return [item["number"] for item in body["items"]]


def test_the_email_arrives_as_text_and_html_with_a_chinese_subject(
    db: str, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok("watch", "add", "app", "--repo", REPO, "--symbol", "start", "--author", "alice", "--lang", "zh", "--db", db)
    mailbox = Mailbox()
    with smtp_server(mailbox) as port:
        _mail_env(monkeypatch, port)
        code, out, err = run_main("digest", "app", "--send", "--db", db)
        assert code == 0, err
        assert out == "sent digest app (2 pull requests) by e-mail to reader@example.com, second@example.com\n"
        assert SMTP_PASSWORD not in out + err
        # Nothing is left to send: the second --send sends nothing.
        code, again, err = run_main("digest", "app", "--send", "--db", db)
        assert (code, again) == (0, "digest app: nothing new, nothing sent\n"), err
    assert mailbox.logins == [SMTP_USER]
    (envelope,) = mailbox.messages
    assert envelope.rcpt_tos == ["reader@example.com", "second@example.com"]
    raw = envelope.original_content or b""
    subject_line = next(line for line in raw.split(b"\n") if line.startswith(b"Subject:"))
    assert b"=?utf-8?" in subject_line.lower()  # RFC 2047: the header itself is ASCII
    message = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    assert message["Subject"] == f"[prdigest] app：{REPO} 有 2 个新的拉取请求"
    assert message.get_content_type() == "multipart/alternative"
    text_part, html_part = message.get_body(("plain",)), message.get_body(("html",))
    assert text_part is not None
    assert html_part is not None
    text, html = text_part.get_content(), html_part.get_content()
    assert f"# 关注 app：{REPO}" in text
    assert "入选原因：修改了 start（关注的符号 start）" in text
    assert "入选原因：由 alice 编写" in text
    assert f"{SITE}/repos/{REPO}/pulls/5?lang=zh&length=full" in text
    # PR text is escaped in both parts: no tag from a title reaches the HTML.
    assert "Make \\<script>alert(1)\\</script> & start faster" in text
    assert "<script>" not in html
    assert "Make &lt;script&gt;alert(1)&lt;/script&gt; &amp; start faster" in html
    assert f'href="{SITE}/repos/{REPO}/pulls/5?lang=zh&amp;length=brief"' in html
    assert _unread(db, "app") == []


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_starttls_before_the_login(db: str, config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config.write_text(config.read_text(encoding="utf-8").replace("smtp_starttls = false", "smtp_starttls = true"))
    _ok("watch", "add", "app", "--repo", REPO, "--symbol", "start", "--lang", "en", "--db", db)
    cert, tls = self_signed(tmp_path)
    mailbox = Mailbox()
    with smtp_server(mailbox, tls) as port:
        _mail_env(monkeypatch, port)
        # The certificate is not trusted yet: refused at once, not retried, nothing marked read.
        monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "nothing-trusted.pem"))
        code, _out, err = run_main("digest", "app", "--send", "--db", db)
        assert code == 9
        assert "failed after 1 try" in err
        assert "CERTIFICATE_VERIFY_FAILED" in err
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        _ok("digest", "app", "--send", "--db", db)
    assert (len(mailbox.messages), mailbox.tls_sessions, mailbox.logins) == (1, 1, [SMTP_USER])
    assert _unread(db, "app") == []


def test_a_refused_email_is_retried_then_told_and_keeps_the_items_unread(
    db: str, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok("watch", "add", "app", "--repo", REPO, "--symbol", "start", "--lang", "en", "--db", db)
    mailbox = Mailbox(answer="451 4.3.0 Mailbox busy, try later")
    with smtp_server(mailbox) as port:
        _mail_env(monkeypatch, port)
        code, out, err = run_main("digest", "app", "--send", "--db", db)
    assert code == 9
    assert mailbox.attempts == 3  # the first try and [digest] retries = 2
    assert f"error: e-mail to reader@example.com, second@example.com via 127.0.0.1:{port} failed after 3 tries" in err
    assert "451 4.3.0 Mailbox busy, try later" in err
    assert "error: digest app: nothing marked read; it is sent again next time" in err
    assert SMTP_PASSWORD not in out + err
    assert _unread(db, "app") == [5]


def test_a_wrong_password_is_not_retried_and_not_printed(
    db: str, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok("watch", "add", "app", "--repo", REPO, "--symbol", "start", "--lang", "en", "--db", db)
    mailbox = Mailbox()
    with smtp_server(mailbox) as port:
        _mail_env(monkeypatch, port)
        monkeypatch.setenv("PRDIGEST_SMTP_PASSWORD", "wrong-" + SMTP_PASSWORD)
        code, out, err = run_main("digest", "app", "--send", "--db", db)
    assert code == 9
    assert "failed after 1 try" in err
    assert SMTP_PASSWORD not in out + err
    assert mailbox.messages == []
    assert _unread(db, "app") == [5]


def test_the_webhook_gets_slack_text_and_blocks(db: str, config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _ok("watch", "add", "np", "--repo", REPO, "--package", "numpy", "--lang", "en", "--db", db)
    _ok("watch", "add", "app", "--repo", REPO, "--symbol", "start", "--lang", "en", "--db", db)
    hook = Hook()
    with webhook_server(hook) as url:
        monkeypatch.setenv("PRDIGEST_DIGEST_WEBHOOK_URL", url)
        out = _ok("digest", "np", "--send", "--db", db)
        _ok("digest", "app", "--send", "--db", db)
    port = url.split(":")[2].split("/")[0]
    assert out == f"sent digest np (2 pull requests) by the webhook at http://127.0.0.1:{port}/…\n"
    assert hook.paths == [WEBHOOK_PATH, WEBHOOK_PATH]
    np_body, app_body = hook.bodies
    assert np_body["text"] == f"[prdigest] np: 2 new pull requests in {REPO}"
    header, context, first, second, moves = np_body["blocks"]
    assert header == {"type": "header", "text": {"type": "plain_text", "text": f"Watch np on {REPO}"}}
    assert context["elements"][0]["text"] == "2 pull requests"
    assert first["text"]["text"].startswith(f"*<{SITE}/repos/{REPO}/pulls/6?lang=en&length=full|#6 Allow numpy 2>*")
    assert "_Why it is here: changes the dependency on numpy: cap relaxed_" in first["text"]["text"]
    assert f"<{SITE}/repos/{REPO}/pulls/2?lang=en&length=brief|Brief report>" in second["text"]["text"]
    assert moves["text"]["text"].startswith("*Dependency moves*\n• numpy in requirements.txt: (none) → numpy&lt;2")
    # Slack reads < > & as markup: the hostile title cannot open a link or a mention.
    section = app_body["blocks"][2]["text"]["text"]
    assert "#5 Make &lt;script&gt;alert(1)&lt;/script&gt; &amp; start faster" in section
    assert HOSTILE_TITLE not in json.dumps(app_body)


def test_a_failing_webhook_is_retried_and_its_token_never_printed(
    db: str, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok("watch", "add", "np", "--repo", REPO, "--package", "numpy", "--lang", "en", "--db", db)
    hook = Hook(status=503)
    with webhook_server(hook) as url:
        monkeypatch.setenv("PRDIGEST_DIGEST_WEBHOOK_URL", url)
        code, out, err = run_main("digest", "np", "--send", "--db", db)
    assert code == 9
    assert hook.attempts == 3
    port = url.split(":")[2].split("/")[0]
    assert f"error: the webhook at http://127.0.0.1:{port}/… failed after 3 tries: the webhook answered 503" in err
    assert "XyZsecretTOKEN42" not in out + err
    assert "T0001" not in out + err
    assert _unread(db, "np") == [6, 2]


def test_one_channel_failing_marks_nothing_read(db: str, config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _ok("watch", "add", "np", "--repo", REPO, "--package", "numpy", "--lang", "en", "--db", db)
    mailbox, hook = Mailbox(), Hook(status=404)
    with smtp_server(mailbox) as port, webhook_server(hook) as url:
        _mail_env(monkeypatch, port)
        monkeypatch.setenv("PRDIGEST_DIGEST_WEBHOOK_URL", url)
        code, _out, err = run_main("digest", "np", "--send", "--db", db)
    assert code == 9
    assert hook.attempts == 1  # a 404 is not worth retrying
    assert len(mailbox.messages) == 1
    assert "nothing marked read (delivered: e-mail to reader@example.com, second@example.com)" in err
    assert _unread(db, "np") == [6, 2]


def test_follow_run_sends_each_watch_digest_after_its_pass(
    db: str, clone: Path, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok("follow", "add", REPO, "--git", str(clone), "--lang", "en", "--db", db)
    _ok("watch", "add", "np", "--repo", REPO, "--package", "numpy", "--lang", "en", "--db", db)
    _ok("watch", "add", "docs", "--repo", REPO, "--path", "docs/**", "--lang", "en", "--db", db)
    hook = Hook()
    with webhook_server(hook) as url:
        monkeypatch.setenv("PRDIGEST_DIGEST_WEBHOOK_URL", url)
        out = _ok("follow", "run", "--in-process", "--send-digests", "--db", db)
        again = _ok("follow", "run", "--in-process", "--send-digests", "--db", db)
    port = url.split(":")[2].split("/")[0]
    assert f"digest docs: sent 1 pull request by the webhook at http://127.0.0.1:{port}/…" in out
    assert f"digest np: sent 2 pull requests by the webhook at http://127.0.0.1:{port}/…" in out
    assert "digest docs: nothing new, nothing sent" in again
    assert "digest np: nothing new, nothing sent" in again
    assert [body["text"] for body in hook.bodies] == [
        f"[prdigest] docs: 1 new pull request in {REPO}",
        f"[prdigest] np: 2 new pull requests in {REPO}",
    ]


def test_follow_run_send_digests_without_a_channel_stops_before_the_pass(db: str, clone: Path, config: Path) -> None:
    _ok("follow", "add", REPO, "--git", str(clone), "--db", db)
    code, out, err = run_main("follow", "run", "--in-process", "--send-digests", "--db", db)
    assert code == 2
    assert "no delivery is configured" in err
    assert out == ""
