"""Who may read a tournament, and what of its players they see (docs/api.md#access-and-privacy).

- Visibility: a `public` tournament (or bridge event) is read by anyone; a `private` one
  only with one of its tokens: the organizer's, the viewer token, a player's (chess) or
  a table's (bridge). The live channel and the HTML pages take the token as `?token=`
  because a browser cannot set headers on a WebSocket or a link.
- A presented token is always checked, on public tournaments too: an unknown token is
  401, an expired one 401 saying so, so a client never silently reads as a stranger.
- Archived tournaments (DELETE) answer 410 Gone to everyone but the organizer, who can
  still read (and export) what was kept; nobody can write to them.
- Personal data (FIDE id, federation, sex, birth year, identity link) is shown to the
  organizer only, unless the organizer sets `publish_personal_data`.

The live route calls `authorize_read` on connect (see its docstring); the feed shows
each event as a reader without a token may see it (`views.events`); after an event that
`changes_admission` every open socket of the tournament is checked again
(`api.live_access`), and one that `narrows_view` ends the replay of frames encoded
before it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_tables import BridgeTableTokenRow
from service.db.tables import PlayerRow, TournamentKind, TournamentRow
from service.db.team_tables import TeamRow
from service.db.tokens import digest_matches, hash_token
from service.db.tournament_config import config_of
from service.engine.model import Tournament
from service.errors import Forbidden, Gone, Unauthenticated
from service.views.events import shown_payload

__all__ = [
    "TokenHolder",
    "authorize_read",
    "check_readable",
    "event_view",
    "identify",
    "identify_digests",
    "install_token_redaction",
    "is_bridge",
    "require_writer",
    "shows_personal_data",
    "without_personal_data",
]

Role = Literal["organizer", "viewer", "player", "table", "captain"]


@dataclass(frozen=True, slots=True)
class TokenHolder:
    """Whose token came with a request: the organizer, the viewer token, a player (by
    start number), a bridge table (by number) or a team's captain (by team number)."""

    role: Role
    start_number: int | None = None
    table: int | None = None
    withdrawn: bool = False
    team: int | None = None


def is_bridge(row: TournamentRow) -> bool:
    """Bridge events are tournament rows of kind `bridge` (docs/rules/bridge.md)."""
    return row.kind == TournamentKind.BRIDGE


def _expired(expires_at: datetime | None, now: datetime) -> bool:
    if expires_at is None:
        return False
    if expires_at.tzinfo is None:  # stored as UTC; a backend may hand it back naive
        expires_at = expires_at.replace(tzinfo=UTC)
    return expires_at <= now


def _check_expiry(role: str, expires_at: datetime | None) -> None:
    if _expired(expires_at, datetime.now(UTC)):
        assert expires_at is not None
        raise Unauthenticated(
            f"this {role} token expired at {expires_at.isoformat()}; ask the organizer "
            "for a new one",
            field="Authorization",
            expired_at=expires_at.isoformat(),
        )


async def identify(session: AsyncSession, row: TournamentRow, token: str) -> TokenHolder:
    """The holder of `token` in this tournament; 401 when the token is unknown here or
    has expired (the message says which)."""
    digest = hash_token(token)
    reader = _holder(row, digest)
    if reader is not None:
        return reader
    if is_bridge(row):
        table = (
            await session.exec(
                select(BridgeTableTokenRow).where(
                    BridgeTableTokenRow.tournament_id == row.id,
                    BridgeTableTokenRow.token_hash == digest,
                )
            )
        ).first()
        if table is not None:
            return _table_reader(table)
    else:
        player = (
            await session.exec(
                select(PlayerRow).where(
                    PlayerRow.tournament_id == row.id, PlayerRow.token_hash == digest
                )
            )
        ).first()
        if player is not None:
            return _player_reader(player)
        captain = (
            await session.exec(
                select(TeamRow).where(
                    TeamRow.tournament_id == row.id, TeamRow.captain_token_hash == digest
                )
            )
        ).first()
        if captain is not None:
            return _captain_reader(captain)
    raise _stranger(row)


async def identify_digests(
    session: AsyncSession, row: TournamentRow, digests: Collection[str]
) -> dict[str, TokenHolder | Unauthenticated]:
    """`identify` for many tokens at once, given as digests (`hash_token`): each one's
    reader, or the refusal `identify` would raise. The players' or tables' tokens are
    looked up together, `_DIGESTS_PER_QUERY` to a query (the live feed checks every open
    socket of a tournament again when its access changes)."""
    found: dict[str, TokenHolder | Unauthenticated] = {}
    rest: list[str] = []
    for digest in digests:
        try:
            reader = _holder(row, digest)
        except Unauthenticated as refused:
            found[digest] = refused
            continue
        if reader is None:
            rest.append(digest)
        else:
            found[digest] = reader
    for start in range(0, len(rest), _DIGESTS_PER_QUERY):
        chunk = rest[start : start + _DIGESTS_PER_QUERY]
        if is_bridge(row):
            tables = await session.exec(
                select(BridgeTableTokenRow).where(
                    BridgeTableTokenRow.tournament_id == row.id,
                    col(BridgeTableTokenRow.token_hash).in_(chunk),
                )
            )
            for table in tables:
                found[str(table.token_hash)] = _outcome(_table_reader, table)
        else:
            players = await session.exec(
                select(PlayerRow).where(
                    PlayerRow.tournament_id == row.id, col(PlayerRow.token_hash).in_(chunk)
                )
            )
            for player in players:
                found[str(player.token_hash)] = _outcome(_player_reader, player)
            captains = await session.exec(
                select(TeamRow).where(
                    TeamRow.tournament_id == row.id, col(TeamRow.captain_token_hash).in_(chunk)
                )
            )
            for team in captains:
                found[str(team.captain_token_hash)] = _outcome(_captain_reader, team)
    for digest in rest:
        found.setdefault(digest, _stranger(row))
    return found


_DIGESTS_PER_QUERY = 500
"""Token digests looked up by one query of `identify_digests` (well under SQLite's and
PostgreSQL's bound on a statement's parameters)."""

_Holder = TypeVar("_Holder", PlayerRow, BridgeTableTokenRow, TeamRow)


def _outcome(
    reader_of: Callable[[_Holder], TokenHolder], holder: _Holder
) -> TokenHolder | Unauthenticated:
    try:
        return reader_of(holder)
    except Unauthenticated as refused:
        return refused


def _holder(row: TournamentRow, digest: str) -> TokenHolder | None:
    """The organizer or the viewer, if the token is theirs (None: neither); 401 if it
    has expired."""
    if digest_matches(digest, row.organizer_token_hash):
        _check_expiry("organizer", row.organizer_token_expires_at)
        return TokenHolder("organizer")
    if digest_matches(digest, row.viewer_token_hash):
        _check_expiry("viewer", row.viewer_token_expires_at)
        return TokenHolder("viewer")
    return None


def _player_reader(player: PlayerRow) -> TokenHolder:
    _check_expiry("player", player.token_expires_at)
    withdrawn = bool(player.extra.get("withdrawn", False))
    return TokenHolder("player", start_number=player.start_number, withdrawn=withdrawn)


def _captain_reader(team: TeamRow) -> TokenHolder:
    """A team captain's token: it reports the team's boards and sets its lineups
    (docs/teams.md)."""
    _check_expiry("captain", team.captain_token_expires_at)
    return TokenHolder("captain", team=team.number)


def _table_reader(table: BridgeTableTokenRow) -> TokenHolder:
    _check_expiry("table", table.expires_at)
    return TokenHolder("table", table=table.table_no)


def _stranger(row: TournamentRow) -> Unauthenticated:
    kind = "event" if is_bridge(row) else "tournament"
    return Unauthenticated(f"this token does not belong to the {kind}", field="Authorization")


def _gone(row: TournamentRow) -> Gone:
    assert row.archived_at is not None
    kind = "bridge event" if is_bridge(row) else "tournament"
    return Gone(
        f"the organizer archived this {kind} on {row.archived_at.date().isoformat()}",
        field="tournament_id",
    )


async def authorize_read(
    session: AsyncSession, row: TournamentRow, token: str | None
) -> TokenHolder | None:
    """May the holder of `token` (None: no token) read this tournament or bridge event?

    Returns the reader (None for an anonymous reader of a public one) or raises
    `Unauthenticated` (401: a private tournament without a token, or a token that is
    unknown here or expired) or `Gone` (410: archived; only its organizer still reads).

    The live route calls it once the tournament is loaded, with the `?token=` query
    parameter (or the bearer token), and closes the socket with 4401 / 4410 when it
    raises.
    """
    reader = None if token is None else await identify(session, row, token)
    check_readable(row, reader)
    return reader


def check_readable(row: TournamentRow, reader: TokenHolder | None) -> None:
    """`authorize_read` once the token, if any, is identified (`reader`; None: no
    token): `Gone` on an archived tournament but for its organizer, `Unauthenticated`
    on a private one without a reader."""
    if row.archived_at is not None and (reader is None or reader.role != "organizer"):
        raise _gone(row)
    if row.visibility == "private" and reader is None:
        kind = "bridge event" if is_bridge(row) else "tournament"
        raise Unauthenticated(
            f"this {kind} is private: send a token of it as 'Authorization: Bearer <token>'"
            " (or '?token=' on the live channel and the pages)",
            field="Authorization",
        )


def require_writer(row: TournamentRow, reader: TokenHolder | None) -> TokenHolder:
    """The reader, if their token may write at all: 401 without a token, 410 on an
    archived tournament, 403 for the viewer token (it only reads) and for a withdrawn
    player (their token no longer reports results)."""
    if reader is None:
        raise Unauthenticated("send 'Authorization: Bearer <token>'", field="Authorization")
    if row.archived_at is not None:
        raise _gone(row)
    if reader.role == "viewer":
        raise Forbidden("the viewer token only reads", field="Authorization")
    if reader.withdrawn:
        raise Forbidden(
            f"player {reader.start_number} has withdrawn: their token no longer reports "
            "results (the organizer can still enter them)",
            field="Authorization",
        )
    return reader


def shows_personal_data(row: TournamentRow, reader: TokenHolder | None) -> bool:
    """Personal data is the organizer's to see, and everyone's once published."""
    return config_of(row).publish_personal_data or (
        reader is not None and reader.role == "organizer"
    )


def without_personal_data(tournament: Tournament) -> Tournament:
    """The engine's view with every player's FIDE id, federation, sex and birth year
    blanked (the TRF export for readers who may not see them)."""
    players = tuple(
        dataclasses.replace(p, fide_id=None, federation=None, sex=None, birth_year=None)
        for p in tournament.players
    )
    return dataclasses.replace(tournament, players=players)


def event_view(
    row: TournamentRow, reader: TokenHolder | None, event_type: str, payload: dict[str, Any]
) -> dict[str, Any]:
    """An event's payload as this reader may see it: player registrations and changes
    lose their personal fields unless the reader may see them (`views.events`, whose
    rule the live feed applies to a reader without a token)."""
    return shown_payload(event_type, payload, personal=shows_personal_data(row, reader))


_TOKEN_IN_QUERY = re.compile(r"([?&]token=)[^&\s\"']*")
_SERVER_LOGGERS = ("uvicorn.access", "uvicorn.error")
"""uvicorn logs each request's path with its query string (HTTP lines on the access
logger, WebSocket handshakes on the error logger)."""


class TokenRedaction(logging.Filter):
    """Replaces the value of a `token=` query parameter in a log record by `***`, so a
    private tournament's token sent in a URL never reaches the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_IN_QUERY.sub(r"\1***", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN_IN_QUERY.sub(r"\1***", record.msg)
        return True


def install_token_redaction() -> None:
    """Add `TokenRedaction` to the server's loggers (once per process)."""
    for name in _SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenRedaction) for f in logger.filters):
            logger.addFilter(TokenRedaction())
