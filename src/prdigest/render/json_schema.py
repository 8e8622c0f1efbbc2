"""JSON output and its versioned schema, generated from the pydantic models.

``docs/report.schema.json`` is `report_schema_text()`; a test keeps the committed file equal
to the model. Bump `REPORT_SCHEMA_VERSION` on any incompatible change.
"""

from __future__ import annotations

import json
from typing import Any

from prdigest.models.feed import FEED_SCHEMA_VERSION, Feed
from prdigest.models.report import REPORT_SCHEMA_VERSION, Report
from prdigest.words import languages

SCHEMA_ID = "https://prdigest.dev/schema/report-v{version}.json"


def report_schema() -> dict[str, Any]:
    schema = Report.model_json_schema(mode="serialization")
    # `Lang` is any code with a words folder; the published schema names the packaged ones.
    schema["properties"]["lang"]["enum"] = list(languages())
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID.format(version=REPORT_SCHEMA_VERSION)
    schema["description"] = (
        f"A prdigest pull-request report, schema version {REPORT_SCHEMA_VERSION}. "
        "Facts (files, symbols, risk tags, verdict) come from deterministic analyzers; "
        "prose fields come from the narrator named in `narrator`."
    )
    return schema


def report_schema_text() -> str:
    return json.dumps(report_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def feed_schema() -> dict[str, Any]:
    schema = Feed.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://prdigest.dev/schema/feed-v{FEED_SCHEMA_VERSION}.json"
    return schema


def render_report_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"


def render_feed_json(feed: Feed) -> str:
    return feed.model_dump_json(indent=2) + "\n"
