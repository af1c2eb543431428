"""Edge weights that encode the Dutch quality criteria (FIDE C.04.3 art. 2, 2026).

A pairing of the current bracket is a maximum-weight matching of all players still to
pair. Each edge weight is one big integer made of fields, most significant first, so
that comparing total weights compares the criteria lexicographically:

===========================  =================================================
field                        criterion
===========================  =================================================
compatibility + bye          C1-C3 absolute (a zero weight = no edge), C4
                             completion; players who may not get the PAB (C2)
                             and players scoring above the PAB assignee (C5)
                             count extra, so they are all paired
pairs in the bracket         C6 maximise pairs (minimise downfloaters)
scores in the bracket        C7 maximise the scores paired (minimise downfloater
                             scores), one sub-field per score group
pairs / scores in next       C8 look-ahead: the same for the next bracket
PAB assignee's games         C9 (2026) unplayed games of the PAB assignee
four colour fields           C10-C13: absolute imbalance (topscorers), same
                             colour three times, preference, strong preference
repeated floats              C14-C17 repeated down/upfloats one and two rounds back
float scores                 C18-C21 score differences of repeated floats
three spare fields + 1 bit   room for the S1/S2 order requirements (art. 3.2-3.3)
===========================  =================================================

The fields "score group widths" (`group_bits`) and their sum (`scores_bits`) size
the fields so that sums over a whole matching cannot carry into the next field.
Reading taken for C3 (non-topscorers with the same absolute preference): the
exception applies only when pairing the final round, to pairs with a topscorer
(more than half the maximum possible score).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter

from service.engine.model import Colour

from .players import Float, SwissPlayer

__all__ = ["WeightContext"]


@dataclass(slots=True)
class _Info:
    """Per-player values the weight function reads (precomputed once a round)."""

    score: Fraction
    """Accelerated score."""
    s: int
    """The same score as an integer (scaled), for fast comparisons."""
    shift: int
    """Offset of the player's score group inside a score field."""
    down1: bool
    up1: bool
    down2: bool
    up2: bool
    topscorer: bool
    """Score above half the maximum (C3 exception in the final round)."""
    bye_candidate: bool = False
    """May get the PAB and scores no more than the PAB assignee (C2, C5)."""
    bye_rank: int = 0
    """C9 rank of the player's played games among the players of the PAB assignee's
    score (0 = most played; 0 for every other score)."""
    pref: object = None
    """Colour preference (a Colour or None)."""
    absolute: bool = False
    """Absolute colour preference."""
    absolute_imbalance: bool = False
    """Colour difference beyond +-1."""
    imbalance: int = 0
    """|whites - blacks|."""
    repeated: object = None
    """Colour of the last two games when equal (a Colour or None)."""
    mild_or_none: bool = True
    """Neither a strong nor an absolute preference."""
    forbidden: frozenset[int] = frozenset()
    """Start numbers the player may not meet."""
    kind: int = 0
    """Players of one kind weigh alike against any third player (`WeightContext.weight`
    computes a weight once per pair of kinds)."""


_KIND_FIELDS = (
    "s",
    "shift",
    "bye_candidate",
    "bye_rank",
    "down1",
    "up1",
    "down2",
    "up2",
    "pref",
    "absolute",
    "absolute_imbalance",
    "imbalance",
    "repeated",
    "mild_or_none",
)
"""The fields of `_Info` a pair's weight reads. The others: `score` is `s` unscaled,
`forbidden` and `topscorer` decide only whether two players may meet (checked for each
pair), and `kind` is the result."""

_kind_of = attrgetter(*_KIND_FIELDS)


class WeightContext:
    """Computes edge weights for one round (field layout fixed by the round's groups)."""

    def __init__(
        self,
        players: Sequence[SwissPlayer],
        floats: Mapping[int, tuple[Float, Float]],
        *,
        played_rounds: int,
        final_round: bool,
        threshold: Fraction,
        rules_2017: bool = False,
    ) -> None:
        self.players = players
        self.final_round = final_round
        self.threshold = threshold
        self.played_rounds = played_rounds
        # Score-group widths, lowest group first (its shift is 0). Scores are keyed by
        # (numerator, denominator), which a Fraction's value fixes, and which hashes
        # far faster than the Fraction itself.
        accs = [p.acc_score() for p in players]
        keys = [(a.numerator, a.denominator) for a in accs]
        sizes = Counter(keys)
        group_shift: dict[tuple[int, int], int] = {}
        total = 0
        for key in sorted(sizes, key=lambda k: Fraction(*k)):
            group_shift[key] = total
            total += sizes[key].bit_length()
        self.scores_bits = total
        self.group_bits = max(sizes.values(), default=0).bit_length()
        scale = math.lcm(1, *(d for _, d in sizes))
        self.psd_shift, psd_bits = _psd_layout(players, scale) if rules_2017 else ({}, 0)
        self.psd_mode = False
        """2017 collapsed last bracket: the scores field holds the PSD (A.8)."""
        scaled = [numerator * (scale // denominator) for numerator, denominator in keys]
        self.min_score = min(scaled, default=0)
        self.scale = scale
        gb, sb = self.group_bits, self.scores_bits
        # 2017: room for the last score group's look-ahead (`last_group_look_ahead`)
        next_bits = max(gb, (3 * len(players)).bit_length()) if rules_2017 else gb
        widths: list[tuple[str, int]] = [
            ("in_cur", gb),
            ("score_cur", max(sb, psd_bits)),
            ("in_next", next_bits),
            ("score_next", sb),
            ("bye_games", 2 * gb),
            ("c_imbalance", gb),
            ("c_repeat", gb),
            ("c_pref", gb),
            ("c_strong", gb),
        ]
        if played_rounds >= 1:
            widths += [("down1", gb), ("up1", gb)]
        if played_rounds >= 2:
            widths += [("down2", gb), ("up2", gb)]
        fb = max(sb, psd_bits)
        if played_rounds >= 1:
            widths += [("sdown1", fb), ("sup1", fb)]
        if played_rounds >= 2:
            widths += [("sdown2", fb), ("sup2", fb)]
        widths += [("spare1", gb), ("spare2", gb), ("spare3", gb), ("spare4", 1)]
        offsets: dict[str, int] = {}
        pos = 0
        for name, width in reversed(widths):
            offsets[name] = pos
            pos += width
        self.total_bits = pos
        self.off = offsets
        self.look_ahead_mask = ((1 << (next_bits + sb)) - 1) << offsets["score_next"]
        """The bits of the look-ahead fields (in_next, score_next)."""
        self.max_weight = (4 << pos) - 1
        self.info: dict[int, _Info] = {}
        for index, p in enumerate(players):
            f1, f2 = floats[p.number]
            acc = accs[index]
            self.info[p.number] = _Info(
                score=acc,
                s=scaled[index],
                shift=group_shift[keys[index]],
                down1=f1 is Float.DOWN,
                up1=f1 is Float.UP,
                down2=f2 is Float.DOWN,
                up2=f2 is Float.UP,
                topscorer=acc > threshold,
                pref=p.preference,
                absolute=p.absolute,
                absolute_imbalance=p.absolute_imbalance,
                imbalance=p.imbalance,
                repeated=p.repeated,
                mild_or_none=not p.strong and not p.absolute,
                forbidden=frozenset(p.forbidden),
            )
        self.bye_score: Fraction = Fraction(0)
        self.single_downfloater_is_bye = False
        self._kinds = 0
        self._by_kinds: dict[int, int] = {}
        self.set_bye(Fraction(0), {})

    def set_bye(self, bye_score: Fraction, games_rank: Mapping[int, int]) -> None:
        """Fix the PAB assignee's score and the C9 ranks by played games."""
        self.bye_score = bye_score
        # compared as integers (each side times the other's denominator): exact, and an
        # integer comparison instead of a fraction's for every player
        top = bye_score.numerator * self.scale
        per = bye_score.denominator
        for p in self.players:
            info = self.info[p.number]
            level = info.s * per
            info.bye_candidate = p.bye_eligible and level <= top
            at_bye_score = level == top
            info.bye_rank = games_rank.get(p.played_games, 0) if at_bye_score else 0
        self._sort_kinds()

    def _sort_kinds(self) -> None:
        """Number the players by everything `weight` reads of them but who they may meet
        (`_KIND_FIELDS`): two players of one kind weigh the same against any third
        player, so a weight is computed once per pair of kinds and situation (a first
        round's field is one kind; a generated 1,000-player field in round 5, 44)."""
        kinds: dict[tuple[object, ...], int] = {}
        for info in self.info.values():
            info.kind = kinds.setdefault(_kind_of(info), len(kinds))
        self._kinds = len(kinds)
        self._by_kinds.clear()

    def compatible(self, a: SwissPlayer, b: SwissPlayer) -> bool:
        """C1 (no rematch, no forbidden pair) and C3 (absolute colour clash) for a pair."""
        return self._compatible(self.info[a.number], self.info[b.number], b.number)

    def _compatible(self, a: _Info, b: _Info, b_number: int) -> bool:
        if b_number in a.forbidden:
            return False
        if not a.absolute or not b.absolute or a.pref is not b.pref:
            return True
        return self.final_round and (a.topscorer or b.topscorer)

    def meetable(self, lower: SwissPlayer, highers: Sequence[SwissPlayer]) -> list[int]:
        """The indexes in `highers` of the players `lower` may meet (C1, C3): `compatible`
        for each, in one call."""
        info = self.info
        lo = info[lower.number]
        number = lower.number
        if lo.absolute:
            compatible = self._compatible
            return [i for i, h in enumerate(highers) if compatible(info[h.number], lo, number)]
        return [i for i, h in enumerate(highers) if number not in info[h.number].forbidden]

    def unmeetable(self, players: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
        """The pairs (i, j), i < j, of positions in `players` whose players may not
        meet (C1, C3): what `meetable` leaves out, for a whole field at once. Only a
        forbidden pair (a rematch, an XXP record) or two absolute preferences for one
        colour can part two players, so those are the only pairs looked at."""
        info = self.info
        position = {p.number: i for i, p in enumerate(players)}
        candidates: set[tuple[int, int]] = set()
        same_colour: dict[object, list[int]] = {}
        for j, p in enumerate(players):
            mine = info[p.number]
            for number in mine.forbidden:
                i = position.get(number)
                if i is not None and i != j:
                    candidates.add((i, j) if i < j else (j, i))
            if mine.absolute:
                same_colour.setdefault(mine.pref, []).append(j)
        for group in same_colour.values():
            candidates.update((group[a], j) for b, j in enumerate(group) for a in range(b))
        compatible = self._compatible
        return sorted(
            (i, j)
            for i, j in candidates
            if not compatible(info[players[i].number], info[players[j].number], players[j].number)
        )

    def outside_weights(self, lower: SwissPlayer, highers: Sequence[SwissPlayer]) -> list[int]:
        """`weight(h, lower, False, False)` for every h in `highers`, in one call: the
        weights of pairs outside the bracket and the next score group, which hold only
        the completion fields (C1-C4, and C2/C5/C9 for the PAB)."""
        info = self.info
        lo = info[lower.number]
        number = lower.number
        compatible = self._compatible
        bits = self.total_bits
        lo_bc = lo.bye_candidate
        lo_extra = lo.bye_rank
        bye_shift = self.off["bye_games"] if self.single_downfloater_is_bye else -1
        row: list[int] = []
        for higher in highers:
            hi = info[higher.number]
            if not compatible(hi, lo, number):
                row.append(0)
                continue
            w = (3 - hi.bye_candidate - lo_bc) << bits
            if bye_shift >= 0:
                extra = lo_extra + hi.bye_rank
                w += extra << bye_shift
            row.append(w)
        return row

    def outside_constant(self) -> int:
        """F in `outside_weights`' form F - p(higher) - p(lower)."""
        return 3 << self.total_bits

    def outside_potential(self, player: SwissPlayer) -> int:
        """p(player) in `outside_weights`' form: a pair outside the bracket weighs
        F - p(higher) - p(lower) when the two may meet, since each of its fields (C4
        completion, C2/C5 the PAB, C9 the PAB assignee's games) is a sum of one part
        for each player."""
        info = self.info[player.number]
        p = info.bye_candidate << self.total_bits
        if self.single_downfloater_is_bye:
            p -= info.bye_rank << self.off["bye_games"]
        return p

    def last_group_look_ahead(
        self, higher: SwissPlayer, lower: SwissPlayer, higher_in: bool, lower_in: bool
    ) -> int:
        """2017 C.7 for the bracket above the last score group, as the endorsed engine
        weighs its trial pairing, for a pair of that bracket (`higher_in`, `lower_in`:
        who of the two is in it) or of the last score group: every pair counts one,
        plus one for each of its players who may not get the PAB (C.2), so that the
        pairing in view leaves the PAB to a player who may get it; then each player of
        the bracket who is paired at all counts at its score (the next bracket's PSD).
        The in_next and score_next fields (`look_ahead_mask`)."""
        off = self.off
        w = (1 + (not higher.bye_eligible) + (not lower.bye_eligible)) << off["in_next"]
        if higher_in:
            w += 1 << (off["score_next"] + self.info[higher.number].shift)
        if lower_in:
            w += 1 << (off["score_next"] + self.info[lower.number].shift)
        return w

    def weight(
        self, higher: SwissPlayer, lower: SwissPlayer, in_current: bool, in_next: bool
    ) -> int:
        """Weight of pairing `higher` (earlier in the order) with `lower`: 0 when they
        may not meet, else the weight of their kinds (`_sort_kinds`) in this situation,
        computed once."""
        hi = self.info[higher.number]
        lo = self.info[lower.number]
        if not self._compatible(hi, lo, lower.number):
            return 0
        key = (hi.kind * self._kinds + lo.kind) << 4
        key |= in_current << 3 | in_next << 2 | self.psd_mode << 1
        key |= self.single_downfloater_is_bye
        w = self._by_kinds.get(key)
        if w is None:
            w = self._by_kinds[key] = self._weight_of(hi, lo, in_current, in_next)
        return w

    def weights(
        self, highers: Sequence[SwissPlayer], lower: SwissPlayer, in_current: bool, in_next: bool
    ) -> list[int]:
        """`weight(h, lower, in_current, in_next)` for every h in `highers`, in one call
        (a bracket's rows: what is the same along a row is looked up once)."""
        info = self.info
        lo = info[lower.number]
        number = lower.number
        kinds = self._kinds
        lo_kind = lo.kind
        flags = in_current << 3 | in_next << 2 | self.psd_mode << 1
        flags |= self.single_downfloater_is_bye
        cache = self._by_kinds
        # `_compatible(hi, lo, number)` written out (the call was a tenth of a round):
        # C3 can part the two only when both preferences are absolute and alike.
        lo_absolute, lo_pref = lo.absolute, lo.pref
        lo_exempt = self.final_round and lo.topscorer
        final = self.final_round
        row: list[int] = []
        for higher in highers:
            hi = info[higher.number]
            if number in hi.forbidden or (
                lo_absolute
                and hi.absolute
                and hi.pref is lo_pref
                and not (lo_exempt or (final and hi.topscorer))
            ):
                row.append(0)
                continue
            key = ((hi.kind * kinds + lo_kind) << 4) | flags
            w = cache.get(key)
            if w is None:
                w = cache[key] = self._weight_of(hi, lo, in_current, in_next)
            row.append(w)
        return row

    def _weight_of(self, hi: _Info, lo: _Info, in_current: bool, in_next: bool) -> int:
        """The weight of a pair who may meet (C4-C21 in priority order, FIDE C.04.3)."""
        off = self.off
        w = (3 - hi.bye_candidate - lo.bye_candidate) << self.total_bits
        if in_current and self.psd_mode:
            w += (1 << off["in_cur"]) + self._psd_gain(hi.s, lo.s)
        elif in_current:
            w += (1 << off["in_cur"]) + (1 << (off["score_cur"] + hi.shift))
        elif in_next:
            w += (1 << off["in_next"]) + (1 << (off["score_next"] + hi.shift))
        if self.single_downfloater_is_bye:
            w += (hi.bye_rank + lo.bye_rank) << off["bye_games"]
        if not in_current:
            return w
        w += _colour_fields(lo, hi, off)
        rounds = self.played_rounds
        if self.psd_mode:
            return w + self._psd_floats(hi, lo)
        if rounds >= 1:
            w += (lo.down1 + (hi.s <= lo.s and hi.down1)) << off["down1"]
            w += (not (hi.s > lo.s and lo.up1)) << off["up1"]
            base = off["sdown1"]
            if lo.down1:
                w += 1 << (base + lo.shift)
            if hi.down1:
                w += 1 << (base + hi.shift)
            if not (lo.up1 and hi.s > lo.s):
                w += 1 << (off["sup1"] + hi.shift)
        if rounds >= 2:
            w += (lo.down2 + (hi.s <= lo.s and hi.down2)) << off["down2"]
            w += (not (hi.s > lo.s and lo.up2)) << off["up2"]
            base = off["sdown2"]
            if lo.down2:
                w += 1 << (base + lo.shift)
            if hi.down2:
                w += 1 << (base + hi.shift)
            if not (lo.up2 and hi.s > lo.s):
                w += 1 << (off["sup2"] + hi.shift)
        return w

    def _psd_floats(self, hi: _Info, lo: _Info) -> int:
        """C.14-C.19 (2017) in the collapsed last bracket: repeated floats, and the
        score differences of repeated floats measured as in the PSD (a downfloater by
        its score above the bracket's lowest plus one point, less what its opponent
        takes back; an upfloater by its score difference), since the residents'
        scores differ there."""
        off = self.off
        w = 0
        back = (
            (1, hi.down1, hi.up1, lo.down1, lo.up1),
            (2, hi.down2, hi.up2, lo.down2, lo.up2),
        )
        for k, hi_down, _hi_up, lo_down, lo_up in back[: self.played_rounds]:
            floats_up = hi.s > lo.s
            w += (lo_down + (not floats_up and hi_down)) << off[f"down{k}"]
            w += (not (floats_up and lo_up)) << off[f"up{k}"]
            w += self._psd_term(f"sdown{k}", lo.s, lo_down, hi.s, hi_down)
            w += self._psd_bit(f"sup{k}", None)
            if floats_up and lo_up:
                w -= self._psd_bit(f"sup{k}", hi.s - lo.s)
        return w

    def _psd_term(self, field: str, low: int, low_down: bool, high: int, high_down: bool) -> int:
        """Downfloat differences a pair takes out of a float-score field."""
        one = self.scale
        lowest = self.min_score
        w = 0
        if low_down:
            w += self._psd_bit(field, low - lowest + one)
        if high_down:
            w += self._psd_bit(field, high - lowest + one)
            if high > low:
                w -= self._psd_bit(field, high - low)
        return w

    def _psd_bit(self, field: str, key: int | None) -> int:
        """The unit of `key`'s sub-field inside `field` (None: the constant on top)."""
        return 1 << (self.off[field] + self.psd_shift[key])

    def _psd_gain(self, high: int, low: int) -> int:
        """2017 A.8 / C.6 in the collapsed last bracket, whose residents' scores
        differ: pairing two players removes their downfloater differences (score
        minus the bracket's lowest, plus one point) from the PSD and adds their own
        score difference; a larger difference weighs more than all smaller ones."""
        base = self.off["score_cur"]
        shift = self.psd_shift
        lowest, one = self.min_score, self.scale
        return (
            (1 << (base + shift[high - lowest + one]))
            + (1 << (base + shift[low - lowest + one]))
            - (1 << (base + shift[high - low]))
        )


def _psd_layout(players: Sequence[SwissPlayer], scale: int) -> tuple[dict[int | None, int], int]:
    """Sub-fields of the PSD (2017 A.8), smallest difference first: one per value a
    pair's score difference or a downfloater's difference can take (scores scaled by
    `scale`), each wide enough to count every player, and on top one (key None) for a
    constant that keeps a field's weight positive where a difference is subtracted."""
    scores = sorted({int(p.acc_score() * scale) for p in players})
    lowest = scores[0] if scores else 0
    values = {a - b for a in scores for b in scores if a >= b}
    values |= {a - lowest + scale for a in scores}
    width = len(players).bit_length()
    shifts: dict[int | None, int] = {v: i * width for i, v in enumerate(sorted(values))}
    shifts[None] = len(values) * width
    return shifts, (len(values) + 1) * width


def _colour_fields(p: _Info, o: _Info, off: Mapping[str, int]) -> int:
    """C10-C13 for a pair in the current bracket (1 = criterion met)."""
    differ = p.pref is not o.pref
    w = 0
    if not p.absolute_imbalance or not o.absolute_imbalance or differ:
        w += 1 << off["c_imbalance"]
    if not p.absolute or not o.absolute or differ:
        ok = True
    elif p.imbalance == o.imbalance:
        ok = p.repeated is None or p.repeated is not o.repeated
    else:
        lesser = o if p.imbalance > o.imbalance else p
        assert isinstance(p.pref, Colour)
        ok = lesser.repeated is not p.pref.other
    if ok:
        w += 1 << off["c_repeat"]
    if p.pref is None or o.pref is None or differ:
        w += 1 << off["c_pref"]
    if p.mild_or_none or o.mild_or_none or (p.absolute and o.absolute) or differ:
        w += 1 << off["c_strong"]
    return w
