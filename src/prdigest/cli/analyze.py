"""``prdigest analyze`` and ``prdigest facts``."""

from __future__ import annotations

import click

from prdigest.cli.options import db_option, lang_option, open_store, parse_date, parse_pr_ref
from prdigest.cli.plural import plural
from prdigest.cli.progress import progress
from prdigest.text import printable
from prdigest.words import Lang


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
    if not force and rules is None and versions_source is None and since is None:
        from prdigest.pipeline.quick import nothing_to_analyze

        current = nothing_to_analyze(db, repository)
        if current is not None:  # what the full path below would print, without loading it
            click.echo(f"analyzed {plural(0, 'pull request')} ({current} already current)")
            return
    from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected

    from_index = versions_source is not None and versions_source.startswith(("http://", "https://"))
    request = AnalyzeRequest(
        repository=repository,
        since=parse_date(since),
        force=force,
        rules=None if rules is None else _load_rules(rules),
        known_versions=None if versions_source is None or from_index else _load_versions_file(versions_source),
        versions_index=versions_source if from_index else None,
        jobs=jobs,
    )
    with open_store(db, "write") as store, progress("analyzing") as bar:

        def advance(repo: str, number: int, _outcome: str) -> None:
            bar.advance(note=f"{repo}#{number}")

        stats = analyze_selected(store, request, on_start=bar.set_total, on_done=advance)
    click.echo(
        f"analyzed {plural(stats.analyzed, 'pull request')} ({stats.cached} already current"
        + (f", {len(stats.failed)} failed" if stats.failed else "")
        + ")"
    )
    for repo, origins in sorted(stats.origins.items()):
        if origins.blamed:
            causes = stats.lineage[repo].root_causes if repo in stats.lineage else 0
            click.echo(
                f"{repo}: blamed the changed lines of {plural(origins.blamed, 'fix', 'fixes')} in the clone; "
                f"{plural(causes, 'fix', 'fixes')} now name the earlier pull request they fix"
            )
    for failure in stats.failed[:20]:
        click.echo(f"error: {failure}", err=True)
    if stats.failed:
        more = f" ({len(stats.failed) - 20} more not shown)" if len(stats.failed) > 20 else ""
        click.echo(
            f"error: {plural(len(stats.failed), 'pull request')} could not be analyzed{more}; their earlier facts, "
            "if any, are unchanged and every other pull request's facts are stored",
            err=True,
        )
        raise SystemExit(6)


def _load_rules(path: str) -> dict[str, object]:
    from pathlib import Path

    from prdigest.analyzers.file_rules import load_rules_file

    return load_rules_file(Path(path))


def _load_versions_file(source: str) -> dict[str, list[str]]:
    from pathlib import Path

    from prdigest.analyzers.dependencies.known_versions import load_known_versions_file

    return load_known_versions_file(Path(source))


@click.command("facts")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--json", "as_json", is_flag=True, help="Print the facts as JSON.")
@lang_option(help="Language of the evidence and reasons in the text output (JSON keeps both forms).")
@db_option
def facts(ref: str, as_json: bool, lang: Lang, db: str | None) -> None:
    """Show the facts known about one pull request (analyzing it first if needed)."""
    from prdigest.facts_view.evidence import key_reason, reason_text, risk_evidence, tag_labels
    from prdigest.facts_view.gaps import gap_notes
    from prdigest.pipeline.analyze import ensure_facts
    from prdigest.words import labels

    repository, number = parse_pr_ref(ref)
    with open_store(db, "read") as store:
        result = ensure_facts(store, repository, number)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    lab = labels(lang)
    labels_of_tags = tag_labels(result.risks.tags, lab)
    word = lab.tables["facts_text"]
    colon = lab.text("colon")
    verdict = lab.verdict(result.verdict.level.value)
    _say(f"{repository}#{number}  {word['verdict']}{colon}{verdict} ({word['score']} {result.verdict.score:.1f})")
    for reason in result.verdict.reasons:
        _say(f"  - {reason.code}{colon}{reason_text(reason, lab, labels_of_tags) or reason.detail}")
    listed = len(result.files.files)
    files_known = result.coverage.files_known
    count = str(result.files.total_files) if files_known else word["files_incomplete"].format(listed=listed)
    _say(f"{word['files']}{colon}{count}  {word['modules']}{colon}{', '.join(result.files.modules) or '-'}")
    for item in result.files.files:
        if item.is_key:
            where = f"{item.module}; {item.category}; {item.type}"
            _say(f"  {word['key']} {item.path} ({where}){colon}{key_reason(item, lab)}")
    symbols = ", ".join(f"{s.name} [{s.change}]" for s in result.symbols.symbols[:20]) or word["symbols_none"]
    _say(f"{word['symbols']}{colon}{symbols}")
    for change in result.dependencies.changes:
        kinds = ", ".join(lab.lookup("dependency_kinds", kind) for kind in change.kinds)
        _say(
            f"{word['dependency']} {change.package}{colon}{change.before or '-'} -> {change.after or '-'} "
            f"({kinds}) {word['in_path']} {change.path}"
        )
        if change.newly_admitted:
            _say(f"  {word['newly_admits']}{colon}{', '.join(change.newly_admitted)}")
        if change.newly_excluded:
            _say(f"  {word['newly_excludes']}{colon}{', '.join(change.newly_excluded)}")
    for finding in result.dependencies.findings:
        _say(f"{word['finding']} ({finding.kind}){colon}{finding.detail}")
    tests = result.tests_ci
    # On a partial file list, "no" would be a claim about files nobody saw.
    unseen = word["unknown"] if not tests.files_known else word["no"]
    _say(
        f"{word['tests_changed']}{colon}{word['yes'] if tests.tests_changed else unseen}"
        f"{word['missing_tests'] if tests.missing_tests else ''}; "
        f"{word['ci_changed']}{colon}{word['yes'] if tests.ci_changed else unseen}"
    )
    if tests.removed_test_files:
        _say(f"{word['tests_deleted']}{colon}{', '.join(tests.removed_test_files)}")
    for note in gap_notes(result, lab):
        _say(f"{word['data_gap']}{colon}{note}")
    for ref_fact in result.references.references:
        relation = lab.lookup("relations", ref_fact.relation)
        _say(f"{word['reference']} {ref_fact.repository}#{ref_fact.number}{colon}{relation} ({ref_fact.where})")
    for thread in result.discussion.threads:
        kind = lab.lookup("thread_kinds", thread.kind)
        outcome = lab.lookup("thread_outcomes", thread.outcome)
        _say(f"{word['thread']} [{kind}/{outcome}] {thread.topic}")
    for tag in result.risks.tags:
        _say(f"{word['risk']} {tag.tag} ({labels_of_tags[tag.tag]}){colon}{risk_evidence(tag, lab)}")


def _say(text: str) -> None:
    """One line of facts text: it quotes PR text (paths, evidence, topics), so it is made printable."""
    click.echo(printable(text))
