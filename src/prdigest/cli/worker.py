"""``prdigest worker`` and ``prdigest scheduler``: the Celery worker and the follow schedule.

Both need a broker (``PRDIGEST_BROKER_URL`` or ``[queue] broker_url``, Redis) and the
``queue`` extra; the database is the one of ``--db`` / ``PRDIGEST_DB`` (PostgreSQL when
several hosts share it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from prdigest.cli.options import db_option
from prdigest.errors import ConfigError, QueueError


def load_runtime(db: str | None) -> Any:
    """The settings with a broker, the database URL, and a Celery app for them."""
    from prdigest.config import load_settings
    from prdigest.store import resolve_database_url

    settings = load_settings()
    if settings.queue is None:
        raise ConfigError(
            "no broker is configured: set PRDIGEST_BROKER_URL or [queue] broker_url (redis://HOST:PORT/0)"
        )
    try:
        from prdigest.workers.app import Runtime
    except ImportError as exc:
        raise QueueError(f"the workers need Celery and Redis ({exc.name} is missing); install prdigest[queue]") from exc
    from prdigest.workers.connection import ping

    runtime = Runtime(settings, resolve_database_url(db))
    ping(runtime.redis())
    runtime.store()  # migrate once here, not in every pool process at once
    return runtime


@click.command("worker")
@click.option(
    "--queues",
    default="sync,analyze,narrate,publish",
    show_default=True,
    help="Queues to take work from, comma-separated.",
)
@click.option("--concurrency", type=click.IntRange(min=1), default=None, help="Tasks at once (default: CPUs).")
@click.option(
    "--pool",
    type=click.Choice(["prefork", "threads", "solo"]),
    default="prefork",
    show_default=True,
    help="prefork for CPU-bound analysis; threads for LLM narration (waits on the network).",
)
@click.option("--loglevel", default="WARNING", show_default=True, help="Celery's log level.")
@click.option("--name", "hostname", default=None, help="Worker name (default: prdigest-PID@HOST).")
@db_option
def worker(
    queues: str, concurrency: int | None, pool: str, loglevel: str, hostname: str | None, db: str | None
) -> None:
    """Run a worker on the queues of the follow pipeline until stopped (Ctrl-C, SIGTERM)."""
    from prdigest.workers.app import QUEUES, make_app

    wanted = [name.strip() for name in queues.split(",") if name.strip()]
    unknown = sorted(set(wanted) - set(QUEUES))
    if not wanted or unknown:
        raise ConfigError(f"--queues expects some of {', '.join(QUEUES)}; got {queues!r}")
    runtime = load_runtime(db)
    runtime.store().close()  # the pool processes open their own
    app = make_app(runtime)
    argv = ["worker", f"--queues={','.join(wanted)}", f"--pool={pool}", f"--loglevel={loglevel}", "--without-gossip"]
    argv += ["--without-mingle", f"--hostname={hostname or f'prdigest-{os.getpid()}@%h'}"]
    if concurrency is not None:
        argv.append(f"--concurrency={concurrency}")
    app.worker_main(argv=argv)


@click.command("scheduler")
@click.option("--tick", type=click.FloatRange(min=1), default=60.0, show_default=True, help="Seconds between checks.")
@click.option(
    "--schedule-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where Celery beat keeps its state (default: in the user data directory).",
)
@click.option("--loglevel", default="WARNING", show_default=True, help="Celery's log level.")
@db_option
def scheduler(tick: float, schedule_file: Path | None, loglevel: str, db: str | None) -> None:
    """Run the follow schedule (Celery beat): every --tick seconds, a pass over the followed
    repositories whose interval has passed. Run exactly one scheduler per deployment."""
    from prdigest.workers.app import make_app

    runtime = load_runtime(db)
    app = make_app(runtime, tick_seconds=tick)
    if schedule_file is None:
        from platformdirs import user_data_dir

        schedule_file = Path(user_data_dir("prdigest")) / "celerybeat-schedule"
    schedule_file.parent.mkdir(parents=True, exist_ok=True)
    app.start(argv=["beat", f"--schedule={schedule_file}", f"--loglevel={loglevel}"])


@click.group("queue")
def queue() -> None:
    """The task queue of the workers."""


@queue.command("status")
@db_option
def queue_status_command(db: str | None) -> None:
    """Pending, running and parked (failed) work per queue, and the last error per repository."""
    from prdigest.workers.app import make_app
    from prdigest.workers.status import queue_status

    runtime = load_runtime(db)
    app = make_app(runtime)
    status = queue_status(app, runtime.queue.broker_url, runtime.store())
    click.echo(f"{'queue':<10}{'pending':>9}{'running':>9}{'parked':>8}")
    for row in status.queues:
        click.echo(f"{row.name:<10}{row.pending:>9}{row.running:>9}{row.parked:>8}")
    click.echo(f"{status.workers} worker(s) answered")
    for item in status.parked:
        subject = f" {item.subject}" if item.subject else ""
        click.echo(
            f"parked: {item.task} {item.repository}{subject} after {item.attempts} tries "
            f"({item.parked_at:%Y-%m-%d %H:%M} UTC): {item.error}"
        )
    for repository, error in sorted(status.last_errors.items()):
        click.echo(f"last error of {repository}: {error}")
