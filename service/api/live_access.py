"""Who may still follow a tournament's live feed: its open sockets checked again when
its access changes (a token rotated or revoked, the tournament made private or
archived), on every replica.

Each of those writes appends an event (`views.events.changes_admission`), which reaches
every replica's hub over the bus like any other. The channel that reads it hands this
check the credentials its sockets were admitted with, each token once (as its digest;
None for the spectators without one), and closes the sockets whose credential no longer
admits them, as a new connection with it would be refused: 4401 for a token that no
longer belongs to the tournament or a private tournament without one, 4410 for an
archived tournament (its organizer still follows it). One read of the tournament's row
and one query for the players' or tables' tokens (`access.identify_digests`) however
many sockets hold them: the cost is per access change and per socket of that tournament,
never per event.
"""

from __future__ import annotations

from service.api.access import check_readable, identify_digests
from service.api.routes.live import ARCHIVED, UNAUTHENTICATED
from service.api.state import AppState
from service.db.tables import TournamentRow
from service.errors import Gone, Unauthenticated
from service.live.hub import GONE, Refusal

__all__ = ["refusals"]


async def refusals(
    state: AppState, tournament_id: str, credentials: frozenset[str | None]
) -> tuple[int | None, dict[str | None, Refusal]]:
    """The tournament's seq as read (None: there is no such tournament), and the
    credentials among `credentials` that no longer admit their sockets, each with its
    refusal (`Hub.recheck`)."""
    async with state.read_session() as session:
        row = await session.get(TournamentRow, tournament_id)
        if row is None:
            gone = Refusal(GONE, 404, f"no tournament {tournament_id!r}", "tournament_id")
            return None, dict.fromkeys(credentials, gone)
        readers = await identify_digests(session, row, [c for c in credentials if c])
    refused: dict[str | None, Refusal] = {}
    for credential in credentials:
        reader = None if credential is None else readers[credential]
        try:
            if isinstance(reader, Unauthenticated):
                raise reader  # the token is unknown here, or has expired
            check_readable(row, reader)
        except Unauthenticated as refusal:
            refused[credential] = Refusal(UNAUTHENTICATED, 401, refusal.detail, "token")
        except Gone as refusal:
            refused[credential] = Refusal(ARCHIVED, 410, refusal.detail, "tournament_id")
    return row.last_seq, refused
