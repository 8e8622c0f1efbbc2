"""Narration with caching: the extractive narrative always, the LLM on top when configured.

A narrative is cached in the store under a key of everything that determines it (head SHA,
the facts, the narrator version or prompt version, the model, language and length), so a
re-run costs no LLM call and no recomputation.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from typing import Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.models.facts import Facts
from prdigest.models.narrative import Length, Narrative, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import EXTRACTIVE_VERSION, narrate_extractive
from prdigest.store import narrative_store
from prdigest.store.store import Store
from prdigest.words import Lang


@dataclass(frozen=True)
class NarrationResult:
    narrative: Narrative
    cached: bool  # True: read from the store, nothing was computed
    cache_key: str


def cache_key(
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    version: str,
    model: str | None,
    digests: tuple[str, str] | None = None,
) -> str:
    record_digest, facts_digest = digests or input_digests(pr, facts)
    # The PR record matters too: the narrative quotes the body and the commits.
    parts = {
        "head": pr.head_sha or "",
        "record": record_digest,
        "facts": facts_digest,
        "related": [r.model_dump() for r in related],
        "version": version,
        "model": model or "",
        "lang": lang,
        "length": length,
    }
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()
    return f"{version}:{digest[:40]}"


# The last PR whose row id was looked up: one PR is narrated in every language and length in
# a row, and the lookup is a query each time.
_last_pr_id: tuple[Store, PullRequest, str, int, int] | None = None


def input_digests(pr: PullRequest, facts: Facts) -> tuple[str, str]:
    """(record digest, facts digest): what a narrative's cache key hashes of its inputs. A
    caller narrating one PR in several languages and lengths computes them once and passes
    them on, since hashing a record (whole file contents) was most of a cached narration."""
    return pr.content_hash(), hashlib.sha256(facts.model_dump_json().encode("utf-8")).hexdigest()


def narrate(
    store: Store | None,
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    llm_config: LLMConfig | None,
    *,
    digests: tuple[str, str] | None = None,
) -> Narrative:
    return narrate_with_status(store, pr, facts, related, lang, length, llm_config, digests=digests).narrative


def narrate_with_status(
    store: Store | None,
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    llm_config: LLMConfig | None,
    *,
    digests: tuple[str, str] | None = None,
) -> NarrationResult:
    """The narrative, from the cache when its inputs are unchanged. ``digests`` are
    `input_digests` of ``pr`` and ``facts`` when the caller already has them."""
    llm_module = _llm_module() if llm_config is not None else None
    version = f"llm-prompt-{llm_module.PROMPT_VERSION}" if llm_module is not None else EXTRACTIVE_VERSION
    model = llm_config.model if llm_config is not None else None
    key = cache_key(pr, facts, related, lang, length, version, model, digests)
    pr_id = _pr_id(store, pr) if store is not None else None
    if store is not None and pr_id is not None:
        cached = narrative_store.get_narrative(store, pr_id, lang, length, key)
        if cached is not None:
            return NarrationResult(cached, True, key)
    narrative = narrate_extractive(pr, facts, related, lang, length)
    if llm_module is not None and llm_config is not None:
        narrator = llm_module.LLMNarrator(llm_config)
        narrative = narrator.narrate(pr, facts, related, lang, length, fallback=narrative)
    if store is not None and pr_id is not None:
        narrative_store.save_narrative(store, pr_id, narrative, key)
    return NarrationResult(narrative, False, key)


def _llm_module() -> Any:
    try:
        return importlib.import_module("prdigest.narrate.llm")
    except ImportError as exc:
        raise NarrationError(
            f"an LLM is configured but the LLM narrator cannot be loaded ({exc.name or exc}); "
            "install prdigest[llm] or unset the [llm] configuration"
        ) from exc


def _pr_id(store: Store, pr: PullRequest) -> int | None:
    """The stored PR's id, or None when the PR is not in the store (nothing to cache under)."""
    global _last_pr_id
    last = _last_pr_id
    if last is not None and last[0] is store and last[1] is pr and last[2:4] == (pr.repository, pr.number):
        return last[4]
    found = store.find_pr_id(pr.repository, pr.number)
    if found is not None:  # a PR not stored yet may be by the next call
        _last_pr_id = (store, pr, pr.repository, pr.number, found)
    return found
