"""rendered reports, cached until anything they could read changes

Revision ID: 0006
Revises: 0005

``report_cache`` keeps rendered report documents; ``report_epoch`` holds one counter. On SQLite
every write to any other table moves the counter (triggers, so no write path can forget), and
a cached document is shown only while the counter is the one it was stored under. PostgreSQL
gets the tables but no triggers: reports are never cached there (see
`prdigest.store.report_cache_store`), so nothing can go stale.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# Every table of revision 0005 (search's FTS5 table and its shadow tables excepted: reports
# never read them, and SQLite allows no trigger on a virtual table). A later migration that
# adds a table adds its triggers; tests/store/test_report_cache.py checks every table has them.
TRACKED = (
    "repositories",
    "sync_states",
    "pull_requests",
    "facts",
    "fact_labels",
    "pr_links",
    "dependency_changes",
    "narratives",
    "http_cache",
    "follows",
    "parked_tasks",
    "llm_endpoints",
)
EVENTS = ("INSERT", "UPDATE", "DELETE")


def upgrade() -> None:
    op.create_table(
        "report_epoch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.execute("INSERT INTO report_epoch (id, value) VALUES (1, 0)")
    op.create_table(
        "report_cache",
        sa.Column("pull_request_id", sa.Integer(), nullable=False),
        sa.Column("lang", sa.String(length=20), nullable=False),
        sa.Column("length", sa.String(length=10), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["pull_request_id"], ["pull_requests.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("pull_request_id", "lang", "length", "format"),
    )
    if op.get_bind().dialect.name == "sqlite":
        for table in TRACKED:
            for event in EVENTS:
                op.execute(
                    f"CREATE TRIGGER report_epoch_{table}_{event.lower()} AFTER {event} ON {table} "
                    "BEGIN UPDATE report_epoch SET value = value + 1; END"
                )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in TRACKED:
            for event in EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS report_epoch_{table}_{event.lower()}")
    op.drop_table("report_cache")
    op.drop_table("report_epoch")
