"""followed repositories and parked (failed) work

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("repository", sa.String(length=200), nullable=False),
        sa.Column("source", sa.String(length=10), nullable=False),
        sa.Column("location", sa.Text(), nullable=True),
        sa.Column("every_seconds", sa.Integer(), nullable=False),
        sa.Column("languages", sa.String(length=100), nullable=False),
        sa.Column("publish_dir", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_run_at", sa.DateTime(), nullable=True),
        sa.Column("last_status", sa.String(length=20), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("repository"),
    )
    op.create_table(
        "parked_tasks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("task", sa.String(length=40), nullable=False),
        sa.Column("repository", sa.String(length=200), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("parked_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("task", "repository", "subject", name="uq_parked_tasks_work"),
    )
    with op.batch_alter_table("parked_tasks", schema=None) as batch_op:
        batch_op.create_index("ix_parked_tasks_repository", ["repository"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("parked_tasks", schema=None) as batch_op:
        batch_op.drop_index("ix_parked_tasks_repository")
    op.drop_table("parked_tasks")
    op.drop_table("follows")
