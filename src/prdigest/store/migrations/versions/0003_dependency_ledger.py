"""dependency ledger: one row per dependency change of an analyzed PR

Revision ID: 0003
Revises: 0002

Written with the PR's facts (and replaced with them), so ``prdigest deps`` and the report's
predecessor/successor links read one indexed table instead of every PR's facts.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dependency_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("pull_request_id", sa.Integer, sa.ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("package", sa.String(200), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("before", sa.Text),
        sa.Column("after", sa.Text),
        sa.Column("kinds", sa.Text, nullable=False),
        sa.Column("scope", sa.String(10), nullable=False),
        sa.Column("condition", sa.Text),
        sa.Column("replaced_by", sa.Text),
    )
    op.create_index("ix_dependency_changes_package", "dependency_changes", ["package"])
    op.create_index("ix_dependency_changes_pr", "dependency_changes", ["pull_request_id"])


def downgrade() -> None:
    op.drop_index("ix_dependency_changes_pr", table_name="dependency_changes")
    op.drop_index("ix_dependency_changes_package", table_name="dependency_changes")
    op.drop_table("dependency_changes")
