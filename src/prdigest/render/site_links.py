"""Absolute links into the web UI (`prdigest serve`) for documents read elsewhere: a digest's
e-mail, chat message or Atom entries link to the reports and the watch page there."""

from __future__ import annotations

from urllib.parse import quote, urlencode


def watch_path(name: str) -> str:
    return f"/watch/{quote(name, safe='')}"


def pr_report_url(site_url: str, repository: str, number: int, lang: str, length: str) -> str:
    query = urlencode({"lang": lang, "length": length})
    return f"{site_url.rstrip('/')}/repos/{repository}/pulls/{number}?{query}"


def watch_url(site_url: str, name: str, lang: str) -> str:
    return f"{site_url.rstrip('/')}{watch_path(name)}?{urlencode({'lang': lang})}"
