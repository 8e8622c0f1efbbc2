"""``prdigest digest NAME``: what changed in a watch's slice since you last read it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from prdigest.cli.options import db_option, open_store, parse_date, write_output
from prdigest.cli.plural import plural
from prdigest.errors import ConfigError

if TYPE_CHECKING:
    from prdigest.config import DigestConfig, LLMConfig
    from prdigest.models.watch import Digest, Watch
    from prdigest.store.store import Store

FORMATS = ("md", "json", "html", "atom", "email")


@click.command("digest")
@click.argument("name")
@click.option("--since", default=None, metavar="DATE", help="The PRs dated on or after DATE, read or not.")
@click.option("--unread", is_flag=True, help="The PRs this watch has not delivered yet (the default).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="md",
    show_default=True,
    help="email: the MIME message --send would send.",
)
@click.option("--mark-read", is_flag=True, help="Record these PRs as read: the next --unread digest leaves them out.")
@click.option(
    "--send", is_flag=True, help="Send it by e-mail and/or to the webhook of [digest]; marks read once delivered."
)
@click.option("--no-llm", is_flag=True, help="Use the extractive narrator even if an LLM is configured.")
@click.option(
    "--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write to FILE, not stdout."
)
@db_option
def digest(
    name: str,
    since: str | None,
    unread: bool,
    fmt: str,
    mark_read: bool,
    send: bool,
    no_llm: bool,
    out: Path | None,
    db: str | None,
) -> None:
    """The digest of watch NAME: its matching PRs, verdict first then newest, each with its
    one-liner, verdict, why it matched and links to its full and brief reports, then the
    dependency moves of its watched packages. An empty digest says so (exit 0).

    Links point at the web UI, [digest] site_url (default http://127.0.0.1:8000).
    A failed --send exits 9 and marks nothing read.
    """
    from prdigest.config import load_settings
    from prdigest.store.watch_store import get_watch

    if since is not None and unread:
        raise ConfigError("choose one: --since DATE (read or not) or --unread (not delivered yet)")
    if send and (out is not None or fmt != "md"):
        raise ConfigError("--send delivers e-mail and the webhook body itself: drop --format and --out")
    window = parse_date(since, "--since")
    settings = load_settings()
    llm = None if no_llm else settings.llm
    # Only marking read writes on purpose; a plain digest reads (a read-only database is fine).
    with open_store(db, "write" if send or mark_read else "read") as store:
        watch = get_watch(store, name)
        if send:
            _send(store, watch, settings.digest, llm, window)
            return
        from prdigest.pipeline.digest import build_digest
        from prdigest.render.digest_formats import digest_renderer
        from prdigest.store.watch_store import mark_read as mark

        built = build_digest(store, watch, settings.digest.site_url, llm, since=window)
        text = _email(built.digest, settings.digest) if fmt == "email" else digest_renderer(fmt)(built.digest)
        write_output(text, out)
        if mark_read:
            marked = mark(store, watch.name, built.pull_request_ids, built.looked_at)
            if marked:
                click.echo(f"marked {plural(marked, 'pull request')} read in watch {watch.name}", err=True)


def _email(digest: Digest, config: DigestConfig) -> str:
    """The message --send would send, with the configured addresses (placeholders when unset)."""
    from prdigest.render.digest_email import digest_email

    sender = config.email_from or "prdigest@localhost"
    return digest_email(digest, sender, config.email_to or ("you@localhost",)).as_string()


def _send(store: Store, watch: Watch, config: DigestConfig, llm: LLMConfig | None, window: datetime | None) -> None:
    from prdigest.pipeline.digest_send import send_digest

    sent = send_digest(store, watch, config, llm, since=window)
    if not sent.channels:
        click.echo(f"digest {sent.digest.watch}: nothing new, nothing sent")
        return
    count = plural(len(sent.digest.items), "pull request")
    click.echo(f"sent digest {sent.digest.watch} ({count}) by {' and '.join(sent.channels)}")
