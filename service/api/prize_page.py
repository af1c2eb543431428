"""The prize list as a printable HTML page (docs/rules/prizes.md#printing): one table per
list (the places, then each category), every text escaped, sized for A4 paper."""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

__all__ = ["prizes_html"]

_STYLE = """
@page { size: A4; margin: 15mm; }
body { margin: 0 auto; max-width: 180mm; font: 10pt/1.35 system-ui, sans-serif; }
h1 { font-size: 16pt; margin: 0 0 1mm; }
h2 { font-size: 12pt; margin: 6mm 0 1mm; break-after: avoid; }
p.sub { margin: 0 0 4mm; color: #444; }
table { width: 100%; border-collapse: collapse; }
th, td { border-bottom: 0.2mm solid #bbb; padding: 1mm 1.5mm; text-align: left; }
th { border-bottom: 0.4mm solid #000; }
td.n, th.n { text-align: right; white-space: nowrap; }
td.exact { color: #555; font-size: 8.5pt; }
tr { break-inside: avoid; }
thead { display: table-header-group; }
p.none { font-style: italic; }
@media screen { body { padding: 8mm; } }
@media print { a { color: inherit; text-decoration: none; } }
"""


def prizes_html(name: str, document: dict[str, Any], finished: bool) -> str:
    """The page of a prize document (`service.views.prizes.prizes_document`): the
    awards grouped by list in the engine's order, shared places and exact shares shown."""
    lists: dict[str, list[dict[str, Any]]] = {}
    for award in document["awards"]:
        lists.setdefault(award["prize"], []).append(award)
    stage = "Final standings" if finished else f"Standings after round {document['round']}"
    ties = {"split": "shared equally", "hort": "Hort system", "tiebreak": "by tie-break"}
    parts = [
        f"<h1>Prizes: {escape(name)}</h1>",
        f"<p class=sub>{escape(stage)} · ties on points: "
        f"{escape(ties.get(document['ties'], document['ties']))}</p>",
    ]
    if not lists:
        parts.append("<p class=none>No prizes awarded.</p>")
    for prize, awards in lists.items():
        title = "Overall" if prize == "open" else prize
        rows = "".join(_row(award) for award in awards)
        parts.append(
            f"<section class=list><h2>{escape(title)}</h2><table>"
            "<thead><tr><th class=n>Place</th><th class=n>No.</th><th>Player</th>"
            "<th class=n>Amount</th><th>Shared</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>"
        )
    missing = document.get("missing") or []
    if missing:
        names = ", ".join(f"{m['start_number']} ({m['category']}: {m['field']})" for m in missing)
        parts.append(f"<p class=sub>Not considered, facts not recorded: {escape(names)}</p>")
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>Prizes: {escape(name)}</title><style>{_STYLE}</style></head>"
        f"<body>{''.join(parts)}</body></html>"
    )


def _row(award: dict[str, Any]) -> str:
    """One award: its place (or the places shared), player, amount and exact share."""
    places = award["places"]
    place = str(places[0]) if len(places) == 1 else f"{places[0]}-{places[-1]}"
    shared = ", ".join(str(n) for n in award["shared_with"])
    amount = str(award["amount"])
    exact = award["exact"]
    rounded = (Fraction(exact) * 100).denominator != 1  # not a whole number of cents
    note = f" <span class=exact>(exactly {escape(exact)})</span>" if rounded else ""
    return (
        f"<tr><td class=n>{escape(place)}</td><td class=n>{award['start_number']}</td>"
        f"<td>{escape(award['name'])}</td><td class=n>{escape(amount)}{note}</td>"
        f"<td>{escape(shared)}</td></tr>"
    )
