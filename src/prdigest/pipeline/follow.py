"""Following repositories: the steps of one pass (sync → analyze → narrate → publish), each
small and safe to repeat, and the pass itself run in this process.

The Celery workers (`prdigest.workers`) run the same steps as separate tasks; here they run
one after the other, which is what `prdigest follow run` does with no broker configured.
Every step is idempotent through the existing caches: a record already stored is
"unchanged", facts whose key is current are not recomputed, a narrative whose key is
stored is read back. So a step repeated after a crash or a re-delivery changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from prdigest.config import LLMConfig, Settings
from prdigest.models.narrative import Length
from prdigest.pipeline.analyze import analyze_stored, cross_pr_pass, ensure_facts, facts_cache_key
from prdigest.pipeline.publish import Published, publish_site
from prdigest.pipeline.publish_pages import LENGTHS
from prdigest.pipeline.report import current_facts
from prdigest.pipeline.sync import sync_source
from prdigest.sources.github.gate import RateGate
from prdigest.store import follow_store
from prdigest.store.facts_store import analysis_states
from prdigest.store.follow_store import Follow, Parked
from prdigest.store.store import Store
from prdigest.words import CATALOG, Lang

SOURCES = ("git", "github")
# One narration: (PR number, language, length).
Narration = tuple[int, Lang, Length]


@dataclass
class SyncOutcome:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    to_analyze: list[int] = field(default_factory=list)  # numbers whose facts are missing or stale


@dataclass
class PassResult:
    """What one pass did for one repository."""

    repository: str
    status: str = "ok"  # ok | failed | busy
    synced: int = 0  # records new or updated
    analyzed: int = 0
    narrated: int = 0  # narratives computed (not read from the cache)
    published: int = 0  # report files written
    failed: list[str] = field(default_factory=list)


def sync_follow(store: Store, follow: Follow, settings: Settings, *, gate: RateGate | None = None) -> SyncOutcome:
    """Sync the followed repository from its source; then list what needs analysis."""
    outcome = SyncOutcome()

    def counted(_pr: object, kind: str) -> None:
        if kind == "inserted":
            outcome.inserted += 1
        elif kind == "updated":
            outcome.updated += 1
        else:
            outcome.unchanged += 1

    if follow.source == "git":
        _sync_git(store, follow, counted)
    else:
        _sync_github(store, follow, settings, counted, gate)
    outcome.to_analyze = stale_numbers(store, follow.repository)
    return outcome


def _sync_git(store: Store, follow: Follow, on_record: Callable[[object, str], None]) -> None:
    from prdigest.errors import ConfigError
    from prdigest.sources.git import GitSource, GitSyncOptions

    if not follow.location:
        raise ConfigError(f"{follow.repository} follows a git clone but has no path; follow it again with --git PATH")
    source = GitSource(Path(follow.location), GitSyncOptions(repository=follow.repository))
    try:
        sync_source(store, source, on_record=on_record)
    finally:
        source.close()


def _sync_github(
    store: Store,
    follow: Follow,
    settings: Settings,
    on_record: Callable[[object, str], None],
    gate: RateGate | None,
) -> None:
    from prdigest.sources.github.client import GitHubClient
    from prdigest.sources.github.config import Credentials, resolve_api_url
    from prdigest.sources.github.source import GitHubSource, SyncOptions
    from prdigest.store.http_cache import HttpCache

    token = settings.github.token
    credentials = Credentials(token, "settings") if token else Credentials()
    api_url = resolve_api_url(settings.github.api_url)
    with GitHubClient(api_url, credentials, cache=HttpCache(store), max_wait=900.0, gate=gate) as client:
        source = GitHubSource(client, SyncOptions(repository=follow.repository))
        sync_source(store, source, on_record=on_record)


def stale_numbers(store: Store, repository: str) -> list[int]:
    """The repository's PRs whose facts are missing or were made from another record or
    other analyzer versions, oldest first."""
    return sorted(
        state.number
        for state in analysis_states(store, repository)
        if state.cache_key != facts_cache_key(state.record_hash)
    )


def analyze_pr(store: Store, repository: str, number: int) -> None:
    """Current facts for one PR (nothing is done when they are already current)."""
    ensure_facts(store, repository, number)


def link_prs(store: Store, repository: str) -> None:
    """The cross-PR pass once a pass's PRs are analyzed (root causes, lineage, follow-ups):
    what `analyze_stored` does after analyzing, for the workers that analyze PR by PR."""
    cross_pr_pass(store, repository)


def narrations_for(follow: Follow, numbers: list[int]) -> list[Narration]:
    """What the repository's outputs need for these PRs: each language and length."""
    return [(number, lang, length) for number in numbers for lang in follow_languages(follow) for length in LENGTHS]


def follow_languages(follow: Follow) -> list[Lang]:
    return [CATALOG.lang(code) for code in follow.languages]


def narrate_pr(store: Store, repository: str, number: int, lang: Lang, length: Length, llm: LLMConfig | None) -> bool:
    """Narrate one (PR, language, length) into the cache; True when it was computed now."""
    from prdigest.pipeline.narrate import narrate_with_status
    from prdigest.pipeline.related import related_from_store

    pr = store.get_pr(repository, number)
    facts = current_facts(store, pr)
    related = related_from_store(store, repository, number)
    return not narrate_with_status(store, pr, facts, related, lang, length, llm).cached


def publish_follow(store: Store, follow: Follow, llm: LLMConfig | None) -> Published:
    """Write the repository's site when the follow has a folder; the database alone serves
    the web app and the feed, so without one there is nothing to write."""
    if follow.publish_dir is None:
        return Published()
    return publish_site(store, follow.repository, Path(follow.publish_dir), follow_languages(follow), llm)


def _among(numbers: list[int]) -> Callable[[str, int], bool]:
    wanted = set(numbers)

    def among(_repository: str, number: int) -> bool:
        return number in wanted

    return among


def needs_publish(follow: Follow, analyzed_any: bool) -> bool:
    """Publish what changed: after new analyses, or when the folder has no site yet."""
    if follow.publish_dir is None:
        return False
    return analyzed_any or not (Path(follow.publish_dir) / "index.html").exists()


def run_pass_in_process(
    store: Store,
    follows: list[Follow],
    settings: Settings,
    *,
    jobs: int | None = None,
    on_result: Callable[[PassResult], None] | None = None,
) -> list[PassResult]:
    """One pass over the given repositories in this process, one after the other. A
    repository that fails is recorded with its error and the others go on."""
    from prdigest.errors import PrdigestError

    results: list[PassResult] = []
    for follow in follows:
        result = PassResult(follow.repository)
        try:
            outcome = sync_follow(store, follow, settings)
            result.synced = outcome.inserted + outcome.updated
            stats = analyze_stored(store, repository=follow.repository, wanted=_among(outcome.to_analyze), jobs=jobs)
            result.analyzed = stats.analyzed
            result.failed.extend(stats.failed)
            still_stale = set(stale_numbers(store, follow.repository))  # their analysis failed
            done = [number for number in outcome.to_analyze if number not in still_stale]
            for number, lang, length in narrations_for(follow, done):
                result.narrated += narrate_pr(store, follow.repository, number, lang, length, settings.llm)
            if needs_publish(follow, bool(done)):
                result.published = publish_follow(store, follow, settings.llm).reports
            follow_store.mark_run(store, follow.repository, "ok")
        except PrdigestError as exc:
            result.status = "failed"
            result.failed.append(str(exc))
            follow_store.mark_run(store, follow.repository, "failed", str(exc))
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def last_errors(store: Store, parked: list[Parked]) -> dict[str, str]:
    """Per repository: the error of its last pass, else its newest parked task's."""
    errors: dict[str, str] = {}
    for item in parked:  # newest first
        subject = f" {item.subject}" if item.subject else ""
        errors.setdefault(item.repository, f"{item.task}{subject}: {item.error}")
    for follow in follow_store.list_follows(store):
        if follow.last_error:
            errors[follow.repository] = follow.last_error
    return errors
