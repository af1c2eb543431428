"""Points the organizer gives a team for a round it has no match in, an announced
absence or a late team's missed round (docs/teams.md#absent-teams): `teams.awarded`,
round number (as text) -> [match points, game points] as decimal text.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.add_column(sa.Column("awarded", json, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_column("awarded")
