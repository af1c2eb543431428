"""One player identifier per tournament: `players.number`, the player's number in the
tournament (1, 2, 3 in registration order, never reused), used by every
/players/{number} path before and after the start.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("number", sa.Integer(), nullable=True))
    # existing players: numbered in registration order (row id) within each tournament
    op.execute(
        "UPDATE players SET number = ("
        " SELECT COUNT(*) FROM players AS earlier"
        " WHERE earlier.tournament_id = players.tournament_id AND earlier.id <= players.id)"
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch_op.create_unique_constraint(
            "uq_players_tournament_number", ["tournament_id", "number"]
        )


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint("uq_players_tournament_number", type_="unique")
        batch_op.drop_column("number")
