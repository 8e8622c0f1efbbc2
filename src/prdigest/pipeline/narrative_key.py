"""The cache key of a narrative (`pipeline.narrate`), importable without the narrators or the
store: the quick report path (`pipeline.quick`) looks a stored narrative up by it."""

from __future__ import annotations

import hashlib
import json

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.words import Lang


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


def input_digests(pr: PullRequest, facts: Facts) -> tuple[str, str]:
    """(record digest, facts digest): what a narrative's cache key hashes of its inputs. A
    caller narrating one PR in several languages and lengths computes them once and passes
    them on, since hashing a record (whole file contents) was most of a cached narration."""
    return pr.content_hash(), hashlib.sha256(facts.model_dump_json().encode("utf-8")).hexdigest()
