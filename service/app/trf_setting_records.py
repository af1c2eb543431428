"""The tournament settings a TRF reader needs to pair and score the export as the
tournament does (docs/rules/trf.md#settings-records):

- the initial colour, TRF-26 152 (`W`/`B`) and, for the TRF(x) engines, XXC
  (`white1`/`black1`), whether the organizer set it or a lot drew it (FIDE C.04.2);
- the scoring system, TRF-26 162, when the points are not 1/½/0 or the
  pairing-allocated bye is not worth a win.

A record an imported file carried stands in their place (kept verbatim): the import
read the tournament's setting from it, so the export writes nothing twice and export
-> import -> export gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from service.engine.model import Colour, PointSystem

__all__ = ["colour_records", "has_colour_record", "scoring_records"]

Header = tuple[str, str]

_DEFAULT = PointSystem()


def has_colour_record(headers: Sequence[Header]) -> bool:
    """Whether the records say the initial colour: a 152, or an XXC naming `white1` or
    `black1` (an XXC may carry other options only)."""
    for code, rest in headers:
        if code == "152" and rest.strip()[:1].upper() in ("W", "B"):
            return True
        if code == "XXC" and {"white1", "black1"} & set(rest.lower().split()):
            return True
    return False


def colour_records(headers: Sequence[Header], colour: Colour | None) -> list[Header]:
    """TRF-26 152 and XXC for the top player's round-1 colour (none when the records
    say it already, or no colour is known); no second XXC beside a kept one."""
    if colour is None or has_colour_record(headers):
        return []
    records: list[Header] = [("152", "W" if colour is Colour.WHITE else "B")]
    if not any(code == "XXC" for code, _ in headers):
        records.append(("XXC", "white1" if colour is Colour.WHITE else "black1"))
    return records


def scoring_records(headers: Sequence[Header], points: PointSystem) -> list[Header]:
    """TRF-26 162 when the points differ from the defaults: W, D, L always, P when the
    pairing-allocated bye is not worth a win. A full-point bye counts as W and a
    half-point bye as D in both the tournament and TRF-26; an absence is 0 (A's
    default), so A and X are never written."""
    if any(code == "162" for code, _ in headers):
        return []
    bye = points.pairing_bye
    pab = bye is not None and bye != points.win
    games = (points.win, points.draw, points.loss)
    if games == (_DEFAULT.win, _DEFAULT.draw, _DEFAULT.loss) and not pab:
        return []
    letters = [("W", points.win), ("D", points.draw), ("L", points.loss)]
    if pab and bye is not None:
        letters.append(("P", bye))
    # letter at column 6, points at 7-10, the next letter 9 columns on (15, 24, ...)
    return [("162", " " + "    ".join(f"{letter}{_points(v):>4}" for letter, v in letters))]


def _points(value: Fraction) -> str:
    """Points in TRF-26's `11.5` format (100, the highest, as `100`: four columns)."""
    text = f"{float(value):.1f}"
    return text if len(text) <= 4 else f"{float(value):g}"
