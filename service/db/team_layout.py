"""The boards of a stored team match as played (docs/teams.md#trf-export-and-import).

A match seated by Arbiter has a game on boards 1..n, the first-named team holding the
colour of the board colour sequence on each (`teams.draw.board_sequence`, C.04.6 art.
1.6), and `team_matches.layout` is None. A match read from a team file keeps what the
file says when it differs (TRF-26 001 records, C.07 Art. 11): the colours as played on
each board, the boards the match was played on (fewer than the event's when a team
fielded fewer), and the boards won by default, where one team left the seat empty and
the other's player scores the board (`+` in the 001 record). A layout entry is
`{"board": b, "home": "w"|"b"}`, with `"won_by": "home"|"away"` and `"player"` (the
start number who scored it) for a board won by default; such a board has no game row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.engine.model import Colour, GameResult
from service.engine.teams.draw import board_sequence
from service.engine.teams.model import EMPTY_SEAT, Board

__all__ = ["Seat", "layout_of", "seats_of"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One board of a stored match: the first-named team's colour, and for a board won
    by default the side that won it and its player."""

    board: int
    home_colour: Colour
    won_by: str | None = None
    """`home` or `away` for a board won by default (the other side left it empty)."""
    player: int = EMPTY_SEAT
    """Start number of the player who won the board by default."""

    @property
    def result(self) -> GameResult | None:
        """The forfeit result of a board won by default (None for a game)."""
        if self.won_by is None:
            return None
        white_wins = (self.home_colour is Colour.WHITE) == (self.won_by == "home")
        return GameResult.WHITE_WINS_FORFEIT if white_wins else GameResult.BLACK_WINS_FORFEIT

    def board_of(self) -> Board:
        """The engine's board of a seat won by default (`EMPTY_SEAT` for the empty side)."""
        home, away = (
            (self.player, EMPTY_SEAT) if self.won_by == "home" else (EMPTY_SEAT, self.player)
        )
        return Board(self.board, home, away, self.home_colour, self.result)


def seats_of(layout: Sequence[dict[str, Any]] | None, boards: int) -> tuple[Seat, ...]:
    """The seats of a stored match: its layout, else boards 1..n in the colour sequence."""
    if layout is None:
        return tuple(Seat(b, c) for b, c in enumerate(board_sequence(boards), 1))
    return tuple(
        Seat(
            int(entry["board"]),
            Colour.WHITE if entry["home"] == "w" else Colour.BLACK,
            entry.get("won_by"),
            int(entry.get("player", EMPTY_SEAT)),
        )
        for entry in layout
    )


def layout_of(seated: Sequence[Board], boards: int) -> list[dict[str, Any]] | None:
    """The layout of a match's boards (sorted by board), None when they are the default
    seating: a game on each of boards 1..n with the colour sequence."""
    sequence = board_sequence(boards)
    if [b.board for b in seated] == list(range(1, boards + 1)) and all(
        EMPTY_SEAT not in (b.home_player, b.away_player) and b.home_colour is sequence[b.board - 1]
        for b in seated
    ):
        return None
    layout: list[dict[str, Any]] = []
    for b in seated:
        entry: dict[str, Any] = {"board": b.board, "home": b.home_colour.value}
        if b.away_player == EMPTY_SEAT:
            entry.update(won_by="home", player=b.home_player)
        elif b.home_player == EMPTY_SEAT:
            entry.update(won_by="away", player=b.away_player)
        layout.append(entry)
    return layout
