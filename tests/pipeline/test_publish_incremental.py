"""Publishing again to the same folder: only the pages of PRs whose inputs changed are made
and rewritten, and the folder is always what a fresh publish writes."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.deps_history import REPO as DEPS_REPO
from tests.helpers.deps_history import build_deps_history
from tests.pipeline.conftest import SMALL_REPO

from prdigest.models.facts import VerdictLevel
from prdigest.narrate.extractive import EXTRACTIVE_VERSION
from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.pipeline.narrate import cache_key
from prdigest.pipeline.publish import publish_site
from prdigest.pipeline.publish_stamps import MANIFEST
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.report import narrative_for
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.store.facts_store import get_facts, save_facts
from prdigest.store.narrative_store import save_narrative
from prdigest.words import CATALOG

MARK = "untouched since the first publish\n"


def _site(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != MANIFEST}


def _mark(out: Path) -> dict[Path, bytes]:
    """Overwrite every report, so a report written again shows; returns what they held."""
    held = {path: path.read_bytes() for path in (out / "reports").iterdir()}
    for path in held:
        path.write_text(MARK, encoding="utf-8")
    return held


def _unmark(held: dict[Path, bytes]) -> None:
    """Put back what the reports not written again held."""
    for path, text in held.items():
        if path.is_file() and path.read_text(encoding="utf-8") == MARK:
            path.write_bytes(text)


def _rewritten(out: Path) -> set[int]:
    return {
        int(path.name.split(".")[0]) for path in (out / "reports").iterdir() if path.read_text(encoding="utf-8") != MARK
    }


def _assert_fresh(
    store: Store, repository: str, out: Path, held: dict[Path, bytes], languages: list[str], code: str
) -> None:
    """The folder, the reports not written again put back, is what a fresh publish writes."""
    _unmark(held)
    fresh = out.parent / "fresh"
    publish_site(store, repository, fresh, languages, None, code=code)  # type: ignore[arg-type]
    assert _site(out) == _site(fresh)


def test_nothing_changed_nothing_is_rewritten(small_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = publish_site(small_store, SMALL_REPO, out, ["zh", "en"], None, code="c1")
    assert first.unchanged == 0
    reference = _site(out)
    _mark(out)
    again = publish_site(small_store, SMALL_REPO, out, ["zh", "en"], None, code="c1")
    assert (again.unchanged, again.reports, again.feeds) == (3, first.reports, first.feeds)
    assert _rewritten(out) == set()
    # The feeds and the index are written again, from the kept items: the same bytes.
    site = _site(out)
    assert {k: v for k, v in site.items() if not k.startswith("reports/")} == {
        k: v for k, v in reference.items() if not k.startswith("reports/")
    }


def test_a_missing_page_or_another_code_makes_the_pages_again(small_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    held = _mark(out)
    (out / "reports" / "2.en.full.md").unlink()
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    assert _rewritten(out) == {2}
    held = _mark(out)
    # Other code or words (another fingerprint) or other languages: every page again.
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c2")
    assert _rewritten(out) == {1, 2, 3}
    held = _mark(out)
    publish_site(small_store, SMALL_REPO, out, ["zh", "en"], None, code="c2")
    assert _rewritten(out) == {1, 2, 3}
    _assert_fresh(small_store, SMALL_REPO, out, held, ["zh", "en"], "c2")


def test_changed_facts_make_that_prs_pages_again(small_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    (tmp_path / "before.md").write_bytes((out / "index.md").read_bytes())
    held = _mark(out)
    facts = get_facts(small_store, SMALL_REPO, 2)
    assert facts is not None
    pr_id = small_store.find_pr_id(SMALL_REPO, 2)
    assert pr_id is not None
    key = facts_key_of(small_store, 2)
    # Another verdict: the index row, the feed item and the pages say so.
    level = VerdictLevel.READ_IN_DEPTH if facts.verdict.level != VerdictLevel.READ_IN_DEPTH else VerdictLevel.SKIP
    changed = facts.model_copy(update={"verdict": facts.verdict.model_copy(update={"level": level})})
    save_facts(small_store, pr_id, changed, key)
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    assert _rewritten(out) == {2}
    _assert_fresh(small_store, SMALL_REPO, out, held, ["en"], "c1")
    assert (out / "index.md").read_text(encoding="utf-8") != (tmp_path / "before.md").read_text(encoding="utf-8")


def test_a_changed_narrative_makes_that_prs_pages_again(small_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    held = _mark(out)
    pr = small_store.get_pr(SMALL_REPO, 3)
    facts = get_facts(small_store, SMALL_REPO, 3)
    assert facts is not None
    en = CATALOG.lang("en")
    narrative = narrative_for(small_store, pr, facts, en, "brief", None)
    key = cache_key(pr, facts, related_from_store(small_store, SMALL_REPO, 3), en, "brief", EXTRACTIVE_VERSION, None)
    pr_id = small_store.find_pr_id(SMALL_REPO, 3)
    assert pr_id is not None
    save_narrative(small_store, pr_id, narrative.model_copy(update={"one_line": "Told again."}), key)
    publish_site(small_store, SMALL_REPO, out, ["en"], None, code="c1")
    assert _rewritten(out) == {3}
    assert "Told again." in (out / "reports" / "3.en.brief.md").read_text(encoding="utf-8")
    _assert_fresh(small_store, SMALL_REPO, out, held, ["en"], "c1")


def test_a_new_pr_remakes_the_pages_naming_it(tmp_path: Path, store: Store) -> None:
    # A new PR is related work of the PRs it refers to, and the next ledger change of a
    # package another PR changed: those pages show it, so they are made again.
    repo = build_deps_history(tmp_path / "repo")
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=DEPS_REPO)))
    analyze_selected(store, AnalyzeRequest())
    out = tmp_path / "site"
    publish_site(store, DEPS_REPO, out, ["en"], None, code="c1")
    held = _mark(out)
    repo.squash_pr(
        12,
        "Relax the cupy exclusion",
        {"requirements/kv.txt": "lmcache>=0.3.9\nnixl>=1.1.0\ncupy-cuda13x>=14.2.0\n"},
        body="Follows up #9.",
    )
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=DEPS_REPO)))
    analyze_selected(store, AnalyzeRequest())
    publish_site(store, DEPS_REPO, out, ["en"], None, code="c1")
    rewritten = _rewritten(out)
    assert {3, 9, 12} <= rewritten  # 3: cupy's next change; 9: referred to by #12
    # The other PRs changing cupy see its new ledger entry (stamped whole); no other PR.
    assert rewritten <= {2, 3, 9, 12}
    assert "(#12)" in (out / "reports" / "3.en.full.md").read_text(encoding="utf-8")
    _assert_fresh(store, DEPS_REPO, out, held, ["en"], "c1")


def facts_key_of(store: Store, number: int) -> str:
    from prdigest.store.facts_store import analysis_states

    (state,) = analysis_states(store, SMALL_REPO, number)
    assert state.cache_key is not None
    return state.cache_key
