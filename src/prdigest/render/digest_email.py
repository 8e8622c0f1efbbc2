"""A watch's digest as an e-mail: multipart/alternative with the Markdown text and the HTML
page. The standard library's default policy encodes a non-ASCII subject (RFC 2047) and
picks each part's transfer encoding; nothing here writes headers by hand."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from prdigest.models.watch import Digest
from prdigest.render.digest_html import render_digest_html
from prdigest.render.digest_markdown import render_digest_markdown
from prdigest.render.digest_words import digest_subject
from prdigest.text import printable


def digest_email(digest: Digest, sender: str, recipients: tuple[str, ...]) -> EmailMessage:
    message = EmailMessage()
    # A header cannot hold a line break: the subject's PR-free words are ours, but be sure.
    message["Subject"] = " ".join(printable(digest_subject(digest)).split())
    message["From"] = sender
    message["To"] = ", ".join(recipients)
    message["Date"] = format_datetime(digest.generated_at)
    message["Message-ID"] = make_msgid(domain="prdigest.invalid")
    message.set_content(render_digest_markdown(digest), subtype="plain", charset="utf-8")
    message.add_alternative(render_digest_html(digest), subtype="html", charset="utf-8")
    return message
