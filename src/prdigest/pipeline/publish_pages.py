"""One PR's pages (every language, length and report format), built and then written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import FeedItem
from prdigest.models.ledger import LedgerEntry
from prdigest.models.narrative import Length, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.analyze import facts_cache_key
from prdigest.pipeline.item_failures import failure_reason, raise_unless_item_failure
from prdigest.pipeline.ledger import ledger_links, pr_ledger_entries, prs_ledger_entries
from prdigest.pipeline.narrate import PreparedPR, prepare, save_all_pending, save_pending
from prdigest.pipeline.narrative_key import input_digests
from prdigest.pipeline.publish_stamps import PageEntry, page_stamp
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.related_notes import related_notes, same_repository_targets
from prdigest.pipeline.report import current_facts, narrative_for
from prdigest.render.build import LengthFreeParts, build_report
from prdigest.render.feed import feed_item
from prdigest.render.formats import REPORT_FORMATS
from prdigest.render.site_index import INDEX_REPORT_LINKS, IndexRow, report_path
from prdigest.store import facts_store
from prdigest.store.publish_reads import StoredPR, read_page
from prdigest.store.publish_store import PageInputs, page_inputs
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
    # Inside `make_page` only: what the entry's stamp is made of, stamped once the page is made.
    unstamped: _Unstamped | None = None


@dataclass(frozen=True)
class _Unstamped:
    related: list[RelatedNote]
    packages: list[str]
    entries: list[LedgerEntry]
    files: list[str]


def make_page(
    store: Store,
    repository: str,
    numbers: Sequence[int],
    out: Path,
    languages: list[Lang],
    code: str,
    related: Mapping[int, list[RelatedNote] | None] | None = None,
) -> list[tuple[int, PRPages | str]]:
    """Offline narration: `pages_or_why` for a page of PRs, what they read of the store read
    for the page at once (`store.publish_reads`), and their stamps read once all are made.
    ``related``: the related work of PRs, when already read."""
    stored, current = _read_page(store, repository, numbers)
    saves: list[tuple[int, PreparedPR]] = []  # the page's new narratives, stored in one transaction
    made: list[tuple[int, PRPages | str]] = []
    for index, number in enumerate(numbers):
        one = stored.get(number)
        loaded, entries = current.get(number, (None, None))
        pages = pages_or_why(
            store,
            repository,
            number,
            out,
            languages,
            None,
            loaded=loaded,
            code=code,
            related=(related or {}).get(number),
            stored=one,
            page_saves=saves,
            entries=entries,
        )
        made.append((number, pages))
        if (one is None or _stored_facts_key(one) is None) and index + 1 < len(numbers):
            # It may have been analyzed just now, its links and ledger rows stored anew: the
            # PRs after it are read again, as the per-PR reads would see them.
            stored, current = _read_page(store, repository, numbers[index + 1 :])
    unsaved = _save_page(store, saves)
    made = [(number, unsaved.get(number, pages)) for number, pages in made]
    waiting = [number for number, pages in made if isinstance(pages, PRPages) and pages.unstamped is not None]
    # Read once the page's narratives are saved: the stamps name them.
    inputs = page_inputs(store, repository, waiting) if waiting else {}
    return [(number, _stamped(store, repository, number, pages, inputs, languages, code)) for number, pages in made]


_Current = tuple[tuple[PullRequest, Facts], list[LedgerEntry]]


def _read_page(
    store: Store, repository: str, numbers: Sequence[int]
) -> tuple[dict[int, StoredPR], dict[int, _Current]]:
    """What the store holds of the PRs, and of those stored with current facts: their record
    and facts, and the ledger of their packages (read once for the page)."""
    try:
        stored = read_page(store, repository, numbers)
    except Exception as exc:
        raise_unless_item_failure(exc)
        return {}, {}  # each PR is read alone, and says why it cannot be
    loaded: dict[int, tuple[PullRequest, Facts]] = {}
    for number, one in stored.items():
        if (one.record.repository, one.record.number) != (repository, number):
            continue  # `make_pr_pages` reads it as the per-PR reads do
        try:
            facts = _stored_facts(one)
        except Exception as exc:
            raise_unless_item_failure(exc)
            continue  # the PR's own pages say why
        if facts is not None:
            loaded[number] = (one.record, facts)
    ledgers = prs_ledger_entries(store, repository, [facts for _pr, facts in loaded.values()])
    return stored, {number: (both, entries) for (number, both), entries in zip(loaded.items(), ledgers, strict=True)}


def _save_page(store: Store, saves: list[tuple[int, PreparedPR]]) -> dict[int, str]:
    """Store the page's new narratives in one transaction; should that fail (not the
    database), each PR's in turn, as its own pages would have: why, by number, for those
    that could not be stored."""
    try:
        save_all_pending(store, [prepared for _number, prepared in saves])
        return {}
    except Exception as exc:
        raise_unless_item_failure(exc)
        failed: dict[int, str] = {}
        for number, prepared in saves:
            try:
                save_pending(store, prepared)
            except Exception as exc:
                raise_unless_item_failure(exc)
                failed[number] = failure_reason(exc)
        return failed


def _stamped(
    store: Store,
    repository: str,
    number: int,
    pages: PRPages | str,
    inputs: Mapping[int, PageInputs],
    languages: list[Lang],
    code: str,
) -> PRPages | str:
    if isinstance(pages, str) or pages.unstamped is None:
        return pages
    parts = pages.unstamped
    stamp = page_stamp(
        store, repository, inputs.get(number), parts.related, parts.packages, languages, code, entries=parts.entries
    )
    entry = None if stamp is None else PageEntry(stamp, parts.packages, parts.files, pages.items, pages.rows)
    return replace(pages, entry=entry, unstamped=None)


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
    stored: StoredPR | None = None,
    page_saves: list[tuple[int, PreparedPR]] | None = None,
    entries: list[LedgerEntry] | None = None,
) -> PRPages | str:
    """The PR's pages, written; or, when they could not be (a database failure raises), why."""
    try:
        return make_pr_pages(
            store,
            repository,
            number,
            out,
            languages,
            llm,
            loaded=loaded,
            code=code,
            related=related,
            stored=stored,
            page_saves=page_saves,
            entries=entries,
        )
    except Exception as exc:
        raise_unless_item_failure(exc)
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
    stored: StoredPR | None = None,
    page_saves: list[tuple[int, PreparedPR]] | None = None,
    entries: list[LedgerEntry] | None = None,
) -> PRPages:
    """Write one PR's reports, only once all are built. Without an LLM its entry records what
    its pages were built from (the stamp, under ``code``); ``loaded``: its record and facts,
    ``related``: its related work, ``stored``: what the store holds of it, when already read.
    ``page_saves``: (`make_page`) its new narratives are left there to be stored with the
    page's, and its entry to be stamped with the page's. ``entries``: the ledger of its
    packages (`pipeline.ledger.pr_ledger_entries`), when already read."""
    if stored is not None and (stored.record.repository, stored.record.number) != (repository, number):
        stored = None  # read under another name than the per-PR reads use: read as they do
    read_links = stored  # its link rows, when read and still current
    if loaded is not None:
        pr, facts = loaded
    elif stored is not None:
        pr = stored.record
        found = _stored_facts(stored)
        if found is None:
            facts = current_facts(store, pr)
            read_links = None  # analyzed now: its links were stored anew
        else:
            facts = found
    else:
        pr = store.get_pr(repository, number)
        facts = current_facts(store, pr)
    # Read and hashed once for the PR's every language and length.
    if related is None:
        related = _related(store, pr, read_links)
    if stored is not None:
        prepared = PreparedPR(stored.pr_id, input_digests(pr, facts), stored.narratives, [])
    else:
        prepared = prepare(store, pr, facts, defer=True)
    # Read once: the report's ledger links and the pages' stamp both show it.
    if entries is None:
        entries = pr_ledger_entries(store, repository, facts)
    ledger = ledger_links(store, repository, pr.number, facts, entries=entries)
    narratives = {
        (lang, length): narrative_for(store, pr, facts, lang, length, llm, related=related, prepared=prepared)
        for lang in languages
        for length in LENGTHS
    }
    if page_saves is None:
        save_pending(store, prepared)  # one transaction for the PR's new offline narratives
    else:
        page_saves.append((number, prepared))
    documents: list[tuple[str, str]] = []
    new_items: dict[str, FeedItem] = {}
    new_rows: dict[str, IndexRow] = {}
    built = LengthFreeParts()  # what its reports of both lengths in a language show alike
    for lang in languages:
        links: list[tuple[str, str]] = []
        lab = labels(lang)
        for length in LENGTHS:
            narrative = narratives[(lang, length)]
            if length == "brief":
                new_items[lang] = feed_item(pr, facts, narrative, lang)
            report = build_report(pr, facts, narrative, lang, length, ledger=ledger, shared=built)
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
    if llm is None and page_saves is not None:
        packages = [change.package for change in facts.dependencies.changes]
        files = [relative for relative, _ in documents]
        return PRPages(new_items, new_rows, len(documents), None, _Unstamped(related, packages, entries, files))
    if llm is None:
        # Stamped from what is stored now that the PR's narratives are saved.
        packages = [change.package for change in facts.dependencies.changes]
        inputs = page_inputs(store, repository, [pr.number]).get(pr.number)
        stamp = page_stamp(store, repository, inputs, related, packages, languages, code, entries=entries)
        if stamp is not None:
            entry = PageEntry(stamp, packages, [relative for relative, _ in documents], new_items, new_rows)
    return PRPages(new_items, new_rows, len(documents), entry)


def _stored_facts_key(stored: StoredPR) -> str | None:
    """The stored facts' key when they are current (what `pipeline.analyze.ensure_facts`
    returns without analyzing), else None."""
    if stored.facts_key is None or stored.facts_body is None:
        return None
    return stored.facts_key if stored.facts_key == facts_cache_key(stored.record_hash) else None


def _stored_facts(stored: StoredPR) -> Facts | None:
    """The stored facts when current, else None."""
    if _stored_facts_key(stored) is None or stored.facts_body is None:
        return None
    return Facts.model_validate_json(stored.facts_body)


def _related(store: Store, pr: PullRequest, stored: StoredPR | None) -> list[RelatedNote]:
    """`related_from_store`, from the link rows already read when there are."""
    if stored is None:
        return related_from_store(store, pr.repository, pr.number)
    titles = facts_store.titles(store, pr.repository, same_repository_targets(pr.repository, stored.outgoing))
    return related_notes(pr.repository, pr.number, stored.outgoing, titles, stored.incoming)
