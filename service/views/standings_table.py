"""The standings table as a JSON document (the shape of the API's `StandingsPublic`),
kept per (tournament, seq) for `GET /standings` and the live feed.

Built from plain dicts: after every result the table of a large event is rebuilt, and
thousands of validated models per rebuild would cost more than the scoring itself.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.offload import run_cpu
from service.db.tables import TournamentRow
from service.db.team_reads import is_team_event
from service.db.tournament_config import config_of
from service.engine.model import Tournament
from service.engine.ranking import shared_places
from service.engine.scoring.classification import StandingsFilter
from service.engine.scoring.flampark import rating_from_pf
from service.engine.scoring.flampark.standings import groups_of, pf_places, team_of, team_table
from service.engine.scoring.points import points_only
from service.engine.scoring.reading import DEFAULT_JCA, ROUND_ROBIN_SYSTEMS
from service.engine.scoring.reading import default_tiebreaks as system_default
from service.engine.scoring.standings import Standings, compute_standings
from service.engine.scoring.tiebreaks.context import last_decided_round
from service.engine.scoring.withdrawals import annulled_withdrawals, without_players
from service.views.cache import ViewCache
from service.views.flampark_scores import flampark_table
from service.views.snapshots import engine_view, players_view
from service.views.team_standings import team_standings, team_tiebreak_order

__all__ = [
    "JCA_TIEBREAKS",
    "default_tiebreaks",
    "standings_document",
    "standings_table",
    "tiebreak_order",
]

Row = dict[str, Any]

JCA_TIEBREAKS = DEFAULT_JCA
"""The JCA Swiss rules' order (kept under its old name; engine/scoring/reading.py holds it)."""


def default_tiebreaks(system: str) -> list[str]:
    """The tie-break order a system uses unless the organizer sets one: the one list
    per system of engine/scoring/reading.py (the CLI and the compute endpoint use it)."""
    return list(system_default(system))


def tiebreak_order(row: TournamentRow) -> list[str]:
    """The tournament's tie-break order (a team tournament's: the team list,
    docs/teams.md#standings)."""
    if is_team_event(row):
        return team_tiebreak_order(row)
    configured = config_of(row).tiebreaks
    return list(configured) if configured is not None else default_tiebreaks(row.system)


async def standings_table(
    views: ViewCache,
    session: AsyncSession,
    row: TournamentRow,
    *,
    tiebreaks: list[str] | None = None,
    filters: StandingsFilter | None = None,
    explain: int | None = None,
) -> dict[str, Any]:
    """Standings from confirmed results in the tournament's tie-break order; FLAMPARK
    tournaments are ordered by PF (Formuła FLAMPARK) and carry their FLAMPARK columns. A
    round-robin leaves out a withdrawn player who completed fewer than half of their
    games, with every game against them (FIDE C.06 V.4). A team tournament adds its
    team ranking and board prizes (`views.team_standings`); its players' rows take the
    individual defaults."""
    team = is_team_event(row)
    order = tiebreaks or (default_tiebreaks(row.system) if team else tiebreak_order(row))
    tournament = await engine_view(views, session, row)
    players = await players_view(views, session, row)
    if row.system in ROUND_ROBIN_SYSTEMS:
        withdrawn = (n for n, player in players.items() if player.extra.get("withdrawn"))
        tournament = without_players(tournament, annulled_withdrawals(tournament, withdrawn))
    round_robin = row.system in ROUND_ROBIN_SYSTEMS  # the stored system decides (C.07)
    if order or explain is not None:
        # off the event loop (docs/decisions/thread-pool.md): tie-breaks of a big event
        # take seconds; the last digest of this tournament is brought forward, not rebuilt
        table = await run_cpu(
            compute_standings,
            tournament,
            order,
            explain=explain,
            round_robin=round_robin,
            previous=views.tiebreak_contexts.get(row.id),
        )
        views.keep_context(row.id, table.context)
    else:
        table = await run_cpu(points_only, tournament)
    rows: dict[int, Row] = {}
    for line in table.rows:
        player = players[line.start_number]
        rows[line.start_number] = {
            "rank": line.rank,
            "start_number": line.start_number,
            "name": player.name,
            "rating": player.rating or None,  # null = unrated
            "points": float(line.points),
            "tiebreaks": {code: _number(v) for code, v in line.tiebreaks.items()},
            "flampark": None,
            "team": None,
            "group": None,
        }
    ordered = [rows[line.start_number] for line in table.rows]
    sort_order = "points"
    teams = None
    if row.system == "flampark":
        sort_order = "PF"
        ordered = await _by_pf(views, session, row, rows)
        teams = _variants(row, ordered, len(players))
    selected = filters or StandingsFilter()
    if selected.as_dict():
        played = Counter(
            number
            for rnd in tournament.rounds
            for game in rnd.games
            if game.result is not None
            for number in (game.white, game.black)
        )
        ordered = _rerank(
            [r for r in ordered if selected.keeps(players[r["start_number"]], _games(r, played))]
        )
    document = {
        "round": _last_decided_round(tournament, table),
        "tiebreaks": order,
        "order": sort_order,
        "filters": selected.as_dict(),
        "rows": ordered,
        "teams": teams,
        "explanation": table.explanation.as_dict() if table.explanation is not None else None,
    }
    if team:
        ranked = await team_standings(session, row)
        document.update(
            tiebreaks=ranked["team_tiebreaks"],
            player_tiebreaks=order,
            teams=ranked["teams"],
            boards=ranked["boards"],
        )
    return document


async def standings_document(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """Standings as JSON, cached per (tournament, last event) for the live feed."""
    key = (row.id, row.last_seq)
    cached = views.standings.get(key)
    if cached is None:
        cached = await standings_table(views, session, row)
        if len(views.standings) > 256:
            views.standings.clear()
        views.standings[key] = cached
    return cached


def _last_decided_round(tournament: Tournament, table: Standings) -> int:
    """The highest round with a game result (0 before the first): from the tie-break
    digest when there is one, which keeps it for the rounds it brought forward, else
    from the rounds."""
    if table.context is not None:
        return table.context.last_decided_round()
    return last_decided_round(tournament.rounds)


def _rerank(rows: list[Row]) -> list[Row]:
    """Ranks within a filtered table: rows that shared a rank still share one."""
    places = shared_places([line["rank"] for line in rows])
    return [{**line, "rank": rank} for rank, line in zip(places, rows, strict=True)]


def _games(line: Row, played: Counter[int]) -> int:
    if line["flampark"] is not None:
        return int(line["flampark"]["games_counted"])
    return played[line["start_number"]]


def _number(value: Fraction | None) -> float | None:
    """A value as JSON: a float (a tie-break's `15.5`, `1850.0`), null where undefined."""
    return None if value is None else float(value)


async def _by_pf(
    views: ViewCache, session: AsyncSession, row: TournamentRow, rows: dict[int, Row]
) -> list[Row]:
    """Rows by PF descending (players without a counted game last); equal PF share a
    rank. Players of different distances rank together (Formuła FLAMPARK)."""
    table = await flampark_table(views, session, row)
    pfs: list[tuple[int, Fraction | None]] = []
    for number, line in rows.items():
        score = table.scores.get(number)
        premium = table.premiums.get(number)
        pf = score.pf if score else None  # a sum of four means: computed once
        line["flampark"] = {
            "PF": _number(pf),
            "Pc": _number(score.pc) if score else None,
            "Pt": _number(score.pt) if score else None,
            "Pb": _number(score.pb) if score else None,
            "P%": _number(score.ppct) if score else None,
            "Ru": _number(rating_from_pf(pf)) if pf is not None else None,
            "games_counted": score.games_counted if score else 0,
            "PP": None if premium is None else float(premium),
        }
        pfs.append((number, pf))
    ranked: list[Row] = []
    for rank, number in pf_places(pfs):
        line = rows[number]
        line["rank"] = rank
        ranked.append(line)
    return ranked


def _variants(row: TournamentRow, ordered: list[Row], player_count: int) -> list[Row] | None:
    """FLAMPARK variants (Formuła FLAMPARK, "Warianty"): each player's team or group, and the team
    classification (every game of the team variant is a cross-team game)."""
    options = config_of(row).flampark
    variant = options.variant if options is not None else "individual"
    if variant == "group" and row.total_rounds:
        numbers = [line["start_number"] for line in ordered]
        groups = groups_of(numbers, player_count, row.total_rounds)
        for line in ordered:
            line["group"] = groups[line["start_number"]]
        return None
    if variant != "team":
        return None
    for line in ordered:
        line["team"] = team_of(line["start_number"])
    members = ((line["start_number"], line["points"], line["flampark"]["PF"]) for line in ordered)
    return [
        {"rank": t.rank, "team": t.team, "players": t.players, "points": t.points, "PF": t.pf}
        for t in team_table(members)
    ]
