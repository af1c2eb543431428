"""Rows and engine values -> response documents (shared by routes and the live feed)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Literal

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.flampark_scores import flampark_table
from service.api.schemas.common import PointsSettings, to_number
from service.api.schemas.players import PlayerPublic
from service.api.schemas.rounds import ByePublic, GamePublic, RoundPublic
from service.api.schemas.standings import (
    FlamparkColumns,
    StandingRowPublic,
    StandingsPublic,
    TeamLine,
)
from service.api.schemas.tournaments import TournamentPublic
from service.api.snapshots import engine_view, players_view
from service.api.state import AppState
from service.db.repository import count_players
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.engine.pairing.flampark.kinds import group_bounds
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
    if system == "swiss-jca":
        return list(JCA_TIEBREAKS)
    return list(DEFAULT_SWISS)


JCA_TIEBREAKS = ("PERF-JCA", "BH", "BH-M1", "DE")
"""Seed 001: the simple performance method first, then Solkoff, median Solkoff, direct
encounter (the text lists the others as alternatives to announce before round 1)."""


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
        swiss=row.settings.get("swiss"),
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
        identity=row.extra.get("identity"),
        withdrawn=bool(row.extra.get("withdrawn", False)),
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


@dataclass(frozen=True, slots=True)
class StandingsFilter:
    """A classification (seed 000): rating range, sex, birth-year range, games played."""

    rating_min: int | None = None
    rating_max: int | None = None
    sex: str | None = None
    born_from: int | None = None
    born_to: int | None = None
    rounds_min: int | None = None
    rounds_max: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The filters that are set."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def keeps(self, player: PlayerRow, games: int) -> bool:
        """Whether a player belongs to the classification."""
        born = player.birth_year
        checks = (
            self.rating_min is None or player.rating >= self.rating_min,
            self.rating_max is None or player.rating <= self.rating_max,
            self.sex is None or player.sex == self.sex,
            self.born_from is None or (born is not None and born >= self.born_from),
            self.born_to is None or (born is not None and born <= self.born_to),
            self.rounds_min is None or games >= self.rounds_min,
            self.rounds_max is None or games <= self.rounds_max,
        )
        return all(checks)


def _rerank(rows: list[tuple[int, StandingRowPublic]]) -> list[StandingRowPublic]:
    """Ranks within a filtered table: rows that shared a rank still share one."""
    ranked: list[StandingRowPublic] = []
    previous_key: int | None = None
    for position, (key, row) in enumerate(rows, start=1):
        rank = ranked[-1].rank if ranked and key == previous_key else position
        ranked.append(row.model_copy(update={"rank": rank}))
        previous_key = key
    return ranked


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


async def standings_public(
    state: AppState,
    session: AsyncSession,
    row: TournamentRow,
    *,
    tiebreaks: list[str] | None = None,
    filters: StandingsFilter | None = None,
    explain: int | None = None,
) -> StandingsPublic:
    """Standings from confirmed results in the tournament's tie-break order; FLAMPARK
    tournaments are ordered by PF (seed 000) and carry their FLAMPARK columns."""
    order = tiebreaks or tiebreak_order(row)
    tournament = await engine_view(state, session, row)
    players = await players_view(state, session, row)
    table = compute_standings(tournament, order, explain=explain)
    games_played = Counter(
        number
        for rnd in tournament.rounds
        for game in rnd.games
        if game.result is not None
        for number in (game.white, game.black)
    )
    lines: dict[int, StandingRowPublic] = {}
    for line in table.rows:
        player = players[line.start_number]
        lines[line.start_number] = StandingRowPublic(
            rank=line.rank,
            start_number=line.start_number,
            name=player.name,
            rating=player.rating,
            points=float(line.points),
            tiebreaks={code: to_number(v) for code, v in line.tiebreaks.items()},
        )
    ordered = [(line.rank, lines[line.start_number]) for line in table.rows]
    sort_order: Literal["points", "PF"] = "points"
    teams = None
    if row.system == "flampark":
        sort_order = "PF"
        ordered = await _flampark_rows(state, session, row, lines, games_played)
        ordered, teams = _variant_columns(row, ordered, len(players))
    selected = filters or StandingsFilter()
    kept = [
        (key, line)
        for key, line in ordered
        if selected.keeps(players[line.start_number], _games(line, games_played))
    ]
    done = max((r.number for r in tournament.rounds if any(g.result for g in r.games)), default=0)
    explanation = table.explanation.as_dict() if table.explanation is not None else None
    return StandingsPublic(
        round=done,
        tiebreaks=order,
        order=sort_order,
        filters=selected.as_dict(),
        rows=_rerank(kept),
        teams=teams,
        explanation=explanation,
    )


def _variant_columns(
    row: TournamentRow, ordered: list[tuple[int, StandingRowPublic]], player_count: int
) -> tuple[list[tuple[int, StandingRowPublic]], list[TeamLine] | None]:
    """FLAMPARK variants (seed 000): each player's team or group, and the team
    classification (every game of the team variant is a cross-team game)."""
    options = row.settings.get("flampark") or {}
    variant = options.get("variant", "individual")
    if variant == "group" and row.total_rounds:
        bounds = group_bounds(player_count, row.total_rounds)

        def group_of(number: int) -> int:
            return next(i for i, (first, size) in enumerate(bounds, 1) if number < first + size)

        tagged = [(k, r.model_copy(update={"group": group_of(r.start_number)})) for k, r in ordered]
        return tagged, None
    if variant != "team":
        return ordered, None
    tagged = [(k, r.model_copy(update={"team": 2 - r.start_number % 2})) for k, r in ordered]
    lines = []
    for team in (1, 2):
        members = [r for _, r in tagged if r.team == team]
        results = [r.flampark.PF for r in members if r.flampark and r.flampark.PF is not None]
        lines.append(
            TeamLine(
                rank=0,
                team=team,
                players=len(members),
                points=sum(r.points for r in members),
                PF=sum(results) / len(results) if results else None,
            )
        )
    lines.sort(key=lambda line: (-line.points, line.team))
    for position, line in enumerate(lines, start=1):
        tie = position > 1 and line.points == lines[position - 2].points
        line.rank = lines[position - 2].rank if tie else position
    return tagged, lines


def _games(line: StandingRowPublic, played: Counter[int]) -> int:
    if line.flampark is not None:
        return line.flampark.games_counted
    return played[line.start_number]


async def _flampark_rows(
    state: AppState,
    session: AsyncSession,
    row: TournamentRow,
    lines: dict[int, StandingRowPublic],
    played: Counter[int],
) -> list[tuple[int, StandingRowPublic]]:
    """Rows by PF descending (players without a counted game last); equal PF share a
    rank. Players of different distances rank together (seed 000)."""
    table = await flampark_table(state, session, row)
    keyed: list[tuple[Fraction | None, int, StandingRowPublic]] = []
    for number, line in lines.items():
        score = table.scores.get(number)
        premium = table.premiums.get(number)
        columns = FlamparkColumns(
            PF=_number(score.pf if score else None),
            Pc=_number(score.pc if score else None),
            Pt=_number(score.pt if score else None),
            Pb=_number(score.pb if score else None),
            P_pct=_number(score.ppct if score else None),
            Ru=_number(score.ru if score else None),
            games_counted=score.games_counted if score else 0,
            PP=None if premium is None else float(premium),
        )
        keyed.append(
            (score.pf if score else None, number, line.model_copy(update={"flampark": columns}))
        )
    keyed.sort(key=lambda item: (item[0] is None, -(item[0] or 0), item[1]))
    ranked: list[tuple[int, StandingRowPublic]] = []
    previous: Fraction | None = None
    rank = 0
    for position, (pf, _, line) in enumerate(keyed, start=1):
        if position == 1 or pf != previous or pf is None:
            rank = position
        previous = pf
        ranked.append((rank, line.model_copy(update={"rank": rank})))
    return ranked


async def standings_document(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """Standings as JSON, cached per (tournament, last event) for the live feed."""
    key = (row.id, row.last_seq)
    cached = state.standings_cache.get(key)
    if cached is None:
        cached = (await standings_public(state, session, row)).model_dump(
            mode="json", by_alias=True
        )
        if len(state.standings_cache) > 256:
            state.standings_cache.clear()
        state.standings_cache[key] = cached
    return cached
