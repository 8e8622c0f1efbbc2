"""The ``[digest]`` settings: read from the file and the environment, credentials only from the
environment, and neither the password nor the webhook URL shown by ``repr``."""

from __future__ import annotations

from pathlib import Path

import pytest

from prdigest.config import load_settings
from prdigest.errors import ConfigError


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_digest_table_and_the_environment(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        '[digest]\nsite_url = "https://prdigest.example/"\nsmtp_host = "smtp.example.com"\nsmtp_port = 2525\n'
        'smtp_starttls = false\nemail_from = "bot@example.com"\nemail_to = ["a@example.com", "b@example.com"]\n'
        'webhook_url = "https://hooks.example.com/services/T/B/secret"\nretries = 0\nretry_delay = 0.5\ntimeout = 7\n',
    )
    digest = load_settings({"PRDIGEST_SMTP_USER": "bot", "PRDIGEST_SMTP_PASSWORD": "pw-123"}, path).digest
    assert digest.site_url == "https://prdigest.example"
    assert (digest.smtp_host, digest.smtp_port, digest.smtp_starttls) == ("smtp.example.com", 2525, False)
    assert (digest.smtp_user, digest.smtp_password) == ("bot", "pw-123")
    assert digest.email_to == ("a@example.com", "b@example.com")
    assert (digest.retries, digest.retry_delay, digest.timeout) == (0, 0.5, 7.0)
    assert digest.sends_email
    shown = repr(digest)
    assert "pw-123" not in shown
    assert "secret" not in shown
    env = load_settings(
        {"PRDIGEST_DIGEST_EMAIL_TO": "c@example.com", "PRDIGEST_SMTP_PORT": "465", "PRDIGEST_DIGEST_WEBHOOK_URL": "x"},
        path,
    ).digest
    assert (env.email_to, env.smtp_port, env.webhook_url) == (("c@example.com",), 465, "x")


def test_defaults_send_nothing(tmp_path: Path) -> None:
    digest = load_settings({}, _file(tmp_path, "")).digest
    assert digest.site_url == "http://127.0.0.1:8000"
    assert not digest.sends_email
    assert digest.webhook_url is None
    assert digest.smtp_starttls


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[digest]\nsmtp_password = "hunter2"\n', r"line 2: \[digest\] smtp_password is not read from the config file"),
        ('[digest]\nsmtp_user = "me"\n', "set PRDIGEST_SMTP_USER in the environment"),
        ('[digest]\nsmtp_hots = "x"\n', "did you mean smtp_host"),
        ('[digest]\nsmtp_starttls = "yes"\n', "smtp_starttls must be true or false"),
        ("[digest]\nemail_to = [1]\n", "email_to must be a list of addresses"),
        ('[digest]\nretry_delay = "soon"\n', "retry_delay must be a number of seconds"),
        ("[digest]\nretries = -1\n", "retries must be at least 0"),
    ],
)
def test_bad_digest_settings_are_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        load_settings({}, _file(tmp_path, text))
    assert "hunter2" not in str(caught.value)
