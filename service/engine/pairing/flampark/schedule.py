"""The whole FLAMPARK schedule: every round paired before round 1 (Formuła FLAMPARK).

Steps, each in its own module:

1. the computed sequence: round ``c`` has kind ``kinds[c - 1]``; the t-th round of a kind
   uses chain round t (``kinds``, ``chains``);
2. the played order: played round ``p`` is computed round ``round_order[p - 1]``
   ("Kolejność rund": the organiser may play the computed rounds in any order);
3. optional rematch games among the players sitting out a round (the text's suggested
   improvement: "two players pausing in a round play each other"): in the played
   order, each sitting-out player, from the top down, is paired with the nearest
   lower-placed sitting-out player they never meet anywhere in the schedule; an odd one
   left over keeps the bye;
4. colours over the played order (``colours``);
5. tables (``tables``).

Variants ("Warianty"):

* ``individual``: any mix of basic and narrowing rounds;
* ``team``: two equal teams, odd start numbers against even ones. Basic rounds only
  pair odd with even, so every game is a cross-team game; narrowing rounds would pair
  team-mates and are refused, as is an odd count (the teams must be equal);
* ``group``: groups of 2 x rounds consecutive start numbers, the remainder joining the
  last group (see ``kinds.group_bounds``); the chains run inside each group, so in a
  full group each even player meets every odd one of the group and the other way round.
  Basic rounds only.

Byes: players without a game get ``sit_out`` (zero-point by default: the text's scoring
leaves a round without an opponent out of the player's result altogether, "dla tego
zawodnika turniej jest krotszy o jedna runde", so no points are credited for it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.model import Bye, ByeKind, Colour, Game, Round
from service.engine.pairing.flampark.colours import assign_colours
from service.engine.pairing.flampark.errors import FlamparkOptionError, TooFewPlayersError
from service.engine.pairing.flampark.kinds import (
    KIND_FACTORS,
    KINDS,
    RawRound,
    capacity,
    group_bounds,
    group_round,
    kind_round,
)
from service.engine.pairing.flampark.tables import assign_tables
from service.engine.pairing.round_pairing import Pairing

__all__ = ["VARIANTS", "CardEntry", "FlamparkSchedule", "flampark_schedule"]

VARIANTS: tuple[str, ...] = ("individual", "team", "group")
"""The accepted variants."""


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One line of a player card (Formuła FLAMPARK, "Karta gracza"): one player's round."""

    round: int
    """Played round number."""
    table: int | None
    """Table, None when the player sits out."""
    colour: Colour | None
    """Colour, None when the player sits out."""
    opponent: int | None
    """Opponent's start number, None when the player sits out."""


@dataclass(frozen=True, slots=True)
class FlamparkSchedule:
    """All rounds of a FLAMPARK tournament, in played order."""

    player_count: int
    """Players on the start list (start numbers 1 .. player_count)."""
    rounds: tuple[Round, ...]
    """Rounds in played order; ``Round.number`` is the played number, games by table."""
    kinds: tuple[str, ...]
    """Kind of each played round ("basic", "x2", "x4", "x8")."""
    computed: tuple[int, ...]
    """For each played round, its position in the computed sequence (1-based)."""
    variant: str = "individual"
    """"individual", "team" or "group"."""
    warnings: tuple[str, ...] = ()
    """Things the arbiter should know (fewer than 3 x rounds players, ...)."""
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """Team variant: (odd start numbers, even start numbers); None otherwise."""
    groups: tuple[tuple[int, ...], ...] | None = None
    """Group variant: the start numbers of each group; None otherwise."""

    def team_of(self, start_number: int) -> int:
        """Team variant: 1 for the odd-numbered team, 2 for the even-numbered one."""
        if self.teams is None:
            raise FlamparkOptionError("this schedule has no teams (variant is not 'team')")
        self._check_player(start_number)
        return 1 if start_number % 2 else 2

    def group_of(self, start_number: int) -> int:
        """Group variant: the 1-based group of ``start_number``."""
        if self.groups is None:
            raise FlamparkOptionError("this schedule has no groups (variant is not 'group')")
        self._check_player(start_number)
        for index, members in enumerate(self.groups, start=1):
            if members[0] <= start_number <= members[-1]:
                return index
        raise AssertionError("groups cover the whole list")  # pragma: no cover

    def card(self, start_number: int) -> tuple[CardEntry, ...]:
        """The player card: table, colour and opponent in every played round."""
        self._check_player(start_number)
        entries: list[CardEntry] = []
        for rnd in self.rounds:
            entry = CardEntry(rnd.number, None, None, None)
            for game in rnd.games:
                if start_number in (game.white, game.black):
                    entry = CardEntry(
                        rnd.number,
                        game.table,
                        game.colour_of(start_number),
                        game.opponent_of(start_number),
                    )
                    break
            entries.append(entry)
        return tuple(entries)

    def pairing(self, round_number: int) -> Pairing:
        """One played round in the shared ``Pairing`` form (games by table, byes)."""
        if not 1 <= round_number <= len(self.rounds):
            raise FlamparkOptionError(
                f"round {round_number} is not in the schedule 1..{len(self.rounds)}"
            )
        rnd = self.rounds[round_number - 1]
        kind = self.kinds[round_number - 1]
        note = f"FLAMPARK {kind} round, computed round {self.computed[round_number - 1]}"
        return Pairing(rnd.number, rnd.games, rnd.byes, (note,), self.warnings)

    def _check_player(self, start_number: int) -> None:
        if not 1 <= start_number <= self.player_count:
            raise FlamparkOptionError(
                f"start number {start_number} is not on the list 1..{self.player_count}"
            )


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FlamparkOptionError(f"{name} must be an integer, got {value!r}")
    return value


def _validate(
    player_count: int,
    rounds: int,
    kinds: Sequence[str] | None,
    round_order: Sequence[int] | None,
    variant: str,
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
    """Check every option; return the kinds, the played order and the warnings."""
    rounds = _check_int("rounds", rounds)
    player_count = _check_int("player_count", player_count)
    if rounds < 1:
        raise FlamparkOptionError(f"a tournament needs at least 1 round, got {rounds}")
    if player_count < 2 * rounds:
        raise TooFewPlayersError(
            f"FLAMPARK needs at least twice as many players as rounds: "
            f"{rounds} rounds need at least {2 * rounds} players, got {player_count}"
        )
    warnings: list[str] = []
    if player_count < 3 * rounds:
        warnings.append(
            f"{player_count} players for {rounds} rounds: the FLAMPARK rules call three times the "
            f"rounds ({3 * rounds} players) the sensible minimum; opponents will be "
            f"further apart"
        )
    if variant not in VARIANTS:
        raise FlamparkOptionError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    chosen = tuple(kinds) if kinds is not None else ("basic",) * rounds
    if len(chosen) != rounds:
        raise FlamparkOptionError(f"{len(chosen)} round kinds given for {rounds} rounds")
    for kind in chosen:
        if kind not in KIND_FACTORS:
            raise FlamparkOptionError(f"unknown round kind {kind!r}; expected one of {KINDS}")
    if variant != "individual" and any(kind != "basic" for kind in chosen):
        raise FlamparkOptionError(
            f"the {variant} variant uses basic rounds only (narrowing rounds would pair "
            f"{'team-mates' if variant == 'team' else 'across the groups'})"
        )
    if variant == "team" and player_count % 2:
        raise FlamparkOptionError(
            f"the team variant needs two equal teams, got an odd count of {player_count}"
        )
    for kind, count in Counter(chosen).items():
        limit = capacity(player_count, KIND_FACTORS[kind])
        if count > limit:
            raise FlamparkOptionError(
                f"{count} {kind} rounds asked, but {player_count} players allow at most "
                f"{limit}: each class of a {kind} round holds "
                f"{2 * limit} players and can meet only {limit} times without a repeat"
            )
    if round_order is None:
        order = tuple(range(1, rounds + 1))
    else:
        order = tuple(_check_int("round_order entry", value) for value in round_order)
        if sorted(order) != list(range(1, rounds + 1)):
            raise FlamparkOptionError(
                f"round_order must list each computed round 1..{rounds} once, got {list(order)}"
            )
    return chosen, order, tuple(warnings)


def _computed_rounds(
    player_count: int, rounds: int, kinds: Sequence[str], variant: str
) -> list[RawRound]:
    seen: Counter[str] = Counter()
    bounds = group_bounds(player_count, rounds) if variant == "group" else None
    computed: list[RawRound] = []
    for kind in kinds:
        seen[kind] += 1
        if bounds is not None:
            computed.append(group_round(bounds, seen[kind]))
        else:
            computed.append(kind_round(kind, seen[kind], player_count))
    return computed


def _sit_out_warnings(built: Sequence[Round]) -> list[str]:
    """A warning naming each player who sits out more than half of the rounds, and the
    rounds (a kind mix with narrowing rounds can leave the bottom of a small field
    without games: 15 players, basic, basic, x2, x2 sits 13 out in 3 of 4 rounds)."""
    idle: dict[int, list[int]] = {}
    for rnd in built:
        for bye in rnd.byes:
            idle.setdefault(bye.player, []).append(rnd.number)
    total = len(built)
    lines = []
    for player in sorted(idle):
        numbers = idle[player]
        if 2 * len(numbers) > total:
            listed = ", ".join(str(n) for n in numbers)
            lines.append(
                f"player {player} sits out {len(numbers)} of {total} rounds "
                f"(rounds {listed}): fewer narrowing rounds (x2, x4, x8) or more "
                f"players keep everyone playing"
            )
    return lines


def _rematches(played: Sequence[RawRound]) -> list[RawRound]:
    """Pair the players sitting out a round among themselves (no repeated game)."""
    met = {(min(a, b), max(a, b)) for rnd in played for a, b in rnd.games}
    result: list[RawRound] = []
    for rnd in played:
        waiting = list(rnd.sit_outs)
        games: list[tuple[int, int]] = []
        left: list[int] = []
        while waiting:
            top = waiting.pop(0)
            partner = next((b for b in waiting if (top, b) not in met), None)
            if partner is None:
                left.append(top)
                continue
            waiting.remove(partner)
            met.add((top, partner))
            games.append((partner, top))
        result.append(RawRound(rnd.kind, rnd.games, tuple(left), tuple(games)))
    return result


def flampark_schedule(
    player_count: int,
    rounds: int,
    *,
    kinds: Sequence[str] | None = None,
    round_order: Sequence[int] | None = None,
    variant: str = "individual",
    rematch_byes: bool = False,
    top_colour: Colour = Colour.WHITE,
    sit_out: ByeKind = ByeKind.ZERO_POINT,
) -> FlamparkSchedule:
    """Pair every round of a FLAMPARK tournament (docs/rules/flampark.md).

    ``kinds`` gives the kind of each computed round (default: all "basic");
    ``round_order[p - 1]`` is the computed round played as round ``p`` (default: the
    computed order). ``top_colour`` is the colour of the odd-role players (player 1
    among them) in the first played round; ``sit_out`` the bye kind recorded for a
    player without a game. Raises ``TooFewPlayersError`` below 2 x rounds players and
    ``FlamparkOptionError`` for an option that cannot be honoured; fewer than
    3 x rounds players is accepted with a warning.
    """
    chosen, order, warnings = _validate(player_count, rounds, kinds, round_order, variant)
    computed = _computed_rounds(player_count, rounds, chosen, variant)
    played = [computed[index - 1] for index in order]
    if rematch_byes:
        played = _rematches(played)
    coloured = assign_colours([rnd.all_games for rnd in played], top_colour)
    built: list[Round] = []
    for number, (rnd, games) in enumerate(zip(played, coloured, strict=True), start=1):
        tables = assign_tables(rnd, games)
        ordered = sorted(
            (Game(number, white, black, table=table) for (white, black), table in tables),
            key=lambda game: game.table,
        )
        byes = tuple(Bye(number, player, sit_out) for player in rnd.sit_outs)
        built.append(Round(number, tuple(ordered), byes))
    teams = None
    if variant == "team":
        teams = (
            tuple(range(1, player_count + 1, 2)),
            tuple(range(2, player_count + 1, 2)),
        )
    groups = None
    if variant == "group":
        groups = tuple(
            tuple(range(first, first + length))
            for first, length in group_bounds(player_count, rounds)
        )
    return FlamparkSchedule(
        player_count=player_count,
        rounds=tuple(built),
        kinds=tuple(rnd.kind for rnd in played),
        computed=order,
        variant=variant,
        warnings=(*warnings, *_sit_out_warnings(built)),
        teams=teams,
        groups=groups,
    )
