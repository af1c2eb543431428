"""The FIDE rating tables used by performance tie-breaks (FIDE B.02 art. 8.1).

Facts transcribed from the FIDE Rating Regulations (Handbook B.02), to which C.07
art. 10.2-10.5 refer:

* Table 8.1(a): fractional score p (in hundredths) -> rating difference dp. Only
  p >= 0.50 is listed; dp(1 - p) = -dp(p).
* Table 8.1(b): rating difference D -> expected score PD of the higher-rated player
  (in hundredths), given as the upper end of each difference band; above 735 the
  expected score is 1.00. The lower-rated player's expected score is 1 - PD.
"""

from __future__ import annotations

from bisect import bisect_left

__all__ = ["dp_for_percent", "expected_percent"]

# dp for p = 0.50, 0.51, ..., 1.00 (table 8.1a).
_DP_UPPER_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip

# Upper ends of the difference bands for PD = 0.50, 0.51, ..., 0.99 (table 8.1b).
_PD_BAND_TOPS = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip


def dp_for_percent(percent: int) -> int:
    """Table 8.1(a): dp for a score of `percent` hundredths (0..100)."""
    if not 0 <= percent <= 100:
        raise ValueError(f"percentage out of range: {percent}")
    if percent >= 50:
        return _DP_UPPER_HALF[percent - 50]
    return -_DP_UPPER_HALF[50 - percent]


_PD_BY_DIFF = tuple(50 + bisect_left(_PD_BAND_TOPS, d) for d in range(_PD_BAND_TOPS[-1] + 2))
"""PD in hundredths by absolute difference 0..736 (736 and above: 1.00)."""


def expected_percent(rating: int, opponent: int) -> int:
    """Table 8.1(b): expected score, in hundredths, of `rating` against `opponent`."""
    diff = rating - opponent
    pd = _PD_BY_DIFF[min(abs(diff), len(_PD_BY_DIFF) - 1)]
    return pd if diff >= 0 else 100 - pd
