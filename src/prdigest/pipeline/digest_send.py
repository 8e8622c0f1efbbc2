"""Sending a watch's digest: by e-mail and to the webhook, whichever are configured, and only
when every one of them took it are its PRs marked read. A failed channel leaves them unread
(the next send delivers them again) and is told, without secrets, as a `DeliveryError`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from prdigest.config import DigestConfig, LLMConfig
from prdigest.delivery.redact import redact_url
from prdigest.delivery.smtp import send_email
from prdigest.delivery.webhook import post_webhook
from prdigest.errors import ConfigError, DeliveryError
from prdigest.models.watch import Digest, Watch
from prdigest.pipeline.digest import build_digest
from prdigest.render.digest_chat import digest_payload
from prdigest.render.digest_email import digest_email
from prdigest.store.store import Store
from prdigest.store.watch_store import list_watches, mark_read


@dataclass(frozen=True)
class Sent:
    digest: Digest
    channels: tuple[str, ...]  # where it went, said without secrets; empty: nothing new, nothing sent
    marked: int  # PRs marked read


def check_channels(config: DigestConfig) -> None:
    if not config.sends_email and not config.webhook_url:
        raise ConfigError(
            "no delivery is configured: set [digest] smtp_host and email_to, or webhook_url "
            "(or PRDIGEST_SMTP_HOST / PRDIGEST_DIGEST_EMAIL_TO / PRDIGEST_DIGEST_WEBHOOK_URL)"
        )
    if config.sends_email and not config.email_from:
        raise ConfigError("e-mail needs a sender: set [digest] email_from or PRDIGEST_DIGEST_EMAIL_FROM")


def deliver(digest: Digest, config: DigestConfig) -> tuple[str, ...]:
    """Send the digest on every configured channel; DeliveryError lists each that failed."""
    check_channels(config)
    done: list[str] = []
    failed: list[str] = []
    if config.sends_email:
        assert config.email_from is not None
        try:
            send_email(config, digest_email(digest, config.email_from, config.email_to))
            done.append(f"e-mail to {', '.join(config.email_to)}")
        except DeliveryError as exc:
            failed.append(str(exc))
    if config.webhook_url:
        try:
            post_webhook(config, digest_payload(digest))
            done.append(f"the webhook at {redact_url(config.webhook_url)}")
        except DeliveryError as exc:
            failed.append(str(exc))
    if failed:
        delivered = f" (delivered: {'; '.join(done)})" if done else ""
        raise DeliveryError(
            "\n".join([*failed, f"digest {digest.watch}: nothing marked read{delivered}; it is sent again next time"])
        )
    return tuple(done)


def send_digest(
    store: Store, watch: Watch, config: DigestConfig, llm: LLMConfig | None, *, since: datetime | None = None
) -> Sent:
    """Build what the watch has not delivered yet (or what is dated ``since``), send it, then
    mark it read. Nothing new: nothing is sent (a digest saying "nothing" every quarter hour
    is noise)."""
    check_channels(config)
    built = build_digest(store, watch, config.site_url, llm, since=since)
    if built.digest.empty:
        mark_read(store, watch.name, (), built.looked_at)  # nothing to send, but all of it was looked at
        return Sent(built.digest, (), 0)
    channels = deliver(built.digest, config)
    return Sent(built.digest, channels, mark_read(store, watch.name, built.pull_request_ids, built.looked_at))


@dataclass(frozen=True)
class WatchOutcome:
    watch: str
    sent: Sent | None
    error: str | None  # the DeliveryError's message (no secrets); None: sent, or nothing new


def send_watch_digests(
    store: Store, repositories: list[str], config: DigestConfig, llm: LLMConfig | None
) -> list[WatchOutcome]:
    """Each watch on these repositories sends its digest (`send_digest`); one watch failing
    does not keep the others from theirs."""
    check_channels(config)
    outcomes: list[WatchOutcome] = []
    for repository in repositories:
        for watch in list_watches(store, repository):
            try:
                outcomes.append(WatchOutcome(watch.name, send_digest(store, watch, config, llm), None))
            except DeliveryError as exc:
                outcomes.append(WatchOutcome(watch.name, None, str(exc)))
    return outcomes
