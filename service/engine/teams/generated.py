"""A generated team Swiss written as a TRF-26 team file (FIDE C.04.A asks an endorsed
program for a random tournament generator whose output the checker can replay).

`generate_team_tournament` plays each round through the C.04.6 engine and draws each
match's game points; this module turns that into a `TeamTrfDocument`: team t fields
players (t-1)*boards+1 .. t*boards on boards 1..boards, the first-named team has White
on the odd boards (record 352), and each match's game points are spread over the
boards in board order (wins first, then a draw for a half point, then losses), which
keeps the match and game points the generator drew. The pairing-allocated bye scores
what the generator gives it (record 320: 1 match point, half the boards in game points).
"""

from __future__ import annotations

from fractions import Fraction

from service.engine.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Player,
    Round,
    Tournament,
)
from service.engine.pairing.team_swiss.colours import board_colours
from service.engine.pairing.team_swiss.generator import TeamTournament
from service.engine.teams.model import (
    Board,
    Match,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
)
from service.engine.teams.trf import TeamTrfDocument
from service.engine.trf import TrfDocument

__all__ = ["SWISS_SYSTEM_NAME", "generated_team_document"]

SWISS_SYSTEM_NAME = "FIDE_TEAM_SWISS"
"""Record 092/192 of a generated file (any text without ROUNDROBIN reads as a Swiss)."""


def _board_results(points: float, boards: int) -> list[Fraction]:
    """The first-named team's game points per board, summing to `points`."""
    left = Fraction(points).limit_denominator(2)
    spread = []
    for _ in range(boards):
        share = min(Fraction(1), left)
        share = Fraction(1, 2) if Fraction(0) < share < 1 else share
        spread.append(share)
        left -= share
    return spread


def _result(points: Fraction, colour: Colour) -> GameResult:
    if points == Fraction(1, 2):
        return GameResult.DRAW
    white_won = (points == 1) == (colour is Colour.WHITE)
    return GameResult.WHITE_WINS if white_won else GameResult.BLACK_WINS


def generated_team_document(
    tournament: TeamTournament, *, name: str = "Random team Swiss"
) -> TeamTrfDocument:
    """The TRF-26 team document of a generated event (write it with `write_team_trf`)."""
    boards = tournament.boards
    sequence = board_colours(boards)

    def player(team: int, board: int) -> int:
        return (team - 1) * boards + board

    players = tuple(
        Player(player(t, k), f"Player {t}.{k}", max(0, rating - 20 * (k - 1)))
        for t, rating in enumerate(tournament.ratings, 1)
        for k in range(1, boards + 1)
    )
    teams = tuple(
        Team(t, f"Team {t}", tuple(player(t, k) for k in range(1, boards + 1)), strength=rating)
        for t, rating in enumerate(tournament.ratings, 1)
    )
    rounds: list[Round] = []
    team_rounds: list[TeamRound] = []
    for played in tournament.rounds:
        number = played.pairing.round
        games: list[Game] = []
        matches: list[Match] = []
        for match, (white_points, _) in zip(
            played.pairing.matches, played.game_points, strict=True
        ):
            seats: list[Board] = []
            spread = _board_results(white_points, boards)
            for k, (colour, share) in enumerate(zip(sequence, spread, strict=True), 1):
                home, away = player(match.white, k), player(match.black, k)
                result = _result(share, colour)
                white, black = (home, away) if colour is Colour.WHITE else (away, home)
                games.append(Game(number, white, black, result, len(games) + 1))
                seats.append(Board(k, home, away, colour, result))
            matches.append(Match(match.white, match.black, tuple(seats)))
        byes: tuple[Bye, ...] = ()
        if played.pairing.bye is not None:
            byes = tuple(
                Bye(number, player(played.pairing.bye, k), ByeKind.PAIRING_ALLOCATED)
                for k in range(1, boards + 1)
            )
        rounds.append(Round(number, tuple(games), byes))
        team_rounds.append(TeamRound(number, tuple(matches), played.pairing.bye))
    settings = tournament.settings
    total = settings.rounds
    scoring = TeamScoring(
        boards=boards, pab_match_points=Fraction(1), pab_game_points=Fraction(boards, 2)
    )
    event = TeamEvent(teams, tuple(team_rounds), scoring, total_rounds=total, name=name)
    letters = "".join("W" if c is Colour.WHITE else "B" for c in sequence)
    first = "white1" if settings.initial_colour is Colour.WHITE else "black1"
    headers = (
        ("012", name),
        ("092", SWISS_SYSTEM_NAME),
        ("142", str(total)),
        ("352", letters),
        ("362", "TW 2.0   TD 1.0   TL 0.0"),
        ("XXC", first),
    )
    individual = Tournament(players=players, rounds=tuple(rounds), total_rounds=total, name=name)
    document = TrfDocument(tournament=individual, system=SWISS_SYSTEM_NAME, headers=headers)
    return TeamTrfDocument(event=event, players=document, pab_record=True)
