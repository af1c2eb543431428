"""Player cards (`service.views.cards`) as JSON and as a printable HTML page (one card
per A6 block), rendered off the event loop (`app.offload`). A card printed for a phone
also carries a QR code of the player's result page (docs/phone.md).
"""

from __future__ import annotations

from html import escape
from typing import Any

from service.api.qr import qr_svg
from service.api.schemas.cards import PlayerCard
from service.db.tables import TournamentRow
from service.views.cards import Card

__all__ = ["card_model", "cards_html", "rated_card_json"]


def card_model(card: Card) -> PlayerCard:
    """A card as the API's JSON model."""
    return PlayerCard.model_validate(card, from_attributes=True)


def rated_card_json(card: Card) -> dict[str, Any]:
    """A card with its rating figures as JSON: `rating_change` and each game's `rating`
    present, null where there is none (the model leaves absent fields out)."""
    body = card_model(card).model_dump(mode="json")
    body["rating_change"] = card.rating_change
    for line, shown in zip(card.rounds, body["rounds"], strict=True):
        shown["rating"] = line.rating
    PlayerCard.model_validate(body)
    return body


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
td.d { text-align: right; white-space: nowrap; }
.qr { float: right; width: 24mm; height: 24mm; margin: 0 0 1mm 2mm; }
@media print { .more { display: none; } }
"""


def cards_html(
    row: TournamentRow,
    cards: dict[int, Card],
    next_page: str | None = None,
    links: dict[int, str] | None = None,
    *,
    ratings: bool = False,
) -> str:
    """A printable page: four A6 cards per A4 sheet, cut along the dashed lines; a link
    to the next page of cards (not printed) when there is one. `links` (by start
    number): the card carries a QR code of that address (a player's result page).
    `ratings`: each card names K, the expected score and the change so far, and each
    game its change (its PD while K is undecided; why when it is not rated)."""
    blocks = []
    for card in cards.values():
        body = []
        for line in card.rounds:
            when = line.start_time.strftime("%d.%m %H:%M") if line.start_time else ""
            if line.opponent is None:
                span = 5 if ratings else 4
                body.append(
                    f"<tr><td class=n>{line.round}</td><td>{when}</td>"
                    f"<td colspan={span}>{escape(line.bye or 'no game')}</td></tr>"
                )
                continue
            colour = line.colour or ""
            delta = f"<td class=d>{_game_change(line.rating)}</td>" if ratings else ""
            body.append(
                f"<tr><td class=n>{line.round}</td><td>{when}</td>"
                f"<td class=n>{line.table}</td><td class={colour}>{colour}</td>"
                f"<td class=n>{line.opponent.start_number}</td>"
                f"<td>{escape(line.opponent.name)} ({_rating(line.opponent.rating)})</td>"
                f"{delta}</tr>"
            )
        link = (links or {}).get(card.start_number)
        blocks.append(
            "<section class=card>"
            + ("" if link is None else qr_svg(link))
            + f"<h2>{card.start_number}. {escape(card.name)}</h2>"
            f"<p>{escape(row.name)} · rating {_rating(card.rating)}"
            + (_totals(card.rating_change) if ratings else "")
            + "</p>"
            "<table><thead><tr><th>Rd</th><th>Start</th><th>Table</th><th>Colour</th>"
            "<th>No</th><th>Opponent</th>"
            + ("<th>±</th>" if ratings else "")
            + "</tr></thead><tbody>"
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


def _signed(value: float) -> str:
    """A change for people: `+1.9`, `−7` (a minus sign, not a hyphen)."""
    text = f"{abs(value):g}"
    return f"+{text}" if value >= 0 else f"\u2212{text}"


def _totals(figures: dict[str, Any] | None) -> str:
    """The card's rating line: K, expected score and change, or what K lacks."""
    if figures is None:
        return " · no rating change (unrated)"
    expected = figures["expected"]
    line = (
        f" · rated games {figures['games']}, expected {expected:g}" if expected is not None else ""
    )
    if figures["k"] is None:
        missing = ", ".join(figures["missing"])
        return f"{line} · K not known (missing: {escape(missing)})"
    return f"{line} · K {figures['k']} · change {_signed(figures['change'])}"


def _game_change(rating: dict[str, Any] | None) -> str:
    """A game's cell: its change, its PD while K is undecided, or why it is not rated."""
    if rating is None:
        return ""
    if not rating["rated"]:
        return escape(str(rating["reason"]))
    if rating["change"] is None:
        return f"PD {rating['expected']:g}"
    return _signed(rating["change"])
