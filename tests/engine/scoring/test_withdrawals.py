"""Round-robin withdrawals (FIDE Tournament Rules, Handbook C.06 art. V.4): fewer than
half of the games completed -> the player's games do not count in the standings."""

from __future__ import annotations

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.pairing.roundrobin import round_robin_rounds
from service.engine.scoring.standings import compute_standings
from service.engine.scoring.withdrawals import annulled_withdrawals, without_players

W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
FORFEIT_FOR_BLACK, FORFEIT_FOR_WHITE = GameResult.BLACK_WINS_FORFEIT, GameResult.WHITE_WINS_FORFEIT


def _six_player_event(results: dict[tuple[int, int], GameResult]) -> Tournament:
    """A 6-player single round-robin (5 rounds, Berger order) with some results."""
    players = tuple(Player(n, f"P{n}", 2000 - n) for n in range(1, 7))
    rounds = tuple(
        Round(
            rnd.number,
            tuple(
                Game(rnd.number, g.white, g.black, results.get((rnd.number, g.table)), g.table)
                for g in rnd.games
            ),
            rnd.byes,
        )
        for rnd in round_robin_rounds(6)
    )
    return Tournament(players=players, rounds=rounds, total_rounds=5)


def _games_of(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    return [
        (rnd.number, g.table)
        for rnd in tournament.rounds
        for g in rnd.games
        if number in (g.white, g.black)
    ]


def test_fewer_than_half_completed_is_annulled() -> None:
    base = _six_player_event({})
    games_of_1 = _games_of(base, 1)
    # Player 1 completes two of five games (draws), then forfeits the other three.
    results = {key: D for key in games_of_1[:2]}
    for rnd, table in games_of_1[2:]:
        game = next(g for g in base.rounds[rnd - 1].games if g.table == table)
        results[rnd, table] = FORFEIT_FOR_BLACK if game.white == 1 else FORFEIT_FOR_WHITE
    event = _six_player_event(results)
    assert annulled_withdrawals(event, [1]) == frozenset({1})
    kept = without_players(event, frozenset({1}))
    assert [p.start_number for p in kept.players] == [2, 3, 4, 5, 6]
    assert all(1 not in (g.white, g.black) for rnd in kept.rounds for g in rnd.games)
    standings = compute_standings(kept, [])
    # Nobody keeps a point scored against player 1 (draws and forfeit wins alike).
    assert all(row.points == 0 for row in standings.rows)


def test_half_or_more_completed_counts() -> None:
    base = _six_player_event({})
    games_of_1 = _games_of(base, 1)
    event = _six_player_event({key: W for key in games_of_1[:3]})  # 3 of 5 played
    assert annulled_withdrawals(event, [1]) == frozenset()


def test_exactly_half_counts() -> None:
    # Five players: four games each (the fifth round is a bye). Two of four completed
    # is "at least 50 %"; one of four is not.
    players = tuple(Player(n, f"P{n}", 2000 - n) for n in range(1, 6))
    schedule = round_robin_rounds(5)
    games_of_1 = [
        (rnd.number, g.table) for rnd in schedule for g in rnd.games if 1 in (g.white, g.black)
    ]
    assert len(games_of_1) == 4

    def event(played: int) -> Tournament:
        done = set(games_of_1[:played])
        rounds = tuple(
            Round(
                rnd.number,
                tuple(
                    Game(
                        rnd.number,
                        g.white,
                        g.black,
                        D if (rnd.number, g.table) in done else None,
                        g.table,
                    )
                    for g in rnd.games
                ),
                rnd.byes,
            )
            for rnd in schedule
        )
        return Tournament(players=players, rounds=rounds, total_rounds=5)

    assert annulled_withdrawals(event(2), [1]) == frozenset()
    assert annulled_withdrawals(event(1), [1]) == frozenset({1})


def test_only_withdrawn_players_are_considered() -> None:
    event = _six_player_event({})
    assert annulled_withdrawals(event, []) == frozenset()
    assert annulled_withdrawals(event, [2, 3]) == frozenset({2, 3})  # nothing played yet
    assert without_players(event, frozenset()) is event
