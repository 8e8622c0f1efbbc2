"""The chat prompt for one PR: instructions (``prdigest/words/<lang>/prompts/``) plus fenced data.

Everything that comes from the PR or is derived from its text (title, body, comments,
paths, diff, analyzer output) goes inside blocks delimited by a random boundary token
that is removed from the data, so the data cannot close its own block; the system
prompt declares those blocks data, never instructions. The whole prompt is built within a
token budget that grows with the PR's size up to the configured maximum.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from string import Template
from typing import Protocol, cast, get_args

from prdigest.analyzers.pr_text import without_comments
from prdigest.facts_view.evidence import key_reason, reason_text, risk_evidence, tag_labels
from prdigest.facts_view.gaps import gap_notes
from prdigest.models.facts import DiscussionThread, Facts, Reference, Relation
from prdigest.models.narrative import Length, Narrative, SectionName
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.llm.budget import DiffDigest, compress_diff
from prdigest.narrate.llm.linked import LinkedItem, fit_linked, linked_need
from prdigest.narrate.llm.schema import ALL_SECTIONS, answer_keys
from prdigest.narrate.llm.tokens import MESSAGE_OVERHEAD_TOKENS, estimate_tokens, truncate_to_tokens
from prdigest.words import Lang, words
from prdigest.words import labels as output_labels

# 4: the whole story (cleaned body, every fact, whole threads), per-section instructions,
#    numbered report lists the model annotates, JSON-schema answers; dependency scopes
# 5: facts carry ids the judgement cites; linked context (related PRs' and issues' own
#    words); the judgement section (lesson, what to watch, action, argued verdict)
PROMPT_VERSION = "5"

GROUPS_TITLE = "## file group summaries (instead of the diffs left out)"
LINKED_TITLE = "## linked (related PRs and issues in their own words)"

# When everything fits the budget nothing is cut. Otherwise the facts come first (they are
# what the report stands on), then the body and the threads up to these shares of the room
# left after the instructions, and the diff is compressed by importance into the rest.
FACTS_SHARE = 0.45
BODY_SHARE = 0.15
LINKED_SHARE = 0.1
DISCUSSION_SHARE = 0.2
MAX_QUOTE_CHARS = 2000
SMALL_PR_FILES = 50
MIN_SLACK = 20
MAX_SYMBOLS_LISTED = 60
_BLANK_RUNS = re.compile(r"\n{3,}")


class RelatedLike(Protocol):
    """A related PR or issue as the caller knows it (a `PullRequest` or a `RelatedNote`)."""

    @property
    def repository(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def title(self) -> str: ...


@dataclass(frozen=True)
class Prompt:
    messages: list[dict[str, str]]
    tokens: int
    budget: int
    boundary: str
    omitted: list[str]
    digest: DiffDigest
    threads: dict[int, DiscussionThread]  # the numbers the prompt gave the threads
    related: dict[int, Reference]  # related items by number, as the facts state them
    fact_ids: frozenset[str] = frozenset()  # the ids the facts carry, what the judgement may cite
    linked: tuple[LinkedItem, ...] = ()  # the linked items that reached the prompt


_Assembled = tuple[list[dict[str, str]], int, DiffDigest, list[str], tuple[LinkedItem, ...]]


def new_boundary() -> str:
    return secrets.token_hex(6)


def strip_boundary(text: str, boundary: str) -> str:
    """`text` without any occurrence of `boundary` (removal can re-form it: loop)."""
    pattern = re.compile(re.escape(boundary), re.IGNORECASE)
    while pattern.search(text):
        text = pattern.sub("", text)
    return text


def fence(text: str, boundary: str) -> str:
    """`text` inside one data block; the boundary is removed from the text first."""
    return f"<<<DATA-{boundary}>>>\n{strip_boundary(text, boundary)}\n<<<END-{boundary}>>>"


def retry_message(lang: Lang, errors: str) -> str:
    return Template(words(lang).text("prompts/retry")).safe_substitute(errors=errors).strip()


def build_prompt(
    pr: PullRequest,
    facts: Facts,
    related: Sequence[RelatedLike],
    lang: Lang,
    length: Length,
    *,
    budget: int,
    sections: Sequence[SectionName] = ALL_SECTIONS,
    boundary: str | None = None,
    lists: Narrative | None = None,
    groups_room: int = 0,
    groups_text: str = "",
    linked: Sequence[LinkedItem] = (),
) -> Prompt:
    """The messages for `pr`, within `budget` tokens by `estimate_tokens`.

    `lists` is the narrative whose lists the report will show (the extractive one, built
    from the facts): they are numbered in the prompt so the model can annotate them.

    `groups_room` tokens are kept for `groups_text` (the file-group summaries standing in for
    the diffs left out, see `groups`), placed before the diff. The room is kept whether or
    not the text is known yet, so a prompt built before the summaries and the one built with
    them leave out the same diffs.

    `linked` (most relevant first) are the related PRs and issues with their own words; what
    of them does not fit is named in `Prompt.omitted`."""
    boundary = boundary or new_boundary()
    said = words(lang)
    system = Template(said.text("prompts/system")).safe_substitute(boundary=boundary).strip()
    user_template = Template(said.text("prompts/user"))

    guide = "\n".join(f"- {name}: {said.text(f'prompts/section-{name}').strip()}" for name in sections)

    def user(data: str) -> str:
        return user_template.safe_substitute(
            ref=pr.ref,
            length_label=said.table("llm", "length_labels")[length],
            length_rule=said.table("llm", "length_rules")[length],
            sections=guide,
            data=data,
            keys=answer_keys(tuple(sections)),
        ).strip()

    fixed = estimate_tokens(system) + estimate_tokens(user(fence("", boundary))) + 2 * MESSAGE_OVERHEAD_TOKENS
    groups_title = GROUPS_TITLE
    groups_part = ""
    if groups_room > 0 and groups_text:
        kept_groups, _ = truncate_to_tokens(groups_text, max(groups_room - estimate_tokens(groups_title) - 2, 0))
        groups_part = f"{groups_title}\n{kept_groups}"
    room = max(budget - fixed - groups_room, 0)
    omitted: list[str] = []
    threads = {i + 1: t for i, t in enumerate(facts.discussion.threads)}
    related_refs = _related(facts, related)

    facts_text, ids = _facts_text(pr, facts, related, related_refs, lang)
    if lists is not None:
        facts_text += _lists_text(lists, sections)
    # The linked block's text is made to fit its allowance (`fit_linked`); its entry here
    # only says whether there is one.
    sections_text = [
        ("## facts", facts_text, FACTS_SHARE, "facts summary"),
        ("## pr", _pr_text(pr), BODY_SHARE, "PR body"),
        (LINKED_TITLE, LINKED_TITLE if linked else "", LINKED_SHARE, "linked context"),
        ("## discussion", _discussion_text(threads), DISCUSSION_SHARE, "discussion quotes"),
    ]
    needs = [_need(title, text, linked) for title, text, _, _ in sections_text]
    allowed = _allocate(needs, [share for _, _, share, _ in sections_text], room, _diff_need(pr))
    diff_title = "## diff"

    def assemble(allowances: list[int]) -> _Assembled:
        parts: list[str] = []
        cuts: list[str] = []
        kept_linked: list[LinkedItem] = []
        for (title, text, _, what), allowance in zip(sections_text, allowances, strict=True):
            if not text:
                continue
            room_here = max(allowance - estimate_tokens(title) - 2, 0)
            if title == LINKED_TITLE:
                block = fit_linked(linked, room_here)
                cuts.extend(block.omitted)
                kept_linked.extend(block.kept)
                if block.text:
                    parts.append(f"{title}\n{block.text}")
                continue
            kept, cut = truncate_to_tokens(text, room_here)
            if cut:
                cuts.append(f"{what}: cut to fit the budget")
            parts.append(f"{title}\n{kept}")
        spent = sum(estimate_tokens(part) + 1 for part in parts) + estimate_tokens(diff_title) + 1
        diff_budget = max(room - spent, 0)
        while True:
            digest = compress_diff(pr, facts, diff_budget)
            data = "\n".join([*parts, *([groups_part] if groups_part else []), diff_title, digest.text])
            messages = [
                {"role": "system", "content": system},
                {"role": "user", "content": user(fence(data, boundary))},
            ]
            tokens = sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in messages)
            if tokens <= budget or diff_budget == 0:
                return messages, tokens, digest, cuts, tuple(kept_linked)
            diff_budget = max(diff_budget - (tokens - budget), 0)

    messages, tokens, digest, cuts, kept_linked = assemble(allowed)
    # Even an empty diff section (the file count line) did not fit: shrink the other blocks.
    for _ in range(4):
        if tokens <= budget:
            break
        over = tokens - budget
        allowed = [max(a - over, 0) for a in allowed]
        messages, tokens, digest, cuts, kept_linked = assemble(allowed)
    # Hand what the diff left unused to the blocks that were cut, if the result still fits.
    slack = budget - tokens
    if cuts and slack >= MIN_SLACK:
        candidate = assemble(_hand_out(allowed, needs, slack))
        if candidate[1] <= budget and candidate[2].lines_included >= digest.lines_included:
            messages, tokens, digest, cuts, kept_linked = candidate
    omitted.extend(cuts)
    return Prompt(
        messages=messages,
        tokens=tokens,
        budget=budget,
        boundary=boundary,
        omitted=[*omitted, *digest.omitted],
        digest=digest,
        threads=threads,
        related=related_refs,
        fact_ids=frozenset([*ids, *(f"thread:{n}" for n in threads), *(item.fact_id for item in kept_linked)]),
        linked=kept_linked,
    )


def _need(title: str, text: str, linked: Sequence[LinkedItem]) -> int:
    """Tokens a block takes whole (0: it has nothing to say)."""
    if not text:
        return 0
    if title == LINKED_TITLE:
        return linked_need(linked) + estimate_tokens(title) + 2
    return estimate_tokens(f"{title}\n{text}") + 1


def _diff_need(pr: PullRequest) -> int:
    """Tokens the whole diff would take; only worked out for PRs small enough to matter."""
    if len(pr.files) > SMALL_PR_FILES:
        return 10**9
    return sum(estimate_tokens(f.patch or "") + 2 * len(f.path) for f in pr.files) + 20 * len(pr.files)


def _allocate(needs: list[int], shares: list[float], room: int, diff_need: int) -> list[int]:
    """Tokens for each non-diff block: its need when all fits, else its share of the room,
    plus whatever the diff does not need, handed to the blocks that were cut, in order."""
    if sum(needs) + diff_need <= room:
        return needs
    allowed = [min(need, int(room * share)) for need, share in zip(needs, shares, strict=True)]
    return _hand_out(allowed, needs, room - sum(allowed) - diff_need)


def _hand_out(allowed: list[int], needs: list[int], spare: int) -> list[int]:
    """`allowed` raised towards `needs`, in order, using at most `spare` tokens."""
    out = list(allowed)
    for index, need in enumerate(needs):
        extra = max(min(need - out[index], spare), 0)
        out[index] += extra
        spare -= extra
    return out


def _related(facts: Facts, related: Sequence[RelatedLike]) -> dict[int, Reference]:
    """Related items by number: the facts' references, plus what the caller found (lineage)."""
    refs: dict[int, Reference] = {}
    for ref in facts.references.references:
        refs.setdefault(ref.number, ref)
    for item in related:
        if item.number not in refs:
            stated = getattr(item, "relation", "mentions")
            relation = cast(Relation, stated) if stated in get_args(Relation) else "mentions"
            refs[item.number] = Reference(repository=item.repository, number=item.number, relation=relation)
    return refs


def _facts_text(
    pr: PullRequest,
    facts: Facts,
    related: Sequence[RelatedLike],
    refs: dict[int, Reference],
    lang: Lang,
) -> tuple[str, list[str]]:
    """The facts block, each citable line opened by its id (``[risk:version-lock]``), and
    those ids: the judgement must rest on them (`judgement.ground`)."""
    # Evidence and reasons go in the output language, so the model's prose can quote them
    # without mixing languages (the sentences are the renderers', see facts_view.evidence).
    lab = output_labels(lang)
    ids: list[str] = []

    def cite(fact_id: str, text: str) -> str:
        ids.append(fact_id)
        return f"[{fact_id}] {text}"

    labels_of_tags = tag_labels(facts.risks.tags, lab)
    files = facts.files
    lines = [
        "[files] "
        f"files: {files.total_files or len(pr.files)} (+{files.total_additions or pr.additions}"
        f" −{files.total_deletions or pr.deletions}); modules: {', '.join(files.modules[:12]) or '-'}",
    ]
    for fact in files.key_files():
        lines.append(
            cite(
                f"file:{fact.path}",
                f"key file ({fact.category}, {fact.type}): {key_reason(fact, lab)}".rstrip(": "),
            )
        )
    symbols = facts.symbols.symbols
    if symbols:
        listed = ", ".join(f"{s.name} ({s.kind} {s.change}, {s.path})" for s in symbols[:MAX_SYMBOLS_LISTED])
        more = f", and {len(symbols) - MAX_SYMBOLS_LISTED} more" if len(symbols) > MAX_SYMBOLS_LISTED else ""
        lines.append(cite("symbols", f"symbols: {listed}{more}"))
    else:
        lines.append("symbols: none identified")
    for dep in facts.dependencies.changes:
        notes = [", ".join(dep.kinds), f"scope: {dep.scope}"]
        if dep.condition:
            notes.append(f"when {dep.condition}")
        if dep.replaced_by:
            notes.append(f"replaced by {dep.replaced_by}")
        if dep.replaces:
            notes.append(f"replaces {', '.join(dep.replaces)}")
        if dep.moved_from:
            changed = "versions changed on the way" if dep.moved_changed else "versions unchanged"
            notes.append(f"moved from {', '.join(dep.moved_from)}, {changed}")
        line = f"dependency {dep.package} in {dep.path}: {dep.before or '-'} → {dep.after or '-'} ({'; '.join(notes)})"
        if dep.newly_admitted:
            line += f"; newly admitted versions: {', '.join(dep.newly_admitted)}"
        if dep.newly_excluded:
            line += f"; newly excluded versions: {', '.join(dep.newly_excluded)}"
        if dep.versions_considered:
            line += f"; published versions around it: {', '.join(dep.versions_considered)}"
        if dep.variant_family:
            line += f"; variant family {dep.variant_family}"
        lines.append(cite(f"dep:{dep.package}", line))
    for finding in facts.dependencies.findings:
        lines.append(cite(f"finding:{finding.kind}", f"dependency finding ({finding.kind}): {finding.detail}"))
    tests = facts.tests_ci
    if tests.test_files:
        lines.append(cite("tests", f"test files changed: {', '.join(tests.test_files)}"))
    if tests.in_file_tests:
        lines.append(f"tests changed inside source files: {', '.join(tests.in_file_tests)}")
    if tests.ci_files:
        jobs = f" (jobs: {', '.join(tests.ci_jobs)})" if tests.ci_jobs else ""
        lines.append(cite("ci", f"CI files changed: {', '.join(tests.ci_files)}{jobs}"))
    flags = {
        "source changed": tests.source_changed,
        "tests changed": tests.tests_changed,
        "no test for changed source": tests.missing_tests,
        "CI changed": tests.ci_changed,
    }
    lines.append(cite("tests", "tests/CI: " + (", ".join(name for name, on in flags.items() if on) or "-")))
    if tests.removed_test_files:
        lines.append(f"test files deleted (not tests added with the change): {', '.join(tests.removed_test_files[:8])}")
    # What the source could not see: the model must not call it absent ("no review comments").
    lines.extend(cite("gap", f"data gap: {note}") for note in gap_notes(facts, lab))
    for tag in facts.risks.tags:
        label = labels_of_tags[tag.tag]
        lines.append(
            cite(f"risk:{tag.tag}", f'risk tag {tag.tag} "{label}" ({tag.severity}): {risk_evidence(tag, lab)}')
        )
    verdict = facts.verdict
    reasons = "; ".join(reason_text(r, lab, labels_of_tags) or r.detail for r in verdict.reasons)
    lines.append(cite("verdict", f"verdict: {verdict.level.value} ({reasons or '-'})"))
    titles = {item.number: item.title for item in related}
    for number, ref in refs.items():
        title = titles.get(number, "")
        text = f"related #{number} ({ref.repository}, {ref.relation}): {title} — {ref.evidence}".rstrip(" —")
        lines.append(cite(f"related:{number}", text))
    return "\n".join(lines), ["files", *ids]


def _lists_text(lists: Narrative, sections: Sequence[SectionName]) -> str:
    """The lists the report shows, numbered: the model annotates these items, never others."""
    lines: list[str] = []
    if "risks" in sections:
        lines += [f"risk item {n}: {text}" for n, text in enumerate(lists.risks, start=1)] or ["risk items: none"]
    if "key_files" in sections:
        lines += [f"key file item: {role.path}" for role in lists.file_roles] or ["key file items: none"]
    if "key_code" in sections:
        lines += [f"key code item: {note.path}" for note in lists.excerpt_notes]
    if "related" in sections:
        lines += [f"related item #{note.number} ({note.relation})" for note in lists.related] or ["related items: none"]
    if "discussion" in sections and not lists.thread_lines:
        lines.append("review threads: none")
    return "\n" + "\n".join(lines) if lines else ""


def clean_body(body: str) -> str:
    """The PR body as its author wrote it: bot blocks and HTML comments (templates) removed."""
    return _BLANK_RUNS.sub("\n\n", without_comments(body)).strip()


def _pr_text(pr: PullRequest) -> str:
    head = [f"title: {pr.title}", f"author: {pr.author or '-'}; state: {pr.state.value}"]
    if pr.labels:
        head.append(f"labels: {', '.join(pr.labels)}")
    body = clean_body(pr.body)
    return "\n".join([*head, "body:", body or "(empty)"])


def _discussion_text(threads: dict[int, DiscussionThread]) -> str:
    if not threads:
        return ""
    lines: list[str] = []
    for number, thread in threads.items():
        where = f" at {thread.path}" if thread.path else ""
        lines.append(f"[thread:{number}] thread {number} [{thread.kind}, {thread.outcome}]{where}: {thread.topic}")
        if thread.suggestion is not None:
            lines.append(f"  suggested change: {thread.suggestion or '(delete the commented lines)'}")
        for quote in thread.quotes:
            text = " ".join(quote.text.split())
            if len(text) > MAX_QUOTE_CHARS:
                text = text[:MAX_QUOTE_CHARS] + "…"
            bot = " (bot)" if quote.is_bot else ""
            lines.append(f"  {quote.author}{bot}: {text}")
    return "\n".join(lines)
