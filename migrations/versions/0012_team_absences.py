"""A team announced as not playing a coming round of a team Swiss
(docs/teams.md#absent-teams): `teams.absences`, round number (as text) -> the kind of
the absence (`zero-point`).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.add_column(sa.Column("absences", json, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_column("absences")
