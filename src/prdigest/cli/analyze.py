"""``prdigest analyze`` and ``prdigest facts``."""

from __future__ import annotations

import click

from prdigest.cli.options import db_option, open_store, parse_date, parse_pr_ref
from prdigest.cli.progress import progress
from prdigest.store import Store


@click.command("analyze")
@click.option("--repo", "repository", metavar="OWNER/NAME", help="Only this repository.")
@click.option("--since", metavar="DATE", help="Only PRs merged (or opened) on or after DATE.")
@click.option("--all", "force", is_flag=True, help="Re-analyze every PR, even those with current facts.")
@click.option(
    "--rules",
    type=click.Path(exists=True, dir_okay=False),
    help="A TOML file of per-repository file-classification rules (see docs).",
)
@click.option(
    "--versions",
    "versions_source",
    metavar="FILE|URL",
    help="Released versions for dependency analysis: a JSON file {pkg: [versions]} or a PyPI-style JSON API URL.",
)
@db_option
def analyze(
    repository: str | None,
    since: str | None,
    force: bool,
    rules: str | None,
    versions_source: str | None,
    db: str | None,
) -> None:
    """Run the deterministic analyzers on stored PRs and store their facts.

    Only PRs whose record or analyzers changed since their last analysis are analyzed,
    unless --all is given.
    """
    from prdigest.analysis import analyze_stored
    from prdigest.analyzers.context import AnalysisContext

    context = AnalysisContext(rules=_load_rules(rules), known_versions=_load_versions(versions_source))
    since_date = parse_date(since)
    wanted = None
    with open_store(db) as store:
        if since_date is not None:
            keep = {(row.repository, row.number) for row in store.list_prs(repository=repository, since=since_date)}

            def wanted(repo: str, number: int) -> bool:
                return (repo, number) in keep

        with progress("analyzing") as bar:
            stats = analyze_stored(
                store,
                repository=repository,
                force=force,
                context=context,
                wanted=wanted,
                on_start=bar.set_total,
                on_done=lambda repo, number, outcome: bar.advance(note=f"{repo}#{number}"),
            )
        _reindex_search(store, repository)
    click.echo(
        f"analyzed {stats.analyzed} pull requests ({stats.cached} already current"
        + (f", {len(stats.failed)} failed" if stats.failed else "")
        + ")"
    )
    for failure in stats.failed[:20]:
        click.echo(f"error: {failure}", err=True)
    if stats.failed:
        raise SystemExit(6)


def _reindex_search(store: Store, repository: str | None) -> None:
    from importlib.util import find_spec

    if find_spec("prdigest.store.search_store") is None:
        return
    from prdigest.store import search_store

    search_store.reindex(store, repository)


def _load_rules(path: str | None) -> dict[str, object]:
    if path is None:
        return {}
    from pathlib import Path

    from prdigest.analyzers.files import load_rules_file

    return load_rules_file(Path(path))


def _load_versions(source: str | None) -> dict[str, list[str]]:
    if source is None:
        return {}
    from prdigest.analyzers.dependencies import load_known_versions

    return load_known_versions(source)


@click.command("facts")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--json", "as_json", is_flag=True, help="Print the facts as JSON.")
@db_option
def facts(ref: str, as_json: bool, db: str | None) -> None:
    """Show the facts known about one pull request (analyzing it first if needed)."""
    from prdigest.analysis import ensure_facts

    repository, number = parse_pr_ref(ref)
    with open_store(db) as store:
        result = ensure_facts(store, repository, number)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    click.echo(f"{repository}#{number}  verdict: {result.verdict.level.value} (score {result.verdict.score:.1f})")
    for reason in result.verdict.reasons:
        click.echo(f"  - {reason.code}: {reason.detail}")
    click.echo(f"files: {result.files.total_files}  modules: {', '.join(result.files.modules) or '-'}")
    for item in result.files.files:
        if item.is_key:
            click.echo(f"  key {item.path} ({item.module}; {item.category}; {item.type}): {item.key_reason or ''}")
    symbols = ", ".join(f"{s.name} [{s.change}]" for s in result.symbols.symbols[:20]) or "none identified"
    click.echo(f"symbols: {symbols}")
    for change in result.dependencies.changes:
        click.echo(
            f"dependency {change.package}: {change.before or '-'} -> {change.after or '-'} "
            f"({', '.join(change.kinds)}) in {change.path}"
        )
        if change.newly_admitted:
            click.echo(f"  newly admits: {', '.join(change.newly_admitted)}")
        if change.newly_excluded:
            click.echo(f"  newly excludes: {', '.join(change.newly_excluded)}")
    for finding in result.dependencies.findings:
        click.echo(f"dependency finding ({finding.kind}): {finding.detail}")
    tests = result.tests_ci
    click.echo(
        f"tests changed: {'yes' if tests.tests_changed else 'no'}"
        f"{' (source changed without tests)' if tests.missing_tests else ''}; "
        f"CI changed: {'yes' if tests.ci_changed else 'no'}"
    )
    for ref_fact in result.references.references:
        click.echo(f"reference {ref_fact.repository}#{ref_fact.number}: {ref_fact.relation} ({ref_fact.where})")
    for thread in result.discussion.threads:
        click.echo(f"thread [{thread.kind}/{thread.outcome}] {thread.topic}")
    for tag in result.risks.tags:
        click.echo(f"risk {tag.tag}: {tag.evidence}")
