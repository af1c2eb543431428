"""Victory points: IMP margin of a match -> VP for the winner and the loser.

Scales (the WBF 2013 VP scales and the ACBL Swiss-teams scales; docs/rules/bridge.md):

- ``"wbf-2013"``: the WBF continuous 20-point scale (2013). With N boards the blitz
  is X = 15 * sqrt(N) and the winner's VP for a margin I < X is
  10 + 10 * (1 - R ** (I / X)) / (1 - R), R = tau ** 3, tau = (sqrt(5) - 1) / 2;
  20 from X on. Each whole-IMP value is rounded half-up to 2 decimals, then the
  table is made concave: wherever an increment is larger than the one before it,
  the middle value is raised by 0.01, repeating from the smallest offending margin
  until none is left (this reproduces the published 8-board table, including
  40 IMPs -> 19.74). The loser gets 20 minus the winner's VP, so a pair always sums
  to 20.00.
- ``"wbf-2013-discrete"``: the WBF whole-number 20-point scale derived from the
  continuous curve: band k (10..19) ends at the margin where the curve reaches
  k + 0.5, then the draw band is narrowed to be no wider than the 11-VP band and
  band widths are made non-decreasing.
- ``"acbl-20"`` (1-36 boards) and ``"acbl-30"`` (1-11 boards): the ACBL Swiss-teams
  band tables as the ACBL publishes them.

Readings where the texts are open:

- Fractional margins (weighted or adjusted IMPs) on the continuous scale are
  interpolated linearly between the two neighbouring whole-IMP table values and
  rounded half-up to 2 decimals; on a band scale a fractional margin stays in the
  band of its whole part (3.5 IMPs scores like 3).
- The old WBF 25-point scale (draw 15:15, 25:5 up to 25:0) is not built in: its
  thresholds per board count could not be verified (the lecture's table is unreadable
  OCR). `BandScale` accepts any such table, including a loser dropping below 5.
"""

from __future__ import annotations

import decimal
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.rounding import round_half_up

__all__ = [
    "SCALES",
    "BandScale",
    "VpResult",
    "acbl_scale",
    "vp",
    "wbf_blitz",
    "wbf_continuous_table",
    "wbf_discrete_scale",
]

_CENT = Decimal("0.01")
_TWENTY = Decimal("20.00")


@dataclass(frozen=True, slots=True)
class VpResult:
    """Victory points of one match."""

    winner: Decimal
    """VP of the side with the larger IMP total (either side on a draw)."""
    loser: Decimal
    """VP of the other side."""

    def __iter__(self) -> Iterator[Decimal]:
        """Unpack as `winner, loser = vp(...)`."""
        return iter((self.winner, self.loser))

    def for_side(self, margin: int | Fraction) -> tuple[Decimal, Decimal]:
        """(this side, opponents) for a signed margin seen from this side."""
        return (self.winner, self.loser) if margin >= 0 else (self.loser, self.winner)


@dataclass(frozen=True, slots=True)
class BandScale:
    """A whole-number VP scale given as bands of IMP margins.

    `bands[i] = (lowest margin, winner VP, loser VP)`, lowest margins strictly
    increasing and starting at 0; a margin scores the last band whose lowest margin
    it reaches.
    """

    name: str
    """A label for messages."""
    bands: tuple[tuple[int, Decimal, Decimal], ...]
    """(lowest margin, winner VP, loser VP) per band, in increasing margin order."""

    def __post_init__(self) -> None:
        lows = [band[0] for band in self.bands]
        if not lows or lows[0] != 0 or any(b <= a for a, b in pairwise(lows)):
            raise BridgeInputError("scale", f"{self.name}: band margins must rise from 0")

    def lookup(self, margin: int | Fraction) -> VpResult:
        """VP for a non-negative margin."""
        index = bisect_right([band[0] for band in self.bands], margin) - 1
        _, winner, loser = self.bands[index]
        return VpResult(winner, loser)

    @classmethod
    def from_upper_bounds(
        cls, name: str, uppers: Sequence[int], first_vp: int, total: int
    ) -> BandScale:
        """Bands whose top margins are `uppers` (the last band is open-ended)."""
        bands: list[tuple[int, Decimal, Decimal]] = []
        low = 0
        for offset in range(len(uppers) + 1):
            winner = Decimal(first_vp + offset)
            bands.append((low, winner, Decimal(total) - winner))
            if offset < len(uppers):
                low = uppers[offset] + 1
        return cls(name, tuple(bands))


def _check_boards(boards: int) -> None:
    if isinstance(boards, bool) or not isinstance(boards, int):
        raise BridgeInputError("boards", f"must be a positive integer, got {boards!r}")
    if boards < 1:
        raise BridgeInputError("boards", f"must be 1 or more, got {boards}")


def _context() -> decimal.Context:
    return decimal.Context(prec=40, rounding=ROUND_HALF_UP)


def _blitz_exact(boards: int) -> Decimal:
    return 15 * Decimal(boards).sqrt(_context())


def wbf_blitz(boards: int) -> int:
    """The blitz as a whole margin, ceil(15 sqrt N): from here on the formula gives 20.

    The rounded table may already show 20.00 a margin or two earlier.
    """
    _check_boards(boards)
    blitz = _blitz_exact(boards)
    whole = int(blitz.to_integral_value(rounding=decimal.ROUND_CEILING))
    return whole


def _raw_wbf(margin: Decimal, blitz: Decimal) -> Decimal:
    ctx = _context()
    tau = (Decimal(5).sqrt(ctx) - 1) / 2
    ratio = tau**3
    power = ctx.exp(ctx.multiply(margin / blitz, ctx.ln(ratio)))
    return 10 + 10 * (1 - power) / (1 - ratio)


@lru_cache(maxsize=256)
def wbf_continuous_table(boards: int) -> tuple[Decimal, ...]:
    """Winner's VP for margins 0, 1, ..., blitz on the WBF 2013 continuous scale."""
    _check_boards(boards)
    blitz = _blitz_exact(boards)
    top = wbf_blitz(boards)
    values = [
        _raw_wbf(Decimal(margin), blitz).quantize(_CENT, rounding=ROUND_HALF_UP)
        for margin in range(top)
    ]
    values.append(_TWENTY)
    # Concavity: raise the middle value while some increment grows.
    index = 1
    while index < top:
        if values[index + 1] - values[index] > values[index] - values[index - 1]:
            values[index] += _CENT
            index = 1
        else:
            index += 1
    return tuple(values)


def _interpolate(table: tuple[Decimal, ...], margin: Fraction) -> Decimal:
    whole = int(margin)
    if whole >= len(table) - 1:
        return table[-1]
    part = margin - whole
    if part == 0:
        return table[whole]
    low = Fraction(table[whole])
    high = Fraction(table[whole + 1])
    return round_half_up(low + (high - low) * part, 2)


@lru_cache(maxsize=256)
def wbf_discrete_scale(boards: int) -> BandScale:
    """The WBF 2013 whole-number 20-point scale for `boards` boards."""
    _check_boards(boards)
    ctx = _context()
    blitz = _blitz_exact(boards)
    tau = (Decimal(5).sqrt(ctx) - 1) / 2
    ratio = tau**3
    uppers: list[int] = []
    for k in range(10, 20):
        target = Decimal(k) + Decimal("0.5")
        inner = 1 - (1 - ratio) * (target / 10 - 1)
        margin = blitz * ctx.ln(inner) / ctx.ln(ratio)
        uppers.append(int(margin))
    changed = True
    while changed:
        changed = False
        # The draw band (-b..b, width 2b + 1) may be no wider than the 11-VP band.
        if 2 * uppers[0] + 1 > uppers[1] - uppers[0]:
            uppers[0] -= 1
            changed = True
        for k in range(1, len(uppers) - 1):
            if uppers[k] - uppers[k - 1] > uppers[k + 1] - uppers[k]:
                uppers[k] -= 1
                changed = True
                break
    return BandScale.from_upper_bounds(f"wbf-2013-discrete/{boards}", uppers, 10, 20)


# ACBL Swiss-teams band tables: (boards up to, upper margins of bands 10, 11, ...).
_ACBL_20: tuple[tuple[int, tuple[int, ...]], ...] = (
    (8, (0, 2, 4, 7, 10, 13, 16, 19, 23, 27)),
    (11, (0, 2, 5, 9, 13, 17, 21, 25, 30, 35)),
    (15, (0, 3, 6, 10, 14, 19, 24, 29, 35, 41)),
    (20, (1, 4, 8, 13, 18, 24, 31, 38, 46, 55)),
    (27, (2, 6, 11, 17, 24, 32, 41, 50, 60, 71)),
    (36, (3, 8, 14, 21, 29, 38, 48, 59, 71, 84)),
)
_ACBL_30: tuple[tuple[int, tuple[int, ...]], ...] = (
    (8, (0, 1, 2, 3, 4, 6, 8, 10, 13, 16, 19, 23, 27)),
    (11, (0, 1, 2, 4, 6, 8, 11, 14, 17, 21, 25, 30, 35)),
)


def acbl_scale(boards: int, points: int = 20) -> BandScale:
    """The ACBL 20-VP (1-36 boards) or 30-VP (1-11 boards) Swiss-teams scale.

    The 30-VP scale jumps from the 15:15 draw straight to 18:12 for 1 IMP.
    """
    _check_boards(boards)
    rows = {20: _ACBL_20, 30: _ACBL_30}.get(points)
    if rows is None:
        raise BridgeInputError("scale", f"ACBL scales have 20 or 30 points, not {points}")
    for limit, uppers in rows:
        if boards <= limit:
            if points == 20:
                return BandScale.from_upper_bounds(f"acbl-20/{boards}", uppers, 10, 20)
            bands = [(0, Decimal(15), Decimal(15))]
            for offset, upper in enumerate(uppers[:-1]):
                winner = Decimal(18 + offset)
                bands.append((upper + 1, winner, Decimal(30) - winner))
            bands.append((uppers[-1] + 1, Decimal(30), Decimal(0)))
            return BandScale(f"acbl-30/{boards}", tuple(bands))
    raise BridgeInputError("boards", f"the ACBL {points}-VP scale stops at {rows[-1][0]} boards")


SCALES: tuple[str, ...] = ("wbf-2013", "wbf-2013-discrete", "acbl-20", "acbl-30")
"""Names `vp` accepts for `scale`."""


def vp(
    imps: int | Fraction | Decimal, boards: int, scale: str | BandScale = "wbf-2013"
) -> VpResult:
    """Victory points for an IMP margin over a match of `boards` boards.

    The sign of `imps` is ignored (the winner is whoever has the margin); use
    `VpResult.for_side` to orient the pair. On the continuous scale the pair always
    sums to exactly 20.00.
    """
    if isinstance(imps, bool) or not isinstance(imps, int | Fraction | Decimal):
        raise BridgeInputError("imps", f"must be an int, Fraction or Decimal, got {imps!r}")
    if isinstance(imps, Decimal) and not imps.is_finite():
        raise BridgeInputError("imps", f"must be finite, got {imps!r}")
    _check_boards(boards)
    margin = abs(Fraction(imps))
    if isinstance(scale, BandScale):
        return scale.lookup(margin)
    if scale == "wbf-2013":
        winner = _interpolate(wbf_continuous_table(boards), margin)
        return VpResult(winner, _TWENTY - winner)
    if scale == "wbf-2013-discrete":
        return wbf_discrete_scale(boards).lookup(margin)
    if scale == "acbl-20":
        return acbl_scale(boards, 20).lookup(margin)
    if scale == "acbl-30":
        return acbl_scale(boards, 30).lookup(margin)
    raise BridgeInputError("scale", f"unknown scale {scale!r}; known: {', '.join(SCALES)}")
