"""file texts stored once each, outside the records

Revision ID: 0007
Revises: 0006

A record's files keep their full texts (content_before/content_after) for the analyzers;
most of them are the same text twice (one PR's "after" is the next one's "before"), and
serializing, hashing and writing them inside every record's JSON was most of a sync. New
rows keep those texts in ``file_texts``, once each, and name them in ``pull_requests.texts``;
older rows (whole record in ``record``, ``texts`` NULL) are read as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

EVENTS = ("INSERT", "UPDATE", "DELETE")


def upgrade() -> None:
    op.add_column("pull_requests", sa.Column("texts", sa.Text(), nullable=True))
    op.create_table(
        "file_texts",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("digest"),
    )
    if op.get_bind().dialect.name == "sqlite":
        # The report cache's write epoch (see 0006_report_cache) moves on writes here too.
        for event in EVENTS:
            op.execute(
                f"CREATE TRIGGER report_epoch_file_texts_{event.lower()} AFTER {event} ON file_texts "
                "BEGIN UPDATE report_epoch SET value = value + 1; END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for event in EVENTS:
            op.execute(f"DROP TRIGGER IF EXISTS report_epoch_file_texts_{event.lower()}")
    op.drop_table("file_texts")
    op.drop_column("pull_requests", "texts")
