"""The Japan Chess Association Swiss system (its rules text スイス式競技会; docs/rules/swiss.md).

Rules implemented, with that text's section numbers:

* 4.1 Score groups. After each round the present players are grouped by score, the
  higher group first; inside a group by rating (then start number). Groups are paired
  from the top.
* 4.2 Nobody meets the same opponent twice. Reading: a forfeited game was not a meeting
  (the domain model's convention, FIDE C.04.1 b); every other game, unfinished ones
  included, was.
* 4.3 Each group keeps as many of its own players paired inside it as possible.
  Reading: a group floats the fewest players that still leave the whole round pairable,
  so the search never paints itself into a corner and no later cancellation is needed.
  Candidate floater sets are tried exactly (at least as many floaters as the group
  cannot pair among itself, and as the players below cannot pair among themselves);
  a group with more than `_MAX_FLOATER_SETS` candidates, which happens only near the
  end of a field that has nearly played itself out, uses a local search instead that
  keeps the round pairable and floats the fewest in every case tested, unproven.
* 5.1 A group splits by rating into a top half ("parents") and a bottom half
  ("children"), paired 1-5, 2-6, 3-7, 4-8.
* 5.2 When that is impossible the children are exchanged as little as possible: the
  parents, in order, each take the first child that still leaves the rest of the halves
  pairable (the text's 1-6 2-5 3-7 4-8, then 1-6 2-7 3-5 4-8: the lexicographically
  first arrangement).
* 5.3 When no parent/child pairing exists, the lowest parent and the highest child swap
  halves and 5.1-5.2 are retried (the text's 1-4 2-6 3-7 5-8). The text says to
  continue "by analogy"; reading: exchanges of one parent with one child come first,
  then of two, and so on; among equal numbers of players exchanged the smaller rank
  distance goes first, then the exchange that moves the lower parent, then the higher
  child. After `_MAX_SPLITS` arrangements the group is paired ignoring the halves
  (5.4): the highest player left takes the partner nearest half the remaining group
  below it. (Exchange layers with more than `_MAX_EXCHANGE_LAYER` candidates are not
  listed either; both limits only matter for large groups that are nearly unpairable.)
* 5.4 When even that leaves two players over, they float to the top of the next group;
  the text names them as the lowest parent and the highest child. Reading: floaters are
  chosen as near the middle of the group as possible (sum of distances from the
  middle; ties float the higher player).
* 5.5 An odd group floats its middle player (treated as the lowest parent; when the
  group cannot be paired without him, the nearest player to the middle floats instead,
  by the same rule). Floaters keep their order at the top of the next group.
* 5.6 Optionally (`reverse_from_middle`) the groups are paired from the top down to the
  middle score group and from the bottom up to it; floaters from below join the bottom
  of the group above; the middle group is paired last, avoiding a direct pairing of a
  player floated down with a player floated up when it can. Reading: the middle group
  is the group whose pairing score is nearest the midpoint of the highest and lowest
  group scores (ties: the higher group).
* 6 Colours are decided per pair after the pairing and never change an opponent:
  6.3.1 equalise whites and blacks, the player further from balance first; 6.3.2
  alternate with the last round, and when both players had the same colour, look back
  to the last round in which their colours differed and reverse it; identical
  histories are decided by lot. 6.4 Round 1: one lot gives the higher player of board 1
  a colour; the higher players of the odd boards get the same one, of the even boards
  the other. The section is headed "FIDE method", so the FIDE absolute colour rules
  come first: an assignment that would give a player a third consecutive game with one
  colour, or a colour difference beyond two, is avoided when the other one avoids it.
  Reading: the lot is `Tournament.initial_colour` for round 1 when set; otherwise, with
  a `seed`, a draw from a generator seeded with `(seed, round)` (one draw in round 1,
  one per pair later); without either, white. The lot's colour goes to the higher
  player on odd boards and the other colour on even boards, in every round. Only
  games played over the board count for colour history.
* 2.1 The JCA handicap: the field splits by rating into A and B and group A gets +1
  pairing point that never counts in the results (`handicap_split` = size of A, taken
  from the top of the rating order; `handicap_points` = the bonus in wins, 1 by
  default and 0.5 for round 5 of the "Z" scheme of section 10).

The text is silent on the odd player out. Reading: the pairing-allocated bye goes to the
lowest-ranked present player (pairing score, then rating, then the higher start number)
who has had no pairing-allocated or full-point bye and whose absence leaves the others
pairable; if nobody qualifies the lowest pairable player gets it, with a warning.

Complexity: one perfect-matching test (Edmonds' blossom algorithm, O(V^3) worst case,
near O(V^2) on the dense graphs of a Swiss event) per group and candidate floater set,
plus bipartite augmenting paths inside a group.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from service.engine.model import Bye, ByeKind, PlayerRound, Tournament
from service.engine.pairing.jca.colours import allocate_colours, colour_histories
from service.engine.pairing.jca.groups import Compatible, pair_groups, score_groups
from service.engine.pairing.matching import perfectly_matchable
from service.engine.pairing.round_pairing import Pairing, PairingError, next_round

__all__ = ["pair_round"]


def pair_round(
    tournament: Tournament,
    *,
    byes: Iterable[Bye] = (),
    seed: int | None = None,
    reverse_from_middle: bool = False,
    handicap_split: int | None = None,
    handicap_points: Fraction | int = 1,
    explain: bool = False,
) -> Pairing:
    """Pair the next round of `tournament` by the JCA Swiss system.

    `byes` are announced absences or requested byes for the new round; those players
    are not paired and the byes are returned unchanged. `seed` drives the colour lots
    (see the module docstring). `reverse_from_middle` pairs the lower half of the
    groups from the bottom up (JCA rules 5.6). `handicap_split` puts that many players,
    from the top of the rating order, in group A with `handicap_points` wins' worth of
    extra pairing score (JCA rules 2.1). `explain` fills `Pairing.notes`.
    """
    round_number = next_round(tournament)
    announced = _validate_byes(tournament, byes, round_number)
    histories = tournament.history()
    met = _meetings(tournament)
    bonus = _handicap(tournament, handicap_split, handicap_points)
    real = tournament.scores()
    score = {n: real[n] + bonus.get(n, Fraction(0)) for n in real}
    rating = {p.start_number: p.rating for p in tournament.players}

    def rank_key(number: int) -> tuple[Fraction, int, int]:
        return (-score[number], -rating[number], number)

    present = sorted(
        (p.start_number for p in tournament.players if p.start_number not in announced),
        key=rank_key,
    )

    def compatible(a: int, b: int) -> bool:
        return a != b and b not in met.get(a, ())

    notes: list[str] = []
    warnings = _size_warnings(tournament, len(present))
    all_byes = [announced[n] for n in sorted(announced)]
    if len(present) % 2:
        bye_player, warning = _choose_bye(present, histories, compatible)
        if warning:
            warnings.append(warning)
        present.remove(bye_player)
        all_byes.append(Bye(round_number, bye_player, ByeKind.PAIRING_ALLOCATED))
        notes.append(f"pairing-allocated bye: {bye_player}")
    elif not perfectly_matchable(present, compatible):
        raise PairingError(f"round {round_number}: no pairing exists without a repeated game")

    groups = score_groups(present, score)
    pairs = pair_groups(groups, score, compatible, reverse_from_middle, notes)
    position = {number: index for index, number in enumerate(present)}
    pairs.sort(key=lambda pair: min(position[pair[0]], position[pair[1]]))
    colours = colour_histories(histories)
    games = allocate_colours(
        pairs, position, colours, round_number, tournament.initial_colour, seed, notes
    )
    return Pairing(
        round=round_number,
        games=tuple(games),
        byes=tuple(all_byes),
        notes=tuple(notes) if explain else (),
        warnings=tuple(warnings),
    )


def _validate_byes(
    tournament: Tournament, byes: Iterable[Bye], round_number: int
) -> dict[int, Bye]:
    known = {p.start_number for p in tournament.players}
    announced: dict[int, Bye] = {}
    for bye in byes:
        if bye.round != round_number:
            raise PairingError(f"bye for round {bye.round} given while pairing {round_number}")
        if bye.player not in known:
            raise PairingError(f"bye for unknown player {bye.player}")
        if bye.player in announced:
            raise PairingError(f"two byes for player {bye.player}")
        if bye.kind is ByeKind.PAIRING_ALLOCATED:
            raise PairingError("the pairing-allocated bye is chosen by the pairing")
        announced[bye.player] = bye
    return announced


def _meetings(tournament: Tournament) -> dict[int, set[int]]:
    """Opponents already met (JCA rules 4.2); forfeited games are not meetings."""
    met: dict[int, set[int]] = {}
    for rnd in tournament.rounds:
        for game in rnd.games:
            if game.result is not None and game.result.is_forfeit:
                continue
            met.setdefault(game.white, set()).add(game.black)
            met.setdefault(game.black, set()).add(game.white)
    return met


def _handicap(
    tournament: Tournament, split: int | None, points: Fraction | int
) -> dict[int, Fraction]:
    """Pairing bonus of group A (JCA rules 2.1): the top `split` players by rating."""
    if split is None:
        return {}
    if not 0 <= split <= len(tournament.players):
        raise PairingError(
            f"handicap_split must be between 0 and {len(tournament.players)}, got {split}"
        )
    amount = Fraction(points)
    if amount < 0:
        raise PairingError(f"handicap_points must not be negative, got {points}")
    by_rating = sorted(tournament.players, key=lambda p: (-p.rating, p.start_number))
    bonus = amount * tournament.points.win
    return {p.start_number: bonus for p in by_rating[:split]}


def _size_warnings(tournament: Tournament, present: int) -> list[str]:
    """JCA rules section 3: 3 rounds or fewer is no Swiss; 4 rounds suit 15 players at most."""
    warnings: list[str] = []
    total = tournament.total_rounds
    if total is not None and total <= 3:
        warnings.append(f"{total} rounds: a Swiss event needs at least 4 (JCA rules, 3)")
    if total == 4 and present > 15:
        warnings.append(f"4 rounds for {present} players: too few rounds (JCA rules, 3)")
    return warnings


def _choose_bye(
    present: Sequence[int], histories: dict[int, list[PlayerRound]], compatible: Compatible
) -> tuple[int, str | None]:
    """The pairing-allocated bye: lowest-ranked eligible player (module docstring)."""
    free_point = (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT)
    eligible = [n for n in present if not any(e.bye in free_point for e in histories.get(n, []))]
    for pool, warning in ((eligible, None), (list(present), "bye repeated")):
        for candidate in reversed(pool):
            rest = [n for n in present if n != candidate]
            if perfectly_matchable(rest, compatible):
                if warning is None:
                    return candidate, None
                return candidate, f"player {candidate} receives a second bye: no other way"
    raise PairingError("no pairing exists without a repeated game")
