"""Narration service: cached in the store, a second call computes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.pipeline.narrate import narrate, narrate_with_status
from prdigest.store import Store
from prdigest.store.narrative_store import count_narratives


def _count(store: Store) -> int:
    return count_narratives(store)


def test_second_call_reads_the_cache(tmp_path: Path, seeds: Any) -> None:
    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([pr])
        first = narrate_with_status(store, pr, facts, [], "zh", "full", None)
        assert not first.cached
        assert _count(store) == 1
        second = narrate_with_status(store, pr, facts, [], "zh", "full", None)
        assert second.cached
        assert second.cache_key == first.cache_key
        assert second.narrative == first.narrative
        assert _count(store) == 1
        # another language or length is another row; changed facts replace the row
        narrate(store, pr, facts, [], "en", "full", None)
        assert _count(store) == 2
        facts.verdict.reasons = []
        third = narrate_with_status(store, pr, facts, [], "zh", "full", None)
        assert not third.cached
        assert third.cache_key != first.cache_key
        assert _count(store) == 2


def test_without_a_store_nothing_is_cached(seeds: Any) -> None:
    result = narrate_with_status(None, seeds.cupy_pr(), seeds.cupy_facts(), [], "en", "brief", None)
    assert not result.cached
    assert result.narrative.narrator == "extractive"


def test_missing_llm_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, seeds: Any) -> None:
    import sys

    # Simulate an install without the LLM narrator: the import machinery refuses it.
    monkeypatch.setitem(sys.modules, "prdigest.narrate.llm", None)
    config = LLMConfig(base_url="http://127.0.0.1:9/v1", model="m")
    with pytest.raises(NarrationError, match="LLM narrator cannot be loaded"):
        narrate(None, seeds.cupy_pr(), seeds.cupy_facts(), [], "en", "brief", config)


def test_digests_passed_in_give_the_key_computed_here(seeds: Any) -> None:
    # Publishing hashes one PR's record and facts once for all its languages and lengths.
    from prdigest.pipeline.narrate import cache_key, input_digests

    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    digests = input_digests(pr, facts)
    for lang, length in (("en", "full"), ("zh", "brief")):
        expected = cache_key(pr, facts, [], lang, length, "v", None)
        assert cache_key(pr, facts, [], lang, length, "v", None, digests) == expected
    edited = pr.model_copy(update={"body": (pr.body or "") + " edited"})
    assert cache_key(edited, facts, [], "en", "full", "v", None) != cache_key(pr, facts, [], "en", "full", "v", None)


def test_prepared_reads_give_what_a_lookup_per_call_gives(tmp_path: Path, seeds: Any) -> None:
    # Publishing reads a PR's id and stored narratives once (`prepare`) for all its languages
    # and lengths: what is cached is found there, what is not is narrated and stored.
    from prdigest.pipeline.narrate import prepare

    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([pr])
        stored = narrate_with_status(store, pr, facts, [], "zh", "full", None)
        prepared = prepare(store, pr, facts)
        assert prepared.pr_id == store.pr_id(pr.repository, pr.number)
        found = narrate_with_status(store, pr, facts, [], "zh", "full", None, prepared=prepared)
        assert found.cached
        assert (found.narrative, found.cache_key) == (stored.narrative, stored.cache_key)
        new = narrate_with_status(store, pr, facts, [], "en", "brief", None, prepared=prepared)
        assert not new.cached
        assert narrate_with_status(store, pr, facts, [], "en", "brief", None).narrative == new.narrative
        assert _count(store) == 2
