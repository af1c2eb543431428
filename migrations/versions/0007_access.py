"""Access and privacy: tournament visibility, viewer tokens, token expiry, archival

Revision ID: 0007
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UTC = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "visibility",
                sqlmodel.sql.sqltypes.AutoString(length=10),
                nullable=False,
                server_default="public",
            )
        )
        batch_op.add_column(
            sa.Column(
                "viewer_token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True
            )
        )
        batch_op.add_column(sa.Column("organizer_token_expires_at", _UTC(), nullable=True))
        batch_op.add_column(sa.Column("viewer_token_expires_at", _UTC(), nullable=True))
        batch_op.add_column(sa.Column("archived_at", _UTC(), nullable=True))
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.alter_column("visibility", server_default=None)
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("token_expires_at", _UTC(), nullable=True))
    with op.batch_alter_table("bridge_table_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("expires_at", _UTC(), nullable=True))
        batch_op.alter_column(
            "token_hash", existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True
        )


def downgrade() -> None:
    with op.batch_alter_table("bridge_table_tokens", schema=None) as batch_op:
        batch_op.alter_column(
            "token_hash", existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False
        )
        batch_op.drop_column("expires_at")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("token_expires_at")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("archived_at")
        batch_op.drop_column("viewer_token_expires_at")
        batch_op.drop_column("organizer_token_expires_at")
        batch_op.drop_column("viewer_token_hash")
        batch_op.drop_column("visibility")
