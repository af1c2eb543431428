"""Team tournaments: teams (board order, lineups, the captain's hashed token) and the
matches of each team round (docs/teams.md).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("players", _json(), nullable=True),
        sa.Column("lineups", _json(), nullable=True),
        sa.Column(
            "captain_token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True
        ),
        sa.Column(
            "captain_token_expires_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True
        ),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_teams_tournament_id"), ["tournament_id"])
        batch_op.create_index(batch_op.f("ix_teams_captain_token_hash"), ["captain_token_hash"])
    op.create_table(
        "team_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("home", sa.Integer(), nullable=False),
        sa.Column("away", sa.Integer(), nullable=True),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("forfeit", sqlmodel.sql.sqltypes.AutoString(length=2), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "round", "match_no"),
    )
    with op.batch_alter_table("team_matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_matches_tournament_id"), ["tournament_id"])


def downgrade() -> None:
    op.drop_table("team_matches")
    op.drop_table("teams")
