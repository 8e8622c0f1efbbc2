"""An analysis indexes each PR from the report lines its facts came with (their JSON is not
parsed again): the rows equal those the search index writes from the stored facts."""

from __future__ import annotations

from sqlalchemy import text

from prdigest.models.facts import Facts
from prdigest.pipeline.analyze import analyze_stored
from prdigest.store import Store
from prdigest.store.facts_store import facts_row
from prdigest.store.search_store import reindex
from prdigest.store.search_text import facts_report

_ROWS = text("SELECT rowid, stamp, title, body, comments, report FROM pr_search ORDER BY rowid")


def test_rows_indexed_by_the_analysis_equal_rows_indexed_from_stored_facts(small_store: Store) -> None:
    assert analyze_stored(small_store, jobs=1).analyzed == 3
    with small_store._engine.connect() as connection:
        analyzed = [tuple(row) for row in connection.execute(_ROWS)]
        bodies = [str(row[0]) for row in connection.execute(text("SELECT body FROM facts ORDER BY pull_request_id"))]
    assert len(analyzed) == 3
    assert any(row[5] for row in analyzed)  # the facts put something in the report
    with small_store._write() as connection:
        connection.execute(text("UPDATE pr_search SET stamp = 'stale', report = ''"))
    assert reindex(small_store).indexed == 3
    with small_store._engine.connect() as connection:
        assert [tuple(row) for row in connection.execute(_ROWS)] == analyzed
    for body in bodies:
        facts = Facts.model_validate_json(body)
        assert facts_row(1, facts, "key").report == facts_report(facts)


def test_a_worker_made_record_text_is_indexed_only_while_its_record_is_the_stored_one(small_store: Store) -> None:
    """The analysis sends each record's search text from the worker with the hash of the record
    it read: the row takes that text while the stored record is still of that hash, else the
    stored record is read (a sync wrote a newer one meanwhile)."""
    from prdigest.analyzers.context import AnalysisContext
    from prdigest.analyzers.registry import run_all
    from prdigest.pipeline.analyze import default_registry
    from prdigest.store.facts_store import analysis_states, save_facts_rows

    state = analysis_states(small_store)[0]
    record = small_store.get_pr(state.repository, state.number)
    facts = run_all(record, default_registry(), AnalysisContext())
    read = record.model_copy(update={"title": "a title the worker read"})
    titles = text("SELECT title FROM pr_search WHERE rowid = :id")

    save_facts_rows(
        small_store, [facts_row(state.pull_request_id, facts, "k1", read)], {state.pull_request_id: "other"}
    )
    with small_store._engine.connect() as connection:
        assert connection.execute(titles, {"id": state.pull_request_id}).scalar() == record.title

    hashes = {state.pull_request_id: state.record_hash}
    save_facts_rows(small_store, [facts_row(state.pull_request_id, facts, "k2", read)], hashes)
    with small_store._engine.connect() as connection:
        assert connection.execute(titles, {"id": state.pull_request_id}).scalar() == "a title the worker read"
