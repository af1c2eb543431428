"""A compact notation for small test events.

`event(4, "1-2 1-0, 3-4 =", "1-3 +-, 2:U, 4:H")` builds a 4-player tournament: each
string is a round, items separated by commas: "W-B result" (1-0, 0-1, =, +-, -+, --,
or * for no result yet) or "N:L" for a bye (TRF letters U, F, H, Z). Players not in
a round were absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.pairing.roundrobin import round_robin_rounds

_RESULTS = {
    "1-0": GameResult.WHITE_WINS,
    "0-1": GameResult.BLACK_WINS,
    "=": GameResult.DRAW,
    "+-": GameResult.WHITE_WINS_FORFEIT,
    "-+": GameResult.BLACK_WINS_FORFEIT,
    "--": GameResult.DOUBLE_FORFEIT,
}


def parse_round(number: int, text: str) -> Round:
    games: list[Game] = []
    byes: list[Bye] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if ":" in item:
            player, letter = item.split(":")
            byes.append(Bye(number, int(player), ByeKind.from_trf(letter)))
            continue
        pair, result = item.split()
        white, black = (int(x) for x in pair.split("-"))
        outcome = None if result == "*" else _RESULTS[result]
        games.append(Game(number, white, black, outcome))
    return Round(number, tuple(games), tuple(byes))


def event(
    players: int,
    *rounds: str,
    ratings: Sequence[int] | None = None,
    points: PointSystem | None = None,
    total_rounds: int | None = None,
) -> Tournament:
    field = tuple(
        Player(k, f"P{k}", ratings[k - 1] if ratings else 0) for k in range(1, players + 1)
    )
    return Tournament(
        field,
        tuple(parse_round(i + 1, text) for i, text in enumerate(rounds)),
        total_rounds=total_rounds,
        points=points or PointSystem(),
    )


def every_pair_meets() -> Tournament:
    """8 players, 7 rounds, every pair meets once: a Swiss can end like this. Player
    1 wins round 1 by forfeit and loses round 7 by forfeit; the rest is decided by
    start number (the lower number wins)."""
    rounds = []
    for rnd in round_robin_rounds(8):
        games = []
        for game in rnd.games:
            winner = min(game.white, game.black)
            result = GameResult.WHITE_WINS if winner == game.white else GameResult.BLACK_WINS
            if 1 in (game.white, game.black) and rnd.number in (1, 7):
                one_white = game.white == 1
                won = rnd.number == 1
                result = (
                    GameResult.WHITE_WINS_FORFEIT
                    if one_white == won
                    else GameResult.BLACK_WINS_FORFEIT
                )
            games.append(replace(game, result=result))
        rounds.append(Round(rnd.number, tuple(games), rnd.byes))
    players = tuple(Player(n, f"P{n}", 2000 - 10 * n) for n in range(1, 9))
    return Tournament(players=players, rounds=tuple(rounds), total_rounds=7)
