"""The LLM narrator: prose from an OpenAI-compatible model, on top of facts, never raising.

`LLMNarrator.narrate` builds the prompt within the configured token budget, asks the model
for the JSON of `schema.LLMAnswer` (in the JSON schema where the endpoint supports it),
checks it section by section (shape, then language), asks once more with the problems when
sections fail, and falls back to the extractive narrative for whatever still fails (listed
in ``fallback_sections``, one line each saying why). An unreachable endpoint means every
section falls back and the narrative says why (``llm_failure``), so the cache can retry it.

Facts are authoritative: the lists a report shows (key files, key code, threads, risks,
related work) are the extractive narrative's, which come from the facts; the model may only
annotate their items by number or path, never add, drop or reorder them. Model text is
sanitized (no HTML, no script or data links) and its mentions checked (`validate`) before it
is stored.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.models.facts import Facts
from prdigest.models.narrative import (
    DiscussionHighlight,
    ExcerptNote,
    FileRole,
    Impact,
    ImplementationStep,
    Length,
    NarrationCost,
    Narrative,
    RelatedNote,
    SectionName,
    StepCost,
    ThreadLine,
)
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.llm.capabilities import CapabilityMemory
from prdigest.narrate.llm.client import CallStats, ChatClient, cancelled
from prdigest.narrate.llm.groups import (
    SUMMARY_SCHEMA,
    SUMMARY_TOKENS,
    FileGroup,
    GroupSummary,
    cut_summary,
    group_messages,
    groups_room,
    plan_groups,
    room_for,
    summaries_text,
)
from prdigest.narrate.llm.judgement import ground
from prdigest.narrate.llm.language_check import language_problem
from prdigest.narrate.llm.linked import LinkedItem
from prdigest.narrate.llm.prompt import Prompt, RelatedLike, build_prompt, retry_message
from prdigest.narrate.llm.sanitize import sanitize
from prdigest.narrate.llm.schema import ALL_SECTIONS, SectionValues, extract_json_object, parse_answer, strict_schema
from prdigest.narrate.llm.step_cache import StepCache, step_key
from prdigest.narrate.llm.tokens import estimate_tokens
from prdigest.narrate.llm.validate import KnownMentions, clean_mentions
from prdigest.words import Lang

logger = logging.getLogger(__name__)

# Fields that name things rather than say them: not checked for the output language.
_NAME_FIELDS = frozenset({"path", "who", "thread", "number", "item", "facts", "level"})


@dataclass(frozen=True)
class NarrationJob:
    pr: PullRequest
    facts: Facts
    related: Sequence[RelatedLike]
    lang: Lang
    length: Length
    fallback: Narrative
    linked: Sequence[LinkedItem] = ()


class LLMNarrator:
    def __init__(
        self,
        config: LLMConfig,
        *,
        sleep: Callable[[float], None] = time.sleep,
        memory: CapabilityMemory | None = None,
        steps: StepCache | None = None,
    ) -> None:
        """`memory` keeps what the endpoint accepts (the pipeline passes the store's, so it
        is remembered across runs); without it, for this narrator's life. `steps` keeps the
        answers of single steps (file-group summaries) across runs."""
        self._config = config
        self._sleep = sleep
        self._memory = memory
        self._steps = steps
        self._client: ChatClient | None = None
        self._lock = threading.Lock()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def narrate(
        self,
        pr: PullRequest,
        facts: Facts,
        related: Sequence[RelatedLike],
        lang: Lang,
        length: Length,
        *,
        fallback: Narrative,
        linked: Sequence[LinkedItem] = (),
    ) -> Narrative:
        """The narrative of `pr`: LLM prose where valid, `fallback`'s text elsewhere.

        A PR whose diff does not fit is told in two steps: file-group summaries first, then
        the synthesis call with the summaries, the facts and the `linked` context."""
        started = time.monotonic()
        stats = CallStats()
        steps: list[StepCost] = []
        values: SectionValues = {}
        problems: dict[SectionName, str] = {}
        prompts: list[Prompt] = []
        models: list[str] = []
        summaries: list[GroupSummary] = []
        failure = ""
        try:
            room, text = 0, ""

            def prompt_for(sections: tuple[SectionName, ...], room: int, text: str) -> Prompt:
                return build_prompt(
                    pr,
                    facts,
                    related,
                    lang,
                    length,
                    budget=self._config.token_budget,
                    sections=sections,
                    lists=fallback,
                    groups_room=room,
                    groups_text=text,
                    linked=linked,
                )

            for index, (model, sections) in enumerate(self._model_groups()):
                prompt = prompt_for(sections, room, text)
                if index == 0 and prompt.digest.diff_left_out and self._config.group_calls > 0:
                    # Even compressed, the diff leaves files out: summarize them in groups first.
                    planned = groups_room(self._config.token_budget)
                    summaries = self._summarize_groups(
                        pr, facts, related, lang, length, fallback, planned, stats, steps, linked
                    )
                    text = summaries_text(pr, facts, summaries)
                    room = room_for(text, planned)
                    prompt = prompt_for(sections, room, text)
                prompts.append(prompt)
                models.append(model)
                step = "synthesis" if index == 0 else f"sections {', '.join(sections)}"
                got, failed = self._ask(prompt, model, sections, stats, lang, steps, step)
                values.update(got)
                problems.update(failed)
        except NarrationError as exc:  # secret-free by construction
            failure = str(exc)
        except Exception as exc:  # an LLM failure must never cost the user the report
            failure = f"the LLM narrator failed ({type(exc).__name__})"
        narrative, removed = _merge(pr, facts, related, lang, fallback, values, prompts)
        if narrative.narrator == "extractive" and not failure:
            failure = "no section of the answer was usable: " + "; ".join(dict.fromkeys(problems.values()))
        _report_fallbacks(pr, lang, length, narrative, problems, failure)
        cost = NarrationCost(
            model=", ".join(dict.fromkeys(models)) or self._config.model,
            tokens_in=stats.tokens_in,
            tokens_out=stats.tokens_out,
            calls=stats.calls,
            seconds=round(time.monotonic() - started, 6),
            steps=steps,
        )
        return narrative.model_copy(
            update={
                "lang": lang,
                "length": length,
                "removed_mentions": removed,
                "omitted_from_prompt": [*(prompts[0].omitted if prompts else []), *(s.note for s in summaries)],
                "cost": cost,
                "llm_failure": failure if narrative.narrator == "extractive" else "",
            }
        )

    def narrate_many(self, jobs: Sequence[NarrationJob], concurrency: int | None = None) -> list[Narrative]:
        """Narratives of `jobs`, in order, at most `concurrency` (default: config) at once."""
        workers = max(1, concurrency or self._config.concurrency)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(
                pool.map(
                    lambda job: self.narrate(
                        job.pr, job.facts, job.related, job.lang, job.length, fallback=job.fallback, linked=job.linked
                    ),
                    jobs,
                )
            )

    def _model_groups(self) -> list[tuple[str, tuple[SectionName, ...]]]:
        """The main model with its sections, then one call per other section model."""
        main = self._config.model
        others: dict[str, list[SectionName]] = {}
        for section in ALL_SECTIONS:
            model = self._config.section_models.get(section)
            if model and model != main:
                others.setdefault(model, []).append(section)
        moved = {s for sections in others.values() for s in sections}
        groups = [(main, tuple(s for s in ALL_SECTIONS if s not in moved))]
        groups += [(model, tuple(sections)) for model, sections in others.items()]
        return [(model, sections) for model, sections in groups if sections]

    def _summarize_groups(
        self,
        pr: PullRequest,
        facts: Facts,
        related: Sequence[RelatedLike],
        lang: Lang,
        length: Length,
        fallback: Narrative,
        room: int,
        stats: CallStats,
        steps: list[StepCost],
        linked: Sequence[LinkedItem],
    ) -> list[GroupSummary]:
        """One summary per group of the files the final prompt (with `room` kept for the
        summaries) leaves out; a failed group is listed only, and says why, never raises
        (but Ctrl-C stops it)."""
        budget = self._config.token_budget
        planned = build_prompt(
            pr,
            facts,
            related,
            lang,
            length,
            budget=budget,
            lists=fallback,
            groups_room=room,
            groups_text="",
            linked=linked,
        )
        groups = plan_groups(pr, facts, planned.digest.diff_left_out, budget, self._config.group_calls)
        client = self._get_client()
        summaries: list[GroupSummary] = []
        model = self._config.model
        for group in groups:
            messages, tokens = group_messages(pr, facts, group, lang, budget, planned.boundary)
            name = f"group {group.number}/{group.of}"
            key = step_key(model, messages, planned.boundary)
            remembered = self._steps.recall(key) if self._steps is not None else None
            if remembered is not None:
                steps.append(StepCost(step=name, model=model, cached=True))
                summaries.append(GroupSummary(group=group, text=remembered))
                continue
            begun, before = time.monotonic(), (stats.tokens_in, stats.tokens_out)
            try:
                answer = client.complete(messages, model, stats, SUMMARY_SCHEMA, max_tokens=2 * SUMMARY_TOKENS)
            except NarrationError as exc:
                if cancelled():
                    raise
                steps.append(_step_cost(name, model, stats, before, begun))
                summaries.append(_failed_group(pr, lang, length, group, str(exc)))
                continue
            _count(stats, answer.tokens_in, answer.tokens_out, tokens, answer.content)
            steps.append(_step_cost(name, model, stats, before, begun))
            summary = _summary_of(answer.content)
            if summary and self._steps is not None:
                self._steps.remember(key, cut_summary(sanitize(summary)))
            if summary:
                summaries.append(GroupSummary(group=group, text=cut_summary(sanitize(summary))))
            else:
                summaries.append(_failed_group(pr, lang, length, group, "the answer had no usable summary"))
        return summaries

    def _get_client(self) -> ChatClient:
        with self._lock:
            if self._client is None:
                self._client = ChatClient(self._config, sleep=self._sleep, memory=self._memory)
            return self._client

    def _ask(
        self,
        prompt: Prompt,
        model: str,
        sections: tuple[SectionName, ...],
        stats: CallStats,
        lang: Lang,
        steps: list[StepCost],
        step: str,
    ) -> tuple[SectionValues, dict[SectionName, str]]:
        """Valid sections, and why each other section failed (after one retry)."""
        client = self._get_client()
        schema = strict_schema(sections)
        begun, before = time.monotonic(), (stats.tokens_in, stats.tokens_out)
        try:
            answer = client.complete(prompt.messages, model, stats, schema)
        except NarrationError:
            steps.append(_step_cost(step, model, stats, before, begun))  # a failed call costs its time
            raise
        _count(stats, answer.tokens_in, answer.tokens_out, prompt.tokens, answer.content)
        steps.append(_step_cost(step, model, stats, before, begun))
        values, errors = _checked(answer.content, sections, lang)
        if not errors:
            return values, {}
        if len(set(errors.values())) == 1 and len(errors) == len(sections):
            problems = next(iter(errors.values()))  # one cause for the whole answer
        else:
            problems = "\n".join(f"- {section}: {message}" for section, message in errors.items())
        follow_up = [
            *prompt.messages,
            {"role": "assistant", "content": answer.content},
            {"role": "user", "content": retry_message(lang, problems)},
        ]
        begun, before = time.monotonic(), (stats.tokens_in, stats.tokens_out)
        try:
            second = client.complete(follow_up, model, stats, strict_schema(tuple(errors)))
        except NarrationError as exc:
            steps.append(_step_cost(f"{step} retry", model, stats, before, begun))
            return values, {section: f"{errors[section]}; the retry failed: {exc}" for section in errors}
        _count(
            stats,
            second.tokens_in,
            second.tokens_out,
            sum(estimate_tokens(m["content"]) for m in follow_up),
            second.content,
        )
        steps.append(_step_cost(f"{step} retry", model, stats, before, begun))
        again, still = _checked(second.content, tuple(errors), lang)
        return {**values, **again}, still


def _step_cost(step: str, model: str, stats: CallStats, before: tuple[int, int], begun: float) -> StepCost:
    """The tokens and seconds one step added to `stats` since `before` / `begun`."""
    return StepCost(
        step=step,
        model=model,
        tokens_in=stats.tokens_in - before[0],
        tokens_out=stats.tokens_out - before[1],
        seconds=round(time.monotonic() - begun, 6),
    )


def _summary_of(content: str) -> str:
    try:
        value = extract_json_object(content).get("summary")
    except ValueError:
        return ""
    return value.strip() if isinstance(value, str) else ""


def _failed_group(pr: PullRequest, lang: Lang, length: Length, group: FileGroup, why: str) -> GroupSummary:
    logger.warning(
        "LLM narration of %s (%s, %s): file group %d of %d (%d files) is listed without a summary: %s",
        pr.ref,
        lang,
        length,
        group.number,
        group.of,
        len(group.paths),
        why,
    )
    return GroupSummary(group=group, text="", failure=why)


def _count(stats: CallStats, tokens_in: int | None, tokens_out: int | None, prompt_tokens: int, content: str) -> None:
    # Servers that leave usage out (some llama.cpp and Ollama builds) are costed by estimate.
    stats.tokens_in += tokens_in if tokens_in is not None else prompt_tokens
    stats.tokens_out += tokens_out if tokens_out is not None else estimate_tokens(content)
    if tokens_in is None:
        stats.usage_missing = True


def _checked(
    content: str, sections: tuple[SectionName, ...], lang: Lang
) -> tuple[SectionValues, dict[SectionName, str]]:
    """The sections of `content` that have the right shape and are written in `lang`."""
    values, errors = parse_answer(content, sections)
    for section in list(values):
        problem = language_problem(_prose(values[section]), lang)
        if problem is not None:
            del values[section]
            errors[section] = problem
    return values, errors


def _prose(value: Any) -> list[str]:
    """Every prose string inside a section's parsed value (names, paths and numbers left out)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() if key not in _NAME_FIELDS for text in _prose(item)]
    if isinstance(value, list):
        return [text for item in value for text in _prose(item)]
    if hasattr(value, "model_dump"):
        return _prose(value.model_dump())
    return []


def _report_fallbacks(
    pr: PullRequest,
    lang: Lang,
    length: Length,
    narrative: Narrative,
    problems: dict[SectionName, str],
    failure: str,
) -> None:
    """One line per fallback, saying why."""
    where = f"{pr.ref} ({lang}, {length})"
    if narrative.narrator == "extractive":
        logger.warning("LLM narration of %s falls back to the offline text: %s", where, failure)
        return
    for section in narrative.fallback_sections:
        why = problems.get(section, "the answer had no usable text for it")
        logger.warning("LLM narration of %s: section %s falls back to the offline text: %s", where, section, why)
    for rejection in narrative.grounding_rejections:
        logger.warning("LLM narration of %s: grounding dropped %s", where, rejection)


def _merge(
    pr: PullRequest,
    facts: Facts,
    related: Sequence[RelatedLike],
    lang: Lang,
    fallback: Narrative,
    values: SectionValues,
    prompts: list[Prompt],
) -> tuple[Narrative, int]:
    """`fallback` with the valid LLM sections put in, sanitized and their mentions checked,
    the judgement grounded in the prompts' fact ids."""
    prompt = prompts[0] if prompts else None
    extra = [(item.repository, item.number) for item in related]
    known = KnownMentions.from_facts(pr, facts, extra_numbers=extra)
    removed = 0

    def clean(text: str) -> str:
        nonlocal removed
        cleaned, count = clean_mentions(sanitize(text), known, lang)
        removed += count
        return cleaned.strip()

    update: dict[str, Any] = {}
    used: set[SectionName] = set()
    for section, fields in values.items():
        if section == "judgement":
            fact_ids = {fact_id for one in prompts for fact_id in one.fact_ids}
            grounded = ground(fields["judgement"], fact_ids, facts.verdict.level.value, clean)
            update.update({"judgement": grounded.judgement, "grounding_rejections": grounded.rejections})
            used.add(section)
            continue
        built, dropped = _section(section, fields, known, prompt, facts, fallback, clean)
        removed += dropped
        if built is not None:
            update.update(built)
            used.add(section)
    # A judgement alone (it may be empty) makes no LLM narrative: the prose sections do.
    if not used - {"judgement"}:
        used = set()
        update = {}
    narrative = fallback.model_copy(
        update={
            **update,
            "narrator": "llm" if used else "extractive",
            "fallback_sections": [s for s in ALL_SECTIONS if s not in used],
        }
    )
    return narrative, removed


def _annotations(items: list[Any], key: Callable[[Any], Any], text: Callable[[Any], Any]) -> tuple[dict[Any, Any], int]:
    """The model's note per list item (first one wins), and how many named no known item."""
    notes: dict[Any, Any] = {}
    unknown = 0
    for item in items:
        k = key(item)
        if k is None:
            unknown += 1
        elif k not in notes:
            notes[k] = text(item)
    return notes, unknown


def _section(
    section: SectionName,
    fields: dict[str, Any],
    known: KnownMentions,
    prompt: Prompt | None,
    facts: Facts,
    fallback: Narrative,
    clean: Callable[[str], str],
) -> tuple[dict[str, Any] | None, int]:
    """The Narrative fields of one valid section, and how many items were dropped as unknown.

    List sections keep `fallback`'s items (they come from the facts) in their order; the
    model's text replaces an item's note where it annotated that item, and answers about
    items the facts do not have are dropped and counted."""
    if section == "summary":
        return {"one_line": clean(fields["one_line"]), "recommendation": clean(fields["recommendation"])}, 0
    if section == "motivation":
        return {"motivation": clean(fields["motivation"])}, 0
    if section == "implementation":
        steps = [ImplementationStep(title=clean(s.title), detail=clean(s.detail)) for s in fields["implementation"]]
        return {"implementation": [s for s in steps if s.title or s.detail]}, 0
    if section == "key_files":
        notes, unknown = _annotations(fields["file_roles"], lambda i: known.resolve_path(i.path), lambda i: i.role)
        roles = [
            FileRole(path=r.path, role=clean(notes[r.path]) or r.role if r.path in notes else r.role)
            for r in fallback.file_roles
        ]
        return {"file_roles": roles}, unknown + _unlisted(notes, {r.path for r in fallback.file_roles})
    if section == "key_code":
        notes, unknown = _annotations(fields["excerpt_notes"], lambda i: known.resolve_path(i.path), lambda i: i.note)
        excerpts = [
            ExcerptNote(path=e.path, note=clean(notes[e.path]) or e.note if e.path in notes else e.note)
            for e in fallback.excerpt_notes
        ]
        return {"excerpt_notes": excerpts}, unknown + _unlisted(notes, {e.path for e in fallback.excerpt_notes})
    if section == "discussion":
        threads = prompt.threads if prompt else {}
        notes, unknown = _annotations(
            fields["thread_lines"], lambda i: i.thread if i.thread in threads else None, lambda i: i
        )
        lines: list[ThreadLine] = []
        for number, line in enumerate(fallback.thread_lines, start=1):
            said = notes.get(number)
            if said is None:
                lines.append(line)
                continue
            lines.append(
                line.model_copy(
                    update={"topic": clean(said.topic) or line.topic, "note": clean(said.note) or line.note}
                )
            )
        unknown += _unlisted(notes, set(range(1, len(fallback.thread_lines) + 1)))
        # Highlights retell the threads: with no thread in the facts there is nothing to tell.
        highlights: list[DiscussionHighlight] = []
        if facts.discussion.threads:
            highlights = [
                DiscussionHighlight(topic=clean(h.topic), who=clean(h.who), summary=clean(h.summary))
                for h in fields["discussion_highlights"]
            ]
        else:
            unknown += len(fields["discussion_highlights"])
        return {"discussion_highlights": highlights, "thread_lines": lines}, unknown
    if section == "risks":
        count = len(fallback.risks)
        notes, unknown = _annotations(
            fields["risks"], lambda i: i.item if 1 <= i.item <= count else None, lambda i: i.text
        )
        risks = [clean(notes[n]) or text if n in notes else text for n, text in enumerate(fallback.risks, start=1)]
        impact = fields["impact"]
        return {
            "risks": risks,
            "impact": Impact(users=clean(impact.users), system=clean(impact.system), team=clean(impact.team)),
        }, unknown
    if section == "related":
        notes, unknown = _annotations(fields["related"], lambda i: i.number, lambda i: i.note)
        listed = {n.number for n in fallback.related}
        items: list[RelatedNote] = [
            n.model_copy(update={"note": clean(notes[n.number]) or n.note}) if n.number in notes else n
            for n in fallback.related
        ]
        return {"related": items}, unknown + _unlisted(notes, listed)
    return {"feed_title": clean(fields["feed_title"]), "feed_paragraph": clean(fields["feed_paragraph"])}, 0


def _unlisted(notes: dict[Any, Any], listed: set[Any]) -> int:
    """Answers about items that exist but are not in the report's list (the model added them)."""
    return sum(1 for key in notes if key not in listed)
