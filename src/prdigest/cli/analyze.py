"""``prdigest analyze`` and ``prdigest facts``."""

from __future__ import annotations

from collections.abc import Callable

import click

from prdigest.cli.options import db_option, open_store, parse_date, parse_pr_ref
from prdigest.cli.plural import plural
from prdigest.cli.progress import progress
from prdigest.store import Store
from prdigest.text import printable


@click.command("analyze")
@click.option("--repo", "repository", metavar="OWNER/NAME", help="Only this repository.")
@click.option("--since", metavar="DATE", help="Only PRs merged (or opened) on or after DATE.")
@click.option("--all", "force", is_flag=True, help="Re-analyze every PR, even those with current facts.")
@click.option(
    "--rules",
    type=click.Path(exists=True, dir_okay=False),
    help="A TOML file of file-classification rules (format: docs/rules.md); re-analyzes the selected PRs.",
)
@click.option(
    "--versions",
    "versions_source",
    metavar="FILE|URL",
    help=(
        "Released versions for dependency analysis: a JSON file {pkg: [versions]} or a PyPI-style "
        "JSON API URL; re-analyzes the selected PRs."
    ),
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Worker processes for the analysis (default: one per CPU; small runs stay in one process).",
)
@db_option
def analyze(
    repository: str | None,
    since: str | None,
    force: bool,
    rules: str | None,
    versions_source: str | None,
    jobs: int | None,
    db: str | None,
) -> None:
    """Run the deterministic analyzers on stored PRs and store their facts.

    Only PRs whose record or analyzers changed since their last analysis are analyzed,
    unless --all is given.
    """
    from prdigest.analysis import analyze_stored
    from prdigest.analyzers.context import AnalysisContext

    rules_table = _load_rules(rules)
    from_index = versions_source is not None and versions_source.startswith(("http://", "https://"))
    # Cached facts are keyed by the PR record and the analyzer versions, not by rules or known
    # versions: a run that brings its own must redo the PRs it selects, or it would report them
    # "already current" and keep facts made without them. (An index URL gets its own second pass.)
    force = force or rules is not None or (versions_source is not None and not from_index)
    known = {} if from_index else _load_versions_file(versions_source)
    context = AnalysisContext(rules=rules_table, known_versions=known)
    since_date = parse_date(since)
    wanted = None
    with open_store(db) as store:
        if since_date is not None:
            keep = {(row.repository, row.number) for row in store.list_prs(repository=repository, since=since_date)}

            def wanted(repo: str, number: int) -> bool:
                return (repo, number) in keep

        done: set[tuple[str, int]] = set()

        def advance(repo: str, number: int, outcome: str) -> None:
            bar.advance(note=f"{repo}#{number}")
            if outcome == "analyzed":
                done.add((repo, number))

        with progress("analyzing") as bar:
            stats = analyze_stored(
                store,
                repository=repository,
                force=force,
                context=context,
                wanted=wanted,
                on_start=bar.set_total,
                on_done=advance,
                jobs=jobs,
            )
        if from_index and versions_source is not None:
            again, failed = _reanalyze_with_index(store, repository, rules_table, versions_source, jobs, wanted)
            # A PR redone in the second pass is counted once; if it was "already current" in
            # the first, it is not any more.
            fresh = again - done
            stats.analyzed += len(fresh)
            stats.cached -= len(fresh)
            stats.failed.extend(failed)
        _reindex_search(store, repository)
    click.echo(
        f"analyzed {plural(stats.analyzed, 'pull request')} ({stats.cached} already current"
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

    from prdigest.analyzers.file_rules import load_rules_file

    return load_rules_file(Path(path))


def _load_versions_file(source: str | None) -> dict[str, list[str]]:
    if source is None:
        return {}
    from pathlib import Path

    from prdigest.analyzers.dependencies.known_versions import load_known_versions_file

    return load_known_versions_file(Path(source))


def _reanalyze_with_index(
    store: Store,
    repository: str | None,
    rules: dict[str, object],
    index_url: str,
    jobs: int | None,
    wanted: Callable[[str, int], bool] | None,
) -> tuple[set[tuple[str, int]], list[str]]:
    """Second pass for ``--versions URL``: the packages to ask the index about are only known
    once the PRs are analyzed, so fetch their releases, then redo the selected PRs that change
    them. Returns the PRs analyzed again and the failures."""
    from prdigest.analysis import analyze_stored
    from prdigest.analyzers.context import AnalysisContext
    from prdigest.analyzers.dependencies.known_versions import fetch_known_versions
    from prdigest.store.facts_store import analysis_states, get_facts

    touched: set[tuple[str, int]] = set()
    packages: set[str] = set()
    for state in analysis_states(store, repository):
        if wanted is not None and not wanted(state.repository, state.number):
            continue
        found = get_facts(store, state.repository, state.number)
        if found is not None and found.dependencies.changes:
            touched.add((state.repository, state.number))
            packages.update(change.package for change in found.dependencies.changes)
    if not touched:
        return set(), []
    versions = fetch_known_versions(index_url, packages)
    again: set[tuple[str, int]] = set()

    def record(repo: str, number: int, outcome: str) -> None:
        if outcome == "analyzed":
            again.add((repo, number))

    stats = analyze_stored(
        store,
        repository=repository,
        force=True,
        context=AnalysisContext(rules=rules, known_versions=versions),
        wanted=lambda repo, number: (repo, number) in touched,
        on_done=record,
        jobs=jobs,
    )
    return again, stats.failed


@click.command("facts")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--json", "as_json", is_flag=True, help="Print the facts as JSON.")
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    default="en",
    show_default=True,
    help="Language of the evidence and reasons in the text output (JSON keeps both forms).",
)
@db_option
def facts(ref: str, as_json: bool, lang: str, db: str | None) -> None:
    """Show the facts known about one pull request (analyzing it first if needed)."""
    from prdigest.analysis import ensure_facts
    from prdigest.render.evidence import key_reason, reason_text, risk_evidence, tag_labels
    from prdigest.render.i18n import labels

    repository, number = parse_pr_ref(ref)
    with open_store(db) as store:
        result = ensure_facts(store, repository, number)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    lab = labels("zh" if lang == "zh" else "en")
    labels_of_tags = tag_labels(result.risks.tags, lab)
    _say(f"{repository}#{number}  verdict: {result.verdict.level.value} (score {result.verdict.score:.1f})")
    for reason in result.verdict.reasons:
        _say(f"  - {reason.code}: {reason_text(reason, lab, labels_of_tags) or reason.detail}")
    _say(f"files: {result.files.total_files}  modules: {', '.join(result.files.modules) or '-'}")
    for item in result.files.files:
        if item.is_key:
            _say(f"  key {item.path} ({item.module}; {item.category}; {item.type}): {key_reason(item, lab)}")
    symbols = ", ".join(f"{s.name} [{s.change}]" for s in result.symbols.symbols[:20]) or "none identified"
    _say(f"symbols: {symbols}")
    for change in result.dependencies.changes:
        _say(
            f"dependency {change.package}: {change.before or '-'} -> {change.after or '-'} "
            f"({', '.join(change.kinds)}) in {change.path}"
        )
        if change.newly_admitted:
            _say(f"  newly admits: {', '.join(change.newly_admitted)}")
        if change.newly_excluded:
            _say(f"  newly excludes: {', '.join(change.newly_excluded)}")
    for finding in result.dependencies.findings:
        _say(f"dependency finding ({finding.kind}): {finding.detail}")
    tests = result.tests_ci
    _say(
        f"tests changed: {'yes' if tests.tests_changed else 'no'}"
        f"{' (source changed without tests)' if tests.missing_tests else ''}; "
        f"CI changed: {'yes' if tests.ci_changed else 'no'}"
    )
    for ref_fact in result.references.references:
        _say(f"reference {ref_fact.repository}#{ref_fact.number}: {ref_fact.relation} ({ref_fact.where})")
    for thread in result.discussion.threads:
        _say(f"thread [{thread.kind}/{thread.outcome}] {thread.topic}")
    for tag in result.risks.tags:
        _say(f"risk {tag.tag} ({labels_of_tags[tag.tag]}): {risk_evidence(tag, lab)}")


def _say(text: str) -> None:
    """One line of facts text: it quotes PR text (paths, evidence, topics), so it is made printable."""
    click.echo(printable(text))
