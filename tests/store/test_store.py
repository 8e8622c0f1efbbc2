from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from prdigest.errors import NotFound, SchemaTooNew
from prdigest.models import Comment, FileChange, PullRequest
from prdigest.models.facts import Facts, Reference, ReferencesFacts, RisksFacts, RiskTag, VerdictFacts, VerdictLevel
from prdigest.models.narrative import NarrationCost, Narrative
from prdigest.store import Store, migrate
from prdigest.store.facts_store import analysis_states, get_facts, links_from, links_to, save_facts
from prdigest.store.narrative_store import get_narrative, save_narrative, save_narratives, stored_bodies
from prdigest.store.testing import engine_of


def make_pr(number: int, title: str = "Fix things", *, repo: str = "org/proj", day: int = 1) -> PullRequest:
    return PullRequest(
        repository=repo,
        number=number,
        title=title,
        body="Body with 中文 and <script>alert(1)</script>",
        author="alice",
        merged_at=datetime(2026, 5, day, 12, 0, tzinfo=UTC),
        files=[FileChange(path="a.py", additions=2, deletions=1, patch="@@ -1 +1,2 @@\n-a\n+b\n+c\n")],
        comments=[Comment(author="bob", body="LGTM")],
        additions=2,
        deletions=1,
    )


def dump(store: Store) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    with engine_of(store).connect() as connection:
        for table in ("repositories", "pull_requests", "sync_states", "facts", "pr_links"):
            rows.extend(tuple(r) for r in connection.execute(text(f"SELECT * FROM {table} ORDER BY 1")))
    return rows


def test_upsert_is_idempotent_and_detects_changes(db_url: str) -> None:
    with Store.open(db_url) as store:
        first = store.upsert_prs([make_pr(n, day=n) for n in range(1, 6)], batch_size=2)
        assert (first.inserted, first.updated, first.unchanged) == (5, 0, 0)
        before = dump(store)
        second = store.upsert_prs([make_pr(n, day=n) for n in range(1, 6)])
        assert (second.inserted, second.updated, second.unchanged) == (0, 0, 5)
        assert dump(store) == before
        changed = make_pr(3, "Fix things better", day=3)
        third = store.upsert_prs([changed])
        assert (third.inserted, third.updated) == (0, 1)
        assert store.get_pr("org/proj", 3).title == "Fix things better"
        assert store.count_prs() == 5


def test_record_round_trips_exactly(db_url: str) -> None:
    pr = make_pr(7)
    with Store.open(db_url) as store:
        store.upsert_prs([pr])
        assert store.get_pr("org/proj", 7) == pr


def test_list_is_newest_first_and_filters(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.upsert_prs([make_pr(n, day=n) for n in range(1, 6)] + [make_pr(9, repo="other/repo")])
        numbers = [row.number for row in store.list_prs(repository="org/proj")]
        assert numbers == [5, 4, 3, 2, 1]
        since = datetime(2026, 5, 3, tzinfo=UTC)
        assert [r.number for r in store.list_prs(repository="org/proj", since=since)] == [5, 4, 3]
        assert [r.number for r in store.list_prs(repository="org/proj", limit=2, offset=1)] == [4, 3]
        assert store.repositories() == ["org/proj", "other/repo"]
        assert [pr.number for pr in store.iter_prs(repository="org/proj")] == [1, 2, 3, 4, 5]


def test_unknown_pr_is_not_found(db_url: str) -> None:
    with Store.open(db_url) as store, pytest.raises(NotFound, match="org/proj#42"):
        store.get_pr("org/proj", 42)


def test_sync_state_round_trip_and_no_op_rewrite(db_url: str) -> None:
    with Store.open(db_url) as store:
        assert store.get_sync_state("org/proj", "git") == {}
        store.set_sync_state("org/proj", "git", {"head": "abc", "n": 3})
        before = dump(store)
        store.set_sync_state("org/proj", "git", {"n": 3, "head": "abc"})
        assert dump(store) == before
        assert store.get_sync_state("org/proj", "git") == {"head": "abc", "n": 3}


def test_facts_labels_and_links(db_url: str) -> None:
    facts = Facts(
        repository="org/proj",
        number=2,
        references=ReferencesFacts(
            references=[Reference(repository="org/proj", number=1, relation="reverts", where="title")]
        ),
        risks=RisksFacts(tags=[RiskTag(tag="revert", label_zh="回退", label_en="revert", evidence="title")]),
        verdict=VerdictFacts(level=VerdictLevel.QUICK_READ, score=4.0),
    )
    with Store.open(db_url) as store:
        store.upsert_prs([make_pr(1, "Add feature"), make_pr(2, 'Revert "Add feature"')])
        states = {s.number: s for s in analysis_states(store, "org/proj")}
        assert states[2].cache_key is None
        save_facts(store, states[2].pull_request_id, facts, "key-1")
        save_facts(store, states[2].pull_request_id, facts, "key-1")  # replacing is idempotent
        assert get_facts(store, "org/proj", 2) == facts
        assert analysis_states(store, "org/proj", 2)[0].cache_key == "key-1"
        incoming = links_to(store, "org/proj", 1)
        assert [(link.source_number, link.relation) for link in incoming] == [(2, "reverts")]
        assert incoming[0].source_title == 'Revert "Add feature"'
        assert len(links_from(store, "org/proj", 2)) == 1
        with engine_of(store).connect() as connection:
            labels = connection.execute(text("SELECT kind, value FROM fact_labels")).all()
        assert [tuple(r) for r in labels] == [("risk", "revert")]


def test_narrative_cache(db_url: str) -> None:
    narrative = Narrative(
        lang="en",
        length="brief",
        one_line="x",
        recommendation="y",
        motivation="z",
        feed_title="t",
        feed_paragraph="p",
        cost=NarrationCost(model="m", tokens_in=10, tokens_out=5, calls=1, seconds=0.5),
    )
    with Store.open(db_url) as store:
        store.upsert_prs([make_pr(1)])
        pr_id = store.pr_id("org/proj", 1)
        save_narrative(store, pr_id, narrative, "k1")
        assert get_narrative(store, pr_id, "en", "brief", "k1") == narrative
        assert get_narrative(store, pr_id, "en", "brief", "k2") is None
        save_narrative(store, pr_id, narrative, "k2")
        assert get_narrative(store, pr_id, "en", "brief", "k1") is None


def _offline(lang: str, length: str, one_line: str) -> Narrative:
    return Narrative.model_validate(
        {"lang": lang, "length": length, "one_line": one_line, "recommendation": "r", "motivation": "m"}
        | {"feed_title": "t", "feed_paragraph": "p"}
    )


def test_narratives_saved_together_replace_as_saved_one_by_one(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.upsert_prs([make_pr(1)])
        pr_id = store.pr_id("org/proj", 1)
        save_narrative(store, pr_id, _offline("en", "full", "old"), "k0")
        # Every language and length at once (what publish saves for a PR): the old full one is replaced.
        batch = [
            (_offline(lang, length, f"{lang} {length}"), f"k-{lang}-{length}")
            for lang in ("zh", "en")
            for length in ("full", "brief")
        ]
        save_narratives(store, pr_id, batch)
        assert stored_bodies(store, pr_id).keys() == {(n.lang, n.length, key) for n, key in batch}
        for narrative, key in batch:
            assert get_narrative(store, pr_id, narrative.lang, narrative.length, key) == narrative
        # Two of one slot in one batch: the later replaces the earlier, as one by one.
        save_narratives(store, pr_id, [(_offline("en", "brief", "a"), "ka"), (_offline("en", "brief", "b"), "kb")])
        assert get_narrative(store, pr_id, "en", "brief", "ka") is None
        assert get_narrative(store, pr_id, "en", "brief", "kb") == _offline("en", "brief", "b")
        assert get_narrative(store, pr_id, "zh", "brief", "k-zh-brief") is not None


def test_database_from_a_newer_schema_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/new.db"
    Store.open(url).close()
    with Store.open(url) as store, engine_of(store).begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaTooNew, match="9999"):
        Store.open(url)


def test_known_revisions_match_the_migration_scripts() -> None:
    files = sorted(p.name.split("_", 1)[0] for p in (migrate.MIGRATIONS_DIR / "versions").glob("[0-9]*.py"))
    assert tuple(files) == migrate.KNOWN_REVISIONS


def test_migrations_downgrade_and_upgrade_again(db_url: str) -> None:
    store = Store.open(db_url)
    store.upsert_prs([make_pr(1)])
    migrate.downgrade(engine_of(store), "base")
    with engine_of(store).connect() as connection:
        assert migrate.current_revision(connection) is None
    store.close()
    with Store.open(db_url) as reopened:
        assert reopened.count_prs() == 0
        with engine_of(reopened).connect() as connection:
            assert migrate.current_revision(connection) == migrate.HEAD_REVISION


def test_sqlite_uses_wal(sqlite_url: str) -> None:
    with Store.open(sqlite_url) as store, engine_of(store).connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"


def test_serving_pragmas_apply_to_new_connections(sqlite_url: str) -> None:
    with Store.open(sqlite_url) as store:
        store.tune_for_serving()
        with engine_of(store).connect() as connection:
            assert connection.execute(text("PRAGMA cache_size")).scalar() == -32768
            assert connection.execute(text("PRAGMA mmap_size")).scalar() == 268435456


def test_serving_tuning_is_a_no_op_elsewhere(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.tune_for_serving()
        store.upsert_prs([make_pr(1)])
        assert store.count_prs() == 1


def test_pr_ids_by_repository_and_number(db_url: str) -> None:
    with Store.open(db_url) as store:
        store.upsert_prs([make_pr(1)])
        assert store.find_pr_id("org/proj", 1) == store.pr_id("org/proj", 1)
        assert store.find_pr_id("org/proj", 2) is None
        assert store.find_pr_id("no/repo", 1) is None
        with pytest.raises(NotFound, match="org/proj#2"):
            store.pr_id("org/proj", 2)
