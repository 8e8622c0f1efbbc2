"""One PR's pages (every language, length and report format), built and then written."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import FeedItem
from prdigest.models.narrative import Length, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.item_failures import FATAL, failure_reason
from prdigest.pipeline.ledger import ledger_links, pr_ledger_entries
from prdigest.pipeline.narrate import prepare, save_pending
from prdigest.pipeline.publish_stamps import PageEntry, page_stamp
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.report import current_facts, narrative_for
from prdigest.render.build import build_report
from prdigest.render.feed import feed_item
from prdigest.render.formats import REPORT_FORMATS
from prdigest.render.site_index import INDEX_REPORT_LINKS, IndexRow, report_path
from prdigest.store.publish_store import page_inputs
from prdigest.store.store import Store
from prdigest.text import printable
from prdigest.words import Lang, labels

LENGTHS: tuple[Length, ...] = ("full", "brief")


@dataclass(frozen=True)
class PRPages:
    """One PR's pages: what the feeds and the index show of it, how many files were written,
    and (offline narration) what they were built from."""

    items: dict[str, FeedItem]  # by language
    rows: dict[str, IndexRow]
    reports: int
    entry: PageEntry | None


def pages_or_why(
    store: Store,
    repository: str,
    number: int,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    *,
    loaded: tuple[PullRequest, Facts] | None = None,
    code: str = "",
    related: list[RelatedNote] | None = None,
) -> PRPages | str:
    """The PR's pages, written; or, when they could not be (a database failure raises), why."""
    try:
        return make_pr_pages(store, repository, number, out, languages, llm, loaded=loaded, code=code, related=related)
    except FATAL:
        raise
    except Exception as exc:
        return failure_reason(exc)


def make_pr_pages(
    store: Store,
    repository: str,
    number: int,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    *,
    loaded: tuple[PullRequest, Facts] | None = None,
    code: str = "",
    related: list[RelatedNote] | None = None,
) -> PRPages:
    """Write one PR's reports, only once all are built. Without an LLM its entry records what
    its pages were built from (the stamp, under ``code``); ``loaded``: its record and facts,
    ``related``: its related work, when already read."""
    if loaded is None:
        pr = store.get_pr(repository, number)
        facts = current_facts(store, pr)
    else:
        pr, facts = loaded
    # Read and hashed once for the PR's every language and length.
    if related is None:
        related = related_from_store(store, pr.repository, pr.number)
    prepared = prepare(store, pr, facts, defer=True)
    # Read once: the report's ledger links and the pages' stamp both show it.
    entries = pr_ledger_entries(store, repository, facts)
    ledger = ledger_links(store, repository, pr.number, facts, entries=entries)
    narratives = {
        (lang, length): narrative_for(store, pr, facts, lang, length, llm, related=related, prepared=prepared)
        for lang in languages
        for length in LENGTHS
    }
    save_pending(store, prepared)  # one transaction for the PR's new offline narratives
    documents: list[tuple[str, str]] = []
    new_items: dict[str, FeedItem] = {}
    new_rows: dict[str, IndexRow] = {}
    for lang in languages:
        links: list[tuple[str, str]] = []
        lab = labels(lang)
        for length in LENGTHS:
            narrative = narratives[(lang, length)]
            if length == "brief":
                new_items[lang] = feed_item(pr, facts, narrative, lang)
            report = build_report(pr, facts, narrative, lang, length, ledger=ledger)
            for fmt in REPORT_FORMATS.values():
                relative = report_path(pr.number, lang, length, fmt.extension)
                documents.append((relative, fmt.render(report)))
            for fmt in (REPORT_FORMATS[name] for name in INDEX_REPORT_LINKS):
                relative = report_path(pr.number, lang, length, fmt.extension)
                links.append((f"{lab.field(length)} {fmt.short_label}", relative))
        title = printable(" ".join(pr.title.split()))
        new_rows[lang] = IndexRow(pr.number, title, lab.verdict(facts.verdict.level.value), links)
    # Every document built: only now is anything of this PR written.
    for relative, text in documents:
        (out / relative).write_text(text, encoding="utf-8")
    entry = None
    if llm is None:
        # Stamped from what is stored now that the PR's narratives are saved.
        packages = [change.package for change in facts.dependencies.changes]
        inputs = page_inputs(store, repository, [pr.number]).get(pr.number)
        stamp = page_stamp(store, repository, inputs, related, packages, languages, code, entries=entries)
        if stamp is not None:
            entry = PageEntry(stamp, packages, [relative for relative, _ in documents], new_items, new_rows)
    return PRPages(new_items, new_rows, len(documents), entry)
