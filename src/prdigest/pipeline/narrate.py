"""Narration with caching: the extractive narrative always, the LLM on top when configured.

A narrative is cached in the store under a key of everything that determines it (head SHA,
the facts, the narrator version or prompt version, the model, language and length), so a
re-run costs no LLM call and no recomputation.

A failed LLM narration (server down, 429, timeout, unusable answers) is stored as what it
is, a fallback holding the offline text and the reason (``llm_failure``), and tried again
on a later run once its back-off has passed (``retry_after`` seconds, doubling with each
failure in a row, at most a day); ``refresh`` narrates again at once. What is shown follows
one rule, for reports, the web and the feed alike: the newest successful narrative of the
configured model, else the offline one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.models.facts import Facts
from prdigest.models.narrative import Length, Narrative, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import EXTRACTIVE_VERSION, LengthFree, narrate_extractive
from prdigest.pipeline.narrative_key import cache_key, input_digests
from prdigest.store import narrative_store
from prdigest.store.store import Store
from prdigest.words import Lang

if TYPE_CHECKING:  # the linked context comes with the (optional) LLM narrator
    from prdigest.pipeline.linked_context import IssueSource


@dataclass(frozen=True)
class NarrationResult:
    narrative: Narrative
    cached: bool  # True: read from the store, nothing was computed
    cache_key: str


MAX_BACKOFF = timedelta(days=1)
FALLBACK_SUFFIX = ":fallback"


@dataclass(frozen=True)
class PreparedPR:
    """What narrating one PR in several languages and lengths reads once (`prepare`): its
    stored id, the digests of its inputs and its stored narratives."""

    pr_id: int | None  # None: the PR is not stored (nothing to cache under)
    digests: tuple[str, str]
    stored: Mapping[tuple[str, str, str], str] = field(default_factory=dict)  # JSON by (lang, length, key)
    # Offline narratives made but not yet stored (`save_pending`); None: each is stored at once.
    pending: list[tuple[Narrative, str]] | None = None
    # What its offline narratives in a language share across lengths, once made.
    shared: LengthFree = field(default_factory=LengthFree)


def prepare(store: Store, pr: PullRequest, facts: Facts, *, defer: bool = False) -> PreparedPR:
    """One id lookup and one query for the PR's stored narratives, instead of one of each per
    language and length (publishing narrates every PR four times or more). ``defer``: the
    offline narratives made are kept in ``pending`` and stored by `save_pending`, in one
    transaction instead of one per narrative."""
    pr_id = store.find_pr_id(pr.repository, pr.number)
    stored = narrative_store.stored_bodies(store, pr_id) if pr_id is not None else {}
    return PreparedPR(pr_id, input_digests(pr, facts), stored, [] if defer else None)


def save_pending(store: Store, prepared: PreparedPR) -> None:
    """Store the offline narratives `prepare(..., defer=True)` kept back, in one transaction."""
    save_all_pending(store, [prepared])


def save_all_pending(store: Store, prepared: Sequence[PreparedPR]) -> None:
    """`save_pending` for several PRs in turn, in one transaction."""
    saved = [(one.pr_id, list(one.pending)) for one in prepared if one.pr_id is not None and one.pending]
    narrative_store.save_many(store, saved)
    for one in prepared:
        if one.pr_id is not None and one.pending:
            one.pending.clear()


def narrate(
    store: Store | None,
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    llm_config: LLMConfig | None,
    *,
    refresh: bool = False,
    shown_model: str | None = None,
    prepared: PreparedPR | None = None,
    issues: IssueSource | None = None,
) -> Narrative:
    return narrate_with_status(
        store,
        pr,
        facts,
        related,
        lang,
        length,
        llm_config,
        refresh=refresh,
        shown_model=shown_model,
        prepared=prepared,
        issues=issues,
    ).narrative


def narrate_with_status(
    store: Store | None,
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    llm_config: LLMConfig | None,
    *,
    refresh: bool = False,
    shown_model: str | None = None,
    now: datetime | None = None,
    prepared: PreparedPR | None = None,
    issues: IssueSource | None = None,
) -> NarrationResult:
    """The narrative to show for `pr`.

    With `llm_config`, the LLM is asked unless a current narrative is cached (or a cached
    fallback's back-off has not passed; `refresh` asks anyway). Without it no call is made:
    the newest successful narrative of `shown_model` is shown when one is stored (what the
    web shows without ``--llm``), else the offline one. ``prepared`` (`prepare`) is what a
    caller narrating the PR several times read once. ``issues`` gives the LLM's linked
    context the text of related GitHub issues (`pipeline.linked_context`).
    """
    if llm_config is None:
        return _offline_or_shown(store, pr, facts, related, lang, length, shown_model, prepared)
    llm_module = _llm_module()
    version = f"llm-prompt-{llm_module.PROMPT_VERSION}"
    digests = prepared.digests if prepared is not None else None
    key = cache_key(pr, facts, related, lang, length, version, llm_config.model, digests)
    pr_id = _stored_id(store, pr, prepared)
    attempts = 0
    if store is not None and pr_id is not None:
        stored = narrative_store.get_stored(store, pr_id, lang, length, key)
        if stored is not None and stored.narrative.narrator == "llm" and not refresh:
            return NarrationResult(stored.narrative, True, key)
        failed = narrative_store.get_stored(store, pr_id, lang, length, key + FALLBACK_SUFFIX)
        if failed is not None:
            if not refresh and not _retry_due(failed, llm_config, now):
                return NarrationResult(
                    _shown_or(store, pr_id, lang, length, llm_config.model, failed.narrative), True, key
                )
            attempts = failed.narrative.llm_attempts
    fallback = narrate_extractive(pr, facts, related, lang, length)
    # What the endpoint accepts is remembered in the store, across runs and processes.
    from prdigest.pipeline.llm_endpoints import StoredCapabilities  # with the (optional) LLM package
    from prdigest.pipeline.llm_steps import StoredSteps

    memory = StoredCapabilities(store) if store is not None else None
    steps = StoredSteps(store) if store is not None else None
    linked = _linked(store, pr, facts, related, issues)
    narrator = llm_module.LLMNarrator(llm_config, memory=memory, steps=steps)
    try:
        narrative = narrator.narrate(pr, facts, related, lang, length, fallback=fallback, linked=linked)
    finally:
        narrator.close()
    if narrative.narrator != "llm":
        narrative = narrative.model_copy(update={"llm_attempts": attempts + 1})
    if llm_module.cancelled():
        return NarrationResult(narrative, False, key)  # Ctrl-C: a cancelled call is no failure to store
    if store is not None and pr_id is not None:
        # A fallback is kept under its own key, so it never replaces a success of the same key
        # (a failed --refresh keeps showing the last good narrative).
        failed_now = narrative.narrator != "llm"
        narrative_store.save_narrative(store, pr_id, narrative, key + FALLBACK_SUFFIX if failed_now else key)
        if failed_now:
            narrative = _shown_or(store, pr_id, lang, length, llm_config.model, narrative)
    return NarrationResult(narrative, False, key)


def _linked(
    store: Store | None, pr: PullRequest, facts: Facts, related: list[RelatedNote], issues: IssueSource | None
) -> list[Any]:
    """The linked context (`LinkedItem`s) from the store; none without one."""
    if store is None:
        return []
    from prdigest.pipeline.ledger import ledger_links
    from prdigest.pipeline.linked_context import linked_context

    return linked_context(store, pr, related, ledger_links(store, pr.repository, pr.number, facts), issues)


def retry_delay(config: LLMConfig, attempts: int) -> timedelta:
    """How long a fallback after `attempts` failures in a row waits before the next try."""
    seconds = config.retry_after * (2 ** max(attempts - 1, 0))
    return min(timedelta(seconds=seconds), MAX_BACKOFF)


def _retry_due(stored: narrative_store.StoredNarrative, config: LLMConfig, now: datetime | None) -> bool:
    if stored.created_at is None:
        return True
    current = (now or datetime.now(UTC)).replace(tzinfo=None)
    return current - stored.created_at >= retry_delay(config, stored.narrative.llm_attempts)


def _shown_or(store: Store, pr_id: int, lang: Lang, length: Length, model: str, otherwise: Narrative) -> Narrative:
    """The newest successful narrative of `model`, else `otherwise` (the fallback's offline text)."""
    shown = narrative_store.shown_narrative(store, pr_id, lang, length, model)
    return shown if shown is not None and shown.narrator == "llm" else otherwise


def _offline_or_shown(
    store: Store | None,
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    shown_model: str | None,
    prepared: PreparedPR | None = None,
) -> NarrationResult:
    digests = prepared.digests if prepared is not None else None
    key = cache_key(pr, facts, related, lang, length, EXTRACTIVE_VERSION, None, digests)
    pr_id = _stored_id(store, pr, prepared)
    if store is not None and pr_id is not None:
        if shown_model is not None:
            shown = narrative_store.shown_narrative(store, pr_id, lang, length, shown_model)
            if shown is not None and shown.narrator == "llm":
                return NarrationResult(shown, True, key)
        if prepared is not None:
            body = prepared.stored.get((lang, length, key))
            cached = None if body is None else Narrative.model_validate_json(body)
        else:
            cached = narrative_store.get_narrative(store, pr_id, lang, length, key)
        if cached is not None:
            return NarrationResult(cached, True, key)
    shared = prepared.shared if prepared is not None else None
    narrative = narrate_extractive(pr, facts, related, lang, length, shared=shared)
    if store is not None and pr_id is not None:
        if prepared is not None and prepared.pending is not None:
            prepared.pending.append((narrative, key))
        else:
            narrative_store.save_narrative(store, pr_id, narrative, key)
    return NarrationResult(narrative, False, key)


def llm_module() -> Any:
    """The LLM narrator package, imported on first use (it is optional)."""
    return _llm_module()


def _llm_module() -> Any:
    try:
        return importlib.import_module("prdigest.narrate.llm")
    except ImportError as exc:
        raise NarrationError(
            f"an LLM is configured but the LLM narrator cannot be loaded ({exc.name or exc}); "
            "install prdigest[llm] or unset the [llm] configuration"
        ) from exc


def _stored_id(store: Store | None, pr: PullRequest, prepared: PreparedPR | None) -> int | None:
    """The stored PR's id, or None when the PR is not in the store (nothing to cache under)."""
    if store is None:
        return None
    return prepared.pr_id if prepared is not None else store.find_pr_id(pr.repository, pr.number)
