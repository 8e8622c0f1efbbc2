"""what each LLM endpoint accepts (response_format, output-limit name), remembered across runs

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "llm_endpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("base_url", sa.String(length=500), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("response_format", sa.String(length=20), nullable=True),
        sa.Column("token_param", sa.String(length=40), nullable=False),
        sa.Column("usage", sa.Boolean(), nullable=True),
        sa.Column("rejected", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("base_url", "model", name="uq_llm_endpoints_endpoint"),
    )


def downgrade() -> None:
    op.drop_table("llm_endpoints")
