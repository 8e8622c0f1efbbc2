"""`build_report`: facts give the structure and the truth, the narrative gives the prose."""

from __future__ import annotations

from collections.abc import Sequence

from prdigest.facts_view.evidence import reason_text, risk_evidence, tag_labels
from prdigest.facts_view.gaps import gap_notes, review_data_available
from prdigest.facts_view.selection import file_symbols, key_excerpts, key_files, key_symbols_counted
from prdigest.models.facts import Facts
from prdigest.models.ledger import LedgerLink
from prdigest.models.narrative import Judgement, JudgementPoint, Length, Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.models.report import (
    ArguedVerdictItem,
    Coverage,
    Discussion,
    Header,
    Highlight,
    Impact,
    JudgementItem,
    JudgementPart,
    KeyExcerpt,
    KeyFile,
    KeySymbol,
    NarratorInfo,
    RelatedItem,
    Report,
    RisksAndImpact,
    RiskTagItem,
    Step,
    Summary,
    ThreadLine,
    Verdict,
)
from prdigest.render.ledger_items import history_items
from prdigest.words import CATALOG, Catalog, Labels, Lang

# The dependency history's lines: the brief keeps the first few (the full report has all).
MAX_HISTORY: dict[str, int | None] = {"full": None, "brief": 3}


def build_report(
    pr: PullRequest,
    facts: Facts,
    narrative: Narrative,
    lang: Lang,
    length: Length,
    *,
    catalog: Catalog = CATALOG,
    ledger: Sequence[LedgerLink] = (),
    shared: LengthFreeParts | None = None,
) -> Report:
    """The report; ``ledger`` places each dependency change between its neighbours (from the
    pipeline's `ledger_links`; empty when the caller has no store, then no history is shown).
    ``shared``: what the PR's reports of other lengths in ``lang`` made already."""
    lab = catalog.labels(lang)
    said = shared.by_lang.get(lang) if shared is not None else None
    if said is None:
        said = _said(facts, lab)
        if shared is not None:
            shared.by_lang[lang] = said
    labels_of_tags, tag_evidence, reasons = said
    chosen_symbols, hidden_symbols = key_symbols_counted(facts, length)
    roles = {r.path: r.role for r in narrative.file_roles}
    notes = {n.path: n.note for n in narrative.excerpt_notes}
    files = key_files(facts, length)
    symbols_by_path = {f.path: file_symbols(facts, f.path, length) for f in files}
    return Report(
        lang=lang,
        length=length,
        header=Header(
            repository=pr.repository,
            number=pr.number,
            title=pr.title,
            state=pr.state.value,
            state_label=lab.lookup("states", pr.state.value),
            author=pr.author,
            created_at=pr.created_at,
            merged_at=pr.merged_at,
            url=pr.url,
        ),
        coverage=Coverage(
            review_data=review_data_available(facts),
            file_list=facts.coverage.file_list,
            gaps=[*facts.coverage.gaps, *([] if review_data_available(facts) else ["review-data-unavailable"])],
            # The brief's discussion section tells the review-data gap; its header need not.
            notes=gap_notes(facts, lab, with_review_data=length == "full"),
        ),
        summary=Summary(one_line=narrative.one_line, recommendation=narrative.recommendation),
        motivation=narrative.motivation,
        implementation=[Step(title=s.title, detail=s.detail) for s in narrative.implementation],
        key_files=[
            KeyFile(
                path=f.path,
                previous_path=f.previous_path,
                status=f.status,
                module=f.module,
                module_label=lab.module(f.module),
                category=f.category,
                type=f.type,
                symbols=symbols_by_path[f.path][0],
                symbols_more=symbols_by_path[f.path][1],
                additions=f.additions,
                deletions=f.deletions,
                role=roles.get(f.path, ""),
            )
            for f in files
        ],
        key_symbols=[KeySymbol(name=s.name, path=s.path, kind=s.kind, change=s.change) for s in chosen_symbols],
        key_symbols_more=hidden_symbols,
        key_code=[
            KeyExcerpt(
                path=e.path,
                role=roles.get(e.path, ""),
                language=e.language,
                symbol=e.symbol,
                start_line=e.start_line,
                note=notes.get(e.path, ""),
                text=e.text,
                truncated=e.truncated,
            )
            for e in key_excerpts(facts, length)
        ],
        discussion=Discussion(
            overview=discussion_overview(facts, lab),
            highlights=[
                Highlight(topic=h.topic, who=h.who, summary=h.summary) for h in narrative.discussion_highlights
            ],
            threads=[
                ThreadLine(
                    topic=t.topic,
                    kind=t.kind,
                    kind_label=lab.lookup("thread_kinds", t.kind),
                    outcome=t.outcome,
                    outcome_label=lab.lookup("thread_outcomes", t.outcome),
                    note=t.note,
                )
                for t in narrative.thread_lines
            ],
            review_data=review_data_available(facts),
            review_comment_count=facts.discussion.review_comment_count,
            conversation_comment_count=facts.discussion.conversation_comment_count,
            bot_notice_count=facts.discussion.bot_notice_count,
            approvals=list(facts.discussion.approvals),
        ),
        risks=RisksAndImpact(
            risks=list(narrative.risks),
            impact=Impact(users=narrative.impact.users, system=narrative.impact.system, team=narrative.impact.team),
            tags=[
                RiskTagItem(
                    tag=t.tag,
                    label=labels_of_tags[t.tag],
                    severity=t.severity,
                    evidence=evidence,
                )
                for t, evidence in zip(facts.risks.tags, tag_evidence, strict=True)
            ],
        ),
        related=[
            RelatedItem(
                repository=r.repository,
                number=r.number,
                title=r.title,
                relation=r.relation,
                relation_label=lab.relation(r.relation),
                note=r.note,
                kind=r.kind,
                target_label=lab.related_target(
                    r.kind, r.number, None if r.repository.lower() == pr.repository.lower() else r.repository
                ),
            )
            for r in narrative.related
        ],
        dependency_history=history_items(facts.dependencies.changes, ledger, pr.merged_at is not None, lab)[
            : MAX_HISTORY[length]
        ],
        verdict=Verdict(
            level=facts.verdict.level,
            label=lab.verdict(facts.verdict.level.value),
            score=facts.verdict.score,
            # A reason without words in this language is left out, never shown as its raw code.
            reasons=list(reasons),
            paragraph=narrative.feed_paragraph,
        ),
        judgement=judgement_part(narrative.judgement, lab),
        narrator=NarratorInfo(
            narrator=narrative.narrator,
            model=narrative.cost.model,
            tokens_in=narrative.cost.tokens_in,
            tokens_out=narrative.cost.tokens_out,
            calls=narrative.cost.calls,
            seconds=narrative.cost.seconds,
            fallback_sections=list(narrative.fallback_sections),
            removed_mentions=narrative.removed_mentions,
        ),
        omitted_from_prompt=list(narrative.omitted_from_prompt),
    )


class LengthFreeParts:
    """What one PR's reports in a language show whatever their length (the risk tags' names
    and evidence, the verdict's reasons), made once when the PR is built in several lengths.
    A new one for each PR."""

    def __init__(self) -> None:
        self.by_lang: dict[str, tuple[dict[str, str], list[str], list[str]]] = {}


def _said(facts: Facts, lab: Labels) -> tuple[dict[str, str], list[str], list[str]]:
    """The risk tags' names and evidence, and the verdict's reasons, in ``lab``'s language."""
    labels_of_tags = tag_labels(facts.risks.tags, lab)
    evidence = [risk_evidence(t, lab) for t in facts.risks.tags]
    # A reason without words in this language is left out, never shown as its raw code.
    reasons = [text for r in facts.verdict.reasons if (text := reason_text(r, lab, labels_of_tags))]
    return labels_of_tags, evidence, reasons


def discussion_overview(facts: Facts, lab: Labels) -> str:
    """The discussion's counts in plain words: no review comments is said, not implied; and
    when the source holds no review data, that is said instead of any count."""
    if not review_data_available(facts):
        return lab.text("review_data_unavailable") + lab.tables["text"]["end"]
    d = facts.discussion
    parts = []
    if d.review_comment_count == 0:
        parts.append(lab.tables["text"]["no_review_comments"])
    else:
        parts.append(lab.tables["text"]["review_comments"].format(count=d.review_comment_count))
    if d.conversation_comment_count:
        parts.append(lab.tables["text"]["conversation_comments"].format(count=d.conversation_comment_count))
    if d.bot_notice_count:
        parts.append(lab.tables["text"]["bot_notices"].format(count=d.bot_notice_count))
    if d.approvals:
        parts.append(lab.tables["text"]["approvals"].format(names=lab.join(d.approvals)))
    if not d.threads:
        parts.append(lab.tables["text"]["no_threads"])
    return lab.text("semicolon").join(parts) + lab.tables["text"]["end"]


def judgement_part(judgement: Judgement | None, lab: Labels) -> JudgementPart | None:
    """The narrator's grounded judgement as the report shows it (None: it made none)."""
    if judgement is None or judgement.empty:
        return None

    def item(point: JudgementPoint | None) -> JudgementItem | None:
        return None if point is None else JudgementItem(text=point.text, facts=list(point.facts))

    argued = judgement.verdict
    return JudgementPart(
        lesson=item(judgement.lesson),
        watch_next=item(judgement.watch_next),
        action=item(judgement.action),
        argued_verdict=None
        if argued is None
        else ArguedVerdictItem(
            level=argued.level,  # type: ignore[arg-type]  # grounding kept only verdict levels
            label=lab.verdict(argued.level),
            reason=argued.reason,
            facts=list(argued.facts),
        ),
    )
