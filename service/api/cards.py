"""Player cards (`service.views.cards`) as JSON and as a printable HTML page (one card
per A6 block), rendered off the event loop (`app.offload`). A card printed for a phone
also carries a QR code of the player's result page (docs/phone.md).
"""

from __future__ import annotations

from html import escape

from service.api.qr import qr_svg
from service.api.schemas.cards import PlayerCard
from service.db.tables import TournamentRow
from service.views.cards import Card

__all__ = ["card_model", "cards_html"]


def card_model(card: Card) -> PlayerCard:
    """A card as the API's JSON model."""
    return PlayerCard.model_validate(card, from_attributes=True)


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
.qr { float: right; width: 24mm; height: 24mm; margin: 0 0 1mm 2mm; }
@media print { .more { display: none; } }
"""


def cards_html(
    row: TournamentRow,
    cards: dict[int, Card],
    next_page: str | None = None,
    links: dict[int, str] | None = None,
) -> str:
    """A printable page: four A6 cards per A4 sheet, cut along the dashed lines; a link
    to the next page of cards (not printed) when there is one. `links` (by start
    number): the card carries a QR code of that address (a player's result page)."""
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
        link = (links or {}).get(card.start_number)
        blocks.append(
            "<section class=card>"
            + ("" if link is None else qr_svg(link))
            + f"<h2>{card.start_number}. {escape(card.name)}</h2>"
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
