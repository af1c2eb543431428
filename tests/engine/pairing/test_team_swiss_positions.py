"""C.04.6 positions worked by hand, each decided by one article: events are written
round by round (match results as the first-named team's game points out of 2 boards),
the states before the round are built from them, and the round is paired."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from service.engine.model import Colour
from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    Strength,
    TeamMatch,
    TeamPairing,
    TeamState,
    TeamSwissSettings,
    check_team_round,
    colour_preference,
    pair_team_round,
)

W, B = Colour.WHITE, Colour.BLACK
BOARDS = 2


@dataclass
class Event:
    """A hand-written team event: `play(round, white, black, white_game_points)`."""

    teams: int
    rounds: int
    kind: ColourPreferenceType = ColourPreferenceType.A
    forbidden: frozenset[frozenset[int]] = frozenset()
    log: list[tuple[int, int, int | None, float]] = field(default_factory=list)
    forfeits: list[tuple[int, int, int]] = field(default_factory=list)

    def play(self, rnd: int, white: int, black: int, points: float) -> None:
        self.log.append((rnd, white, black, points))

    def pab(self, rnd: int, team: int) -> None:
        self.log.append((rnd, team, None, 0.0))

    def forfeit(self, rnd: int, winner: int, loser: int) -> None:
        self.forfeits.append((rnd, winner, loser))

    @property
    def settings(self) -> TeamSwissSettings:
        return TeamSwissSettings(self.rounds, self.kind, forbidden=self.forbidden)

    def states(self, before: int, absent: tuple[int, ...] = ()) -> list[TeamState]:
        mp = {n: 0.0 for n in range(1, self.teams + 1)}
        gp = dict(mp)
        met: dict[int, set[int]] = {n: set() for n in mp}
        colours: dict[int, list[Colour | None]] = {n: [] for n in mp}
        pab: set[int] = set()
        forfeit_win: set[int] = set()
        floated: dict[int, bool] = dict.fromkeys(mp, False)
        for rnd in range(1, before):
            start = dict(mp)
            seen: set[int] = set()
            floated = dict.fromkeys(mp, False)
            for r, white, black, points in self.log:
                if r != rnd:
                    continue
                if black is None:  # art. 1.4: a drawn match's worth
                    mp[white] += 1
                    gp[white] += BOARDS / 2
                    pab.add(white)
                    colours[white].append(None)
                    seen.add(white)
                    continue
                other = BOARDS - points
                mp[white] += 2 if points > other else 1 if points == other else 0
                mp[black] += 2 if other > points else 1 if points == other else 0
                gp[white] += points
                gp[black] += other
                met[white].add(black)
                met[black].add(white)
                colours[white].append(W)
                colours[black].append(B)
                floated[white] = floated[black] = start[white] != start[black]
                seen |= {white, black}
            for r, winner, loser in self.forfeits:
                if r == rnd:
                    mp[winner] += 2
                    gp[winner] += BOARDS
                    forfeit_win.add(winner)
                    colours[winner].append(None)
                    colours[loser].append(None)
                    seen |= {winner, loser}
            for n in mp:
                if n not in seen:
                    colours[n].append(None)
        return [
            TeamState(
                n,
                mp[n],
                gp[n],
                frozenset(met[n]),
                tuple(colours[n]),
                n in pab,
                n in forfeit_win,
                floated[n],
            )
            for n in mp
            if n not in absent
        ]

    def pair(self, rnd: int, absent: tuple[int, ...] = ()) -> TeamPairing:
        return pair_team_round(self.states(rnd, absent), rnd, self.settings)


def pairs(result: TeamPairing) -> list[tuple[int, int]]:
    return [(m.white, m.black) for m in result.matches]


def unordered(result: TeamPairing, within: set[int] | None = None) -> list[list[int]]:
    found = [sorted(p) for p in pairs(result) if within is None or set(p) <= within]
    return sorted(found)


def test_1_1_3_an_absent_team_keeps_its_tpn_and_the_colours_follow_it() -> None:
    # five teams, team 1 absent in round 1: 2-4 and 3-5; 2 is even (Black), 3 odd (White)
    assert pairs(Event(5, 5).pair(1, absent=(1,))) == [(4, 2), (3, 5)]


def test_preface_colours_never_prevent_a_pairing() -> None:
    event = Event(6, 5)
    for rnd, white, black in [(1, 1, 3), (1, 2, 4), (1, 5, 6), (2, 1, 4), (2, 2, 5), (2, 3, 6)]:
        event.play(rnd, white, black, 2)
    before = {t.number: t for t in event.states(3)}
    for team in (1, 2):  # both prefer Black (CD +2) and are alone on 4 match points
        preference = colour_preference(before[team], event.kind, last_round=False)
        assert preference is not None and preference.colour is B
    assert [1, 2] in unordered(event.pair(3))


def test_2_1_1_c1_the_top_pair_that_met_takes_upfloaters() -> None:
    event = Event(4, 3)
    event.play(1, 1, 2, 1.5)
    event.play(1, 3, 4, 1.5)
    assert unordered(event.pair(2)) == [[1, 3], [2, 4]]


def seven_teams_three_rounds(first_round_bye: int) -> Event:
    event = Event(7, 5)
    event.pab(1, first_round_bye)
    event.play(1, 1, 2, 1)
    event.play(1, 3, 4, 1)
    event.play(1, 5, 6, 1)
    event.play(2, 1, 7, 2)
    event.play(2, 2, 3, 1)
    event.play(2, 4, 5, 1)
    event.pab(2, 6)
    event.play(3, 2, 7, 2)
    event.play(3, 1, 3, 1)
    event.play(3, 4, 6, 1)
    event.pab(3, 5)
    return event


def test_2_1_2_c2_no_second_bye() -> None:
    # team 7 is strictly lowest with the largest TPN but had the bye of round 1
    result = seven_teams_three_rounds(7).pair(4)
    assert result.bye == 4


def test_2_1_2_c2_no_bye_after_a_forfeit_win() -> None:
    event = Event(7, 5)
    event.forfeit(1, 7, 1)
    event.play(1, 2, 3, 1)
    event.play(1, 4, 5, 1)
    event.pab(1, 6)
    event.play(2, 1, 7, 2)
    event.play(2, 2, 6, 1)
    event.play(2, 3, 4, 1)
    event.pab(2, 5)
    event.play(3, 5, 7, 2)
    event.play(3, 1, 2, 1)
    event.play(3, 3, 6, 1)
    event.pab(3, 4)
    # 1, 2, 3 on 3 match points; 2 and 3 played three matches, 1 two (3.4.3); 3 > 2
    assert event.pair(4).bye == 3


def test_3_4_2_lowest_score_and_3_4_4_largest_tpn() -> None:
    event = Event(5, 3)
    event.play(1, 1, 2, 2)
    event.play(1, 3, 4, 0)
    event.pab(1, 5)
    assert event.pair(2).bye == 3  # 2 and 3 on 0; 5 had the bye
    event = Event(5, 3)
    event.play(1, 1, 4, 2)
    event.play(1, 2, 5, 2)
    event.pab(1, 3)
    assert event.pair(2).bye == 5


def test_3_4_3_most_matches_played_before_the_tpn() -> None:
    event = Event(5, 5)
    event.play(1, 1, 2, 2)
    event.play(1, 3, 4, 2)  # 5 not paired in round 1
    event.play(2, 1, 4, 2)
    event.play(2, 2, 5, 2)  # 3 not paired in round 2
    assert event.pair(3).bye == 4


def test_3_4_1_the_bye_must_leave_a_legal_pairing() -> None:
    forbidden = frozenset({frozenset((1, 2)), frozenset((2, 4)), frozenset((3, 4))})
    event = Event(5, 5, forbidden=forbidden)
    event.play(1, 1, 4, 2)
    event.play(1, 2, 5, 2)
    result = event.pair(2)
    assert result.bye == 4
    assert unordered(result) == [[1, 5], [2, 3]]


def test_2_3_1_c4_one_upfloater_from_the_next_scoregroup() -> None:
    event = Event(8, 5)
    event.play(1, 1, 5, 2)
    event.play(1, 2, 6, 2)
    event.play(1, 3, 7, 2)
    event.play(1, 4, 8, 1)
    result = event.pair(2)
    assert result.notes[0] == "bracket 2: upfloaters 4"


def test_3_6_1_a_heterogeneous_bracket_is_read_in_tpn_order() -> None:
    # 5 and 9 drew (1 point each) and met: two upfloaters, 2 and 7, join them; in TPN
    # order 2 5 7 9 the first identifier 2-7 5-9 repeats 5-9, the next is 2-9 5-7
    event = Event(10, 5)
    event.play(1, 5, 9, 1)
    event.play(1, 1, 2, 2)
    event.play(1, 3, 7, 2)
    event.play(1, 4, 8, 2)
    event.play(1, 6, 10, 2)
    result = event.pair(2)
    assert "bracket 1: upfloaters 2, 7" in result.notes
    assert unordered(result, {2, 5, 7, 9}) == [[2, 9], [5, 7]]


def c7_event(rounds: int) -> Event:
    event = Event(12, rounds)
    for white, black in [(1, 7), (2, 8), (3, 9), (4, 10), (5, 11), (6, 12)]:
        event.play(1, white, black, 2)
    event.play(2, 1, 8, 2)
    event.play(2, 2, 9, 1)  # 2 (2 points) draws with 9 (0 points): a floater
    event.play(2, 3, 4, 1)
    event.play(2, 5, 6, 1)
    event.play(2, 10, 11, 1)
    event.play(2, 12, 7, 1)
    return event


def test_2_3_4_c7_and_its_last_two_rounds_exception() -> None:
    assert c7_event(6).pair(3).notes[0] == "bracket 4: upfloaters 3"
    assert c7_event(4).pair(3).notes[0] == "bracket 4: upfloaters 2"


def test_2_3_7_c10_the_upfloater_avoids_an_opponent_that_floated() -> None:
    event = Event(10, 6)
    for white, black, points in [(1, 6, 2), (7, 2, 0), (3, 8, 2), (9, 4, 0), (5, 10, 2)]:
        event.play(1, white, black, points)
    for white, black in [(2, 1), (4, 5), (10, 3), (6, 7), (8, 9)]:
        event.play(2, white, black, 1)
    result = event.pair(3)
    assert result.notes[0] == "bracket 3: upfloaters 6"
    # the first identifier 1-4 2-5 3-6 gives the upfloater 3, which floated
    assert unordered(result, {1, 2, 3, 4, 5, 6}) == [[1, 4], [2, 6], [3, 5]]


def test_2_3_5_c8_colours_and_4_3_3_opposite_preferences() -> None:
    event = Event(8, 6)
    for rnd, white, black, points in [
        (1, 1, 5, 2),
        (1, 2, 6, 2),
        (1, 7, 3, 0),
        (1, 8, 4, 0),
        (2, 1, 7, 2),
        (2, 2, 8, 2),
        (2, 5, 3, 0),
        (2, 6, 4, 0),
    ]:
        event.play(rnd, white, black, points)
    result = event.pair(3)
    assert (3, 1) in pairs(result) and (4, 2) in pairs(result)


def strong_and_mild(kind: ColourPreferenceType) -> Event:
    event = Event(8, 6, kind)
    for rnd, white, black, points in [
        (1, 1, 5, 2),
        (1, 6, 2, 0),
        (1, 3, 7, 2),
        (1, 8, 4, 0),
        (2, 6, 1, 0),
        (2, 2, 5, 2),
        (2, 8, 3, 0),
        (2, 4, 7, 2),
        (3, 7, 1, 0),
        (3, 8, 2, 0),
        (3, 5, 3, 0),
        (3, 6, 4, 0),
    ]:
        event.play(rnd, white, black, points)
    return event


def test_2_3_6_c9_type_b_keeps_the_strong_preferences_apart() -> None:
    typeb = strong_and_mild(ColourPreferenceType.B)
    before = {t.number: t for t in typeb.states(4)}
    strengths = [colour_preference(before[n], typeb.kind, last_round=False) for n in (1, 2, 3, 4)]
    assert [p.strength if p else None for p in strengths] == [
        Strength.STRONG,
        Strength.MILD,
        Strength.STRONG,
        Strength.MILD,
    ]
    assert unordered(typeb.pair(4), {1, 2, 3, 4}) == [[1, 4], [2, 3]]
    # type A: 2 and 4 have no preference; [C8] alone rejects 1-3 2-4
    assert unordered(strong_and_mild(ColourPreferenceType.A).pair(4), {1, 2, 3, 4}) == [
        [1, 4],
        [2, 3],
    ]


def test_1_7_type_a_and_type_b_pair_mild_preferences_differently() -> None:
    def mild_only(kind: ColourPreferenceType) -> Event:
        event = Event(8, 6, kind)
        for rnd, white, black, points in [
            (1, 5, 1, 0),
            (1, 2, 6, 2),
            (1, 7, 3, 0),
            (1, 4, 8, 2),
            (2, 1, 6, 2),
            (2, 5, 2, 0),
            (2, 3, 8, 2),
            (2, 7, 4, 0),
            (3, 7, 1, 0),
            (3, 2, 8, 2),
            (3, 5, 3, 0),
            (3, 4, 6, 2),
        ]:
            event.play(rnd, white, black, points)
        return event

    assert unordered(mild_only(ColourPreferenceType.A).pair(4), {1, 2, 3, 4}) == [[1, 3], [2, 4]]
    assert unordered(mild_only(ColourPreferenceType.B).pair(4), {1, 2, 3, 4}) == [[1, 4], [2, 3]]


def test_1_7_no_colour_preferences_leave_the_identifier_alone() -> None:
    def simple(kind: ColourPreferenceType) -> Event:
        event = Event(8, 6, kind)
        for rnd, white, black, points in [
            (1, 5, 1, 0),
            (1, 2, 6, 2),
            (1, 7, 3, 0),
            (1, 4, 8, 2),
            (2, 6, 1, 0),
            (2, 2, 5, 2),
            (2, 8, 3, 0),
            (2, 4, 7, 2),
        ]:
            event.play(rnd, white, black, points)
        return event

    assert unordered(simple(ColourPreferenceType.A).pair(3), {1, 2, 3, 4}) == [[1, 4], [2, 3]]
    assert unordered(simple(ColourPreferenceType.NONE).pair(3), {1, 2, 3, 4}) == [[1, 3], [2, 4]]


def test_the_checker_names_c7_and_c10() -> None:
    event = c7_event(6)
    before = event.states(3)
    right = event.pair(3)
    assert check_team_round(before, right, event.settings) == []
    # team 2 (floated in round 2) as team 1's upfloater instead of team 3
    swapped = {2: 3, 3: 2}
    wrong = TeamPairing(
        3,
        tuple(
            type(m)(m.table, swapped.get(m.white, m.white), swapped.get(m.black, m.black))
            for m in right.matches
        ),
    )
    assert "C7" in {v.criterion for v in check_team_round(before, wrong, event.settings)}

    event = Event(10, 6)
    for white, black, points in [(1, 6, 2), (7, 2, 0), (3, 8, 2), (9, 4, 0), (5, 10, 2)]:
        event.play(1, white, black, points)
    for white, black in [(2, 1), (4, 5), (10, 3), (6, 7), (8, 9)]:
        event.play(2, white, black, 1)
    before = event.states(3)
    first_identifier = TeamPairing(
        3,
        tuple(
            TeamMatch(i, a, b)
            for i, (a, b) in enumerate([(1, 4), (2, 5), (3, 6), (7, 9), (8, 10)], 1)
        ),
    )
    assert "C10" in {
        v.criterion for v in check_team_round(before, first_identifier, event.settings)
    }


def test_4_3_6_histories_are_compared_as_played_matches_from_their_end() -> None:
    # 4.3.6 "alternate the colours to the most recent time in which one team had White
    # and the other Black", with its note to C.04.2 art. 3.4: only played matches count,
    # a history with an unplayed round read squeezed (BWBuW as uBWBW).
    event = Event(6, 6)
    event.play(1, 3, 2, 0)  # team 1 absent
    event.play(1, 4, 5, 1)
    event.pab(1, 6)
    event.play(2, 2, 4, 2)
    event.play(2, 5, 1, 0)
    event.play(2, 3, 6, 1)
    event.play(3, 1, 3, 2)
    event.play(3, 5, 2, 0)
    event.play(3, 4, 6, 1)
    event.play(4, 6, 1, 0)  # team 2 absent
    event.play(4, 3, 5, 1)
    event.pab(4, 4)
    before = {t.number: t for t in event.states(5)}
    # 1: -, B, W, B and 2: B, W, B, -: both on 6 match points and 6 game points, CD -1,
    # no type A preference; team 1 is the first-team by its TPN (4.2.3)
    assert before[1].colours == (None, B, W, B) and before[2].colours == (B, W, B, None)
    for team in (1, 2):
        assert (before[team].match_points, before[team].game_points) == (6, 6)
        assert colour_preference(before[team], event.kind, last_round=False) is None
    # squeezed, both histories read B W B: 4.3.6 finds no difference, 4.3.7 no
    # preference, 4.3.8 alternates the first-team's last colour (Black): 1 has White.
    # Round by round, round 3 (1 White, 2 Black) would have given 1 Black.
    assert pairs(event.pair(5))[0] == (1, 2)


def test_4_2_2_the_secondary_score_picks_the_first_team_unless_switched_off() -> None:
    # 4.2.2: the first-team has the higher secondary score "unless the rules of the
    # competition state not to use it" (then 4.2.3, the smaller TPN).
    event = Event(6, 5)
    for rnd, white, black, points in [
        (1, 1, 3, 1.5),
        (1, 2, 4, 2),
        (1, 5, 6, 1),
        (2, 1, 4, 1.5),
        (2, 2, 5, 2),
        (2, 3, 6, 1),
    ]:
        event.play(rnd, white, black, points)
    before = event.states(3)
    # 1 and 2: 4 match points each, alone on top; 3 and 4 game points; both had White
    # twice (CD +2, both prefer Black), so 4.3.2 to 4.3.6 cannot decide and 4.3.7 grants
    # the first-team's preference
    assert [(t.match_points, t.game_points) for t in before[:2]] == [(4, 3), (4, 4)]
    assert pairs(pair_team_round(before, 3, event.settings))[0] == (1, 2)
    off = replace(event.settings, secondary_for_colours=False)
    assert pairs(pair_team_round(before, 3, off))[0] == (2, 1)


def test_c_04_2_tables_follow_the_higher_ranked_team_of_each_pair() -> None:
    # C.04.2 (the preface applies it): pairs are published by the score of the
    # higher-ranked participant, the sum of both scores, then the higher-ranked
    # participant's number, not the smaller number of the two.
    event = Event(6, 5)
    for rnd, white, black, points in [
        (1, 3, 2, 2),
        (1, 5, 6, 2),
        (1, 1, 4, 1),
        (2, 3, 5, 1),
        (2, 1, 6, 1),
        (2, 4, 2, 1),
    ]:
        event.play(rnd, white, black, points)
    result = event.pair(3)
    # 3 and 5 (3 match points) met, so 1 and 4 (2 points) float up: 1-5 and 3-4 both
    # have a 3-point higher-ranked team and 5 points in all; 3 ranks above 5
    assert result.notes == ("bracket 3: upfloaters 1, 4",)
    assert [sorted(p) for p in pairs(result)] == [[3, 4], [1, 5], [2, 6]]
