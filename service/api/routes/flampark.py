"""FLAMPARK across tournaments: the best games and the players' ranking (Formuła FLAMPARK: the
site's "Najlepsze wyniki" and "Ranking zawodników")."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Annotated

from fastapi import APIRouter, Query

from service.api.deps import SessionDep, StateDep
from service.api.schemas.flampark_lists import (
    BestGame,
    GameParts,
    PlayerRanking,
    RankedPlayer,
    Side,
    TournamentRef,
)
from service.db.listing import flampark_tournaments
from service.db.tables import PlayerRow
from service.db.tournament_config import config_of
from service.engine.model import Outcome
from service.engine.scoring.flampark import best_games
from service.views.flampark_scores import FlamparkTable, flampark_table

router = APIRouter(prefix="/v1/flampark", tags=["flampark"])


def _side(player: PlayerRow) -> Side:
    assert player.start_number is not None
    return Side(start_number=player.start_number, name=player.name, rating=player.rating)


@router.get("/best-games", response_model=list[BestGame])
async def list_best_games(
    session: SessionDep,
    state: StateDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
) -> list[BestGame]:
    """The highest game values across all FLAMPARK tournaments, with both players, the
    tournament, the round and the value's parts. Equal values: earlier round first."""
    candidates = []
    for row in await flampark_tournaments(session):
        table = await flampark_table(state.views, session, row)
        for player, game in best_games(table.scores, limit=limit):
            candidates.append((game.value.total, row.created_at, game.round, player, table, game))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2], c[3]))
    listed = []
    for rank, (value, _, _, player, table, game) in enumerate(candidates[:limit], start=1):
        parts = game.value
        listed.append(
            BestGame(
                rank=rank,
                value=float(value),
                parts=GameParts(
                    Pc=float(parts.pc),
                    Pt=float(parts.pt),
                    Pb=float(parts.pb),
                    P_pct=float(parts.ppct),
                ),
                player=_side(table.players[player]),
                opponent=_side(table.players[game.opponent]),
                colour="white" if game.colour.value == "w" else "black",
                outcome=game.outcome.value,
                tournament=TournamentRef(id=table.tournament.id, name=table.tournament.name),
                round=game.round,
            )
        )
    return listed


@dataclass
class _Record:
    name: str = ""
    fide_id: str | None = None
    rating: int = 0
    latest: datetime | None = None
    tournaments: set[str] = field(default_factory=set)
    values: list[Fraction] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    entry: str = ""
    """The latest tournament entry, shown in place of the identity when withheld."""
    private: bool = False
    """Some tournament of this person does not publish personal data (docs/security.md#privacy)."""


def identity_of(player: PlayerRow) -> str:
    """The person behind a tournament entry: FIDE id, else an explicit link, else the
    entry itself."""
    if player.fide_id:
        return f"fide:{player.fide_id}"
    link = player.extra.get("identity")
    if link:
        return f"link:{link}"
    return f"entry:{player.tournament_id}:{player.start_number}"


def _collect(records: dict[str, _Record], table: FlamparkTable) -> None:
    for number, score in table.scores.items():
        player = table.players[number]
        record = records[identity_of(player)]
        if record.latest is None or table.tournament.created_at >= record.latest:
            record.name, record.rating = player.name, player.rating
            record.fide_id = player.fide_id
            record.latest = table.tournament.created_at
            record.entry = f"entry:{player.tournament_id}:{player.start_number}"
        if not config_of(table.tournament).publish_personal_data:
            record.private = True
        record.tournaments.add(table.tournament.id)
        for game in score.games:
            record.values.append(game.value.total)
            record.outcomes[game.outcome.value] += 1


@router.get("/players", response_model=PlayerRanking)
async def ranking(
    session: SessionDep,
    state: StateDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> PlayerRanking:
    """Players across every FLAMPARK tournament by mean result (the mean value of all
    their counted games, so results of tournaments of any length compare directly),
    with the rating beside and each player's game statistics. A person is recognised by
    FIDE id, else by the `identity` given at registration; the FIDE id and the identity
    are shown only when every tournament of that person publishes personal data
    (otherwise `identity` is the person's latest tournament entry)."""
    records: dict[str, _Record] = defaultdict(_Record)
    for row in await flampark_tournaments(session):
        _collect(records, await flampark_table(state.views, session, row))
    means = {key: sum(r.values, Fraction(0)) / len(r.values) for key, r in records.items()}
    ordered = sorted(records, key=lambda key: (-means[key], records[key].name, key))
    players = []
    for rank, key in enumerate(ordered[offset : offset + limit], start=offset + 1):
        record, mean = records[key], means[key]
        players.append(
            RankedPlayer(
                rank=rank,
                identity=record.entry if record.private else key,
                name=record.name,
                fide_id=None if record.private else record.fide_id,
                rating=record.rating,
                mean_result=float(mean),
                Ru=float(8 * mean + 600),
                tournaments=len(record.tournaments),
                games=len(record.values),
                wins=record.outcomes[Outcome.WIN.value],
                draws=record.outcomes[Outcome.DRAW.value],
                losses=record.outcomes[Outcome.LOSS.value],
                forfeits=record.outcomes[Outcome.FORFEIT_LOSS.value],
                best_game=float(max(record.values)),
            )
        )
    return PlayerRanking(total=len(records), players=players)
