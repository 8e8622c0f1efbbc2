"""A PR's reports of both lengths built with shared parts (what `publish` does) are the
reports each length builds alone: the risk tags' evidence and the verdict's reasons do not
depend on the length, and a language's parts never leak into another's."""

from __future__ import annotations

from typing import Any

import pytest

from prdigest.models.facts import Facts
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import LengthFreeParts, build_report
from prdigest.words import Lang


@pytest.mark.parametrize("order", [("en", "zh"), ("zh", "en")])
def test_shared_parts_build_the_reports_each_length_builds_alone(seeds: Any, order: tuple[Lang, Lang]) -> None:
    pr = seeds.humming_pr()
    facts: Facts = seeds.humming_facts()
    assert facts.risks.tags
    assert facts.verdict.reasons
    shared = LengthFreeParts()
    for lang in order:
        for length in ("full", "brief"):
            narrative = narrate_extractive(pr, facts, [], lang, length)
            alone = build_report(pr, facts, narrative, lang, length)
            together = build_report(pr, facts, narrative, lang, length, shared=shared)
            assert together == alone
            assert together.verdict.reasons
            assert together.risks.tags
    assert sorted(shared.by_lang) == ["en", "zh"]
    # each language's own words: the Chinese reasons are not the English ones
    assert shared.by_lang["en"][2] != shared.by_lang["zh"][2]
