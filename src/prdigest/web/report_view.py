"""A PR's report page: stored PR + facts + narrative → the report (its Markdown for the JSON
API, its HTML from render's one HTML path for the page), with its lineage.

Facts and the narrative are read from the store, or computed and cached on first view.
"""

from __future__ import annotations

from markupsafe import Markup

from prdigest.config import LLMConfig
from prdigest.pipeline.ledger import ledger_links
from prdigest.pipeline.report import narrative_for, stored_or_current_facts
from prdigest.render.build import build_report
from prdigest.render.formats import REPORT_FORMATS
from prdigest.render.html import render_report_body_html
from prdigest.store.store import Store
from prdigest.web.lineage_view import lineage
from prdigest.web.schemas import Length, ReportPage, as_verdict
from prdigest.words import Lang


def build_report_page(
    store: Store,
    llm: LLMConfig | None,
    repository: str,
    number: int,
    lang: Lang,
    length: Length,
    *,
    shown_model: str | None = None,
) -> tuple[ReportPage, Markup]:
    """The page's data and the report's ``<article>`` (the same HTML ``publish`` writes).

    `llm` narrates what has no current narrative; without it, `shown_model`'s newest
    successful narrative is shown when stored (the feed shows the same), else the offline one."""
    pr = store.get_pr(repository, number)
    # The server shows what `prdigest analyze` stored, even from older analyzers; it analyzes
    # only a PR that has no facts at all.
    facts = stored_or_current_facts(store, pr)
    narrative = narrative_for(store, pr, facts, lang, length, llm, shown_model=shown_model)
    report = build_report(pr, facts, narrative, lang, length, ledger=ledger_links(store, repository, number, facts))
    page = ReportPage(
        repository=pr.repository,
        number=pr.number,
        title=pr.title,
        state=pr.state.value,
        url=pr.url,
        lang=lang,
        length=length,
        verdict=as_verdict(facts.verdict.level.value),
        risk_tags=[t.tag for t in facts.risks.tags],
        markdown=REPORT_FORMATS["md"].render(report),
        facts=facts,
        narrative=narrative,
        lineage=lineage(store, repository, number),
    )
    return page, render_report_body_html(report)
