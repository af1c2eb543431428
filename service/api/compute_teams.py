"""Stateless compute of TRF-26 team files: standings and the next round (docs/api.md).

Runs in the compute workers like the individual jobs (`api.compute_offload`). A team
file is TRF text with 310 (or 013) records; `parse_team_trf` refuses a contradiction
with a `TrfError` naming its line, which becomes a problem naming the body. Team ids
are the 310 pairing numbers, player ids the 001 start numbers.
"""

from __future__ import annotations

from service.api.compute_input import EngineInput, within_size
from service.api.compute_standings import TeamRanking, standings_document
from service.api.schemas.compute import (
    ComputePairingSystem,
    ComputeStandings,
    ComputeTeamBoard,
    ComputeTeamBye,
    ComputeTeamMatch,
    ComputeTeamPairing,
    ComputeTeamStandingRow,
)
from service.engine.model import Colour
from service.engine.pairing.team_swiss.model import ColourPreferenceType, PrimaryScore
from service.engine.scoring.reading import reading_for
from service.engine.teams.draw import TeamPairingSystem, next_team_round
from service.engine.teams.model import TeamSystem
from service.engine.teams.ranking import rank_teams
from service.engine.teams.registry import team_tiebreak_order
from service.engine.teams.trf import TeamTrfDocument, parse_team_trf
from service.engine.trf import decode_trf
from service.errors import InvalidInput

__all__ = ["is_team_body", "team_pairing", "team_standings"]

_ROUND_ROBINS = ("round-robin", "double-round-robin")


def is_team_body(raw: bytes) -> bool:
    """Whether a TRF body holds team records (310 or 013 at the start of a line)."""
    return any(line[:3] in (b"310", b"013") for line in raw.splitlines())


def _document(raw: bytes, system: str | None) -> TeamTrfDocument:
    team_system = None
    if system is not None:
        team_system = TeamSystem.ROUND_ROBIN if system in _ROUND_ROBINS else TeamSystem.SWISS
    return parse_team_trf(decode_trf(raw), system=team_system)


def team_standings(
    raw: bytes,
    tiebreaks: list[str] | None,
    edition: str,
    explain: int | None,
    system: str | None,
) -> ComputeStandings:
    """The teams ranked by the request's codes (else 212, else the defaults), with the
    players' own rows beside them."""
    doc = _document(raw, system)
    event = doc.event
    listed = dict(doc.players.headers).get("212", "").replace(" ", ",")
    order = team_tiebreak_order(tiebreaks or [c for c in listed.split(",") if c], event.system)
    names = {t.number: t.name for t in event.teams}
    teams = [
        ComputeTeamStandingRow(
            rank=r.rank,
            team=r.team,
            name=names[r.team],
            match_points=float(r.match_points),
            game_points=float(r.game_points),
            tiebreaks={code: float(v) for code, v in r.values.items()},
        )
        for r in rank_teams(event, order)
    ]
    tournament = doc.players.tournament
    reading = reading_for(tournament, system, doc.players.system)
    return standings_document(
        tournament,
        list(reading.default_tiebreaks()),
        edition=edition,
        explain=explain,
        reading=reading,
        teams=TeamRanking(teams, order, event.system.value),
    )


def team_pairing(
    raw: bytes,
    system: ComputePairingSystem | None,
    colour_preferences: str,
    primary_score: str,
    max_players: int,
    secondary_for_colours: bool = True,
) -> ComputeTeamPairing:
    """The next round of a team file: `system`, else the one its 192/092 record
    declares (a team Swiss unless it says round-robin)."""
    if system not in (None, ComputePairingSystem.TEAM_SWISS, ComputePairingSystem.TEAM_ROUND_ROBIN):
        raise InvalidInput(
            f"{system} pairs individuals; a team file takes team-swiss or team-round-robin",
            field="system",
        )
    named = None if system is None else system.value.removeprefix("team-")
    doc = _document(raw, named)
    within_size(EngineInput(doc.players.tournament, {}), max_players)
    event = doc.event
    chosen = (
        TeamPairingSystem(system.value)
        if system is not None
        else TeamPairingSystem.ROUND_ROBIN
        if event.system is TeamSystem.ROUND_ROBIN
        else TeamPairingSystem.SWISS
    )
    initial: Colour | None = doc.players.tournament.initial_colour
    draw = next_team_round(
        event,
        chosen,
        record_352=dict(doc.players.headers).get("352", ""),
        colour_preferences=ColourPreferenceType(colour_preferences),
        primary_score=PrimaryScore(primary_score),
        initial_colour=initial,
        secondary_for_colours=secondary_for_colours,
    )
    return ComputeTeamPairing(
        round=draw.round,
        system=chosen.value,
        matches=[
            ComputeTeamMatch(
                match=m.table,
                home=m.home,
                away=m.away,
                boards=[
                    ComputeTeamBoard(board=b.board, white=b.white, black=b.black) for b in m.boards
                ],
            )
            for m in draw.matches
        ],
        byes=[ComputeTeamBye(team=draw.bye, type=draw.bye_kind.value)]
        if draw.bye is not None and draw.bye_kind is not None
        else [],
        notes=list(draw.notes),
    )
