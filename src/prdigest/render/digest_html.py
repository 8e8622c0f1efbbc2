"""HTML of a watch's digest (a standalone page, and the HTML part of its e-mail): the feed's
jinja environment, so every PR text is autoescaped and links are http(s) only."""

from __future__ import annotations

from prdigest.models.watch import Digest
from prdigest.render.digest_words import count_line, digest_title, empty_line, move_sentence, window_line
from prdigest.render.html import environment
from prdigest.words import CATALOG, Catalog


def render_digest_html(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    template = environment().get_template("digest.html.j2")
    return template.render(
        digest=digest,
        lab=catalog.labels(digest.lang),
        say=catalog.phrases(digest.lang).say,
        title=digest_title(digest, catalog=catalog),
        window=window_line(digest, catalog=catalog),
        count=count_line(digest, catalog=catalog),
        empty=empty_line(digest, catalog=catalog),
        moves=[move_sentence(entry, digest.lang, catalog=catalog) for entry in digest.moves],
    )
