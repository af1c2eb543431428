"""FIDE Dutch Swiss system (C.04.3): pair the next round of a tournament.

`pair_round` is the public entry point. The package is split by concern:

- players.py  - the state each player brings to the round (art. 1)
- weights.py  - the quality criteria as edge-weight fields (art. 2)
- brackets.py - bracket-by-bracket optimisation (art. 3-4)
- colours.py  - colour allocation for each pair (art. 5)
- boards.py   - board (table) order of the published pairing

Editions: "dutch-2026" (the default; approved 13 April 2024, in force from 1 February
2026; TRF 092 `FIDE_DUTCH_2025`) and "dutch-2017" (approved Goynuk 2017), which differs
in who may receive the pairing-allocated bye and has no PAB criteria C5/C9.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

from service.engine.model import Bye, ByeKind, Colour, Game, Tournament

from ..round_pairing import Pairing, PairingError, next_round
from .boards import board_order
from .brackets import BracketLog, pair_players
from .colours import colour_for
from .players import Float, SwissPlayer, build_players, float_of, scaled
from .weights import WeightContext

__all__ = ["RULES", "pair_round"]

RULES = ("dutch-2026", "dutch-2017")
"""Accepted values of `rules`."""


def pair_round(
    tournament: Tournament,
    *,
    rules: str = "dutch-2026",
    byes: Iterable[Bye] = (),
    accelerations: Mapping[int, Sequence[Fraction]] | None = None,
    forbidden_pairs: Iterable[frozenset[int]] = (),
    explain: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Pairing:
    """Pair round `len(tournament.rounds) + 1` by the FIDE Dutch system.

    `byes` are the byes announced before pairing (half-point, zero-point, full-point);
    those players are not paired. Players with no entry in an earlier round are
    treated as absent from it (late entries). `accelerations` maps a start number to
    virtual points per round (index 0 = round 1), `forbidden_pairs` lists pairs that
    must not meet. The result lists games in board order with colours, then the
    pairing-allocated bye (if the field is odd) and the announced byes. `progress`
    (players reached, players to pair) is told as the brackets go down the field.
    """
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; expected one of {', '.join(RULES)}")
    round_no = next_round(tournament)
    announced = list(byes)
    numbers = {p.start_number for p in tournament.players}
    for bye in announced:
        if bye.player not in numbers:
            raise PairingError(f"bye for unknown player {bye.player}", field="byes")
        if bye.kind is ByeKind.PAIRING_ALLOCATED:
            raise PairingError(
                "the pairing-allocated bye is chosen by the pairing, not announced", field="byes"
            )
    everyone, to_pair = build_players(
        tournament,
        absent={b.player for b in announced},
        accelerations=accelerations,
        forbidden_pairs=forbidden_pairs,
        rules_2017=rules == "dutch-2017",
    )
    by_number = {p.number: p for p in everyone}
    played_rounds = len(tournament.rounds)
    loss = tournament.points.loss
    floats: dict[int, tuple[Float, Float]] = {}
    for p in to_pair:
        old = rules == "dutch-2017"
        f1 = float_of(p, 1, by_number, loss, rules_2017=old) if played_rounds >= 1 else Float.NONE
        f2 = float_of(p, 2, by_number, loss, rules_2017=old) if played_rounds >= 2 else Float.NONE
        floats[p.number] = (f1, f2)
    # by score with acceleration, then rank (C.04.3 art. 1.2), on exact integer images
    # of the scores (`scaled`): the same order, without a fraction compared per step
    accs = scaled([p.acc_score() for p in to_pair])
    ranking = sorted(range(len(to_pair)), key=lambda i: (-accs[i], to_pair[i].rank))
    order = [to_pair[i] for i in ranking]
    top = max(tournament.points.win, tournament.points.draw)
    threshold = Fraction(played_rounds) * top / 2
    final_round = (
        tournament.total_rounds is not None and played_rounds >= tournament.total_rounds - 1
    )
    ctx = WeightContext(
        order,
        floats,
        played_rounds=played_rounds,
        final_round=final_round,
        threshold=threshold,
        rules_2017=rules == "dutch-2017",
    )
    logs: list[BracketLog] | None = [] if explain else None
    pairs, pab = pair_players(
        order, ctx, logs=logs, pab_criteria=rules != "dutch-2017", progress=progress
    )
    initial = _initial_colour(tournament, everyone)
    games: list[tuple[SwissPlayer, SwissPlayer]] = []
    for a, b in pairs:
        first, second = (a, b) if a.number < b.number else (b, a)
        if colour_for(first, second, initial) is Colour.WHITE:
            games.append((first, second))
        else:
            games.append((second, first))
    ordered = board_order(games)
    result_games = tuple(
        Game(round=round_no, white=w.number, black=b.number, table=i + 1)
        for i, (w, b) in enumerate(ordered)
    )
    out_byes: list[Bye] = []
    if pab is not None:
        out_byes.append(Bye(round_no, pab.number, ByeKind.PAIRING_ALLOCATED))
    out_byes.extend(
        Bye(round_no, b.player, b.kind) for b in sorted(announced, key=lambda b: b.player)
    )
    notes: tuple[str, ...] = ()
    if logs is not None:
        lines = [_describe(log) for log in logs]
        if pab is not None:
            why = (
                "left over by the last bracket"
                if rules == "dutch-2017"
                else "C5 lowest score, C9 fewest unplayed games, then the bracket order"
            )
            lines.append(f"pairing-allocated bye: {pab.number} ({why})")
        notes = tuple(lines)
    return Pairing(round=round_no, games=result_games, byes=tuple(out_byes), notes=notes)


def _initial_colour(tournament: Tournament, everyone: Sequence[SwissPlayer]) -> Colour:
    """The colour of the top player in round 1 (C.04.2: drawn by lot, XXC `white1`).

    When the tournament does not say, it is read back from the first round with a
    game: the highest-ranked player who took part in the pairing by then had it if
    their pairing position is odd, the other colour if even. No round yet: white.
    """
    if tournament.initial_colour is not None:
        return tournament.initial_colour
    first = next((i for i, r in enumerate(tournament.rounds) if r.games), None)
    if first is None:
        return Colour.WHITE
    position = 0
    for p in everyone:
        if not any(rec.paired for rec in p.records[: first + 1]):
            continue
        colour = p.records[first].colour if p.records[first].opponent is not None else None
        if colour is None and p.records[first].opponent is not None:
            game = next(g for g in tournament.rounds[first].games if p.number in (g.white, g.black))
            colour = game.colour_of(p.number)
        if colour is not None:
            return colour if position % 2 == 0 else colour.other
        position += 1
    return Colour.WHITE


def _describe(log: BracketLog) -> str:
    parts = [f"bracket {log.score} points: residents {log.residents}"]
    if log.movers_in:
        parts.append(f"moved down in {log.movers_in}")
    parts.append(f"pairs {log.pairs}")
    if log.movers_out:
        parts.append(f"moved down out {log.movers_out}")
    return "; ".join(parts)
