"""full-text search index and feed ordering index

Revision ID: 0002
Revises: 0001

SQLite gets an FTS5 virtual table (rowid = pull_requests.id); PostgreSQL a plain table with a
generated ``tsvector`` column under a GIN index. Both hold the same text columns and a
``stamp`` saying which record / facts / narratives the row was built from, so a reindex only
touches stale rows. The feed index matches the web feed's ORDER BY so a page is an index walk.
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_SQLITE_FTS = (
    "CREATE VIRTUAL TABLE pr_search USING fts5("
    "title, body, comments, report, stamp UNINDEXED, "
    "tokenize = 'unicode61 remove_diacritics 2')"
)

_POSTGRES_TABLE = """
CREATE TABLE pr_search (
    pull_request_id INTEGER PRIMARY KEY REFERENCES pull_requests(id) ON DELETE CASCADE,
    stamp VARCHAR(200) NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    comments TEXT NOT NULL DEFAULT '',
    report TEXT NOT NULL DEFAULT '',
    document tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', title), 'A')
        || setweight(to_tsvector('simple', report), 'B')
        || setweight(to_tsvector('simple', body), 'C')
        || setweight(to_tsvector('simple', comments), 'D')
    ) STORED
)
"""

_FEED_INDEX = (
    "CREATE INDEX ix_pull_requests_feed_order ON pull_requests (repository_id, coalesce(merged_at, created_at), number)"
)


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute(_SQLITE_FTS)
    else:
        op.execute(_POSTGRES_TABLE)
        op.execute("CREATE INDEX ix_pr_search_document ON pr_search USING GIN (document)")
    op.execute(_FEED_INDEX)


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_pull_requests_feed_order")
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP INDEX IF EXISTS ix_pr_search_document")
    op.execute("DROP TABLE IF EXISTS pr_search")
