"""``prdigest``: the root command. Subcommands live in their own modules, imported only
when invoked, so ``prdigest --version`` stays fast."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any

import click

from prdigest import __version__
from prdigest.errors import PrdigestError
from prdigest.interrupts import CTRL_C

PYDANTIC_PLUGINS_VARIABLE = "PYDANTIC_DISABLE_PLUGINS"

# name -> (module, attribute, one-line help shown in `prdigest --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "sync": ("prdigest.cli.sync", "sync", "Fetch pull requests from a git clone or GitHub into the database."),
    "import": ("prdigest.cli.import_bundles", "import_bundles", "Load GitHub-API JSON bundles from disk."),
    "list": ("prdigest.cli.browse", "list_prs", "List stored pull requests, newest first."),
    "show": ("prdigest.cli.browse", "show", "Show one stored pull request record."),
    "analyze": ("prdigest.cli.analyze", "analyze", "Run the deterministic analyzers and store their facts."),
    "facts": ("prdigest.cli.analyze", "facts", "Show the facts known about one pull request."),
    "deps": ("prdigest.cli.deps", "deps", "Show the dependency ledger of a repository or one package."),
    "report": ("prdigest.cli.report", "report", "Write the full or brief report of one pull request."),
    "feed": ("prdigest.cli.report", "feed", "Write a repository's reading feed."),
    "publish": ("prdigest.cli.report", "publish", "Write every report and the feed of a repository to a folder."),
    "serve": ("prdigest.cli.serve", "serve", "Serve the web UI and JSON API (read-only but for new watches)."),
    "llm": ("prdigest.cli.llm", "llm", "Check the configured LLM endpoint (llm check)."),
    "follow": ("prdigest.cli.follow", "follow", "Follow repositories: add, list, remove, run a pass."),
    "watch": ("prdigest.cli.watch", "watch", "Watches: the paths, packages, symbols and people you follow."),
    "digest": ("prdigest.cli.digest", "digest", "What changed in a watch since you last read; --send delivers it."),
    "worker": ("prdigest.cli.worker", "worker", "Run a Celery worker for followed repositories (needs a broker)."),
    "scheduler": ("prdigest.cli.worker", "scheduler", "Run the follow schedule (Celery beat; needs a broker)."),
    "queue": ("prdigest.cli.worker", "queue", "Show the workers' queues: pending, running, parked."),
}


class ClosedPipe(Exception):
    """The reader of our standard output went away (``prdigest list | head -1``).

    Not an OSError on purpose: click turns EPIPE into a silent exit 1, but a closed pipe is
    the reader's choice, not our failure, so `main` ends quietly with 0 as Unix tools do."""


_ASKS_FOR_HELP = "prdigest.asks_for_help"


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def invoke(self, ctx: click.Context) -> Any:
        # The arguments after the group's own, read before click hands them to the command.
        rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]
        ctx.meta[_ASKS_FOR_HELP] = any(arg in ctx.help_option_names for arg in rest)
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise ClosedPipe from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (module, _attr, _help) in COMMANDS.items() if _module_exists(module)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None or not _module_exists(entry[0]):
            return None
        module = importlib.import_module(entry[0])
        command: click.Command = getattr(module, entry[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _module_exists(module: str) -> bool:
    from importlib.util import find_spec

    return find_spec(module) is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prdigest")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """prdigest: understand pull requests.

    Sync pull requests from a git clone or GitHub, extract facts with deterministic
    analyzers, and publish full and brief reports and a reading feed in Chinese and
    English. The database is SQLite by default (see --db / PRDIGEST_DB on each command).
    """
    if not _asks_for_help(ctx):
        # Every command reads the configuration first, so a broken file is told at once
        # (exit 2, naming the file, line and key), not only by the commands that use it.
        from prdigest.config import load_settings

        load_settings()


def _asks_for_help(ctx: click.Context) -> bool:
    """`prdigest CMD --help` explains itself even when the configuration is broken."""
    return bool(ctx.meta.get(_ASKS_FOR_HELP))


def main(argv: list[str] | None = None) -> Any:
    """Entry point: run the CLI, turning prdigest errors into one line and an exit code."""
    # prdigest uses no pydantic plugin, and looking for them reads the entry points of every
    # installed distribution when the first model is built: about 8 ms of every command's
    # start-up, which `report` must keep under 0.2 s. An explicit setting wins
    # (``PYDANTIC_DISABLE_PLUGINS=`` turns plugins back on); worker processes inherit it.
    os.environ.setdefault(PYDANTIC_PLUGINS_VARIABLE, "__all__")
    try:
        with CTRL_C.recorded():
            result = cli.main(args=argv, prog_name="prdigest", standalone_mode=False)
            # A Ctrl-C a library wrapped as its own error, taken for one PR's failure: the
            # command went on to the end, but it still ends as interrupted.
            CTRL_C.raise_if_pressed()
        return result
    except (ClosedPipe, BrokenPipeError):
        _silence_stdout()
        sys.exit(0)
    except click.exceptions.Abort:  # click's name for Ctrl-C inside a command
        click.echo("Interrupted; everything committed so far is kept.", err=True)
        exit_interrupted()
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except PrdigestError as exc:
        # Each line stands alone (several bad bundles: one line each), so every one says "error:".
        for line in str(exc).splitlines() or [type(exc).__name__]:
            click.echo(f"error: {line}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:
        failure = _database_failure(exc)
        if failure is None:
            raise
        click.echo(f"error: {failure}", err=True)
        sys.exit(failure.exit_code)
    except KeyboardInterrupt:
        click.echo("Interrupted; everything committed so far is kept.", err=True)
        exit_interrupted()


def exit_interrupted() -> None:
    """Exit 130 after Ctrl-C. When LLM calls were in flight, cancel them and leave at once:
    the interpreter's orderly shutdown (tearing down the SDK's heap, the abandoned worker
    threads' sockets) takes seconds, and everything worth keeping is already committed."""
    llm = sys.modules.get("prdigest.narrate.llm")
    if llm is None:
        # Under ``python -m``, CPython kills itself with SIGINT at exit, whatever the exit
        # code, when the Ctrl-C was raised inside source run by exec() (dataclasses and
        # namedtuple define their methods so, while a module is first imported): that run
        # leaves its "unhandled Ctrl-C" flag set. Running any source clears it.
        exec("")
        sys.exit(130)
    llm.cancel_all()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(130)


def _database_failure(exc: Exception) -> PrdigestError | None:
    """A database driver's failure as a one-line `StoreError` (exit 4), else None.

    Looked up only when a database module is loaded, so `prdigest --version` stays light."""
    if "sqlalchemy" not in sys.modules and "sqlite3" not in sys.modules:
        return None
    from prdigest.store.failures import DATABASE_ERRORS, as_store_error

    return as_store_error(exc) if isinstance(exc, DATABASE_ERRORS) else None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush of what is still buffered
    does not fail again (and print "Exception ignored ... BrokenPipeError", exit 120)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (tests capture it): nothing will be flushed to a pipe
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
