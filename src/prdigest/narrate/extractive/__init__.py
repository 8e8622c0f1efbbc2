"""The extractive narrator: every section of a report written from the facts and the PR's own
words, offline and deterministic. Where a section has nothing to say, it says so (the
renderer shows "none identified" / "no review comments"); it never invents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prdigest.models.facts import Facts
from prdigest.models.narrative import Impact, Length, Narrative, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.words import CATALOG, Catalog, Lang

if TYPE_CHECKING:  # the module loads the analyzers: imported when narrating (below)
    from prdigest.narrate.extractive.files import FileKey

# v4: Markdown rendered in quotes, authored checklist items, no repeated lead or evidence, named impacts
# v5: risk bullets ordered by severity then kind, with a count of the ones cut
# v8: what the source could not see is said; dependency scopes, replacements, ledger; one-liner in the
#     reader's language, brief without code, code edits in words, each fact once
# v9: one-liners from the facts in every language
# v13: no one-line edits from deleted files, "and N more files" counts the rest; v14: nor from docs or examples
# v15: dependency moves read from the analyzer's mark (moved_from), with versions changed on the way
# v15 also: messages-only and changed-default one-liners, a third file named instead of "and 1 more"
# v16: a body sentence that only repeats the title is neither the one-liner nor the motivation;
#      "cache" in a title is an improvement only as its first word; CI action bumps named
# v16 also: the title's verb only where it is one (not "optimizer", not in code, weak verbs first
#      only); "Refactors/Fixes/Changes `f`" only for an `f` that was there; GitHub's own commit
#      messages ("Update a.py", "Apply suggestions from code review", merges) never quoted
# v16 also: a title's "add"/"remove" said of files only when the files were added/removed; file
#      categories in the reader's language, Chinese words of a label list joined without spaces
# v17: a sentence a body repeats (squashed commits with one message) is quoted once
# v18: Go names ranked and told as public only when exported (an upper-case initial); a merge
#      of many commits, one of which reverts, is not "Reverts #N" in one line
# v19: a source file's own tests (Rust `mod tests`) are not what a one-liner tells
# v20: nor what its implementation steps list (they are the verification step's); a PR whose
#      complete file list is empty says so instead of repeating its (English) title
# v23: one-liners lead with the title's intent; v24: motivation in own words, one quote (#26)
# v25: a pin written in two files is told as a pin, not a rewrite (risk sentences reworded, #26)
# v26-28: said only what its evidence shows (#26)
# v29: go.mod, Cargo.toml and package.json requirements told like Python ones (the version part
#      after the package's name); a range moved up whole (cap relaxed, floor raised) "raises";
#      a manifest whose requirements do not parse is no "no effect on users" (#26)
# v30: a Rust file's own `mod tests` items are no behaviour users meet (#26)
# v35: no "no direct effect on users" beside a non-source file users run (a completion script,
#      a syntax definition) or build configuration (python_requires); fan-in said "tests aside"
# v36: a one-liner names two things, or one and a count ("`a`, `b` and 3 more" is a list)
# v37: a definition changed only in its annotations is told as such, not as "changed behaviour"
# v38: a brief's key files keep only what its steps do not already say of them
EXTRACTIVE_VERSION = "extractive-v39"

__all__ = ["EXTRACTIVE_VERSION", "LengthFree", "narrate_extractive"]


class LengthFree:
    """What one PR's offline narratives in a language say whatever their length (the
    one-liner, the feed paragraph, the impact), made once when the PR is narrated in several
    lengths. Holds one PR's parts: a new one for each PR (its facts, its catalog)."""

    def __init__(self) -> None:
        self.by_lang: dict[str, tuple[str, str, Impact]] = {}
        # Per language: each source file's code edits in words (`implementation.file_edits`)
        # and what each key file's role says of its changes (`files.file_roles`).
        self.edits: dict[str, dict[str, str]] = {}
        self.file_changes: dict[str, dict[FileKey, tuple[list[str], bool]]] = {}


def narrate_extractive(
    pr: PullRequest,
    facts: Facts,
    related: list[RelatedNote],
    lang: Lang,
    length: Length,
    *,
    catalog: Catalog = CATALOG,
    shared: LengthFree | None = None,
) -> Narrative:
    """The PR's narrative; ``shared``: the parts its other lengths in ``lang`` made already."""
    # Imported here: they load the analyzers (and tree-sitter), which a report whose
    # narrative is already stored never needs (`pipeline.quick.quick_report`).
    from prdigest.narrate.extractive.discussion import highlights, thread_lines
    from prdigest.narrate.extractive.files import excerpt_notes, file_roles, untold_roles
    from prdigest.narrate.extractive.implementation import file_edits, implementation_steps
    from prdigest.narrate.extractive.motivation import motivation
    from prdigest.narrate.extractive.related import related_notes
    from prdigest.narrate.extractive.risks import impact, risks
    from prdigest.narrate.extractive.summary import one_line
    from prdigest.narrate.extractive.text import clean_title
    from prdigest.narrate.extractive.verdict import verdict_paragraph

    ph = catalog.phrases(lang)
    parts = shared.by_lang.get(lang) if shared is not None else None
    if parts is None:
        # The feed's paragraph is the brief recommendation: made once for a brief narrative.
        parts = (one_line(pr, facts, ph), verdict_paragraph(facts, "brief", ph), impact(facts, ph))
        if shared is not None:
            shared.by_lang[lang] = parts
    summary, feed_paragraph, impacts = parts
    edits = shared.edits.get(lang) if shared is not None else None
    if edits is None:
        edits = file_edits(facts, ph)
        if shared is not None:
            shared.edits[lang] = edits
    said = shared.file_changes.setdefault(lang, {}) if shared is not None else None
    steps = implementation_steps(pr, facts, length, ph, edits)
    roles = file_roles(facts, length, ph, said)
    if length == "brief":
        roles = untold_roles(roles, steps, ph)
    return Narrative(
        lang=lang,
        length=length,
        narrator="extractive",
        one_line=summary,
        recommendation=feed_paragraph if length == "brief" else verdict_paragraph(facts, length, ph),
        motivation=motivation(pr, facts, length, ph),
        implementation=steps,
        file_roles=roles,
        excerpt_notes=excerpt_notes(facts, length, ph),
        discussion_highlights=highlights(facts, length, ph),
        thread_lines=thread_lines(facts, length, ph),
        risks=risks(facts, length, ph),
        impact=impacts,
        related=related_notes(facts, related, length, ph),
        feed_title=clean_title(pr.title),
        feed_paragraph=feed_paragraph,
    )
