"""A team match keeps its boards as played when they are not the default seating
(docs/teams.md#trf-export-and-import): `team_matches.layout`, per board its number, the
first-named team's colour and, for a board won by default, which side won it and who.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("team_matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("layout", json, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("team_matches", schema=None) as batch_op:
        batch_op.drop_column("layout")
