"""JCA Swiss rules, section 6 (docs/rules/swiss.md): colours decided per pair after the
pairing (6.3 balance, then alternation, then the lot; 6.4 round 1), the FIDE absolute
colour rules first."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.model import Colour, Game, Outcome, PlayerRound

__all__ = ["allocate_colours", "colour_histories"]


@dataclass(frozen=True, slots=True)
class _ColourRecord:
    """Colours of a player's games played over the board, oldest first."""

    colours: tuple[Colour, ...]

    @property
    def difference(self) -> int:
        """Whites minus blacks."""
        whites = sum(1 for c in self.colours if c is Colour.WHITE)
        return 2 * whites - len(self.colours)

    def forbidden(self, colour: Colour) -> bool:
        """FIDE absolute rules: no third colour in a row, no difference beyond two."""
        if self.colours[-2:] == (colour, colour):
            return True
        step = 1 if colour is Colour.WHITE else -1
        return abs(self.difference + step) > 2

    def wish(self) -> Colour | None:
        """The colour that equalises whites and blacks (6.3.1), if any."""
        if self.difference > 0:
            return Colour.BLACK
        if self.difference < 0:
            return Colour.WHITE
        return None


def colour_histories(histories: dict[int, list[PlayerRound]]) -> dict[int, _ColourRecord]:
    unplayed = (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)
    return {
        number: _ColourRecord(
            tuple(e.colour for e in entries if e.colour is not None and e.outcome not in unplayed)
        )
        for number, entries in histories.items()
    }


def allocate_colours(
    pairs: Sequence[tuple[int, int]],
    position: dict[int, int],
    records: dict[int, _ColourRecord],
    round_number: int,
    initial: Colour | None,
    seed: int | None,
    notes: list[str],
) -> list[Game]:
    """Give each pair its colours (JCA rules 6) and number the boards."""
    draw = random.Random(f"jca:{seed}:{round_number}") if seed is not None else None
    first_lot: Colour | None = None
    if round_number == 1:
        first_lot = initial or (_draw(draw) if draw is not None else Colour.WHITE)
    games: list[Game] = []
    empty = _ColourRecord(())
    for table, (a, b) in enumerate(pairs, 1):
        higher, lower = (a, b) if position[a] < position[b] else (b, a)
        if first_lot is not None:
            lot = first_lot
        elif draw is not None:
            lot = _draw(draw)
        else:
            lot = initial or Colour.WHITE
        colour, reason = _colour_for_higher(
            records.get(higher, empty), records.get(lower, empty), lot, table
        )
        white, black = (higher, lower) if colour is Colour.WHITE else (lower, higher)
        games.append(Game(round_number, white, black, table=table))
        notes.append(f"board {table}: {white}-{black} ({reason})")
    return games


def _draw(generator: random.Random) -> Colour:
    return Colour.WHITE if generator.random() < 0.5 else Colour.BLACK


def _colour_for_higher(
    higher: _ColourRecord, lower: _ColourRecord, lot: Colour, table: int
) -> tuple[Colour, str]:
    """The higher-ranked player's colour and the rule that decided it."""
    faults = {
        colour: int(higher.forbidden(colour)) + int(lower.forbidden(colour.other))
        for colour in (Colour.WHITE, Colour.BLACK)
    }
    if faults[Colour.WHITE] != faults[Colour.BLACK]:
        best = min(faults, key=lambda c: (faults[c], c is Colour.BLACK))
        return best, "FIDE absolute colour rule"
    mine, theirs = higher.wish(), lower.wish()
    if mine is not None and theirs is not None and mine is theirs:
        if abs(higher.difference) != abs(lower.difference):
            if abs(higher.difference) > abs(lower.difference):
                return mine, "colour balance, larger imbalance first"
            return theirs.other, "colour balance, larger imbalance first"
    elif mine is not None:
        return mine, "colour balance"
    elif theirs is not None:
        return theirs.other, "colour balance"
    depth = max(len(higher.colours), len(lower.colours))
    for back in range(1, depth + 1):
        own = higher.colours[-back] if back <= len(higher.colours) else None
        other = lower.colours[-back] if back <= len(lower.colours) else None
        if own is not None and own is not other:
            return own.other, f"alternation ({back} back)"
        if own is None and other is not None:
            return other, f"alternation ({back} back)"
    colour = lot if table % 2 else lot.other
    return colour, "lot"
