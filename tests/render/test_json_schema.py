"""The versioned JSON schema: generated from the model, committed under docs/, and obeyed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prdigest.models.report import REPORT_SCHEMA_VERSION, Report
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.json_schema import render_report_json, report_schema, report_schema_text

DOCS_SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "report.schema.json"


def test_committed_schema_matches_the_model() -> None:
    assert DOCS_SCHEMA.read_text(encoding="utf-8") == report_schema_text(), (
        "docs/report.schema.json is stale: regenerate it from prdigest.render.json_schema.report_schema_text()"
    )


def test_schema_names_every_part() -> None:
    schema = report_schema()
    assert schema["$id"].endswith(f"report-v{REPORT_SCHEMA_VERSION}.json")
    for part in (
        "header",
        "summary",
        "motivation",
        "implementation",
        "key_files",
        "key_symbols",
        "key_code",
        "discussion",
        "risks",
        "related",
        "verdict",
        "narrator",
        "omitted_from_prompt",
        "schema_version",
    ):
        assert part in schema["properties"], part


def test_json_output_round_trips(seeds: Any) -> None:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    report = build_report(pr, facts, narrate_extractive(pr, facts, [], "en", "full"), "en", "full")
    data = json.loads(render_report_json(report))
    assert data["schema_version"] == REPORT_SCHEMA_VERSION
    assert Report.model_validate(data) == report
    assert data["key_files"][0]["symbols"] == ["assert_humming_available", "HummingConfig.__init__"]
    assert data["risks"]["tags"][0]["label"] == "error-check regression"
    assert data["verdict"]["label"] == "Worth reading in depth"
