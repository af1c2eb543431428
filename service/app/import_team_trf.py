"""Import a TRF-26 team file (310/013 records) as a stored team tournament
(docs/teams.md#trf-export-and-import): its players, teams (with captains' tokens),
matches and board games in the file's round state.

The rounds are stored as the file has them (`stored_rounds`): the colours as played
on each board, matches played on fewer boards than the event's, boards won by default,
a team without a match (a round-robin's idle team, a team absent from a Swiss round),
the PAB (record 320); a match forfeited whole (record 330) is seated with each team's
first players, every board forfeited; a match whose first-named team has Black on
board 1 is stored the other way round. What the file gets wrong is refused (422 naming
the body and the line, nothing stored): teams not numbered 1..n, more boards than the
API allows, a team listing fewer players than boards (registration's rule), and every
contradiction the team reader finds. `read_team_import` is pure
and runs in the CPU pool; `import_team_trf` stores what it read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.import_trf import (
    ImportedTournament,
    player_rows,
    stored_trf,
    validate_limits,
)
from service.app.lifecycle import move, settle_status
from service.app.offload import run_cpu
from service.db.event_types import Imported
from service.db.events import append_event
from service.db.repository import create_tournament, store_players, store_rounds
from service.db.team_awards import awards_by_team
from service.db.team_layout import layout_of
from service.db.team_reads import board_table
from service.db.team_tables import TeamMatchRow, TeamRow
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import LifecycleEvent
from service.engine.model import ByeKind, Colour, Game, GameResult, Round
from service.engine.scoring.tiebreaks.errors import TieBreakError
from service.engine.teams.baku import event_baku, record_250
from service.engine.teams.draw import TeamPairingSystem, board_sequence
from service.engine.teams.model import (
    EMPTY_SEAT,
    Board,
    Match,
    MatchForfeit,
    TeamEvent,
    TeamSystem,
)
from service.engine.teams.registry import parse_team_tiebreak
from service.engine.teams.trf import TeamTrfDocument, parse_team_trf
from service.engine.trf import TrfError
from service.engine.trf_audit import read_audit
from service.errors import InvalidInput

__all__ = [
    "ImportedTeamFile",
    "ImportedTeams",
    "import_team_trf",
    "read_team_import",
    "stored_rounds",
]

MAX_BOARDS = 20
"""As POST /v1/tournaments: `team.boards` 1..20."""


@dataclass(frozen=True, slots=True)
class ImportedTeamFile:
    """A team file read for import."""

    doc: TeamTrfDocument
    system: TeamPairingSystem
    settings: dict[str, Any]
    players: list[dict[str, Any]]
    issued: list[dict[str, Any]]
    rounds: tuple[Round, ...]
    """The board games, seated at their stored tables."""
    matches: list[dict[str, Any]]
    """Rows of `team_matches`, the tournament's id aside."""
    warnings: list[str] = field(default_factory=list)
    """Audit lines dropped (docs/rules/trf.md#audit-trail)."""


def _refuse(detail: str) -> InvalidInput:
    return InvalidInput(f"a team file Arbiter cannot store: {detail}", field="body")


def read_team_import(text: str) -> ImportedTeamFile:
    """Read and check a team file (`InvalidInput` naming the body and the line)."""
    try:
        doc = parse_team_trf(text)
    except TrfError as error:
        raise InvalidInput(str(error), field="body") from None
    validate_limits(doc.players)
    event = doc.event
    boards = event.scoring.boards
    if not 1 <= boards <= MAX_BOARDS:
        raise _refuse(f"{boards} boards; at most {MAX_BOARDS}")
    _check_teams(doc)
    rounds, matches = stored_rounds(event, doc.players.tournament.rounds)
    system = (
        TeamPairingSystem.ROUND_ROBIN
        if event.system is TeamSystem.ROUND_ROBIN
        else TeamPairingSystem.SWISS
    )
    count = len(event.teams)
    cycle = count - 1 if count % 2 == 0 else count
    scoring = event.scoring
    settings: dict[str, Any] = {
        "source": "trf",
        # 013 (TRF-16) squads are listed, not board orders: written back as 013
        "trf": {**stored_trf(doc.players), "team_format": doc.team_format},
        "team": {
            "boards": boards,
            "match_points": {
                "win": float(scoring.match_win),
                "draw": float(scoring.match_draw),
                "loss": float(scoring.match_loss),
            },
            "ranking": "match-points",
            "colours": "A",
            "double": system is TeamPairingSystem.ROUND_ROBIN and event.planned_rounds > cycle,
            "pab_match_points": _number(scoring.pab_match_points),
            "pab_game_points": _number(scoring.pab_game_points),
        },
    }
    if _is_team_baku(doc, system):
        settings["team"]["acceleration"] = "baku"
    codes = [c.strip() for c in dict(doc.players.headers).get("212", "").split(",") if c.strip()]
    if codes and _known(codes, event.system):
        settings["tiebreaks"] = codes  # record 212: the event's tie-break list
    audit = read_audit(text)  # kept verbatim, written back before the event's own
    if audit.lines:
        settings["trf"]["audit"] = list(audit.lines)
    players, issued = player_rows(doc.players)
    return ImportedTeamFile(
        doc, system, settings, players, issued, rounds, matches, list(audit.warnings)
    )


def _is_team_baku(doc: TeamTrfDocument, system: TeamPairingSystem) -> bool:
    """Whether a team Swiss file's 250 records are the team Baku acceleration of its
    teams and rounds (docs/teams.md#baku-acceleration), as the export writes them. They
    stay with the file's headers, so the export writes them back as they were."""
    kept = [rest.strip() for code, rest in doc.players.headers if code == "250"]
    rounds = doc.event.total_rounds
    if not kept or system is not TeamPairingSystem.SWISS or rounds is None:
        return False
    return kept == [record_250(r)[1].strip() for r in event_baku(doc.event, rounds)]


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _known(codes: list[str], system: TeamSystem) -> bool:
    """Whether every code of a 212 record is a team tie-break of the system (else the
    system's defaults stand, as for a tournament created without a list)."""
    try:
        for code in codes:
            parse_team_tiebreak(code, system)
    except TieBreakError:
        return False
    return True


def _check_teams(doc: TeamTrfDocument) -> None:
    event = doc.event
    numbers = [t.number for t in event.teams]
    if numbers != list(range(1, len(numbers) + 1)):
        raise _refuse("teams must be numbered 1, 2, 3 … in the file's order")
    if len(numbers) < 2:
        raise _refuse("a team tournament needs at least 2 teams")
    for team in event.teams:
        if len(team.players) < event.scoring.boards:
            raise _refuse(
                f"line {doc.lines.get(team.number, 0)}: team {team.number} has "
                f"{len(team.players)} players for {event.scoring.boards} boards"
            )


def stored_rounds(
    event: TeamEvent, cells: Sequence[Round] = ()
) -> tuple[tuple[Round, ...], list[dict[str, Any]]]:
    """The board games (at their stored tables) and byes, and the `team_matches` rows of
    a team event's rounds, as the file has them (docs/teams.md#trf-export-and-import):
    the colours as played, the boards a match was played on, boards won by default
    (`db.team_layout`), a team without a match (`free`: a round-robin's idle team or a
    team absent from a Swiss round, no points). `cells` are the players' rounds of the
    file: their byes are stored but those of players seated in a stored game (a match
    forfeited whole) and the PAB team's (the export writes those from the lineup)."""
    boards = event.scoring.boards
    rounds: list[Round] = []
    rows: list[dict[str, Any]] = []
    for rnd in event.rounds:
        games: list[Game] = []
        for match_no, match in enumerate(rnd.matches, 1):
            if match.boards and min(match.boards, key=lambda b: b.board).home_colour is B:
                match = _swapped(match)  # stored: the team with White on board 1 first
            seated = sorted(match.boards, key=lambda b: b.board)
            if match.forfeit is not None:
                seated = _forfeited(event, match)
            numbers = [b.board for b in seated]
            if (
                not seated
                or len(set(numbers)) != len(numbers)
                or not set(numbers) <= set(range(1, boards + 1))
            ):
                raise _refuse(
                    f"round {rnd.number}: match {match.home}-{match.away} has boards "
                    f"{numbers}, not boards of 1..{boards}"
                )
            layout = None if match.forfeit is not None else layout_of(seated, boards)
            row = _row(rnd.number, match_no, match.home, match.away, "match", match.forfeit)
            rows.append({**row, "layout": layout})
            for board in seated:
                if EMPTY_SEAT in (board.home_player, board.away_player):
                    continue  # won by default: the layout holds it, no game is played
                white, black = (
                    (board.home_player, board.away_player)
                    if board.home_colour is Colour.WHITE
                    else (board.away_player, board.home_player)
                )
                table = board_table(match_no, board.board, boards)
                games.append(Game(rnd.number, white, black, board.result, table))
        extra = len(rnd.matches) + 1
        if rnd.pab is not None:
            rows.append(_row(rnd.number, extra, rnd.pab, None, "pairing-allocated", None))
            extra += 1
        for team in rnd.unpaired:
            rows.append(_row(rnd.number, extra, team, None, "free", None))
            extra += 1
        seated_players = {p for g in games for p in (g.white, g.black)}
        pab_team = set(event.team(rnd.pab).players) if rnd.pab is not None else set()
        byes = tuple(
            bye
            for cell in cells
            if cell.number == rnd.number
            for bye in cell.byes
            if bye.player not in seated_players
            and not (bye.player in pab_team and bye.kind is ByeKind.PAIRING_ALLOCATED)
        )
        rounds.append(Round(rnd.number, tuple(games), byes))
    return tuple(rounds), rows


B = Colour.BLACK


def _swapped(match: Match) -> Match:
    """A match whose first-named team has Black on board 1 (record 352 starting with
    B), named the other way round: the same games, the White team on board 1 first."""
    boards = tuple(
        Board(b.board, b.away_player, b.home_player, b.home_colour.other, b.result)
        for b in match.boards
    )
    return Match(match.away, match.home, boards)


_WINNER = {
    MatchForfeit.HOME_WINS: {
        Colour.WHITE: GameResult.WHITE_WINS_FORFEIT,
        Colour.BLACK: GameResult.BLACK_WINS_FORFEIT,
    },
    MatchForfeit.AWAY_WINS: {
        Colour.WHITE: GameResult.BLACK_WINS_FORFEIT,
        Colour.BLACK: GameResult.WHITE_WINS_FORFEIT,
    },
}


def _forfeited(event: TeamEvent, match: Match) -> list[Board]:
    """A match forfeited whole (record 330) seated as the stored tournament keeps it:
    each team's first players on the boards, every board given the forfeit (as the
    organizer's whole-match forfeit stores it)."""
    assert match.forfeit is not None
    boards = event.scoring.boards
    home = event.team(match.home).players
    away = event.team(match.away).players
    seated = []
    for board, colour in enumerate(board_sequence(boards), 1):
        result = _WINNER.get(match.forfeit, {}).get(colour, GameResult.DOUBLE_FORFEIT)
        seated.append(Board(board, home[board - 1], away[board - 1], colour, result))
    return seated


def _row(
    number: int, match_no: int, home: int, away: int | None, kind: str, forfeit: object
) -> dict[str, Any]:
    return {
        "round": number,
        "match_no": match_no,
        "home": home,
        "away": away,
        "kind": kind,
        "forfeit": None if forfeit is None else str(getattr(forfeit, "value", forfeit)),
        "layout": None,
    }


@dataclass(frozen=True, slots=True)
class ImportedTeams:
    """The stored tournament and every token it issued (shown once)."""

    imported: ImportedTournament
    captain_tokens: list[dict[str, Any]]
    """`team`, `name`, `token` of each team."""


async def import_team_trf(session: AsyncSession, text: str) -> ImportedTeams:
    """The workflow: read the file off the event loop, store the tournament, its players,
    teams, matches and board games and the `imported` event, in the file's state."""
    read = await run_cpu(read_team_import, text)
    event = read.doc.event
    row, token = await create_tournament(
        session,
        name=(read.doc.players.tournament.name or "Imported team tournament")[:200],
        system=read.system.value,
        settings=read.settings,
        total_rounds=event.total_rounds or len(event.rounds) or None,
    )
    await store_players(session, row, read.players)
    captains = []
    awarded = awards_by_team(event.rounds)  # the file's 299 records
    for team in event.teams:
        captain = new_token("cpt")
        session.add(
            TeamRow(
                tournament_id=row.id,
                number=team.number,
                name=team.name[:200],
                players=list(team.players),
                lineups={},
                awarded=awarded.get(team.number),
                captain_token_hash=hash_token(captain),
            )
        )
        captains.append({"team": team.number, "name": team.name, "token": captain})
    session.add_all(TeamMatchRow(tournament_id=row.id, **match) for match in read.matches)
    await store_rounds(session, row, read.rounds)
    paired = len(event.rounds)
    complete = all(g.result is not None for r in read.rounds for g in r.games)
    row.current_round = paired
    move(row, LifecycleEvent.START)
    settle_status(
        row, finished=complete and row.total_rounds is not None and paired >= row.total_rounds
    )
    session.add(row)
    await append_event(session, row.id, Imported(len(read.players), paired))
    imported = ImportedTournament(row, token, read.issued, read.warnings)
    return ImportedTeams(imported, captains)
