"""Rows and engine values -> response models (shared by the routes)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from pydantic import BaseModel
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.common import PointsSettings
from service.api.schemas.players import PlayerPublic
from service.api.schemas.rounds import ByePublic, GamePublic, RoundPublic
from service.api.schemas.standings import StandingsPublic
from service.api.schemas.tournaments import FlamparkSettings, SwissSettings, TournamentPublic
from service.api.state import AppState
from service.db.player_reads import count_players
from service.db.rating_facts import rating_facts_of
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.db.tournament_config import config_of
from service.engine.scoring.classification import StandingsFilter
from service.engine.systems import spec_of
from service.views.standings_table import default_tiebreaks, standings_table, tiebreak_order

__all__ = [
    "StandingsFilter",
    "default_tiebreaks",
    "player_public",
    "round_public",
    "standings_public",
    "tournament_public",
]


async def tournament_public(session: AsyncSession, row: TournamentRow) -> dict[str, Any]:
    """The public fields of a tournament."""
    config = config_of(row)
    return TournamentPublic(
        id=row.id,
        name=row.name,
        system=row.system,
        status=row.status,
        rounds=row.total_rounds,
        current_round=row.current_round,
        points=PointsSettings.model_validate(config.points_given),
        tiebreaks=tiebreak_order(row),
        players=await count_players(session, row.id),
        created_at=row.created_at,
        schedule=list(config.schedule) if config.schedule is not None else None,
        time_control=asdict(config.time_control) if config.time_control else None,
        flampark=_effective(row, "flampark", FlamparkSettings),
        swiss=_effective(row, "swiss", SwissSettings),
        team=row.settings.get("team"),
        visibility=row.visibility,
        publish_personal_data=config.publish_personal_data,
        prizes=row.settings.get("prizes"),
        norms=row.settings.get("norms"),
        city=row.settings.get("city"),
        federation=row.settings.get("federation"),
        officials=row.settings.get("officials"),
    ).model_dump(mode="json")


def _effective(row: TournamentRow, key: str, model: type[BaseModel]) -> Any:
    """The options in force: the stored ones, or the defaults of the tournament's system
    (never null for a system that has such options)."""
    stored = row.settings.get(key)
    if stored is not None:
        return stored
    spec = spec_of(row.system)
    applies = spec is not None and spec.options_key == key
    return model().model_dump(mode="json") if applies else None


def player_public(row: PlayerRow, *, personal: bool = True) -> PlayerPublic:
    """A player's fields; with `personal=False` (a reader who may not see personal data,
    service.api.access) the FIDE id, federation, sex, birth year and identity are null."""
    return PlayerPublic(
        id=row.number,
        start_number=row.start_number,
        name=row.name,
        rating=row.rating or None,  # 0 is stored for an unrated player (TRF-16)
        fide_id=row.fide_id if personal else None,
        federation=row.federation if personal else None,
        sex=row.sex if personal else None,
        birth_year=row.birth_year if personal else None,
        identity=row.extra.get("identity") if personal else None,
        withdrawn=bool(row.extra.get("withdrawn", False)),
        **rating_facts_of(row),  # rating facts, not personal data (docs/rules/ratings.md)
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
    state: AppState,
    session: AsyncSession,
    row: TournamentRow,
    *,
    tiebreaks: list[str] | None = None,
    filters: StandingsFilter | None = None,
    explain: int | None = None,
) -> StandingsPublic:
    """The standings as a validated model (for the routes that filter or explain)."""
    document = await standings_table(
        state.views, session, row, tiebreaks=tiebreaks, filters=filters, explain=explain
    )
    return StandingsPublic.model_validate(document)
