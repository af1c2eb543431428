"""Whether the database holds this release's schema (migrations are a release step:
`arbiter migrate`, docs/operations.md#migrations).

A server started on a database that was never migrated, or migrated for an older
release, used to answer every request with a 500 (`no such table: tournaments`). It
now answers 503 naming the cause (`db.failures.is_not_migrated`), and `/healthz` says
"not migrated". A database migrated for a newer release than this one is not flagged:
in a rolling deployment the migration runs first, while the older replicas still serve.
"""

from __future__ import annotations

from functools import cache

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.failures import is_not_migrated

__all__ = ["NOT_MIGRATED", "earlier_revisions", "schema_state"]

NOT_MIGRATED = "not migrated"
"""`/healthz`'s word for a database without this release's schema."""

_VERSION = text("SELECT version_num FROM alembic_version")


@cache
def earlier_revisions() -> frozenset[str]:
    """The revisions of this release's migrations before its head (read once per
    process, from the migration scripts; Alembic is imported only then)."""
    from alembic.script import ScriptDirectory

    from service.db.migrate import alembic_config

    script = ScriptDirectory.from_config(alembic_config(""))
    every = {revision.revision for revision in script.walk_revisions()}
    return frozenset(every - set(script.get_heads()))


async def schema_state(session: AsyncSession) -> str:
    """ "ok", or `NOT_MIGRATED` when the database has no schema at all or one that
    this release's migrations have not brought to their head."""
    try:
        versions = {row[0] for row in (await session.exec(_VERSION)).all()}  # type: ignore[call-overload]
    except DBAPIError as exc:
        if is_not_migrated(exc):
            return NOT_MIGRATED
        raise
    if not versions or versions & earlier_revisions():
        return NOT_MIGRATED
    return "ok"
