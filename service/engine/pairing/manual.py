"""What an arbiter should know about a pairing made by hand (FIDE C.04.1, C.04.3).

An arbiter may replace the engine's pairing of a round before any of its results is
recorded. Nothing is refused here (that is the arbiter's call); every rule the manual
pairing breaks is reported, graded:

- "error": an absolute rule of C.04.1 broken (the Dutch absolute criteria C1-C3):
  b) two players meet again; d) a second pairing-allocated bye, or a PAB to a player
  who already scored a win without playing (a forfeit win, a full-point bye); f) a
  colour difference beyond +2 or -2; g) the same colour three times in a row.
- "warning" (FIDE Dutch, C.04.3 2026 edition): each quality criterion C5-C21 on which the
  manual pairing does worse than the engine's, measured over the whole round.
- "info": a pair both pairings make with the colours the other way round (C.04.3
  art. 5 allocates them).

Reading taken: the quality criteria are compared over the whole round (how many
players, in the manual pairing and the engine's, are affected), not bracket by bracket
as the engine applies them; C8 (the look-ahead into the next bracket) is a bracket
notion and is not compared, and C4 (a complete pairing) holds for every accepted manual
pairing. C10 and C11 concern topscorers, who exist only when the final round is paired.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from service.engine.model import ByeKind, Colour, Round, Tournament
from service.engine.pairing.dutch.players import Float, SwissPlayer, build_players, float_of

__all__ = ["ManualWarning", "Severity", "check_manual_pairing"]

Severity = Literal["error", "warning", "info"]
"""How much a warning weighs: an absolute rule, a quality criterion, a remark."""


@dataclass(frozen=True, slots=True)
class ManualWarning:
    """One rule a manual pairing breaks or does worse on."""

    severity: Severity
    """"error" (an absolute rule), "warning" (a quality criterion), "info"."""
    rule: str
    """The rule: "C.04.1 b", "C.04.3 C12", ..."""
    message: str
    """What is wrong, in words."""
    players: tuple[int, ...]
    """The players concerned (start numbers)."""


def check_manual_pairing(
    before: Tournament,
    manual: Round,
    engine: Round | None,
    *,
    dutch: bool,
    rules_2017: bool = False,
    forbidden_pairs: Iterable[frozenset[int]] = (),
) -> list[ManualWarning]:
    """The warnings for `manual`, the pairing of the round after `before.rounds`;
    `engine` is the engine's pairing of the same round (None: the engine found none).
    `dutch`: compare the Dutch quality criteria (2026 edition) with the engine's
    pairing. `rules_2017`: the 2017 reading of C.04.1 d (a forfeit win or an earlier PAB
    bars the PAB, a full-point bye does not); the 2017 criteria are numbered otherwise
    and are not compared."""
    absent = [b.player for b in manual.byes if b.kind is not ByeKind.PAIRING_ALLOCATED]
    everyone, _ = build_players(
        before,
        absent=absent,
        accelerations=None,
        forbidden_pairs=forbidden_pairs,
        rules_2017=rules_2017,
    )
    by_number = {p.number: p for p in everyone}
    found = _absolute(manual, by_number)
    if engine is None:
        return found
    if dutch and not rules_2017:
        mine = _Measures.of(manual, by_number, before)
        theirs = _Measures.of(engine, by_number, before)
        found += _worse(mine, theirs)
    found += _colours_swapped(manual, engine)
    return found


def _absolute(manual: Round, by_number: Mapping[int, SwissPlayer]) -> list[ManualWarning]:
    """C.04.1 b, d, f, g for every game and the pairing-allocated bye."""
    found: list[ManualWarning] = []
    for game in manual.games:
        white, black = by_number[game.white], by_number[game.black]
        if black.number in white.forbidden:
            found.append(
                ManualWarning(
                    "error",
                    "C.04.1 b",
                    f"players {white.number} and {black.number} have already played each "
                    "other (or may not meet)",
                    (white.number, black.number),
                )
            )
        for player, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
            found += _colour_rules(player, colour)
    for bye in manual.byes:
        if bye.kind is not ByeKind.PAIRING_ALLOCATED:
            continue
        records = by_number[bye.player].records
        if any(r.paired and not r.played and r.opponent is None for r in records):
            found.append(
                ManualWarning(
                    "error",
                    "C.04.1 d",
                    f"player {bye.player} has already received a pairing-allocated bye",
                    (bye.player,),
                )
            )
        elif not by_number[bye.player].bye_eligible:
            found.append(
                ManualWarning(
                    "error",
                    "C.04.1 d",
                    f"player {bye.player} has already scored a win without playing (a "
                    "forfeit win or a full-point bye) and may not receive the "
                    "pairing-allocated bye",
                    (bye.player,),
                )
            )
    return found


def _colour_rules(player: SwissPlayer, colour: Colour) -> list[ManualWarning]:
    """C.04.1 f (colour difference beyond +-2) and g (three times the same colour in a
    row) for `player` given `colour` this round."""
    colours = [r.colour for r in player.records if r.played and r.colour is not None]
    colours.append(colour)
    difference = sum(1 if c is Colour.WHITE else -1 for c in colours)
    found: list[ManualWarning] = []
    if abs(difference) > 2:
        found.append(
            ManualWarning(
                "error",
                "C.04.1 f",
                f"player {player.number} would have a colour difference of {difference:+d}",
                (player.number,),
            )
        )
    if len(colours) >= 3 and colours[-1] is colours[-2] is colours[-3]:
        found.append(
            ManualWarning(
                "error",
                "C.04.1 g",
                f"player {player.number} would have {colour.name.lower()} three times in a row",
                (player.number,),
            )
        )
    return found


@dataclass(slots=True)
class _Measures:
    """A whole round's standing on the Dutch quality criteria: per criterion, a value
    to minimise and the players it concerns."""

    values: dict[str, tuple[object, tuple[int, ...]]]

    @classmethod
    def of(cls, rnd: Round, by_number: Mapping[int, SwissPlayer], before: Tournament) -> _Measures:
        loss = before.points.loss
        final = before.total_rounds is not None and len(before.rounds) + 1 == before.total_rounds
        maximum = before.points.win * (before.total_rounds or 0)

        def score(n: int) -> Fraction:
            return by_number[n].acc_score()

        def topscorer(n: int) -> bool:
            return final and score(n) * 2 > maximum

        pab = [b.player for b in rnd.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        down: dict[int, Fraction] = {}  # downfloater -> score difference
        up: dict[int, Fraction] = {}
        for g in rnd.games:
            sw, sb = score(g.white), score(g.black)
            if sw != sb:
                high, low = (g.white, g.black) if sw > sb else (g.black, g.white)
                down[high] = up[low] = abs(sw - sb)
        for n in pab:
            down[n] = score(n)
        previous = {
            n: tuple(float_of(by_number[n], back, by_number, loss) for back in (1, 2))
            for n in [*down, *up]
        }
        no_pref: list[int] = []
        no_strong: list[int] = []
        top_difference: list[int] = []
        top_three: list[int] = []
        for g in rnd.games:
            pair = (g.white, g.black)
            tops = any(topscorer(n) for n in pair)
            for n, colour in ((g.white, Colour.WHITE), (g.black, Colour.BLACK)):
                p = by_number[n]
                if p.preference is not None and p.preference is not colour:
                    no_pref.append(n)
                    if p.strong or p.absolute:
                        no_strong.append(n)
                if tops and _colour_rules(p, colour):
                    rules = {w.rule for w in _colour_rules(p, colour)}
                    if "C.04.1 f" in rules:
                        top_difference.append(n)
                    if "C.04.1 g" in rules:
                        top_three.append(n)

        def floated(kind: dict[int, Fraction], direction: Float, back: int) -> list[int]:
            return sorted(n for n in kind if previous[n][back - 1] is direction)

        def differences(players: Sequence[int], kind: dict[int, Fraction]) -> tuple[Fraction, ...]:
            return tuple(sorted((kind[n] for n in players), reverse=True))

        d1, u1 = floated(down, Float.DOWN, 1), floated(up, Float.UP, 1)
        d2, u2 = floated(down, Float.DOWN, 2), floated(up, Float.UP, 2)
        unplayed = [sum(1 for r in by_number[n].records if not r.played) for n in pab]
        values: dict[str, tuple[object, tuple[int, ...]]] = {
            "C5": (tuple(score(n) for n in pab), tuple(pab)),
            "C6": (len(down) - len(pab), tuple(sorted(set(down) - set(pab)))),
            "C7": (
                tuple(sorted((score(n) for n in down if n not in pab), reverse=True)),
                tuple(sorted(set(down) - set(pab))),
            ),
            "C9": (tuple(unplayed), tuple(pab)),
            "C10": (len(top_difference), tuple(top_difference)),
            "C11": (len(top_three), tuple(top_three)),
            "C12": (len(no_pref), tuple(no_pref)),
            "C13": (len(no_strong), tuple(no_strong)),
            "C14": (len(d1), tuple(d1)),
            "C15": (len(u1), tuple(u1)),
            "C16": (len(d2), tuple(d2)),
            "C17": (len(u2), tuple(u2)),
            "C18": (differences(d1, down), tuple(d1)),
            "C19": (differences(u1, up), tuple(u1)),
            "C20": (differences(d2, down), tuple(d2)),
            "C21": (differences(u2, up), tuple(u2)),
        }
        return cls(values)


_CRITERIA: dict[str, str] = {
    "C5": "the score of the pairing-allocated bye's player",
    "C6": "downfloaters (players paired with a lower score)",
    "C7": "the scores of the downfloaters",
    "C9": "the unplayed games of the pairing-allocated bye's player",
    "C10": "topscorers or their opponents with a colour difference beyond +-2",
    "C11": "topscorers or their opponents with the same colour three times in a row",
    "C12": "players who do not get their colour preference",
    "C13": "players who do not get their strong colour preference",
    "C14": "players who float down as in the previous round",
    "C15": "players who float up as in the previous round",
    "C16": "players who float down as two rounds before",
    "C17": "players who float up as two rounds before",
    "C18": "the score differences of players who float down as in the previous round",
    "C19": "the score differences of players who float up as in the previous round",
    "C20": "the score differences of players who float down as two rounds before",
    "C21": "the score differences of players who float up as two rounds before",
}


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _worse(mine: _Measures, theirs: _Measures) -> list[ManualWarning]:
    """A warning per criterion on which the manual pairing does worse (a larger value;
    sequences compare element by element, largest first, as C7 and C18-C21 read)."""
    found: list[ManualWarning] = []
    for criterion, what in _CRITERIA.items():
        value, players = mine.values[criterion]
        engine_value, _ = theirs.values[criterion]
        if _greater(value, engine_value):
            found.append(
                ManualWarning(
                    "warning",
                    f"C.04.3 {criterion}",
                    f"{what}: {_shown(value)} against {_shown(engine_value)} in the "
                    "engine's pairing",
                    players,
                )
            )
    return found


def _greater(a: object, b: object) -> bool:
    """`a > b` for two measures of the same criterion (ints or tuples of scores)."""
    return bool(a > b)  # type: ignore[operator]


def _colours_swapped(manual: Round, engine: Round) -> list[ManualWarning]:
    """Pairs both pairings make, with the colours the other way round (C.04.3 art. 5)."""
    given = {(g.white, g.black) for g in engine.games}
    return [
        ManualWarning(
            "info",
            "C.04.3 art. 5",
            f"the engine gives white to player {g.black} against player {g.white}",
            (g.white, g.black),
        )
        for g in manual.games
        if (g.black, g.white) in given
    ]
