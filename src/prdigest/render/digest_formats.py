"""The document formats ``prdigest digest --format`` writes, by name (``email`` is the message
`render.digest_email` makes with the configured addresses). Renderers are imported on use:
Markdown should not pay for Jinja."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from prdigest.models.watch import Digest

# name -> (module, function); the order is the one ``--format`` lists.
DIGEST_FORMATS: dict[str, tuple[str, str]] = {
    "md": ("prdigest.render.digest_markdown", "render_digest_markdown"),
    "json": ("prdigest.render.digest_formats", "render_digest_json"),
    "html": ("prdigest.render.digest_html", "render_digest_html"),
    "atom": ("prdigest.render.digest_atom", "render_digest_atom"),
}


def render_digest_json(digest: Digest) -> str:
    return digest.model_dump_json(indent=2) + "\n"


def digest_renderer(name: str) -> Callable[[Digest], str]:
    module, function = DIGEST_FORMATS[name]
    render: Callable[[Digest], str] = getattr(importlib.import_module(module), function)
    return render
