"""Reports and feeds: the `Report` model, its builder and its renderers."""

from prdigest.render.build import build_report
from prdigest.render.feed import Feed, FeedItem, build_feed
from prdigest.render.report import REPORT_SCHEMA_VERSION, Report

__all__ = ["REPORT_SCHEMA_VERSION", "Feed", "FeedItem", "Report", "build_feed", "build_report"]
