"""Related notes from stored links: outgoing and incoming (turned around), with titles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prdigest.models.facts import Facts, Reference, ReferencesFacts
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.related import related_from_store
from prdigest.store import Store, facts_store

REPO = "vllm-project/vllm"


def _save(store: Store, pr: PullRequest, facts: Facts) -> None:
    pr_id = store.pr_id(pr.repository, pr.number)
    facts_store.save_facts(store, pr_id, facts, "test-key")


def test_lineage_story(tmp_path: Path, seeds: Any) -> None:
    added = PullRequest(repository=REPO, number=42540, title="Add humming-kernels support")
    revert = PullRequest(repository=REPO, number=43492, title="Temporarily revert humming")
    restore = seeds.humming_pr()
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([added, revert, restore])
        _save(
            store,
            revert,
            Facts(
                repository=REPO,
                number=43492,
                references=ReferencesFacts(
                    references=[
                        Reference(
                            repository=REPO,
                            number=42540,
                            relation="reverts",
                            where="git-revert",
                            evidence="Revert #42540",
                        ),
                    ]
                ),
            ),
        )
        _save(store, restore, seeds.humming_facts())
        notes = related_from_store(store, REPO, 42540)
        assert [(n.number, n.relation, n.title) for n in notes] == [
            (43492, "reverted-by", "Temporarily revert humming"),
            (43530, "restored-by", "Fix CuPy runtime deps and restore humming"),
        ]
        outgoing = related_from_store(store, REPO, 43530)
        assert [(n.number, n.relation) for n in outgoing] == [
            (42540, "restores"),
            (43492, "mentions"),
            (43528, "mentions"),
        ]
        assert outgoing[0].title == "Add humming-kernels support"
        assert outgoing[2].title == ""  # not stored: no title invented


def test_notes_carry_the_target_kind(tmp_path: Path) -> None:
    issue_ref = Reference(repository=REPO, number=700, target_kind="issue", relation="fixes", evidence="Fixes #700")
    vague_ref = Reference(repository=REPO, number=701, target_kind="unknown", relation="mentions", evidence="see #701")
    stored_ref = Reference(repository=REPO, number=702, target_kind="unknown", relation="mentions", evidence="#702")
    source = PullRequest(repository=REPO, number=710, title="Fix the loader")
    stored = PullRequest(repository=REPO, number=702, title="Earlier loader change")
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([source, stored])
        refs = ReferencesFacts(references=[issue_ref, vague_ref, stored_ref])
        _save(store, source, Facts(repository=REPO, number=710, references=refs))
        outgoing = related_from_store(store, REPO, 710)
        # a stored record with the number is a pull request even when the text did not say
        assert [(n.number, n.kind) for n in outgoing] == [(700, "issue"), (701, "unknown"), (702, "pr")]
        incoming = related_from_store(store, REPO, 702)
        assert [(n.number, n.kind) for n in incoming] == [(710, "pr")]
