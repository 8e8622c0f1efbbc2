"""watches and what their digests delivered

Revision ID: 0008
Revises: 0007

``watches`` holds a reader's slice of a repository (`prdigest watch add`); ``watch_reads`` the
PRs its digest delivered, or looked at without a match (under the facts of ``facts_key``), so
``--unread`` leaves them out. On SQLite both tables move the
report cache's write epoch like every other table (see 0006_report_cache).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLES = ("watches", "watch_reads")
EVENTS = ("INSERT", "UPDATE", "DELETE")


def upgrade() -> None:
    op.create_table(
        "watches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("repository", sa.String(length=200), nullable=False),
        sa.Column("paths", sa.Text(), nullable=False),
        sa.Column("packages", sa.Text(), nullable=False),
        sa.Column("symbols", sa.Text(), nullable=False),
        sa.Column("people", sa.Text(), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("min_level", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_read_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "watch_reads",
        sa.Column("watch_id", sa.Integer(), nullable=False),
        sa.Column("pull_request_id", sa.Integer(), nullable=False),
        sa.Column("read_at", sa.DateTime(), nullable=False),
        sa.Column("delivered", sa.Boolean(), nullable=False),
        sa.Column("facts_key", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(["watch_id"], ["watches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pull_request_id"], ["pull_requests.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("watch_id", "pull_request_id"),
    )
    with op.batch_alter_table("watch_reads", schema=None) as batch_op:
        batch_op.create_index("ix_watch_reads_pull_request", ["pull_request_id"], unique=False)
    if op.get_bind().dialect.name == "sqlite":
        for table in TABLES:
            for event in EVENTS:
                op.execute(
                    f"CREATE TRIGGER report_epoch_{table}_{event.lower()} AFTER {event} ON {table} "
                    "BEGIN UPDATE report_epoch SET value = value + 1; END"
                )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in TABLES:
            for event in EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS report_epoch_{table}_{event.lower()}")
    with op.batch_alter_table("watch_reads", schema=None) as batch_op:
        batch_op.drop_index("ix_watch_reads_pull_request")
    op.drop_table("watch_reads")
    op.drop_table("watches")
