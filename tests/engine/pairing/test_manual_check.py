"""The warnings a manual pairing earns (service/engine/pairing/manual.py), on small
tournaments written out round by round: the absolute rules of FIDE C.04.1 (b rematch,
d pairing-allocated bye, f colour difference, g three colours in a row) as errors, and
the Dutch quality criteria compared with another pairing of the same round."""

from __future__ import annotations

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.pairing.manual import check_manual_pairing

DRAW = GameResult.DRAW


def field(n: int) -> tuple[Player, ...]:
    return tuple(Player(k, f"P{k}", 2500 - 100 * k) for k in range(1, n + 1))


def game(rnd: int, white: int, black: int, result: GameResult | None = DRAW) -> Game:
    return Game(rnd, white, black, result)


def found(
    before: Tournament, manual: Round, engine: Round | None = None
) -> list[tuple[str, str, tuple[int, ...]]]:
    return [
        (w.severity, w.rule, w.players)
        for w in check_manual_pairing(before, manual, engine, dutch=True)
    ]


def test_three_whites_in_a_row_and_a_colour_difference_of_three() -> None:
    """1 had white in rounds 1 and 2, 4 black: 1-4 with 1 white gives 1 a third white
    in a row and +3 (C.04.1 g, f), 4 a third black and -3; 2 (black, white) and 3
    (white, black) are fine either way round."""
    before = Tournament(
        field(4),
        rounds=(
            Round(1, (game(1, 1, 2), game(1, 3, 4))),
            Round(2, (game(2, 1, 3), game(2, 2, 4))),
        ),
        total_rounds=4,
    )
    manual = Round(3, (game(3, 1, 4, None), game(3, 2, 3, None)))
    assert found(before, manual) == [
        ("error", "C.04.1 f", (1,)),
        ("error", "C.04.1 g", (1,)),
        ("error", "C.04.1 f", (4,)),
        ("error", "C.04.1 g", (4,)),
    ]
    reversed_colours = Round(3, (game(3, 4, 1, None), game(3, 3, 2, None)))
    assert found(before, reversed_colours) == []


def test_pairing_allocated_bye_rules() -> None:
    """Round 1: 1-2 drawn, 3 wins 4 by forfeit (+-), 5 has the PAB. Round 2: a second
    PAB to 5, or a PAB to 3 (a win without playing), is an error (C.04.1 d); 3 may meet
    4 again, as a forfeited game is not a meeting (C.04.1 b reads "played")."""
    forfeit = GameResult.WHITE_WINS_FORFEIT
    before = Tournament(
        field(5),
        rounds=(
            Round(
                1,
                (game(1, 1, 2), game(1, 3, 4, forfeit)),
                (Bye(1, 5, ByeKind.PAIRING_ALLOCATED),),
            ),
        ),
        total_rounds=5,
    )

    def with_pab(player: int, *pairs: tuple[int, int]) -> Round:
        games = tuple(game(2, w, b, None) for w, b in pairs)
        return Round(2, games, (Bye(2, player, ByeKind.PAIRING_ALLOCATED),))

    (second,) = check_manual_pairing(before, with_pab(5, (1, 3), (4, 2)), None, dutch=True)
    assert (second.severity, second.rule, second.players) == ("error", "C.04.1 d", (5,))
    assert "already received a pairing-allocated bye" in second.message
    (winner,) = check_manual_pairing(before, with_pab(3, (1, 4), (2, 5)), None, dutch=True)
    assert (winner.rule, winner.players) == ("C.04.1 d", (3,))
    assert "win without playing" in winner.message
    assert check_manual_pairing(before, with_pab(2, (4, 3), (5, 1)), None, dutch=True) == []


def test_a_rematch_is_an_error() -> None:
    before = Tournament(
        field(4), rounds=(Round(1, (game(1, 1, 3), game(1, 4, 2))),), total_rounds=3
    )
    manual = Round(2, (game(2, 3, 1, None), game(2, 2, 4, None)))
    assert found(before, manual) == [
        ("error", "C.04.1 b", (3, 1)),
        ("error", "C.04.1 b", (2, 4)),
    ]


def test_colour_preferences_compared_with_the_engine() -> None:
    """Round 1: 1-4, 2-5, 3-6, white wins: 1, 2, 3 on 1 point with white (preference
    black, strong after one game), 4, 5, 6 on 0 with black. The engine's 2-1, 6-3, 5-4
    denies 2 and 4 their colour; the manual 1-5, 3-2, 6-4 denies 1, 5, 3 and 4: C12
    and C13 (4 against 2). Both float one player down (3 onto 6; 1 onto 5) by one
    point: C6 and C7 are equal."""
    won = GameResult.WHITE_WINS
    before = Tournament(
        field(6),
        rounds=(Round(1, (game(1, 1, 4, won), game(1, 2, 5, won), game(1, 3, 6, won))),),
        total_rounds=5,
    )
    engine = Round(2, (game(2, 2, 1, None), game(2, 6, 3, None), game(2, 5, 4, None)))
    manual = Round(2, (game(2, 1, 5, None), game(2, 3, 2, None), game(2, 6, 4, None)))
    warnings = check_manual_pairing(before, manual, engine, dutch=True)
    assert [(w.severity, w.rule, w.players) for w in warnings] == [
        ("warning", "C.04.3 C12", (1, 5, 3, 4)),
        ("warning", "C.04.3 C13", (1, 5, 3, 4)),
    ]
    assert warnings[0].message.endswith(": 4 against 2 in the engine's pairing")
    # not compared for another system
    assert check_manual_pairing(before, manual, engine, dutch=False) == []


def test_a_repeated_downfloat() -> None:
    """Round 1: 1-4 and 2-5 won by white, 3 has the PAB (a downfloat: it scores more than
    a loss without playing). Round 2, 1, 2, 3 on 1 point, 4, 5 on 0: the manual 1-2,
    3-4 (PAB 5) floats 3 down again (C14, and its one-point difference C18) and denies
    1 and 4 their colour (C12, C13); the engine's 3-2, 5-1 (PAB 4) floats 1 down, who
    did not float in round 1, and grants every preference."""
    won = GameResult.WHITE_WINS
    before = Tournament(
        field(5),
        rounds=(
            Round(
                1,
                (game(1, 1, 4, won), game(1, 2, 5, won)),
                (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),),
            ),
        ),
        total_rounds=5,
    )
    pab = ByeKind.PAIRING_ALLOCATED
    manual = Round(2, (game(2, 1, 2, None), game(2, 3, 4, None)), (Bye(2, 5, pab),))
    engine = Round(2, (game(2, 3, 2, None), game(2, 5, 1, None)), (Bye(2, 4, pab),))
    assert found(before, manual, engine) == [
        ("warning", "C.04.3 C12", (1, 4)),
        ("warning", "C.04.3 C13", (1, 4)),
        ("warning", "C.04.3 C14", (3,)),
        ("warning", "C.04.3 C18", (3,)),
    ]


def test_a_full_point_bye_bars_the_pab_in_2026_only() -> None:
    """Round 1: 1-2 and 3-4 drawn, 5 asked for a full-point bye. A PAB to 5 in round 2
    is an error under the 2026 reading of C.04.1 d (a win without playing), not under
    the 2017 text (a PAB or a forfeit win only)."""
    before = Tournament(
        field(5),
        rounds=(Round(1, (game(1, 1, 2), game(1, 3, 4)), (Bye(1, 5, ByeKind.FULL_POINT),)),),
        total_rounds=5,
    )
    manual = Round(
        2, (game(2, 2, 3, None), game(2, 4, 1, None)), (Bye(2, 5, ByeKind.PAIRING_ALLOCATED),)
    )
    assert found(before, manual) == [("error", "C.04.1 d", (5,))]
    assert check_manual_pairing(before, manual, None, dutch=True, rules_2017=True) == []
