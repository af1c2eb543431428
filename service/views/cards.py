"""Player cards (Formuła FLAMPARK, "Karta gracza"): each round's start time, table,
colour and opponent, assembled from plain rows (`service.db.cards`).

Cards are built for the players asked for only (one player, or one page of the
printable cards); the API renders them as JSON or as a printable page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from service.db.cards import CardBye, CardGame, CardPlayer
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of

__all__ = ["Card", "CardRound", "Opponent", "build_cards", "with_ratings"]


@dataclass(frozen=True, slots=True)
class Opponent:
    """The opponent in one round."""

    start_number: int
    name: str
    rating: int | None
    """None: unrated."""


@dataclass(frozen=True, slots=True)
class CardRound:
    """One round on a player's card: a game, a bye, or neither."""

    round: int
    start_time: datetime | None
    table: int | None
    colour: Literal["white", "black"] | None
    opponent: Opponent | None
    bye: str | None = None
    rating: dict[str, Any] | None = None
    """With the ratings asked for: the game's share of the rating change (rated, reason,
    score, expected, change); None for a bye or a round without a game."""


@dataclass(frozen=True, slots=True)
class Card:
    """A player's card for the whole event (rounds paired so far)."""

    start_number: int
    name: str
    rating: int | None
    """None: unrated."""
    rounds: list[CardRound]
    rating_change: dict[str, Any] | None = None
    """With the ratings asked for: the event's figures (K, expected score, change,
    missing facts); None for an unrated player."""


def _start_times(row: TournamentRow) -> list[datetime | None]:
    raw = config_of(row).schedule or ()
    return [datetime.fromisoformat(value) if value else None for value in raw]


def build_cards(
    row: TournamentRow,
    players: list[CardPlayer],
    games: list[CardGame],
    byes: list[CardBye],
    rounds: list[int],
    numbers: Collection[int],
) -> dict[int, Card]:
    """The cards of the players numbered `numbers`, keyed by start number: one line per
    round in `rounds` (`games` and `byes` must hold at least those players' rows;
    `players` names the opponents)."""
    by_number = {p.start_number: p for p in players}
    wanted = set(numbers)
    times = _start_times(row)
    lines: dict[int, dict[int, CardRound]] = defaultdict(dict)
    for game in games:
        start = times[game.round - 1] if game.round <= len(times) else None
        colours: tuple[tuple[int, int, Literal["white", "black"]], ...] = (
            (game.white, game.black, "white"),
            (game.black, game.white, "black"),
        )
        for me, them, colour in colours:
            if me not in wanted:
                continue
            other = by_number[them]
            lines[me][game.round] = CardRound(
                round=game.round,
                start_time=start,
                table=game.table_no,
                colour=colour,
                opponent=Opponent(start_number=them, name=other.name, rating=other.rating or None),
            )
    for bye in byes:
        if bye.player not in wanted:
            continue
        start = times[bye.round - 1] if bye.round <= len(times) else None
        lines[bye.player][bye.round] = CardRound(
            round=bye.round, start_time=start, table=None, colour=None, opponent=None, bye=bye.kind
        )
    cards: dict[int, Card] = {}
    for number in sorted(wanted & by_number.keys()):
        player = by_number[number]
        own = lines.get(number, {})
        cards[number] = Card(
            start_number=number,
            name=player.name,
            rating=player.rating or None,
            rounds=[
                own.get(n)
                or CardRound(round=n, start_time=None, table=None, colour=None, opponent=None)
                for n in rounds
            ],
        )
    return cards


def with_ratings(
    cards: dict[int, Card],
    figures: dict[int, tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]],
) -> dict[int, Card]:
    """The cards with each player's rating figures and each game's share (FIDE B.02
    8.3; `views.rating_changes.card_figures`)."""
    rated = {}
    for number, card in cards.items():
        totals, games = figures.get(number, (None, {}))
        rounds = [
            line if line.opponent is None else replace(line, rating=games.get(line.round))
            for line in card.rounds
        ]
        rated[number] = replace(card, rounds=rounds, rating_change=totals)
    return rated
