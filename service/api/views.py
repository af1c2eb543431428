"""Rows and engine values -> response documents (shared by routes and the live feed)."""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.common import PointsSettings, to_number
from service.api.schemas.players import PlayerPublic
from service.api.schemas.rounds import ByePublic, GamePublic, RoundPublic
from service.api.schemas.standings import StandingRowPublic, StandingsPublic
from service.api.schemas.tournaments import TournamentPublic
from service.api.state import AppState
from service.db.repository import count_players, list_players, load_engine_tournament
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.engine.scoring.standings import (
    DEFAULT_ROUND_ROBIN,
    DEFAULT_SWISS,
    compute_standings,
)

__all__ = [
    "default_tiebreaks",
    "player_public",
    "round_public",
    "standings_document",
    "standings_public",
    "tournament_public",
]


def default_tiebreaks(system: str) -> list[str]:
    """The tie-break order a system uses unless the organizer sets one."""
    if system in ("round-robin", "double-round-robin"):
        return list(DEFAULT_ROUND_ROBIN)
    return list(DEFAULT_SWISS)


def tiebreak_order(row: TournamentRow) -> list[str]:
    """The tournament's tie-break order."""
    configured = row.settings.get("tiebreaks")
    return list(configured) if configured else default_tiebreaks(row.system)


async def tournament_public(session: AsyncSession, row: TournamentRow) -> dict[str, Any]:
    """The public fields of a tournament."""
    return TournamentPublic(
        id=row.id,
        name=row.name,
        system=row.system,
        status=row.status,
        rounds=row.total_rounds,
        current_round=row.current_round,
        points=PointsSettings.model_validate(row.settings.get("points", {})),
        tiebreaks=tiebreak_order(row),
        players=await count_players(session, row.id),
        created_at=row.created_at,
        schedule=row.settings.get("schedule"),
        time_control=row.settings.get("time_control"),
        flampark=row.settings.get("flampark"),
    ).model_dump(mode="json")


def player_public(row: PlayerRow) -> PlayerPublic:
    """The public fields of a player."""
    assert row.id is not None
    return PlayerPublic(
        id=row.id,
        start_number=row.start_number,
        name=row.name,
        rating=row.rating,
        fide_id=row.fide_id,
        federation=row.federation,
        sex=row.sex,
        birth_year=row.birth_year,
    )


def round_public(number: int, games: list[GameRow], byes: list[ByeRow]) -> RoundPublic:
    """A round's pairings and results."""
    return RoundPublic(
        round=number,
        games=[
            GamePublic(
                table=g.table_no,
                white=g.white,
                black=g.black,
                result=g.result,
                status=g.status,
                reports={k: str(v) for k, v in g.reports.items()},
                extra=g.extra,
            )
            for g in games
        ],
        byes=[ByePublic(player=b.player, type=b.kind) for b in byes],
    )


async def standings_public(
    session: AsyncSession, row: TournamentRow, tiebreaks: list[str] | None = None
) -> StandingsPublic:
    """Standings from confirmed results, in the tournament's tie-break order."""
    order = tiebreaks or tiebreak_order(row)
    tournament = await load_engine_tournament(session, row)
    players = {p.start_number: p for p in await list_players(session, row.id)}
    table = compute_standings(tournament, order)
    rows = []
    for line in table.rows:
        player = players[line.start_number]
        rows.append(
            StandingRowPublic(
                rank=line.rank,
                start_number=line.start_number,
                name=player.name,
                rating=player.rating,
                points=float(line.points),
                tiebreaks={code: to_number(v) for code, v in line.tiebreaks.items()},
            )
        )
    done = max((r.number for r in tournament.rounds if any(g.result for g in r.games)), default=0)
    return StandingsPublic(round=done, tiebreaks=order, rows=rows)


async def standings_document(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """Standings as JSON, cached per (tournament, last event) for the live feed."""
    key = (row.id, row.last_seq)
    cached = state.standings_cache.get(key)
    if cached is None:
        cached = (await standings_public(session, row)).model_dump(mode="json")
        if len(state.standings_cache) > 256:
            state.standings_cache.clear()
        state.standings_cache[key] = cached
    return cached
