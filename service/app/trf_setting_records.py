"""The tournament settings a TRF reader needs to pair and score the export as the
tournament does (docs/rules/trf.md#settings-records):

- the initial colour, TRF-26 152 (`W`/`B`) and, for the TRF(x) engines, XXC
  (`white1`/`black1`), whether the organizer set it or a lot drew it (FIDE C.04.2);
- the scoring system, TRF-26 162, when the points are not 1/½/0 or the
  pairing-allocated bye is not worth a win;
- the tie-breaks the organizer chose, TRF-26 202, in its code syntax (FIDE C.07's
  acronyms, modifiers after `/`: `BH/C1/P` for the tie-break Arbiter calls `BH-C1/P`).

A record an imported file carried stands in their place (kept verbatim): the import
read the tournament's setting from it, so the export writes nothing twice and export
-> import -> export gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from service.engine.model import Colour, PointSystem
from service.engine.scoring.tiebreaks.errors import TieBreakError
from service.engine.scoring.tiebreaks.registry import parse_tiebreak

__all__ = [
    "colour_records",
    "from_trf26_tiebreak",
    "has_colour_record",
    "read_tiebreak_record",
    "scoring_records",
    "tiebreak_records",
    "to_trf26_tiebreak",
]

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


_FIDE_NAMES = frozenset(
    {
        "DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "STD", "TPN",
        "BH", "AOB", "FB", "SB", "KS",
        "ARO", "TPR", "PTP", "APRO", "APPO", "RTNG",
    }
)  # fmt: skip
"""The FIDE C.07 tie-breaks (art. 6-10): the names a 202 record may list. The source
texts' own methods (SB-S, PERF-JCA, LAP-POT, ...) have no FIDE code."""

_NAMES = {"SOLKOFF": "BH", "BERGER": "SB", "KOYA": "KS"}


def to_trf26_tiebreak(code: str) -> str | None:
    """A tie-break code in TRF-26's syntax (`BH-C1/P` -> `BH/C1/P`), or None when it
    is not a FIDE tie-break."""
    head, *modifiers = code.strip().upper().split("/")
    name, *cut = head.split("-")
    name = _NAMES.get(name, name)
    if name not in _FIDE_NAMES or len(cut) > 1 or not all(_is_cut(c) for c in cut):
        return None
    return "/".join([name, *cut, *modifiers])


def _is_cut(text: str) -> bool:
    """C.07 art. 14's Cut-n and Median-n: `C1`, `M2`."""
    return len(text) > 1 and text[0] in "CM" and text[1:].isdigit()


def from_trf26_tiebreak(code: str) -> str | None:
    """A TRF-26 tie-break code as Arbiter writes it (`BH/C1/P` -> `BH-C1/P`), or None
    when the engine does not compute it (a team code such as `BH:MP`, an unknown one)."""
    name, *modifiers = code.strip().upper().split("/")
    if name not in _FIDE_NAMES:
        return None
    cuts = [m for m in modifiers if _is_cut(m)]
    if len(cuts) > 1:
        return None
    rest = [m for m in modifiers if m not in cuts]
    text = "/".join([f"{name}-{cuts[0]}" if cuts else name, *rest])
    try:
        parse_tiebreak(text)
    except TieBreakError:
        return None
    return text


def tiebreak_records(headers: Sequence[Header], tiebreaks: Sequence[str] | None) -> list[Header]:
    """TRF-26 202, the tie-breaks the organizer chose, comma-separated (none when the
    system's default applies, a 202 is kept, or a tie-break has no FIDE code: the audit
    trail carries those)."""
    if not tiebreaks or any(code == "202" for code, _ in headers):
        return []
    codes = [to_trf26_tiebreak(code) for code in tiebreaks]
    if any(code is None for code in codes):
        return []
    return [("202", ",".join(code for code in codes if code is not None))]


def read_tiebreak_record(
    headers: Sequence[Header],
) -> tuple[list[str] | None, tuple[Header, ...]]:
    """The tie-breaks of a file's one 202 record, as Arbiter writes them, and the
    header records without it; (None, headers unchanged) when there is no 202, more
    than one, or a code the engine does not compute (the record then stays kept)."""
    found = [i for i, (code, _) in enumerate(headers) if code == "202"]
    if len(found) != 1:
        return None, tuple(headers)
    listed = [c for c in headers[found[0]][1].replace(" ", ",").split(",") if c]
    codes = [from_trf26_tiebreak(code) for code in listed]
    if not codes or any(code is None for code in codes):
        return None, tuple(headers)
    kept = tuple(h for i, h in enumerate(headers) if i != found[0])
    return [code for code in codes if code is not None], kept
