"""How long a brief report is next to the full one, over a real history.

Target (issue #11): on PRs with 3 or more files, the brief Markdown report is at most 40% of
the full one. Usage::

    python benchmarks/brief_ratio.py DB OWNER/NAME [--lang zh] [--limit N]

DB is a database synced and analyzed with ``prdigest sync`` / ``prdigest analyze``. Reports
are built with the extractive narrator (no LLM) from the stored facts; PRs whose facts are
out of date are analyzed again (and stored: run it on a copy). Besides the ratio it prints
two feed figures the issue asks about: the share of one-line summaries that contain Chinese
(for ``--lang zh``) and the share of feed entries that name a missing regression test.
The figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.pipeline.analyze import ensure_facts
from prdigest.pipeline.related import related_from_store
from prdigest.render.build import build_report
from prdigest.render.feed import feed_item
from prdigest.render.markdown import render_report_markdown
from prdigest.store import Store, resolve_database_url
from prdigest.words import CATALOG, Lang

_CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_FILES = 3
TARGET = 0.40


def _report(pr: PullRequest, facts: Facts, store: Store, lang: Lang, length: Length) -> str:
    related = related_from_store(store, pr.repository, pr.number)
    narrative = narrate_extractive(pr, facts, related, lang, length)
    return render_report_markdown(build_report(pr, facts, narrative, lang, length))


def _quantiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    pick = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.1, 0.5, 0.9)]
    return (
        f"min {ordered[0]:.2f} · p10 {pick[0]:.2f} · median {pick[1]:.2f} · p90 {pick[2]:.2f} · "
        f"max {ordered[-1]:.2f} · mean {statistics.fmean(ordered):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="database file or SQLAlchemy URL")
    parser.add_argument("repository", help="OWNER/NAME")
    parser.add_argument("--lang", choices=["zh", "en"], default="zh")
    parser.add_argument("--limit", type=int, default=None, help="the newest N PRs only")
    parser.add_argument("--worst", type=int, default=0, help="also list the N PRs of 3+ files with the longest briefs")
    args = parser.parse_args()
    lang: Lang = args.lang
    missing_label = CATALOG.labels(lang).risk_tag("missing-regression-test")

    store = Store.open(resolve_database_url(args.db))
    ratios: dict[str, list[float]] = {"all": [], "3+ files": []}
    by_pr: list[tuple[float, int, int, int]] = []  # ratio, number, brief and full length
    one_lines = with_cjk = missing = 0
    try:
        for summary in store.list_prs(repository=args.repository, limit=args.limit):
            pr = store.get_pr(args.repository, summary.number)
            facts: Facts = ensure_facts(store, pr.repository, pr.number)
            full = _report(pr, facts, store, lang, "full")
            brief = _report(pr, facts, store, lang, "brief")
            ratio = len(brief) / max(1, len(full))
            ratios["all"].append(ratio)
            if len(facts.files.files) >= MIN_FILES:
                ratios["3+ files"].append(ratio)
                by_pr.append((ratio, pr.number, len(brief), len(full)))
            related = related_from_store(store, pr.repository, pr.number)
            item = feed_item(pr, facts, narrate_extractive(pr, facts, related, lang, "brief"), lang)
            one_lines += 1
            with_cjk += bool(_CJK.search(item.one_line))
            missing += missing_label.lower() in item.paragraph.lower()
    finally:
        store.close()

    print(f"{args.repository} ({lang}): {one_lines} PRs")
    for name, values in ratios.items():
        if not values:
            continue
        within = sum(v <= TARGET for v in values) / len(values)
        print(f"brief/full, {name} ({len(values)}): {_quantiles(values)}; ≤ {TARGET:.0%}: {within:.1%}")
    for ratio, number, brief_chars, full_chars in sorted(by_pr, reverse=True)[: args.worst]:
        print(f"  #{number}: {ratio:.2f} ({brief_chars} of {full_chars} characters)")
    if one_lines:
        print(f"one-liners with Chinese: {with_cjk / one_lines:.1%}")
        print(f"feed entries naming {missing_label!r}: {missing / one_lines:.1%}")


if __name__ == "__main__":
    sys.exit(main())
