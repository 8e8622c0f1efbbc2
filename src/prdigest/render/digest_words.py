"""A digest's sentences in its language: why a PR matched, a dependency move, the subject."""

from __future__ import annotations

from prdigest.models.ledger import LedgerEntry
from prdigest.models.watch import Digest, WatchMatch
from prdigest.words import CATALOG, Catalog


def match_sentence(match: WatchMatch, lang: str, *, catalog: Catalog = CATALOG) -> str:
    say = catalog.phrases(lang).say
    lab = catalog.labels(lang)
    if match.kind == "path":
        if match.detail:
            return say("digest", "match_path_more", subject=match.subject, more=match.detail, rule=match.rule)
        return say("digest", "match_path", subject=match.subject, rule=match.rule)
    if match.kind == "package":
        kinds = [lab.lookup("dependency_kinds", kind) for kind in match.detail.split(",") if kind]
        if kinds:
            return say("digest", "match_package", subject=match.subject, detail=lab.join(kinds))
        return say("digest", "match_package_plain", subject=match.subject)
    if match.kind == "symbol":
        change = match.detail if match.detail in ("added", "removed") else "modified"
        return say("digest", f"match_symbol_{change}", subject=match.subject, rule=match.rule)
    return say("digest", f"match_{match.kind}", subject=match.subject)


def _requirement(text: str | None, package: str, lang: str, catalog: Catalog) -> str:
    if text is None:
        return catalog.phrases(lang).say("digest", "no_requirement")
    return " ".join(text.split()) or package


def move_sentence(entry: LedgerEntry, lang: str, *, catalog: Catalog = CATALOG) -> str:
    return catalog.phrases(lang).say(
        "digest",
        "move",
        package=entry.package,
        path=entry.path,
        before=_requirement(entry.before, entry.package, lang, catalog),
        after=_requirement(entry.after, entry.package, lang, catalog),
        number=entry.number,
    )


def digest_title(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    return catalog.phrases(digest.lang).say("digest", "title", name=digest.watch, repository=digest.repository)


def digest_subject(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    say = catalog.phrases(digest.lang).say
    count = len(digest.items)
    key = "subject_empty" if count == 0 else "subject_one" if count == 1 else "subject_many"
    return say("digest", key, name=digest.watch, repository=digest.repository, count=count)


def window_line(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    say = catalog.phrases(digest.lang).say
    if digest.since is None:
        return say("digest", "window_unread")
    return say("digest", "window_since", date=digest.since.strftime("%Y-%m-%d"))


def empty_line(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    say = catalog.phrases(digest.lang).say
    if digest.since is None:
        return say("digest", "empty")
    return say("digest", "empty_since", date=digest.since.strftime("%Y-%m-%d"))


def count_line(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    count = len(digest.items)
    say = catalog.phrases(digest.lang).say
    return say("digest", "count_one") if count == 1 else say("digest", "count_many", count=count)
