"""Player cards as JSON and as a printable HTML page (one card per A6 block).

Cards are built for the players asked for only (one player, or one page of the printable
cards), from plain rows (`service.db.cards`), off the event loop (`app.offload`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from datetime import datetime
from html import escape

from service.api.schemas.cards import CardLine, CardOpponent, PlayerCard
from service.db.cards import CardBye, CardGame, CardPlayer
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of

__all__ = ["build_cards", "cards_html"]


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
) -> dict[int, PlayerCard]:
    """The cards of the players numbered `numbers`, keyed by start number: one line per
    round in `rounds` (`games` and `byes` must hold at least those players' rows;
    `players` names the opponents)."""
    by_number = {p.start_number: p for p in players}
    wanted = set(numbers)
    times = _start_times(row)
    lines: dict[int, dict[int, CardLine]] = defaultdict(dict)
    for game in games:
        start = times[game.round - 1] if game.round <= len(times) else None
        for me, them, colour in (
            (game.white, game.black, "white"),
            (game.black, game.white, "black"),
        ):
            if me not in wanted:
                continue
            other = by_number[them]
            lines[me][game.round] = CardLine(
                round=game.round,
                start_time=start,
                table=game.table_no,
                colour=colour,
                opponent=CardOpponent(
                    start_number=them, name=other.name, rating=other.rating or None
                ),
            )
    for bye in byes:
        if bye.player not in wanted:
            continue
        start = times[bye.round - 1] if bye.round <= len(times) else None
        lines[bye.player][bye.round] = CardLine(
            round=bye.round, start_time=start, table=None, colour=None, opponent=None, bye=bye.kind
        )
    cards: dict[int, PlayerCard] = {}
    for number in sorted(wanted & by_number.keys()):
        player = by_number[number]
        own = lines.get(number, {})
        cards[number] = PlayerCard(
            start_number=number,
            name=player.name,
            rating=player.rating or None,
            rounds=[
                own.get(n)
                or CardLine(round=n, start_time=None, table=None, colour=None, opponent=None)
                for n in rounds
            ],
        )
    return cards


_STYLE = """
@page { size: A4; margin: 0; }
body { margin: 0; font: 9pt/1.25 system-ui, sans-serif; }
.sheet { display: flex; flex-wrap: wrap; width: 210mm; }
.card { box-sizing: border-box; width: 105mm; height: 148mm; padding: 6mm;
        border: 0.2mm dashed #999; page-break-inside: avoid; overflow: hidden; }
.card h2 { font-size: 12pt; margin: 0 0 1mm; }
.card p { margin: 0 0 2mm; color: #444; }
table { width: 100%; border-collapse: collapse; }
th, td { border-bottom: 0.2mm solid #ccc; padding: 0.6mm 1mm; text-align: left; }
td.n { text-align: right; }
.black { font-weight: bold; }
.more { padding: 4mm; }
@media print { .more { display: none; } }
"""


def cards_html(
    row: TournamentRow, cards: dict[int, PlayerCard], next_page: str | None = None
) -> str:
    """A printable page: four A6 cards per A4 sheet, cut along the dashed lines; a link
    to the next page of cards (not printed) when there is one."""
    blocks = []
    for card in cards.values():
        body = []
        for line in card.rounds:
            when = line.start_time.strftime("%d.%m %H:%M") if line.start_time else ""
            if line.opponent is None:
                body.append(
                    f"<tr><td class=n>{line.round}</td><td>{when}</td>"
                    f"<td colspan=4>{escape(line.bye or 'no game')}</td></tr>"
                )
                continue
            colour = line.colour or ""
            body.append(
                f"<tr><td class=n>{line.round}</td><td>{when}</td>"
                f"<td class=n>{line.table}</td><td class={colour}>{colour}</td>"
                f"<td class=n>{line.opponent.start_number}</td>"
                f"<td>{escape(line.opponent.name)} ({_rating(line.opponent.rating)})</td></tr>"
            )
        blocks.append(
            f"<section class=card><h2>{card.start_number}. {escape(card.name)}</h2>"
            f"<p>{escape(row.name)} · rating {_rating(card.rating)}</p>"
            "<table><thead><tr><th>Rd</th><th>Start</th><th>Table</th><th>Colour</th>"
            "<th>No</th><th>Opponent</th></tr></thead><tbody>"
            + "".join(body)
            + "</tbody></table></section>"
        )
    more = (
        ""
        if next_page is None
        else f'<nav class=more><a rel=next href="{escape(next_page)}">next cards</a></nav>'
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>Player cards: {escape(row.name)}</title><style>{_STYLE}</style></head>"
        f"<body><div class=sheet>{''.join(blocks)}</div>{more}</body></html>"
    )


def _rating(value: int | None) -> str:
    """A rating for people: the number, or "unrated"."""
    return "unrated" if value is None else str(value)
