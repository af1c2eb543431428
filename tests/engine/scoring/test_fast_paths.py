"""The column fast paths against the round-by-round reference (hypothesis).

Every per-participant tie-break computes `raw` from columns and keeps the plain walk
over one participant's rounds as `reference_raw`. On random events with every kind of
unplayed round (FIDE C.07 art. 16: pairing-allocated, full-, half- and zero-point
byes, absences, forfeit wins and losses, double forfeits), withdrawals, late entries
and unfinished games, under both editions, for Swiss events and round-robins, with
the art. 14 modifiers, the two must give the same exact values, and the standings
must show them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
    entry_points,
    player_histories,
)
from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.base import TieBreak, fractions_of
from service.engine.scoring.tiebreaks.context import Kind, build_context
from service.engine.scoring.tiebreaks.errors import TieBreakError
from service.engine.scoring.tiebreaks.registry import parse_tiebreak

CODES = (
    "BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "BH/P", "BH-C1/P", "BH-M1/P",
    "FB", "FB-C1", "FB-M1/P", "FB/P",
    "SB", "SB-C1", "SB-C2/P", "SB/P", "SB-S", "SB-S/P", "SB-D", "SB-D/P",
    "AOB", "AOB/F",
    "WIN", "WON", "BPG", "BWG", "REP", "PS", "PS-C1", "STD",
    "KS", "KS/L+1", "KS/L-0.5", "KS/L60",
    "ARO", "ARO-C1/U1000", "ARO-M1/U1200", "TPR/U1000", "PTP/U1000",
    "APRO/U1000", "APPO/U1000", "PERF-JCA", "TPN", "RTNG/U1000",
)  # fmt: skip
_ONLY_2026 = ("STD", "TPN", "RTNG")

_GAME_RESULTS = [
    GameResult.WHITE_WINS,
    GameResult.DRAW,
    GameResult.BLACK_WINS,
    GameResult.WHITE_WINS_FORFEIT,
    GameResult.BLACK_WINS_FORFEIT,
    GameResult.DOUBLE_FORFEIT,
    None,
]
_POINT_SYSTEMS = [
    PointSystem(),
    PointSystem.football(),
    PointSystem(forfeit_win=Fraction(1, 2), pairing_bye=Fraction(1, 2), zero_bye=Fraction(0)),
    PointSystem(win=Fraction(2), draw=Fraction(1), full_bye=Fraction(1), half_bye=Fraction(1)),
]


@st.composite
def events(draw: st.DrawFn) -> Tournament:
    """A Swiss-like event: per round, who takes part, who sits out and how."""
    size = draw(st.integers(2, 12))
    rounds = draw(st.integers(1, 7))
    players = tuple(
        Player(k, f"P{k}", draw(st.sampled_from([0, 1200, 1650, 2000, 2400, 2750])))
        for k in range(1, size + 1)
    )
    # Late entries join at `first`, withdrawals leave after `last`.
    first = {p.start_number: draw(st.sampled_from([1, 1, 1, 2, 3])) for p in players}
    last = {p.start_number: draw(st.sampled_from([rounds, rounds, rounds - 1, 2])) for p in players}
    unfinished = draw(st.sampled_from([0.0, 0.5, 1.0]))
    played: list[Round] = []
    for number in range(1, rounds + 1):
        order = list(draw(st.permutations([p.start_number for p in players])))
        byes: list[Bye] = []
        present: list[int] = []
        for n in order:
            if not first[n] <= number <= last[n]:
                if draw(st.booleans()):  # listed as a zero-point bye, or just missing
                    byes.append(Bye(number, n, ByeKind.ZERO_POINT))
                continue
            sit_out = draw(st.sampled_from([None, None, None, None, "absent", *ByeKind]))
            if sit_out == "absent":
                continue
            if isinstance(sit_out, ByeKind):
                byes.append(Bye(number, n, sit_out))
                continue
            present.append(n)
        if len(present) % 2:
            byes.append(Bye(number, present.pop(), ByeKind.PAIRING_ALLOCATED))
        games = []
        for i in range(0, len(present), 2):
            result = draw(st.sampled_from(_GAME_RESULTS))
            if number == rounds and unfinished and draw(st.floats(0, 1)) < unfinished:
                result = None
            games.append(Game(number, present[i], present[i + 1], result))
        played.append(Round(number, tuple(games), tuple(byes)))
    return Tournament(
        players,
        tuple(played),
        total_rounds=rounds + draw(st.integers(0, 2)),
        points=draw(st.sampled_from(_POINT_SYSTEMS)),
    )


@st.composite
def round_robins(draw: st.DrawFn) -> Tournament:
    """A Berger-shaped event (every pair once), with forfeits, absences and pending games."""
    size = draw(st.integers(3, 7))
    numbers = list(range(1, size + 1))
    field = [*numbers, 0] if size % 2 else numbers  # 0: the free round of an odd field
    count = len(field)
    played: list[Round] = []
    rounds = draw(st.integers(1, count - 1))
    for number in range(1, rounds + 1):
        rotated = [field[0], *field[1:][-(number - 1) :], *field[1:][: -(number - 1) or None]]
        games = []
        for i in range(count // 2):
            white, black = rotated[i], rotated[count - 1 - i]
            if not white or not black or draw(st.integers(0, 9)) == 0:
                continue  # the free round, or an absence
            games.append(Game(number, white, black, draw(st.sampled_from(_GAME_RESULTS))))
        played.append(Round(number, tuple(games)))
    players = tuple(Player(k, f"P{k}", 1500 + 50 * k) for k in numbers)
    return Tournament(players, tuple(played), total_rounds=count - 1)


def _check(tournament: Tournament, edition: str, round_robin: bool | None) -> None:
    codes = [c for c in CODES if edition == "2026" or c.split("/")[0] not in _ONLY_2026]
    standings = compute_standings(tournament, codes, edition=edition, round_robin=round_robin)
    shown = {row.start_number: row.tiebreaks for row in standings.rows}
    for code in codes:
        fast = parse_tiebreak(code, edition)
        slow = parse_tiebreak(code, edition)
        assert isinstance(fast, TieBreak) and isinstance(slow, TieBreak)
        expected = fractions_of(slow.reference_raw(build_context(tournament, edition, round_robin)))
        ctx = build_context(tournament, edition, round_robin)
        got = fractions_of(fast.raw(ctx))
        assert got == expected, code
        undefined = fast.undefined(ctx)  # shown as None, ranked as 0 (ARO without games)
        assert undefined <= {n for n, v in expected.items() if v == 0}, code
        want = {n: None if n in undefined else v for n, v in expected.items()}
        assert {n: values[fast.code] for n, values in shown.items()} == want, code


@settings(max_examples=150, deadline=None)
@given(events(), st.sampled_from(["2026", "2024"]), st.sampled_from([None, False, True]))
def test_columns_match_the_reference_with_unplayed_rounds(
    tournament: Tournament, edition: str, round_robin: bool | None
) -> None:
    _check(tournament, edition, round_robin)


@settings(max_examples=60, deadline=None)
@given(round_robins(), st.sampled_from(["2026", "2024"]))
def test_columns_match_the_reference_in_round_robins(tournament: Tournament, edition: str) -> None:
    _check(tournament, edition, None)


def test_the_generated_events_reach_the_column_paths() -> None:
    # A fixed event with each kind of unplayed round and an unfinished game: nobody
    # played every round over the board, so no value comes from the all-played path.
    w, d, b, ff = (
        GameResult.WHITE_WINS,
        GameResult.DRAW,
        GameResult.BLACK_WINS_FORFEIT,
        GameResult.DOUBLE_FORFEIT,
    )
    rounds = (
        Round(1, (Game(1, 1, 2, d), Game(1, 3, 4, ff)), (Bye(1, 5, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (Game(2, 1, 3, w), Game(2, 2, 5, b)), (Bye(2, 4, ByeKind.HALF_POINT),)),
        Round(3, (Game(3, 1, 5, None), Game(3, 2, 3, w)), (Bye(3, 6, ByeKind.FULL_POINT),)),
    )
    tournament = Tournament(tuple(Player(k, rating=1500 + k) for k in range(1, 7)), rounds)
    ctx = build_context(tournament)
    assert [n for n, pd in ctx.players.items() if pd.all_played] == []
    for edition in ("2026", "2024"):
        _check(tournament, edition, False)


_BYE_KINDS = {
    ByeKind.PAIRING_ALLOCATED: Kind.PAB,
    ByeKind.FULL_POINT: Kind.FULL_BYE,
    ByeKind.HALF_POINT: Kind.HALF_BYE,
}


@settings(max_examples=100, deadline=None)
@given(events(), st.booleans())
def test_context_columns_match_the_player_histories(
    tournament: Tournament, round_robin: bool
) -> None:
    # The model's own round-by-round record (absences as zero-point byes) is the
    # reference for the context's columns.
    ctx = build_context(tournament, round_robin=round_robin)
    histories = player_histories(tournament.players, tournament.rounds)
    assert list(ctx.players) == sorted(histories)
    for number, entries in histories.items():
        pd = ctx.players[number]
        assert pd.rounds == [r.number for r in tournament.rounds]
        assert pd.opponents == tuple(e.opponent or 0 for e in entries)
        assert pd.colours == tuple(
            0 if e.colour is None else 1 if e.colour.value == "w" else -1 for e in entries
        )
        assert [Fraction(p, ctx.unit) for p in pd.points] == [
            entry_points(e, tournament.points) for e in entries
        ]
        kinds = []
        for e in entries:
            if e.bye is not None:
                free = Kind.FREE if round_robin else Kind.ZERO_BYE
                kinds.append(_BYE_KINDS.get(e.bye, free))
            elif e.outcome is None:
                kinds.append(Kind.PENDING)
            elif e.played:
                kinds.append(Kind.PLAYED)
            else:
                kinds.append(
                    Kind.FORFEIT_WIN if e.outcome.value == "forfeit-win" else Kind.FORFEIT_LOSS
                )
        assert list(pd.kinds) == kinds
        assert pd.all_played == all(k is Kind.PLAYED for k in kinds)
        assert Fraction(pd.score, ctx.unit) == tournament.scores()[number]


@pytest.mark.parametrize(
    ("round_two", "message"),
    [
        (Round(2, (Game(2, 1, 9, None),)), "round 2 has start number 9, who is not in"),
        (Round(2, (), (Bye(2, 8, ByeKind.HALF_POINT),)), "round 2 has start number 8"),
        (Round(2, (Game(2, 2, 2, None),)), "player 2 appears more than once in round 2"),
        (
            Round(2, (Game(2, 1, 2, None), Game(2, 3, 1, None))),
            "player 1 appears more than once in round 2",
        ),
        (
            Round(2, (Game(2, 1, 2, None),), (Bye(2, 7, ByeKind.ZERO_POINT),)),
            "round 2 has start number 7",
        ),
    ],
)
def test_inconsistent_rounds_are_named(round_two: Round, message: str) -> None:
    players = tuple(Player(k) for k in range(1, 5))
    first = Round(1, (Game(1, 1, 2, GameResult.DRAW), Game(1, 3, 4, GameResult.WHITE_WINS)))
    with pytest.raises(TieBreakError, match=message):
        build_context(Tournament(players, (first, round_two)))
