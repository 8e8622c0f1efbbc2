"""A PR's report page: stored PR + facts + narrative → Markdown, with its lineage.

Facts and the narrative are read from the store, or computed and cached on first view.
"""

from __future__ import annotations

from prdigest.config import LLMConfig
from prdigest.pipeline.report import narrative_for, stored_or_current_facts
from prdigest.render.build import build_report
from prdigest.render.markdown import render_report_markdown
from prdigest.store.store import Store
from prdigest.web.lineage_view import lineage
from prdigest.web.schemas import Length, ReportPage, as_verdict
from prdigest.words import Lang


def build_report_page(
    store: Store, llm: LLMConfig | None, repository: str, number: int, lang: Lang, length: Length
) -> ReportPage:
    pr = store.get_pr(repository, number)
    # The server shows what `prdigest analyze` stored, even from older analyzers; it analyzes
    # only a PR that has no facts at all.
    facts = stored_or_current_facts(store, pr)
    narrative = narrative_for(store, pr, facts, lang, length, llm)
    return ReportPage(
        repository=pr.repository,
        number=pr.number,
        title=pr.title,
        state=pr.state.value,
        url=pr.url,
        lang=lang,
        length=length,
        verdict=as_verdict(facts.verdict.level.value),
        risk_tags=[t.tag for t in facts.risks.tags],
        markdown=render_report_markdown(build_report(pr, facts, narrative, lang, length)),
        facts=facts,
        narrative=narrative,
        lineage=lineage(store, repository, number),
    )
