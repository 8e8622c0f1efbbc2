"""A PR's narratives made with their length-free parts shared are those made one by one."""

from __future__ import annotations

from typing import Any

from prdigest.narrate.extractive import LengthFree, narrate_extractive
from prdigest.words import Lang


def test_shared_parts_make_the_same_narratives(seeds: Any) -> None:
    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    shared = LengthFree()
    for lang in (Lang("zh"), Lang("en")):
        for length in ("full", "brief"):
            alone = narrate_extractive(pr, facts, [], lang, length)
            together = narrate_extractive(pr, facts, [], lang, length, shared=shared)
            assert together.model_dump_json() == alone.model_dump_json()
    assert set(shared.by_lang) == {"zh", "en"}
