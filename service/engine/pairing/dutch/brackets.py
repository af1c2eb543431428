"""Bracket-by-bracket optimisation of a Dutch round (FIDE C.04.3 art. 2-4, 2026).

The round is one maximum-weight matching problem over every player to pair, solved
again after each decision. Brackets are handled from the top score down (art. 3.1):

1. Before the first bracket, a matching with only the completion fields (C4) and the
   PAB fields (C2, C5) fixes the score of the PAB assignee (odd fields) and whether
   the PAB assignee will be the single downfloater of a bracket (C9 then applies).
2. For each bracket (moved-down players + resident score group, art. 1.3), the edge
   weights of the bracket and the next score group are set (weights.py) and the
   matching is solved; this decides which MDPs can be paired (C6-C7 with the C8
   look-ahead) and, MDP by MDP from the top, which ones are paired (art. 3.3.2:
   the highest MDPs first), then the opponent of each MDP: the highest resident
   that keeps the optimum (art. 3.3.3, first candidate in S2 order).
3. In the remainder, the optimum fixes how many residents pair inside the bracket;
   S1 is the top half of those. Small weight bonuses then select the exchanges with
   the fewest players and the smallest BSN differences (art. 3.2.3 / 3.3.4): first
   which S1 players move to S2 (lowest first), then which S2 players move to S1
   (highest first). Finally each S1 player, from the top, takes the highest S2
   player that keeps the optimum (art. 3.2.2 transpositions, first candidate).
4. Unpaired players of the bracket move down to the next one (art. 1.4.1).

Every "keeps the optimum" test is a re-solve after nudging one player's edge weights
in the spare low-order fields; the dynamic matcher makes each re-solve cost O(n^2)
in the players still unpaired instead of O(n^3).

Readings taken where the text is open follow the FIDE-endorsed weighted-matching
engine: C9 ranks candidates by played games (most played = fewest unplayed games
gets the PAB) and applies only while the PAB assignee is the single downfloater of
the bracket being paired.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..matching import MatchingError, WeightedMatcher
from ..round_pairing import PairingError
from .players import SwissPlayer
from .weights import WeightContext

__all__ = ["BracketLog", "pair_players"]

_NEAR = 4
"""Outside pairs kept in the matcher's graph for each player: with the players just
above it in the order (`_RoundPairer._set_outside_weights`)."""


@dataclass(slots=True)
class BracketLog:
    """What happened in one bracket (for `explain`)."""

    score: str
    """The residents' score."""
    residents: list[int] = field(default_factory=list)
    """Start numbers of the resident players."""
    movers_in: list[int] = field(default_factory=list)
    """Moved-down players who entered the bracket."""
    pairs: list[tuple[int, int]] = field(default_factory=list)
    """Pairs made in the bracket (higher player first)."""
    movers_out: list[int] = field(default_factory=list)
    """Players who float down to the next bracket."""


def _points(value: Fraction) -> str:
    """A score for people: 2, 2.5, 7/3."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        return f"{value.numerator / 2:g}"
    return str(value)


def _complete(matching: Sequence[int], players: Sequence[SwissPlayer]) -> bool:
    """At most one player unpaired, and that one may receive the PAB (C2, C4)."""
    unmatched = [v for v, m in enumerate(matching) if v == m]
    return len(unmatched) <= 1 and all(players[v].bye_eligible for v in unmatched)


def _solve_complete(matcher: WeightedMatcher, players: Sequence[SwissPlayer]) -> list[int]:
    """Solve `matcher` and return its matching, or refuse the round when no pairing
    satisfies the absolute criteria for every player but one PAB candidate (C1-C4)."""
    try:
        matcher.solve()
    except MatchingError as exc:
        raise PairingError(
            "no pairing satisfies the absolute criteria (C1-C3) for every player"
        ) from exc
    matching = matcher.matching()
    if not _complete(matching, players):
        raise PairingError("no pairing satisfies the absolute criteria (C1-C3)")
    return matching


def pair_players(
    players: Sequence[SwissPlayer],
    ctx: WeightContext,
    *,
    logs: list[BracketLog] | None = None,
    pab_criteria: bool = True,
    progress: Progress | None = None,
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None]:
    """Pair `players` (sorted in art. 1.2 order); returns the pairs and the PAB player.

    `pab_criteria` turns on the 2026 criteria C5 (lowest score for the PAB) and C9
    (fewest unplayed games); without them (2017 rules) any eligible player may end up
    with the PAB, as the brackets' own pairing leaves it. `progress(reached, total)` is
    told, before the first bracket and after each one, how many players of the sorted
    order the brackets have reached.
    """
    if not players:
        return [], None
    pairer = _RoundPairer(players, ctx, logs, pab_criteria)
    pairer.run(progress or _silent)
    result: list[tuple[SwissPlayer, SwissPlayer]] = []
    bye: SwissPlayer | None = None
    for v, p in enumerate(pairer.order):
        m = pairer.pairs.get(v)
        if m is None:
            bye = p
        elif v < m:
            result.append((p, pairer.order[m]))
    return result, bye


Progress = Callable[[int, int], None]
"""Told (players reached, players to pair) as the brackets go down the field."""


def _silent(_reached: int, _total: int) -> None:
    return None


class _RoundPairer:
    """State of one round's optimisation; vertices are positions in the sorted order."""

    def __init__(
        self,
        players: Sequence[SwissPlayer],
        ctx: WeightContext,
        logs: list[BracketLog] | None,
        pab_criteria: bool = True,
    ) -> None:
        self.pab_criteria = pab_criteria
        self.order = list(players)
        self.n = len(self.order)
        self.ctx = ctx
        self.logs = logs
        self.score: list[Fraction] = [ctx.info[p.number].score for p in self.order]
        # the same scores as exact integers in the same order (the context's scaled
        # scores), for the scans that split the field into score groups
        self.level = [ctx.info[p.number].s for p in self.order]
        self.matcher = WeightedMatcher(self.n)
        self.pairs: dict[int, int] = {}
        self.matched = [False] * self.n
        self.stable: list[int] = []
        # Current bracket layout.
        self.idx: list[int] = []  # bracket position -> vertex (MDPs, residents, next group)
        self.mdp_count = 0
        self.bracket_size = 0
        self.group_begin_v = 0
        self.next_begin_v = 0
        self.base: list[list[int]] = []

    # ------------------------------------------------------------------ helpers

    def _solve(self) -> None:
        self.matcher.solve()
        self.stable = self.matcher.matching()

    def _completable(self, rest: Sequence[int]) -> bool:
        """Whether the players `rest` can all be paired (C1-C3), leaving at most one
        who may receive the PAB (C2): the completion test of 2017 C.4."""
        order = self.order
        ctx = self.ctx
        matcher = WeightedMatcher(len(rest))
        for i, v in enumerate(rest):
            lower = order[v]
            row = []
            for j in range(i):
                higher = order[rest[j]]
                if ctx.compatible(lower, higher):
                    row.append((j, 1 + (not lower.bye_eligible) + (not higher.bye_eligible)))
            matcher.set_weights(i, row)
        try:
            matcher.solve()
        except MatchingError:
            return False
        return _complete(matcher.matching(), [order[v] for v in rest])

    def _unpaired(self) -> list[int]:
        """The vertices no bracket has paired yet, in order."""
        return [v for v in range(self.n) if v not in self.pairs]

    def _in_bracket(self, m: int) -> bool:
        """Vertex `m` is a resident of the current bracket."""
        return self.group_begin_v <= m < self.next_begin_v

    def _goes_down(self, v: int) -> bool:
        """Vertex `v` is paired with a lower resident of the bracket (S1 role)."""
        return v < self.stable[v] < self.next_begin_v

    def _exch_weight(self, smaller: int, larger: int, pos: int, rem_pairs: int) -> int:
        """Base weight plus the exchange preferences (art. 3.2.3: fewest, smallest)."""
        w = self.base[larger][smaller]
        if w:
            addend = int(pos < rem_pairs)
            addend <<= 2 * self.ctx.group_bits
            addend -= pos
            addend <<= 1
            w += addend
        return w

    def _finalize(self, v: int, u: int) -> None:
        """Fix the pair {v, u}: their edge gets the maximum weight, their other edges go."""
        self.matcher.fix_pair(v, u, self.ctx.max_weight)

    # ---------------------------------------------------------------- the round

    def run(self, progress: Progress) -> None:
        self._prepare_bye()
        n = self.n
        progress(0, n)
        score = self.level
        nxt = 0
        while nxt < n and score[nxt] >= score[0]:
            self.idx.append(nxt)
            nxt += 1
        collapsed = False
        while len(self.idx) > 1 or nxt < n:
            if collapsed:  # 2017 A.9: every player below the PPB is in the last bracket
                self.idx.extend(range(nxt, n))
                nxt = n
                self.ctx.psd_mode = True
            self.bracket_size = len(self.idx)
            self.next_begin_v = self.group_begin_v + (self.bracket_size - self.mdp_count)
            group_first = nxt
            while nxt < n and score[nxt] >= score[group_first]:
                self.idx.append(nxt)
                nxt += 1
            log = self._start_log()
            if self.pab_criteria or group_first >= n:
                self._pair_bracket()
                self._carry_down(group_first, log)
            elif not self._pair_2017_trial(group_first, log, last_group_next=nxt >= n):
                # the PPB: paired so that the round completes, with no look-ahead
                # (C.7), since every player below it is in the last bracket
                self._pair_bracket(look_ahead=False)
                self._carry_down(group_first, log)
                collapsed = nxt < n
            progress(nxt, n)

    def _pair_bracket(
        self, trial: bool = False, look_ahead: bool = True, last_group_next: bool = False
    ) -> None:
        """Pair the current bracket (art. 3) on the weights of the whole remaining field
        (`trial`: the 2017 trial weights, see `_pair_2017_trial`; `last_group_next`: the
        trial of the bracket above the last score group)."""
        self._set_base_weights(look_ahead, bye_blind=trial, last_group_next=last_group_next)
        if trial:
            self._trial_mdp_weights()
        self._solve()
        if trial and self._trial_short_of_room():
            self._add_trial_sinks()
            self._solve()
        self._choose_mdps()
        self._pair_mdps()
        remainder, rem_pairs = self._remainder()
        exchanges = self._prefer_exchanges(remainder, rem_pairs)
        self._move_s1_down(remainder, rem_pairs, exchanges)
        self._move_s2_up(remainder, rem_pairs, exchanges)
        self._fix_roles(remainder)
        self._pair_s1(remainder, solved=not exchanges)

    def _pair_2017_trial(
        self, group_first: int, log: BracketLog | None, last_group_next: bool
    ) -> bool:
        """2017 edition: completion binds the penultimate pairing bracket only.

        C.04.3 (2017) C.4 asks the *PPB* to choose its downfloaters so that the round
        can be completed; the brackets above it follow C.5-C.7 alone (C.7 looks only
        at the next bracket), and when the PPB cannot complete the round, A.9 / B.8
        collapse the lower brackets and make the bracket above the new PPB. The
        bracket is therefore paired first as if the players below the next score
        group could always be paired (`_trial_weights`); if the players left can
        still be paired completely, that pairing stands, else the bracket is the
        PPB and is paired with completion first, as in 2026. Returns True when the
        trial pairing stood (the bracket is then done and carried down).

        The bracket just above the last score group is tried the same way: it is the
        PPB only when its trial pairing cannot be completed, and is then paired with no
        look-ahead; the last score group with its floaters is the last bracket either
        way, so nothing collapses.
        """
        trial = copy.copy(self)
        trial.matcher = self.matcher.copy()
        trial.pairs = dict(self.pairs)
        trial.matched = list(self.matched)
        trial.stable = list(self.stable)
        trial.idx = list(self.idx)
        trial.logs = None
        trial._trial_weights()
        trial._pair_bracket(trial=True, last_group_next=last_group_next)
        made = [
            (v, trial.stable[v])
            for v in self.idx[: self.bracket_size]
            if trial.matched[v] and v < trial.stable[v]
        ]
        taken = {v for pair in made for v in pair}
        rest = [v for v in self._unpaired() if v not in taken]
        if not self._completable(rest):
            return False
        for v, m in made:
            self.matched[v] = self.matched[m] = True
            self._finalize(v, m)
        self._solve()
        self._carry_down(group_first, log)
        return True

    def _trial_mdp_weights(self) -> None:
        """Two moved-down players never form a pair of the bracket (2017 B.3: MDPs
        pair with residents, S1 holds the MDPs) nor of the next one, where both are
        MDPs again: without completion their edge keeps only the compatibility field,
        so it cannot buy a pair the bracket would not make."""
        mask = ~((1 << self.ctx.total_bits) - 1)
        idx = self.idx
        matcher = self.matcher
        for larger in range(1, self.mdp_count):
            v = idx[larger]
            matcher.set_weights(
                v, ((idx[s], matcher.weight(v, idx[s]) & mask) for s in range(larger))
            )

    def _trial_weights(self) -> None:
        """Every unpaired player below the next score group may meet any other player
        still unpaired, with the same weight whether or not they could really meet
        and whoever may get the PAB (the compatibility field alone), so that the
        bracket's optimum is not bound by completing the round: the 2017 text looks
        at the bracket and the next one only (C.7)."""
        in_window = set(self.idx)
        bits = self.ctx.total_bits
        open_v = self._unpaired()
        for v in open_v:
            if v in in_window:
                continue
            self.matcher.set_weights(v, ((u, 1 << bits) for u in open_v if u != v))

    def _trial_short_of_room(self) -> bool:
        """Whether the trial may have paired players only for want of players below.

        2017 C.5-C.7 weigh the bracket and the next score group alone, and completion is
        checked after, so the trial may leave any of them unpaired. The matcher pairs
        everyone: the players below the next score group, who may meet anyone in the
        trial, take the players it leaves unpaired. While two of them are left over
        (for each other, or one unpaired and one with another), the window could have
        given up one more pair, so that room did not bind: the best matching's weight
        is concave in its number of pairs, and an optimum inside the limit is the
        optimum without it. With fewer left over it may have bound."""
        window = set(self.idx)
        stable = self.stable
        spare = 0
        for v in self._unpaired():
            if v not in window and stable[v] not in window:
                spare += 1
                if spare == 2:
                    return False
        return True

    def _add_trial_sinks(self) -> None:
        """Room for every player of the trial's window to stay unpaired: the matcher is
        grown by as many vertices as the window has players, each as free as a player
        below (`_trial_short_of_room`). Past the round's vertices `stable` reads as a
        player below."""
        open_v = self._unpaired()
        window = len(self.idx)
        first = self.matcher.size
        matcher = self.matcher = self.matcher.extended(window)
        flat = 1 << self.ctx.total_bits
        for sink in range(first, first + window):
            matcher.set_weights(sink, [(v, flat) for v in open_v])
            matcher.set_weights(sink, [(other, flat) for other in range(first, sink)])

    def _prepare_bye(self) -> None:
        """Completion check; PAB assignee's score and the C9 ranks (odd fields)."""
        ctx = self.ctx
        order = self.order
        score = self.score
        n = self.n
        ctx.single_downfloater_is_bye = False
        if n & 1:
            check = self._bye_check()
            if not self.pab_criteria:
                ctx.set_bye(score[0], {})
            else:
                first = check.matching()
                bye_score = score[next(v for v in range(n) if first[v] == v)]
                counts = sorted(
                    (order[v].played_games for v in range(n) if score[v] == bye_score),
                    reverse=True,
                )
                ctx.set_bye(bye_score, {c: i for i, c in enumerate(counts)})
                ctx.single_downfloater_is_bye = self._bye_single_downfloater(check)
        self._set_outside_weights()
        self.stable = _solve_complete(self.matcher, order)

    def _bye_check(self) -> WeightedMatcher:
        """An odd field's completion check (C1-C4), which also fixes the PAB assignee's
        score (C2, C5: the lowest score whose player may get the PAB and leave the
        rest pairable).

        Every pair weighs (3 - e(higher) - e(lower), s(higher) + s(lower)) in two
        fields, e being 1 for a player who may get the PAB and s the offset of the
        player's score group (higher for a higher score): the optimum pairs everyone it
        can, leaves the PAB to an eligible player, and to the lowest score possible.
        Each field is a sum of one part per player, so every pair weighs F - p(higher)
        - p(lower), and all but the `_NEAR` pairs just above each player are held in
        the matcher's reserve, as in `_set_outside_weights`: a sparse graph where the
        check used to weigh every pair of the field. Returns its own matcher, solved:
        the round's matcher is set up after, on weights that depend on this answer."""
        ctx = self.ctx
        order = self.order
        shift_bits = ctx.scores_bits + ctx.group_bits
        constant = 3 << shift_bits
        potential = [
            (p.bye_eligible << shift_bits) - (ctx.info[p.number].shift << ctx.group_bits)
            for p in order
        ]

        def near(v: int, start: int) -> list[tuple[int, int]]:
            pv = constant - potential[v]
            meet = ctx.meetable(order[v], order[start:v])
            return [(start + i, pv - potential[start + i]) for i in meet]

        check = WeightedMatcher(self.n)
        self._lay_flat(check, constant, potential, near)
        _solve_complete(check, order)
        return check

    def _bye_single_downfloater(self, check: WeightedMatcher) -> bool:
        """Whether the PAB assignee will be the single downfloater of the top score
        group (C9 then applies there): the PAB goes to a player of that group, and
        every other player of the group can be paired inside it while the round stays
        complete and the PAB goes as low as it can (`_bye_check`, solved again here).

        A field of one score group pairs inside it by definition. Otherwise each pair
        inside the top group gains a third, lowest field of 1, and the check is solved
        again: the most pairs inside the group among the optimal pairings."""
        score = self.score
        if self.ctx.bye_score < score[0]:
            return False
        top = sum(1 for s in score if s >= score[0])
        if top == self.n:
            return True
        ctx = self.ctx
        order = self.order
        for v in range(1, top):
            lower = order[v]
            row = [(u, check.weight(v, u) + 1) for u in ctx.meetable(lower, order[:v])]
            check.set_weights(v, row)
        check.solve()
        best = check.matching()
        return all(score[best[v]] >= score[0] for v in range(top))

    def _set_outside_weights(self) -> None:
        """Every pair gets the weight of a pair outside the bracket (the completion
        fields alone, `WeightContext.outside_weights`). Each player's pairs with the
        `_NEAR` players just above it enter the matcher's graph; the rest are held in
        reserve (`WeightedMatcher.reserve`): they weigh F - p(higher) - p(lower)
        (`outside_potential`), so any matching of them weighs the same, and the stages
        no longer scan the whole field where the brackets below are all alike."""
        ctx = self.ctx
        order = self.order

        def near(v: int, start: int) -> Iterable[tuple[int, int]]:
            return enumerate(ctx.outside_weights(order[v], order[start:v]), start)

        potential = [ctx.outside_potential(p) for p in order]
        self._lay_flat(self.matcher, ctx.outside_constant(), potential, near)

    def _lay_flat(
        self,
        matcher: WeightedMatcher,
        constant: int,
        potential: list[int],
        near: Callable[[int, int], Iterable[tuple[int, int]]],
    ) -> None:
        """Give `matcher` an edge for every two players who may meet, weighing
        `constant - potential[u] - potential[v]`: player v's pairs with the players from
        `start` (the `_NEAR` just above it) in the graph, as `near(v, start)` weighs
        them, the others held in reserve (`WeightedMatcher.reserve`)."""
        matcher.set_flat_weights(constant, potential)
        for v in range(len(self.order)):
            matcher.set_weights(v, near(v, max(0, v - _NEAR)))
        matcher.reserve_band(_NEAR, self.ctx.unmeetable(self.order))

    def _start_log(self) -> BracketLog | None:
        if self.logs is None:
            return None
        idx = self.idx
        first_resident = idx[self.mdp_count] if self.mdp_count < len(idx) else idx[0]
        log = BracketLog(score=_points(self.score[first_resident]))
        log.movers_in = [self.order[v].number for v in idx[: self.mdp_count]]
        log.residents = [self.order[v].number for v in idx[self.mdp_count : self.bracket_size]]
        self.logs.append(log)
        return log

    def _set_base_weights(
        self, look_ahead: bool = True, bye_blind: bool = False, last_group_next: bool = False
    ) -> None:
        """Weights for pairs inside the bracket and with the next score group (C8
        look-ahead; none for the 2017 PPB, whose next bracket is the last one).
        `bye_blind` (the 2017 trial): who may get the PAB does not weigh, as a bracket
        is paired before anyone knows whether it is the PPB (2017 C.4 binds the PPB);
        with the last score group next, the look-ahead is `last_group_look_ahead`."""
        idx = self.idx
        size = len(idx)
        order = self.order
        weights = self.ctx.weights
        matcher = self.matcher
        self.base = [[] for _ in range(size)]
        bits = self.ctx.total_bits
        low, flat = (1 << bits) - 1, 1 << bits
        keep = low & ~self.ctx.look_ahead_mask
        ahead = self.ctx.last_group_look_ahead
        # equal weights share one integer: a large bracket's rows hold few distinct
        # values (a first round's are all alike), each tens of bytes as its own object;
        # `weights` hands out one integer per kind of pair already, so only the rows
        # made here are shared out
        shared: dict[int, int] = {}
        share = shared.setdefault
        window = [order[v] for v in idx]
        for larger in range(self.mdp_count, size):
            lower = window[larger]
            in_cur = larger < self.bracket_size
            in_next = look_ahead and not in_cur
            row = weights(window[:larger], lower, in_cur, in_next)
            if last_group_next:
                row = [
                    share(w, w)
                    for w in (
                        (w & keep) | flat | ahead(window[s], lower, s < self.bracket_size, in_cur)
                        if w
                        else 0
                        for s, w in enumerate(row)
                    )
                ]
            elif bye_blind:
                row = [share(w, w) for w in ((w & low) | flat if w else 0 for w in row)]
            self.base[larger] = row
            matcher.set_weights(idx[larger], zip(idx[:larger], row, strict=True))

    def _choose_mdps(self) -> None:
        """Which moved-down players are paired here: the highest possible (art. 3.3.2)."""
        idx = self.idx
        score = self.score
        size = len(idx)
        md_score: Fraction | None = None
        remaining = remaining_matched = 0
        for i in range(self.mdp_count):
            si = score[idx[i]]
            if md_score is None or si < md_score:
                md_score = si
                remaining = remaining_matched = 0
                j = i
                while j < size and score[idx[j]] >= md_score:
                    remaining += 1
                    remaining_matched += self._in_bracket(self.stable[idx[j]])
                    j += 1
            if not remaining_matched:
                continue
            v = idx[i]
            if remaining <= remaining_matched:
                self.matched[v] = True
                continue
            remaining -= 1
            if not self._in_bracket(self.stable[v]):
                for opp in range(self.mdp_count, self.bracket_size):
                    w = self.base[opp][i]
                    if w:
                        self.matcher.set_weight(v, idx[opp], w | 1)
                self._solve()
            if self._in_bracket(self.stable[v]):
                self.matched[v] = True
                remaining_matched -= 1
                bonus = self.bracket_size - self.mdp_count
                for opp in range(self.mdp_count, self.bracket_size):
                    w = self.base[opp][i]
                    if w:
                        self.matcher.set_weight(v, idx[opp], (w | bonus) + 1)

    def _pair_mdps(self) -> None:
        """Each paired MDP, from the top, gets the highest resident that keeps the optimum.

        The matching in hand is optimal here (`_choose_mdps` raised a chosen MDP's
        edges into the bracket alike, and a fixed pair only raises its own edge), and
        the rank bonuses raise the MDP's edges the more the higher the resident: an
        MDP already paired with its highest candidate keeps it without a solve."""
        idx = self.idx
        for i in range(self.mdp_count):
            v = idx[i]
            if not self.matched[v]:
                continue
            addend = len(idx)
            row = []
            for opp in range(self.bracket_size - 1, self.mdp_count - 1, -1):
                ov = idx[opp]
                if self.matched[ov]:
                    continue
                w = self.base[opp][i]
                if w:
                    row.append((ov, w + addend))
                    addend += 1
            if not row or self.stable[v] != row[-1][0]:
                self.matcher.set_weights(v, row)
                self._solve()
            m = self.stable[v]
            self.matched[m] = True
            self._finalize(v, m)

    def _remainder(self) -> tuple[list[int], int]:
        """Residents not paired with an MDP, and how many pairs they form."""
        remainder: list[int] = []
        rem_pairs = 0
        for i in range(self.mdp_count, self.bracket_size):
            v = self.idx[i]
            if self.stable[v] < self.group_begin_v:
                continue
            remainder.append(i)
            if self.stable[v] < v:
                rem_pairs += 1
        return remainder, rem_pairs

    def _prefer_exchanges(self, remainder: list[int], rem_pairs: int) -> int:
        """Weigh in the exchange preferences; returns how many S1 players must move.

        When the optimal matching in hand already pairs each of the top `rem_pairs`
        residents with a lower one, no exchange is needed and none is weighed: that
        matching has the largest exchange bonus any matching can have."""
        idx = self.idx
        if all(self._goes_down(idx[pl]) for pl in remainder[:rem_pairs]):
            return 0
        weigh = self._exch_weight
        # row by row (a row's equal weights are stored as one integer)
        for pos, pl in enumerate(remainder):
            row = [(idx[opp], weigh(pl, opp, pos, rem_pairs)) for opp in remainder[pos + 1 :]]
            self.matcher.set_weights(idx[pl], row)
        self._solve()
        exchanges = 0
        for pl in remainder[:rem_pairs]:
            exchanges += not self._goes_down(idx[pl])
        return exchanges

    def _move_s1_down(self, remainder: list[int], rem_pairs: int, exchanges: int) -> None:
        """S1 players that move to S2: the lowest first (art. 3.2.3)."""
        idx = self.idx
        left = exchanges
        pos = rem_pairs
        while pos > 0 and left:
            pos -= 1
            pl = remainder[pos]
            v = idx[pl]
            if self._goes_down(v):
                for opp in remainder[pos + 1 :]:
                    w = self._exch_weight(pl, opp, pos, rem_pairs)
                    if w:
                        self.matcher.set_weight(v, idx[opp], w - 1)
                self._solve()
            exchange = not self._goes_down(v)
            left -= exchange
            for opp in remainder[pos + 1 :]:
                if exchange:
                    self.base[opp][pl] = 0
                self.matcher.set_weight(v, idx[opp], self._exch_weight(pl, opp, pos, rem_pairs))

    def _move_s2_up(self, remainder: list[int], rem_pairs: int, exchanges: int) -> None:
        """S2 players that move to S1: the highest first (art. 3.2.3)."""
        idx = self.idx
        left = exchanges
        rpos = rem_pairs
        for k in range(rem_pairs, len(remainder)):
            if left <= 1:
                break
            pl = remainder[k]
            v = idx[pl]
            already = self._goes_down(v)
            if not already:
                for opp in remainder[k + 1 :]:
                    w = self._exch_weight(pl, opp, rpos, rem_pairs)
                    if w:
                        self.matcher.set_weight(v, idx[opp], w + 1)
                self._solve()
            if self._goes_down(v):
                left -= 1
                for opp in remainder[:k]:
                    self.base[pl][opp] = 0
                    self.matcher.set_weight(v, idx[opp], 0)
                for lower in range(self.bracket_size, len(idx)):
                    self.base[lower][pl] = 0
                    self.matcher.set_weight(v, idx[lower], 0)
            if not already:
                for opp in remainder[k + 1 :]:
                    self.matcher.set_weight(
                        v, idx[opp], self._exch_weight(pl, opp, rpos, rem_pairs)
                    )
            rpos += 1

    def _fix_roles(self, remainder: list[int]) -> None:
        """Keep only S1-to-S2 edges inside the remainder."""
        idx = self.idx
        base = self.base
        goes_down = self._goes_down
        for a_pos, pl in enumerate(remainder):
            v = idx[pl]
            s1 = goes_down(v)
            row = []
            for opp in remainder[a_pos + 1 :]:
                ov = idx[opp]
                if not s1 or goes_down(ov):
                    base[opp][pl] = 0
                row.append((ov, base[opp][pl]))
            self.matcher.set_weights(v, row)

    def _pair_s1(self, remainder: list[int], solved: bool) -> None:
        """Each S1 player, from the top, takes the highest S2 player keeping the optimum.

        While the matching in hand is optimal, an S1 player whose partner in it is
        already the highest candidate keeps that partner without a solve: a bonus that
        grows with the candidate's rank makes the partner with the largest bonus the
        unique answer of the solve. It is optimal once a pair has been fixed (a fixed
        pair only raises its own edge and drops edges no pair uses), and from the start
        (`solved`) when no exchange was made: the exchange preferences sit below every
        criterion, so the matching they chose is optimal for the roles' weights too."""
        idx = self.idx
        certified = False
        for pl in remainder:
            v = idx[pl]
            if not self._goes_down(v):
                continue
            addend = 0
            row = []
            for opp in reversed(remainder):
                ov = idx[opp]
                if opp <= pl or self.matched[ov]:
                    continue
                w = self.base[opp][pl]
                if w:
                    row.append((ov, w + addend))
                addend += 1
            best = row[-1][0] if row else -1
            if certified and best != self.stable[v]:
                tight = self.matcher.tight
                best = next((u for u, _ in reversed(row) if tight(v, u)), -1)
            if not solved or best != self.stable[v]:
                self.matcher.set_weights(v, row)
                self._solve()
                solved = certified = True
            m = self.stable[v]
            self.matched[v] = True
            self.matched[m] = True
            self._finalize(v, m)

    def _carry_down(self, group_first: int, log: BracketLog | None) -> None:
        """Record the bracket's pairs; unpaired players float to the next bracket."""
        ctx = self.ctx
        score = self.score
        n = self.n
        single = bool(
            self.pab_criteria and n & 1 and group_first < n and ctx.bye_score >= score[group_first]
        )
        new_idx: list[int] = []
        new_mdp = 0
        for i, v in enumerate(self.idx):
            if i < self.bracket_size and self.matched[v]:
                m = self.stable[v]
                self.pairs[v] = m
                self.pairs[m] = v
                if log is not None and v < m:
                    log.pairs.append((self.order[v].number, self.order[m].number))
                continue
            new_idx.append(v)
            if i < self.bracket_size:
                new_mdp += 1
                if log is not None:
                    log.movers_out.append(self.order[v].number)
            if single and score[self.stable[v]] < score[group_first]:
                single = False
        ctx.single_downfloater_is_bye = single
        self.idx = new_idx
        self.mdp_count = new_mdp
        self.group_begin_v = self.next_begin_v
