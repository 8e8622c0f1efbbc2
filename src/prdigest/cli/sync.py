"""``prdigest sync``: a group whose sources (git, github) live in their own modules."""

from __future__ import annotations

import importlib

import click

SOURCES: dict[str, tuple[str, str, str]] = {
    "git": ("prdigest.cli.sync_git", "sync_git", "Read merged PRs from a local git clone."),
    "github": ("prdigest.cli.sync_github", "sync_github", "Fetch PRs with reviews and comments from the GitHub API."),
}


class _SourceGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        from importlib.util import find_spec

        return [name for name, (module, _a, _h) in SOURCES.items() if find_spec(module) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.list_commands(ctx):
            return None
        module, attr, _help = SOURCES[cmd_name]
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SOURCES[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Sources"):
            formatter.write_dl(rows)


@click.group(cls=_SourceGroup)
def sync() -> None:
    """Fetch pull requests into the database. Re-running is safe and incremental."""
