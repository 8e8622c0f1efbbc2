"""The names of the output formats, as ``--format`` lists them, without loading the models
(``prdigest report`` of a cached report needs only these). tests/render/test_formats.py checks
they are the registry's (`prdigest.render.formats`)."""

from __future__ import annotations

REPORT_FORMAT_NAMES: tuple[str, ...] = ("md", "json", "html")
FEED_FORMAT_NAMES: tuple[str, ...] = ("md", "json", "html", "atom")
