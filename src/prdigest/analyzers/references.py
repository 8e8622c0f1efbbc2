"""References to other PRs and issues, with the relation the text states.

Sources, in order: title, body, commit messages, conversation comments, review bodies,
review comments, then the record's ``closing_issues``. Forms: ``#N``, ``OWNER/NAME#N``,
``GH-N`` and github.com ``/pull/N`` / ``/issues/N`` URLs. Code blocks, inline code,
HTML comments (PR templates) and HTML entities are ignored.

A reference is deduplicated per (repository, number): the strongest relation wins
(see `RELATION_STRENGTH`), with the evidence of its first occurrence; self-references
are dropped. ``Revert "..."`` titles and commit subjects mark the references inside the
quotes as reverted; ``This reverts commit SHA`` fills ``reverted_commits``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.deferrals import deferrals_in_text
from prdigest.analyzers.reference_patterns import (
    LIST_GLUE,
    REAPPLY_TITLE,
    RELATION_STRENGTH,
    REVERT_TITLE,
    REVERTS_COMMIT,
    REVERTS_COMMIT_PROSE,
    TODO_LINE,
    RawRef,
    SentenceBounds,
    clause_subject,
    find_raw_refs,
    mask_code_and_markup,
    mask_for_evidence,
    mask_squashed_merges,
    object_after_verb,
    opens_clause,
    pronoun_relation,
    quoted_spans,
    relation_before,
    sentence_around,
    sentence_bounds,
    title_head_span,
    upstream_repository,
    waits_for,
)
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.squash_body import mask_foreign_blocks, own_subjects
from prdigest.analyzers.title_rules import own_reverted_shas
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.diff import file_diff
from prdigest.models.facts import Deferral, Reference, ReferencesFacts, Relation
from prdigest.models.pullrequest import FileStatus, PullRequest

Where = Literal["title", "body", "commit", "comment", "review", "git-revert", "closing-issue", "code"]

# A news fragment (towncrier and its kin): `changelog/1234.bugfix.rst`, `changes/88.feature`,
# `newsfragments/5.removal.md`. Its name is the number of the issue or PR the entry is for.
_FRAGMENT = re.compile(
    r"(?:^|/)(?:changelog|changelog\.d|changes|news|newsfragments|\.changes)/(?P<number>\d{1,9})"
    r"\.(?:[a-z][\w-]*\.\w+|(?!(?:rst|md|txt|adoc)$)[a-z][\w-]*)$",  # N.kind.ext or N.kind; N.rst is a page
    re.IGNORECASE,
)
# "fix: restore the fallback (#4645)": a squash-merged commit subject names the PR it came
# from. Carried into another PR (a cherry-pick, a backport), it says nothing of how the two
# relate: the verb is what that commit did, not what this PR does to #4645.
_SQUASH_SUFFIX = re.compile(r"\(\s*#\d{1,9}\s*\)\s*$")


@dataclass(frozen=True)
class _Text:
    where: Where
    text: str
    # Set for titles and commit subjects: `Revert "..."` / `Reapply "..."` semantics apply.
    is_subject: bool = False


def _texts(pr: PullRequest) -> Iterator[_Text]:
    yield _Text("title", pr.title, is_subject=True)
    # "* Add union operators (#1239)" in the squash body of "Add union operators": the PR's
    # own commit, its subject the title with the number its author gave it.
    texts = (pr.body, *(commit.message for commit in pr.commits))
    for subject in dict.fromkeys(found for text in texts for found in own_subjects(text, pr.title)):
        yield _Text("title", subject, is_subject=True)
    yield _Text("body", pr.body)
    for commit in pr.commits:
        subject, _, rest = commit.message.partition("\n")
        # Merge commits ("Merge pull request #N from ...", "Merge branch main") cite main's PRs.
        if subject.startswith("Merge "):
            continue
        yield _Text("commit", subject, is_subject=True)
        yield _Text("commit", rest)
    for comment in pr.comments:
        yield _Text("comment", comment.body)
    for review in pr.reviews:
        yield _Text("review", review.body)
    for thread in pr.review_threads:
        for review_comment in thread.comments:
            yield _Text("review", review_comment.body)
    todos = [line for change in pr.files for line in file_diff(change).added() if TODO_LINE.search(line)]
    if todos:
        # "# TODO(#61): drop the shim": the code itself says what is left for later, and where.
        yield _Text("code", "\n\n".join(line.strip() for line in todos))


def references_in_text(
    text: str,
    own_repository: str,
    where: Where = "body",
    is_subject: bool = False,
    own_number: int | None = None,
    title: str | None = None,
) -> list[Reference]:
    """Every reference in one text, in order, not deduplicated (self-references kept).

    In a body, the commit blocks of other PRs a squash message embeds (``* subject (#M)``
    and what follows it) are not this PR's words: nothing in them is read."""
    masked = mask_code_and_markup(text) if where != "code" else text
    if not is_subject:
        masked = mask_foreign_blocks(mask_squashed_merges(masked), own_number, title)
    raw = find_raw_refs(masked, own_repository)
    if not raw:
        return []
    # References are found in `masked`; the evidence quotes `shown`, which keeps inline code.
    shown = mask_for_evidence(text) if where != "code" else text
    bounds = sentence_bounds(masked)
    quoted = _subject_relation(masked) if is_subject else (None, (0, 0))
    relations = _relations(masked, raw, quoted, bounds)
    if is_subject and where == "commit":
        _unrelate_squash_suffix(masked, raw, relations, quoted[1])
    if where == "title" and quoted[0] is None:
        _relate_by_title_head(masked, raw, relations)
    owners = _quoted_owners(masked, raw, relations, own_repository) if not is_subject else [None] * len(raw)
    return [
        Reference(
            repository=owner or ref.owner_name or own_repository,
            number=ref.number,
            target_kind=_kind(ref.target_kind),
            relation=relation,
            where="git-revert" if quoted[0] == "reverts" and where == "commit" else where,
            evidence=sentence_around(shown, ref.start, ref.end, bounds=bounds),
        )
        for ref, relation, owner in zip(raw, relations, owners, strict=True)
    ]


def _quoted_owners(masked: str, raw: list[RawRef], relations: list[Relation], own: str) -> list[str | None]:
    """For each reference: None (as written), or the upstream repository a quote came from.

    A quote (a blockquote, a bot's release notes) says what happened elsewhere: nothing in it
    is a relation of this PR, and a bare ``#N`` in it is the number of the one other
    repository the text names ("Sourced from github.com/OWNER/NAME/releases"). When it names
    none (a reply quoting this repository's own thread), the number stays a mere mention."""
    spans = quoted_spans(masked)
    owners: list[str | None] = [None] * len(raw)
    if not spans:
        return owners
    upstream: str | bool | None = False  # False: not looked up yet
    for index, ref in enumerate(raw):
        if not any(start <= ref.start < end for start, end in spans):
            continue
        relations[index] = "mentions"
        if ref.owner_name is not None:
            continue
        if upstream is False:
            upstream = upstream_repository(masked, spans, own)
        owners[index] = upstream if isinstance(upstream, str) else None
    return owners


def _relations(
    masked: str, raw: list[RawRef], quoted: tuple[Relation | None, tuple[int, int]], bounds: SentenceBounds
) -> list[Relation]:
    """The relation each reference's sentence states between this PR and it."""
    quoted_relation, quoted_span = quoted
    relations: list[Relation] = []
    previous: RawRef | None = None
    previous_relation: Relation = "mentions"
    for index, ref in enumerate(raw):
        relation: Relation
        if quoted_relation is not None and quoted_span[0] <= ref.start < quoted_span[1]:
            relation = quoted_relation
        else:
            subject = clause_subject(masked, raw, index)
            relation = relation_before(masked, ref, previous, previous_relation, subject)
            if relation == "mentions" and waits_for(masked, ref):
                relation = "depends-on"
        relations.append(relation)
        previous, previous_relation = ref, relation
    _resolve_pronouns(masked, raw, relations, bounds)
    return relations


def _unrelate_squash_suffix(
    masked: str, raw: list[RawRef], relations: list[Relation], quoted_span: tuple[int, int]
) -> None:
    """The ``(#N)`` ending a commit subject only names the commit's own PR: a mention."""
    suffix = _SQUASH_SUFFIX.search(masked)
    if suffix is None:
        return
    for index, ref in enumerate(raw):
        inside_quote = quoted_span[0] <= ref.start < quoted_span[1]  # Revert "Add X (#103)"
        if suffix.start() <= ref.start < suffix.end() and not inside_quote:
            relations[index] = "mentions"


def _relate_by_title_head(title: str, raw: list[RawRef], relations: list[Relation]) -> None:
    """ "Fix crash when … (#4731)": the number a fix's title ends with is what it fixes. In a
    release branch's title ("[2.x] Fix crash (#431)") it is the PR ported, whatever the verb."""
    relation, begin = title_head_span(title)
    if relation is None:
        return
    overruled: set[Relation] = {"mentions", "fixes"} if relation == "follow-up-to" else {"mentions"}
    for index, ref in enumerate(raw):
        if ref.start >= begin and relations[index] in overruled:
            relations[index] = relation


def _resolve_pronouns(masked: str, raw: list[RawRef], relations: list[Relation], bounds: SentenceBounds) -> None:
    """In "#103 was reverted in #105; this restores it", "it" is the subject #103 (with the
    references listed next to it, for "them"): they get the relation "this" states."""
    for index, ref in enumerate(raw):
        if not opens_clause(masked, ref):
            continue
        after = bisect_left(bounds.starts, ref.end)
        sentence_end = bounds.starts[after] if after < len(bounds.starts) else len(masked)
        relation = pronoun_relation(masked, ref, sentence_end)
        if relation is None:
            continue
        # "#43492 temporarily reverted #42540 …; this restores it": "it" is what #43492 reverted.
        acted_on = object_after_verb(masked, raw, index)
        if acted_on is not None:
            index = acted_on
        group = [index]
        while group[-1] + 1 < len(raw) and LIST_GLUE.match(masked[raw[group[-1]].end : raw[group[-1] + 1].start]):
            group.append(group[-1] + 1)
        for member in group:
            if RELATION_STRENGTH[relation] > RELATION_STRENGTH[relations[member]]:
                relations[member] = relation


def _subject_relation(subject: str) -> tuple[Relation | None, tuple[int, int]]:
    for pattern, relation in ((REVERT_TITLE, "reverts"), (REAPPLY_TITLE, "restores")):
        match = pattern.match(subject)
        if match:
            rel: Relation = "reverts" if relation == "reverts" else "restores"
            return rel, match.span("inner")
    return None, (0, 0)


def _kind(value: str) -> Literal["pr", "issue", "unknown"]:
    if value == "pr":
        return "pr"
    if value == "issue":
        return "issue"
    return "unknown"


def reverted_commit_shas(pr: PullRequest) -> list[str]:
    """SHAs named by git's ``This reverts commit SHA.`` lines, or by prose ("revert commit
    c40c9fe", "Reverts 1a2b3c4d") in the title, body and commits."""
    shas: list[str] = []
    own = own_reverted_shas(pr)  # a step its branch took back reverts nothing of the base
    for text in (pr.title, pr.body, *(c.message for c in pr.commits)):
        for pattern in (REVERTS_COMMIT, REVERTS_COMMIT_PROSE):
            for match in pattern.finditer(text):
                sha = match.group("sha").lower()
                if sha not in shas and sha not in own:
                    shas.append(sha)
    return shas


def fragment_references(pr: PullRequest) -> list[Reference]:
    """The numbers the news fragments this PR adds are named by, other than its own: the
    change is recorded under that issue or PR. What the relation is the name does not say."""
    found: list[Reference] = []
    for change in pr.files:
        match = _FRAGMENT.search(change.path)
        if match is None or change.status != FileStatus.ADDED:
            continue
        number = int(match.group("number"))
        if number >= 1 and number != pr.number:
            found.append(
                Reference(
                    repository=pr.repository,
                    number=number,
                    relation="mentions",
                    where="code",
                    evidence=f"changelog fragment {change.path}",
                )
            )
    return found


def extract_references(pr: PullRequest) -> ReferencesFacts:
    """All references of a PR, deduplicated, strongest relation first-evidence kept."""
    merged: dict[tuple[str, int], Reference] = {}
    order: list[tuple[str, int]] = []
    candidates: list[Reference] = []
    deferrals: list[Deferral] = []
    for item in _texts(pr):
        if item.text:
            candidates.extend(
                references_in_text(item.text, pr.repository, item.where, item.is_subject, pr.number, pr.title)
            )
            if not item.is_subject or item.where == "title":
                deferrals.extend(deferrals_in_text(item.text, item.where))
    candidates.extend(
        Reference(
            repository=pr.repository,
            number=number,
            target_kind="issue",
            relation="fixes",
            where="closing-issue",
            evidence=f"GitHub lists #{number} as closed by this PR",
        )
        for number in pr.closing_issues
        if number >= 1
    )
    candidates.extend(fragment_references(pr))
    for ref in candidates:
        key = (ref.repository.lower(), ref.number)
        if key == (pr.repository.lower(), pr.number):
            continue
        current = merged.get(key)
        if current is None:
            merged[key] = ref
            order.append(key)
            continue
        stronger = RELATION_STRENGTH[ref.relation] > RELATION_STRENGTH[current.relation]
        kind = current.target_kind if current.target_kind != "unknown" else ref.target_kind
        merged[key] = (ref if stronger else current).model_copy(update={"target_kind": kind})
    unique = list({d.evidence: d for d in deferrals}.values())
    return ReferencesFacts(
        references=[merged[key] for key in order],
        reverted_commits=reverted_commit_shas(pr),
        deferrals=unique[:_MAX_DEFERRALS],
        todos_removed=_todos_removed(pr),
    )


_MAX_DEFERRALS = 12


def _todos_removed(pr: PullRequest) -> list[int]:
    """Same-repository numbers named by TODO/FIXME lines this PR deletes."""
    numbers: list[int] = []
    for change in pr.files:
        for line in file_diff(change).removed():
            if TODO_LINE.search(line):
                for ref in find_raw_refs(line):
                    if ref.owner_name is None and ref.number not in numbers:
                        numbers.append(ref.number)
    return numbers


def _run(pr: PullRequest, ctx: AnalysisContext) -> ReferencesFacts:
    return extract_references(pr)


ANALYZER = Analyzer(
    name="references", version=DEFAULT_VERSIONS["references"], run=_run, requires=()
)  # v6: conditionals, "introduced in"
