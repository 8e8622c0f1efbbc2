"""The read-only web UI and JSON API (``prdigest serve``): `create_app` builds it."""

from prdigest.web.app import WebOptions, create_app

__all__ = ["WebOptions", "create_app"]
