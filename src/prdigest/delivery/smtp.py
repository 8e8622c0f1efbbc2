"""E-mail over SMTP (stdlib ``smtplib``): STARTTLS when configured, login when the environment
gave a user, then one message to its recipients."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from prdigest.config import DigestConfig
from prdigest.delivery.redact import redact
from prdigest.delivery.retry import Attempts, with_retries
from prdigest.errors import DeliveryError


def _send_once(config: DigestConfig, message: EmailMessage) -> None:
    assert config.smtp_host is not None
    with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=config.timeout) as client:
        if config.smtp_starttls:
            client.starttls(context=ssl.create_default_context())
        if config.smtp_user:
            client.login(config.smtp_user, config.smtp_password or "")
        refused = client.send_message(message, to_addrs=list(config.email_to))
    if refused:
        raise smtplib.SMTPRecipientsRefused(refused)


def _retryable(exc: Exception) -> bool:
    # A wrong password, a refused address or an untrusted certificate fails the same way each
    # time: not worth retrying.
    refused = smtplib.SMTPAuthenticationError | smtplib.SMTPRecipientsRefused | smtplib.SMTPSenderRefused
    if isinstance(exc, refused | ssl.SSLCertVerificationError):
        return False
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500  # 4xx: try again later; 5xx: permanent
    return isinstance(exc, OSError | smtplib.SMTPException)


def send_email(config: DigestConfig, message: EmailMessage) -> None:
    """Send ``message`` to ``config.email_to``; DeliveryError (password never in it) when it fails."""
    if not config.sends_email:
        raise DeliveryError("e-mail is not configured: set [digest] smtp_host and email_to")
    try:
        with_retries(
            lambda: _send_once(config, message),
            retries=config.retries,
            delay=config.retry_delay,
            retryable=_retryable,
        )
    except Attempts as failed:
        reason = redact(_describe(failed.last), [config.smtp_password])
        where = f"{config.smtp_host}:{config.smtp_port}"
        raise DeliveryError(
            f"e-mail to {', '.join(config.email_to)} via {where} failed after {_tries(failed.tries)}: {reason}"
        ) from None


def _describe(exc: Exception) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"the server answered {exc.smtp_code} {' '.join(text.split())}"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return f"the server refused {', '.join(sorted(exc.recipients))}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _tries(count: int) -> str:
    return "1 try" if count == 1 else f"{count} tries"
