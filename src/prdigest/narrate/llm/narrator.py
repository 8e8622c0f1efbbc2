"""The LLM narrator: prose from an OpenAI-compatible model, on top of facts, never raising.

`LLMNarrator.narrate` builds the prompt within the PR's token budget, asks the model for
the JSON of `schema.LLMAnswer`, validates it section by section, asks once more with the
validation errors when sections are invalid, and falls back to the extractive narrative
for whatever is still invalid (listed in ``fallback_sections``). An unreachable endpoint
means every section falls back: the report is still produced, with the cost recorded.
The model writes prose only; paths, thread kinds and outcomes and relations come from the
facts, and every mention in the prose is checked against them (`validate`).
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
    ThreadLine,
)
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.llm.client import CallStats, ChatClient
from prdigest.narrate.llm.prompt import Prompt, RelatedLike, build_prompt, prompt_budget, retry_message
from prdigest.narrate.llm.schema import ALL_SECTIONS, SectionValues, parse_answer
from prdigest.narrate.llm.tokens import estimate_tokens
from prdigest.narrate.llm.validate import KnownMentions, clean_mentions
from prdigest.words import Lang

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class NarrationJob:
    pr: PullRequest
    facts: Facts
    related: Sequence[RelatedLike]
    lang: Lang
    length: Length
    fallback: Narrative


class LLMNarrator:
    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._config = config
        self._sleep = sleep
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
    ) -> Narrative:
        """The narrative of `pr`: LLM prose where valid, `fallback`'s text elsewhere."""
        started = time.monotonic()
        stats = CallStats()
        values: SectionValues = {}
        prompts: list[Prompt] = []
        models: list[str] = []
        try:
            budget = prompt_budget(pr, self._config.token_budget)
            for model, sections in self._model_groups():
                prompt = build_prompt(pr, facts, related, lang, length, budget=budget, sections=sections)
                prompts.append(prompt)
                models.append(model)
                values.update(self._ask(prompt, model, sections, stats, lang))
        except NarrationError as exc:  # secret-free by construction
            logger.warning("LLM narration of %s falls back to extractive text: %s", pr.ref, exc)
        except Exception as exc:  # an LLM failure must never cost the user the report
            logger.warning("LLM narration of %s failed (%s); extractive text used", pr.ref, type(exc).__name__)
        narrative, removed = _merge(pr, facts, related, lang, fallback, values, prompts[0] if prompts else None)
        cost = NarrationCost(
            model=", ".join(dict.fromkeys(models)) or self._config.model,
            tokens_in=stats.tokens_in,
            tokens_out=stats.tokens_out,
            calls=stats.calls,
            seconds=round(time.monotonic() - started, 6),
        )
        return narrative.model_copy(
            update={
                "lang": lang,
                "length": length,
                "removed_mentions": removed,
                "omitted_from_prompt": prompts[0].omitted if prompts else [],
                "cost": cost,
            }
        )

    def narrate_many(self, jobs: Sequence[NarrationJob], concurrency: int | None = None) -> list[Narrative]:
        """Narratives of `jobs`, in order, at most `concurrency` (default: config) at once."""
        workers = max(1, concurrency or self._config.concurrency)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(
                pool.map(
                    lambda job: self.narrate(
                        job.pr, job.facts, job.related, job.lang, job.length, fallback=job.fallback
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

    def _get_client(self) -> ChatClient:
        with self._lock:
            if self._client is None:
                self._client = ChatClient(self._config, sleep=self._sleep)
            return self._client

    def _ask(
        self, prompt: Prompt, model: str, sections: tuple[SectionName, ...], stats: CallStats, lang: Lang
    ) -> SectionValues:
        client = self._get_client()
        answer = client.complete(prompt.messages, model, stats)
        stats.tokens_in += answer.tokens_in if answer.tokens_in is not None else prompt.tokens
        stats.tokens_out += answer.tokens_out if answer.tokens_out is not None else estimate_tokens(answer.content)
        values, errors = parse_answer(answer.content, sections)
        if not errors:
            return values
        if len(set(errors.values())) == 1 and len(errors) == len(sections):
            problems = next(iter(errors.values()))  # one cause for the whole answer
        else:
            problems = "\n".join(f"- {section}: {message}" for section, message in errors.items())
        follow_up = [
            *prompt.messages,
            {"role": "assistant", "content": answer.content},
            {"role": "user", "content": retry_message(lang, problems)},
        ]
        try:
            second = client.complete(follow_up, model, stats)
        except NarrationError as exc:
            logger.warning("LLM retry with the validation errors failed: %s", exc)
            return values
        stats.tokens_in += (
            second.tokens_in if second.tokens_in is not None else sum(estimate_tokens(m["content"]) for m in follow_up)
        )
        stats.tokens_out += second.tokens_out if second.tokens_out is not None else estimate_tokens(second.content)
        again, _ = parse_answer(second.content, tuple(errors))
        return {**values, **again}


def _merge(
    pr: PullRequest,
    facts: Facts,
    related: Sequence[RelatedLike],
    lang: Lang,
    fallback: Narrative,
    values: SectionValues,
    prompt: Prompt | None,
) -> tuple[Narrative, int]:
    """`fallback` with the valid LLM sections put in, their mentions checked."""
    extra = [(item.repository, item.number) for item in related]
    known = KnownMentions.from_facts(pr, facts, extra_numbers=extra)
    removed = 0

    def clean(text: str) -> str:
        nonlocal removed
        cleaned, count = clean_mentions(text, known, lang)
        removed += count
        return cleaned

    update: dict[str, Any] = {}
    used: set[SectionName] = set()
    for section, fields in values.items():
        built, dropped = _section(section, fields, known, prompt, related, fallback, clean)
        removed += dropped
        if built is not None:
            update.update(built)
            used.add(section)
    narrative = fallback.model_copy(
        update={
            **update,
            "narrator": "llm" if used else "extractive",
            "fallback_sections": [s for s in ALL_SECTIONS if s not in used],
        }
    )
    return narrative, removed


def _section(
    section: SectionName,
    fields: dict[str, Any],
    known: KnownMentions,
    prompt: Prompt | None,
    related: Sequence[RelatedLike],
    fallback: Narrative,
    clean: Callable[[str], str],
) -> tuple[dict[str, Any] | None, int]:
    """The Narrative fields of one valid section, and how many items were dropped as unknown."""
    dropped = 0
    if section == "summary":
        return {"one_line": clean(fields["one_line"]), "recommendation": clean(fields["recommendation"])}, 0
    if section == "motivation":
        return {"motivation": clean(fields["motivation"])}, 0
    if section == "implementation":
        steps = [ImplementationStep(title=clean(s.title), detail=clean(s.detail)) for s in fields["implementation"]]
        return {"implementation": steps}, 0
    if section in ("key_files", "key_code"):
        name, cls, text_field = (
            ("file_roles", FileRole, "role") if section == "key_files" else ("excerpt_notes", ExcerptNote, "note")
        )
        items: list[Any] = []
        for item in fields[name]:
            path = known.resolve_path(item.path)
            if path is None:
                dropped += 1
                continue
            items.append(cls(path=path, **{text_field: clean(getattr(item, text_field))}))
        if fields[name] and not items and getattr(fallback, name):
            return None, dropped  # every item was invented: the extractive list is better
        return {name: items}, dropped
    if section == "discussion":
        threads = prompt.threads if prompt else {}
        lines: list[ThreadLine] = []
        for item in fields["thread_lines"]:
            thread = threads.get(item.thread)
            if thread is None:
                dropped += 1
                continue
            lines.append(
                ThreadLine(topic=clean(item.topic), kind=thread.kind, outcome=thread.outcome, note=clean(item.note))
            )
        highlights = [
            DiscussionHighlight(topic=clean(h.topic), who=clean(h.who), summary=clean(h.summary))
            for h in fields["discussion_highlights"]
        ]
        return {"discussion_highlights": highlights, "thread_lines": lines}, dropped
    if section == "risks":
        impact = fields["impact"]
        return {
            "risks": [clean(r) for r in fields["risks"]],
            "impact": Impact(users=clean(impact.users), system=clean(impact.system), team=clean(impact.team)),
        }, 0
    if section == "related":
        refs = prompt.related if prompt else {}
        titles = {n.number: n.title for n in fallback.related} | {i.number: i.title for i in related if i.title}
        notes: list[RelatedNote] = []
        for item in fields["related"]:
            ref = refs.get(item.number)
            if ref is None:
                dropped += 1
                continue
            notes.append(
                RelatedNote(
                    repository=ref.repository,
                    number=ref.number,
                    title=titles.get(ref.number, ""),
                    relation=ref.relation,
                    note=clean(item.note),
                    kind=ref.target_kind,
                )
            )
        return {"related": notes}, dropped
    return {"feed_title": clean(fields["feed_title"]), "feed_paragraph": clean(fields["feed_paragraph"])}, 0
