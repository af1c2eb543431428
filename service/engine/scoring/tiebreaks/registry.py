"""Tie-break codes: parsing "BH-C1", "SB/P", "KS/L+1", "ARO-C1/U1000", ... into objects.

Grammar (case-insensitive): NAME[-Cn|-Mn][/MOD]... with the names of FIDE C.07 art.
6-10 and the modifiers of art. 14 (Cut-n, Median-n, Limit), plus:

* `/P` - forfeits count as games against the scheduled opponent (DE, BH, FB, SB);
* `/U<rating>` - the rating given to unrated participants (rating tie-breaks);
* `/F` - AOB over the opponents' Fore Buchholz (2026);
* `/R` - reverse the natural order (TPN, RTNG);
* `/L<percent>`, `/L+n`, `/L-n` - the Koya limit.

The source texts' methods (docs/rules/tiebreaks.md) have their own names: SB-S
(simplified Berger), SB-D (doubled Berger), PERF-JCA (JCA simple performance), LAP-POT
and LAP-FLOW (Laplacian), and the aliases SOLKOFF (= BH), SOLKOFF-M (= BH-M1, median
Solkoff), BERGER (= SB), KOYA (= KS).
STD, TPN and RTNG exist from the 2026 edition only. Anything else raises
`UnknownTieBreakError` naming the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from service.engine.numerals import whole_number
from service.engine.scoring.tiebreaks.base import GroupTieBreak, TieBreak
from service.engine.scoring.tiebreaks.buchholz import AverageOfBuchholz, Buchholz, ForeBuchholz
from service.engine.scoring.tiebreaks.direct_encounter import DirectEncounter
from service.engine.scoring.tiebreaks.errors import UnknownTieBreakError
from service.engine.scoring.tiebreaks.laplacian import LaplacianFlow, LaplacianPotential
from service.engine.scoring.tiebreaks.modifiers import Cut
from service.engine.scoring.tiebreaks.own_results import (
    BlackGames,
    BlackWins,
    GamesWon,
    PairingNumber,
    ProgressiveScore,
    RoundsElectedToPlay,
    StandardPoints,
    Wins,
)
from service.engine.scoring.tiebreaks.ratings import (
    AveragePerfectPerformance,
    AveragePerformance,
    AverageRating,
    JcaPerformance,
    OwnRating,
    PerfectPerformance,
    PerformanceRating,
)
from service.engine.scoring.tiebreaks.sonneborn import (
    DoubledSonnebornBerger,
    Koya,
    SimplifiedBerger,
    SonnebornBerger,
)

__all__ = ["KNOWN_CODES", "TIEBREAK_NAMES", "parse_tiebreak"]

AnyTieBreak = TieBreak | GroupTieBreak

_ALIASES = {
    "SOLKOFF": "BH",
    "SOLKOFF-M": "BH-M1",
    "MEDIAN-SOLKOFF": "BH-M1",
    "BERGER": "SB",
    "KOYA": "KS",
}

_EDITION_2026_ONLY = frozenset({"STD", "TPN", "RTNG"})

_SEED_NAMES = ("SB-S", "SB-D", "PERF-JCA", "LAP-POT", "LAP-FLOW")

KNOWN_CODES = (
    "DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "STD", "TPN",
    "BH", "AOB", "FB", "SB", "KS",
    "ARO", "TPR", "PTP", "APRO", "APPO", "RTNG",
    *_SEED_NAMES,
)  # fmt: skip
"""The tie-break names understood (modifiers come on top)."""

TIEBREAK_NAMES: dict[str, str] = {
    "DE": "Direct Encounter (C.07 art. 6)",
    "WIN": "Number of wins, played or not (art. 7.1)",
    "WON": "Number of games won over the board (art. 7.2)",
    "BPG": "Number of games played with Black (art. 7.3)",
    "BWG": "Number of games won with Black (art. 7.4)",
    "PS": "Sum of progressive scores (art. 7.5)",
    "REP": "Rounds one elected to play (art. 7.6)",
    "STD": "Standard points, 1/½/0 per round (art. 7.7, 2026)",
    "TPN": "Tournament pairing number, lower first (art. 7.8, 2026)",
    "BH": "Buchholz (art. 8.1); Solkoff in the JCA Swiss rules",
    "AOB": "Average of opponents' Buchholz (art. 8.2)",
    "FB": "Fore Buchholz (art. 8.3)",
    "SB": "Sonneborn-Berger (art. 9.1); the Berger coefficient of the tie-break notes",
    "KS": "Koya system (art. 9.2)",
    "ARO": "Average rating of opponents (art. 10.1)",
    "TPR": "Tournament performance rating (art. 10.2)",
    "PTP": "Perfect tournament performance (art. 10.3)",
    "APRO": "Average performance rating of opponents (art. 10.4)",
    "APPO": "Average perfect performance of opponents (art. 10.5)",
    "RTNG": "Own rating, higher first (art. 10.6, 2026)",
    "SB-S": "Simplified Berger, Dvoretsky 1985 (the tie-break notes)",
    "SB-D": "Doubled Sonneborn-Berger, win 2x, draw 1x (the tie-break notes)",
    "PERF-JCA": "JCA simple performance: own + opponents' ratings (JCA Swiss rules)",
    "LAP-POT": "Laplacian potential of the crosstable (the tie-break notes)",
    "LAP-FLOW": "Laplacian flow: potential x points conceded (the tie-break notes)",
}
"""A one-line description per name, for listings (API, command line)."""


class _Spec:
    """A parsed code: name, cut and the slash modifiers."""

    def __init__(self, original: str, name: str, cut: Cut, mods: list[str]) -> None:
        self.original = original
        self.name = name
        self.cut = cut
        self.mods = mods

    def fail(self, reason: str) -> UnknownTieBreakError:
        return UnknownTieBreakError(self.original, reason)

    def only(self, *allowed: str) -> None:
        """Reject slash modifiers whose letter is not in `allowed`."""
        for mod in self.mods:
            if mod[:1] not in allowed:
                raise self.fail(f"modifier /{mod} does not apply to {self.name}")

    def flag(self, letter: str) -> bool:
        for mod in self.mods:
            if mod == letter:
                return True
            if mod[:1] == letter and letter in "PFR":
                raise self.fail(f"modifier /{mod} takes no value")
        return False

    def no_cut(self) -> None:
        if self.cut:
            raise self.fail(f"{self.name} takes no cut or median modifier")

    def cut_only_low(self) -> None:
        if self.cut.high:
            raise self.fail(f"{self.name} takes Cut-n but not Median-n")

    def unrated(self) -> int | None:
        for mod in self.mods:
            if mod.startswith("U"):
                rating = whole_number(mod[1:])
                if rating is None:
                    raise self.fail(f"/U needs a rating, e.g. /U1000, not /{mod}")
                return rating
        return None

    def koya_limit(self) -> tuple[int, Fraction]:
        percent, shift = 50, Fraction(0)
        for mod in self.mods:
            if not mod.startswith("L"):
                continue
            text = mod[1:]
            given_percent = whole_number(text)
            if given_percent is not None:
                percent = given_percent
                continue
            points = _KOYA_POINTS.match(text)
            if points is None:
                raise self.fail(f"bad Koya limit /{mod}; use /L60, /L+1 or /L-0.5")
            sign, digits, decimals = points.groups()
            # a whole number counts half-points (/L+1), a decimal counts points (/L+1.0)
            halves = Fraction(digits) if decimals is None else 2 * Fraction(f"{digits}.{decimals}0")
            if halves.denominator != 1:
                raise self.fail(f"Koya limit /{mod} is not a whole number of half-points")
            shift = halves if sign == "+" else -halves
        return percent, shift


_CUT = re.compile(r"^(C|M)(\d+)$")
_KOYA_POINTS = re.compile(r"^([+-])(\d{1,3})(?:\.(\d{0,3}))?$")
"""A Koya limit's shift from 50 % (`/L+1` half-points, `/L-0.5` points): plain decimals
only, so that no exponent (`/L+1e99999999`) makes the reader build a huge number."""


def _split(code: str) -> _Spec:
    text = code.strip().upper().replace(" ", "")
    if not text:
        raise UnknownTieBreakError(code, "empty code")
    head, *mods = text.split("/")
    head = _ALIASES.get(head, head)
    if any(not m for m in mods):
        raise UnknownTieBreakError(code, "empty modifier")
    if head in _SEED_NAMES:
        return _Spec(code, head, Cut(), mods)
    name, *cuts = head.split("-")
    if len(cuts) > 1:
        raise UnknownTieBreakError(code, "more than one cut or median modifier")
    cut = Cut()
    if cuts:
        match = _CUT.match(cuts[0])
        if match is None:
            raise UnknownTieBreakError(code, f"unknown modifier -{cuts[0]}")
        n = whole_number(match.group(2))
        if n is None:
            raise UnknownTieBreakError(code, f"-{match.group(1)}n: n is not a number of rounds")
        cut = Cut(n, 0) if match.group(1) == "C" else Cut(n, n)
    return _Spec(code, name, cut, mods)


def _de(s: _Spec) -> AnyTieBreak:
    s.no_cut()
    s.only("P")
    return DirectEncounter(count_forfeits=s.flag("P"))


def _simple(cls: Callable[[], TieBreak]) -> Callable[[_Spec], AnyTieBreak]:
    def build(s: _Spec) -> AnyTieBreak:
        s.no_cut()
        s.only()
        return cls()

    return build


def _bh(s: _Spec) -> AnyTieBreak:
    s.only("P")
    return Buchholz(s.cut, s.flag("P"))


def _fb(s: _Spec) -> AnyTieBreak:
    s.only("P")
    return ForeBuchholz(s.cut, s.flag("P"))


def _sb(s: _Spec) -> AnyTieBreak:
    s.cut_only_low()
    s.only("P")
    return SonnebornBerger(s.cut, s.flag("P"))


def _sb_s(s: _Spec) -> AnyTieBreak:
    s.only("P")
    return SimplifiedBerger(s.flag("P"))


def _sb_d(s: _Spec) -> AnyTieBreak:
    s.only("P")
    return DoubledSonnebornBerger(s.flag("P"))


def _aob(s: _Spec) -> AnyTieBreak:
    s.no_cut()
    s.only("F")
    return AverageOfBuchholz(fore=s.flag("F"))


def _ks(s: _Spec) -> AnyTieBreak:
    s.no_cut()
    s.only("L")
    percent, shift = s.koya_limit()
    return Koya(percent, shift)


def _ps(s: _Spec) -> AnyTieBreak:
    s.cut_only_low()
    s.only()
    return ProgressiveScore(s.cut.low)


def _tpn(s: _Spec) -> AnyTieBreak:
    s.no_cut()
    s.only("R")
    return PairingNumber(reverse=s.flag("R"))


def _aro(s: _Spec) -> AnyTieBreak:
    s.only("U")
    return AverageRating(s.unrated(), s.cut)


def _rating(cls: Callable[[int | None], TieBreak]) -> Callable[[_Spec], AnyTieBreak]:
    def build(s: _Spec) -> AnyTieBreak:
        s.no_cut()
        s.only("U")
        return cls(s.unrated())

    return build


def _rtng(s: _Spec) -> AnyTieBreak:
    s.no_cut()
    s.only("U", "R")
    return OwnRating(s.unrated(), reverse=s.flag("R"))


_BUILDERS: dict[str, Callable[[_Spec], AnyTieBreak]] = {
    "DE": _de,
    "WIN": _simple(Wins),
    "WON": _simple(GamesWon),
    "BPG": _simple(BlackGames),
    "BWG": _simple(BlackWins),
    "PS": _ps,
    "REP": _simple(RoundsElectedToPlay),
    "STD": _simple(StandardPoints),
    "TPN": _tpn,
    "BH": _bh,
    "AOB": _aob,
    "FB": _fb,
    "SB": _sb,
    "KS": _ks,
    "ARO": _aro,
    "TPR": _rating(PerformanceRating),
    "PTP": _rating(PerfectPerformance),
    "APRO": _rating(AveragePerformance),
    "APPO": _rating(AveragePerfectPerformance),
    "RTNG": _rtng,
    "SB-S": _sb_s,
    "SB-D": _sb_d,
    "PERF-JCA": _simple(JcaPerformance),
    "LAP-POT": _simple(LaplacianPotential),
    "LAP-FLOW": _simple(LaplacianFlow),
}


def parse_tiebreak(code: str, edition: str = "2026") -> AnyTieBreak:
    """Build the tie-break a code names (see the module docstring for the grammar)."""
    spec = _split(code)
    builder = _BUILDERS.get(spec.name)
    if builder is None:
        raise UnknownTieBreakError(code)
    if edition == "2024" and spec.name in _EDITION_2026_ONLY:
        raise UnknownTieBreakError(code, "defined from the 2026 edition of C.07 only")
    return builder(spec)
