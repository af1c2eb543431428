"""bridge events: table tokens and board results

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bridge_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("ns", sa.Integer(), nullable=False),
        sa.Column("ew", sa.Integer(), nullable=False),
        sa.Column("contract", sqlmodel.sql.sqltypes.AutoString(length=12), nullable=True),
        sa.Column("declarer", sqlmodel.sql.sqltypes.AutoString(length=1), nullable=True),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.Column("ns_score", sa.Integer(), nullable=True),
        sa.Column(
            "adjusted",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("entered_by", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "board"),
    )
    with op.batch_alter_table("bridge_results", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_bridge_results_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "bridge_table_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "table_no"),
    )
    with op.batch_alter_table("bridge_table_tokens", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_bridge_table_tokens_token_hash"), ["token_hash"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_bridge_table_tokens_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("bridge_table_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bridge_table_tokens_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_bridge_table_tokens_token_hash"))

    op.drop_table("bridge_table_tokens")
    with op.batch_alter_table("bridge_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bridge_results_tournament_id"))

    op.drop_table("bridge_results")
