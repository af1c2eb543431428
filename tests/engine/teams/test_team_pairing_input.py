"""A team event as the team pairing sees it: states, played rounds, the next round,
and a generated team Swiss written as TRF-26 (docs/rules/team-swiss.md)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from service.engine.errors import EngineError
from service.engine.model import Colour, GameResult
from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    PrimaryScore,
    TeamSwissSettings,
    check_team_round,
    generate_team_tournament,
    states_before,
)
from service.engine.teams.draw import (
    BoardSeat,
    ByeKind,
    TeamPairingSystem,
    board_sequence,
    next_team_round,
)
from service.engine.teams.generated import generated_team_document
from service.engine.teams.model import (
    Board,
    Match,
    MatchForfeit,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
    TeamSystem,
    board_points,
)
from service.engine.teams.pairing_input import (
    match_state,
    played_round,
    present_teams,
    states_of,
    team_states,
    team_swiss_settings,
)
from service.engine.teams.trf import parse_team_trf, write_team_trf

W, B = Colour.WHITE, Colour.BLACK
WIN, DRAW, LOSS = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
FWIN = GameResult.WHITE_WINS_FORFEIT


def _teams(count: int) -> tuple[Team, ...]:
    """Team t: players 2t-1 (board 1) and 2t (board 2)."""
    return tuple(Team(t, f"T{t}", (2 * t - 1, 2 * t)) for t in range(1, count + 1))


def _match(home: int, away: int, first: GameResult, second: GameResult) -> Match:
    """Home has White on board 1, Black on board 2; results as written White first."""
    return Match(
        home,
        away,
        (
            Board(1, 2 * home - 1, 2 * away - 1, W, first),
            Board(2, 2 * home, 2 * away, B, second),
        ),
    )


def _event() -> TeamEvent:
    """Five teams, two boards, 2/1/0, PAB = a won match (2 MP, 2 GP).

    Round 1: 1-2 (board 1 1-0, board 2 ½-½: team 1 1.5-0.5), 3-4 forfeited as a whole
    (330 +-: team 3 wins), team 5 PAB.
    Round 2: 5-1 (board 1 drawn, board 2 won by team 1's White: team 1 1.5-0.5), 2-3
    with both boards forfeited to team 2 (+- on board 1, -+ on board 2 where team 3 has
    White), team 4 PAB.
    """
    r1 = TeamRound(
        1,
        (_match(1, 2, WIN, DRAW), Match(3, 4, forfeit=MatchForfeit.HOME_WINS)),
        pab=5,
    )
    r2 = TeamRound(
        2,
        (
            _match(5, 1, DRAW, GameResult.WHITE_WINS),
            _match(2, 3, FWIN, GameResult.BLACK_WINS_FORFEIT),
        ),
        pab=4,
    )
    return TeamEvent(_teams(5), (r1, r2), TeamScoring(boards=2), total_rounds=5)


def test_states_after_two_rounds_worked_by_hand() -> None:
    states = {s.number: s for s in team_states(_event())}
    # team 1: won 1.5-0.5 (2 MP), then 1.5-0.5 as the away team (board 2 White won) -> 4 MP, 3 GP
    one = states[1]
    assert (one.match_points, one.game_points) == (4.0, 3.0)
    assert one.opponents == {2, 5}
    assert one.colours == (W, B)  # home in round 1 (White on board 1), away in round 2
    assert not one.received_pab and not one.scored_without_playing
    # round 2: team 1 had 2 MP, team 5 had 2 MP (the PAB): equal scores, no float
    assert not one.floated_last_round
    # team 2: lost round 1 (0 MP, 0.5 GP); round 2 both boards won by forfeit -> 2 MP, 2.5 GP
    two = states[2]
    assert (two.match_points, two.game_points) == (2.0, 2.5)
    assert two.opponents == {1}  # the forfeited match is no meeting
    assert two.colours == (B, None)
    assert two.scored_without_playing
    # team 3: 330 win (2 MP, 2 GP), then lost both boards by forfeit
    three = states[3]
    assert (three.match_points, three.game_points) == (2.0, 2.0)
    assert three.opponents == frozenset() and three.colours == (None, None)
    assert three.scored_without_playing
    # team 4: 330 loss, then the PAB
    four = states[4]
    assert (four.match_points, four.game_points) == (2.0, 2.0)
    assert four.received_pab and four.colours == (None, None)
    # team 5: PAB (2 MP, 2 GP), then lost 0.5-1.5 at home with White on board 1
    five = states[5]
    assert (five.match_points, five.game_points) == (2.0, 2.5)
    assert five.colours == (None, W) and five.received_pab


def test_states_before_a_round_and_the_float() -> None:
    """Before round 2 only round 1 counts; in round 2 team 1 (2 MP) met team 5 (2 MP):
    no float. Game points as primary score: team 1 had 1.5, team 5 had 2: both floated."""
    before = {s.number: s for s in team_states(_event(), before_round=2)}
    assert before[1].match_points == 2.0 and before[1].colours == (W,)
    assert before[5].received_pab and before[5].colours == (None,)
    by_games = {s.number: s for s in team_states(_event(), primary=PrimaryScore.GAME)}
    assert by_games[1].floated_last_round and by_games[5].floated_last_round
    assert not by_games[2].floated_last_round  # no match played in round 2


def test_match_state_and_played_round() -> None:
    event = _event()
    r1, r2 = event.rounds
    assert match_state(r1.matches[1]).won_without_playing == 3
    assert match_state(r2.matches[1]).won_without_playing == 2
    assert not match_state(r2.matches[1]).played
    assert present_teams(r1) == {1, 2, 3, 4, 5}
    pairing = played_round(r2)
    assert [(m.white, m.black) for m in pairing.matches] == [(5, 1), (2, 3)]
    assert pairing.bye == 4
    # a match whose home team has Black on board 1: the away team is white
    flipped = Match(1, 2, (Board(1, 1, 3, B, WIN), Board(2, 2, 4, W, DRAW)))
    assert played_round(TeamRound(1, (flipped,))).matches[0].white == 2


def test_next_swiss_round_is_the_engines_with_the_boards_seated() -> None:
    """Round 3 of the event: every team present; the PAB goes to a team that has not
    scored without playing: only team 1 has neither a PAB nor a forfeit win."""
    draw = next_team_round(_event(), TeamPairingSystem.SWISS)
    assert draw.round == 3
    assert draw.bye == 1 and draw.bye_kind is ByeKind.PAB
    paired = {t for m in draw.matches for t in (m.home, m.away)}
    assert paired == {2, 3, 4, 5}
    for m in draw.matches:
        assert m.boards == (
            BoardSeat(1, 2 * m.home - 1, 2 * m.away - 1, m.home),
            BoardSeat(2, 2 * m.away, 2 * m.home, m.away),
        )


def test_board_sequence_follows_352_when_it_starts_with_white() -> None:
    assert board_sequence(4, "WBBW") == (W, B, B, W)
    assert board_sequence(4, "BWBW") == (W, B, W, B)
    assert board_sequence(3, "") == (W, B, W)


def test_round_robin_next_round_is_the_berger_round() -> None:
    """Five teams: Berger round 3 of 5 (dummy 6), the team drawn against it is free."""
    event = replace(_event(), system=TeamSystem.ROUND_ROBIN)
    draw = next_team_round(event, TeamPairingSystem.ROUND_ROBIN)
    assert draw.round == 3 and draw.bye_kind is ByeKind.FREE
    # Berger table for 6, round 3: 2-6, 3-1, 4-5 -> team 2 free
    assert [(m.home, m.away) for m in draw.matches] == [(3, 1), (4, 5)]
    assert draw.bye == 2


def test_a_finished_event_has_no_next_round() -> None:
    event = replace(_event(), total_rounds=2)
    with pytest.raises(EngineError) as caught:
        next_team_round(event, TeamPairingSystem.SWISS)
    assert caught.value.field == "round"


@pytest.mark.parametrize(("teams", "boards", "seed"), [(7, 4, 1), (10, 6, 2), (9, 3, 5)])
def test_generated_event_round_trips_and_gives_the_generators_states(
    teams: int, boards: int, seed: int
) -> None:
    """Written as TRF-26 and read back, every round's states are those the generator
    paired from, and every round checks clean."""
    settings = TeamSwissSettings(rounds=5)
    tournament = generate_team_tournament(teams, settings, seed=seed, boards=boards)
    text = write_team_trf(generated_team_document(tournament))
    doc = parse_team_trf(text)
    assert write_team_trf(doc) == text
    for rnd in doc.event.rounds:
        states = team_states(doc.event, before_round=rnd.number)
        assert states == states_before(tournament, rnd.number)
        proposed = played_round(rnd)
        found = check_team_round(states, proposed, settings)
        assert [v.criterion for v in found if v.criterion != "tables"] == []
    assert doc.event.teams[0].players == tuple(range(1, boards + 1))
    assert doc.event.scoring.pab_match == Fraction(1)


def test_generated_game_points_spread_over_boards() -> None:
    tournament = generate_team_tournament(6, TeamSwissSettings(rounds=3), seed=3, boards=4)
    doc = generated_team_document(tournament)
    for played, rnd in zip(tournament.rounds, doc.event.rounds, strict=True):
        for (gw, _), match in zip(played.game_points, rnd.matches, strict=True):
            home = sum(board_points(b.outcome(True)) for b in match.boards)
            assert home == Fraction(gw).limit_denominator(2)


def test_the_settings_take_the_planned_rounds() -> None:
    """C7 and C10 lapse in the last two rounds, so the number of rounds matters: a
    finished 5-round event is checked with 5, a file without 142/XXR with the rounds
    given (one more to pair the next)."""
    assert team_swiss_settings(_event()).rounds == 5
    unplanned = replace(_event(), total_rounds=None)
    assert team_swiss_settings(unplanned).rounds == 2
    assert team_swiss_settings(unplanned, next_round=True).rounds == 3


def test_a_generated_event_checks_clean_with_the_files_settings() -> None:
    """10 teams, 5 rounds, seed 2: round 4 is one of the last two rounds, so C7 does not
    apply; with one round too many the checker would report it."""
    settings = TeamSwissSettings(rounds=5)
    tournament = generate_team_tournament(10, settings, seed=2, boards=2)
    event = parse_team_trf(write_team_trf(generated_team_document(tournament))).event
    read = team_swiss_settings(event)
    assert read == settings
    fourth = event.rounds[3]
    states = states_of(team_states(event, before_round=4), present_teams(fourth))
    assert [v for v in check_team_round(states, played_round(fourth), read)
            if v.criterion != "tables"] == []  # fmt: skip
    too_many = replace(read, rounds=6)
    found = check_team_round(states, played_round(fourth), too_many)
    assert "C7" in {v.criterion for v in found} or "C10" in {v.criterion for v in found}


@pytest.mark.parametrize("kind", list(ColourPreferenceType))
@pytest.mark.parametrize("primary", list(PrimaryScore))
def test_every_setting_round_trips_through_the_file(
    kind: ColourPreferenceType, primary: PrimaryScore
) -> None:
    """Preference type, primary score and a Black first colour (XXC black1) come back
    from the file, and every round of the generated event checks clean."""
    settings = TeamSwissSettings(
        rounds=6, colour_preferences=kind, primary_score=primary, initial_colour=B
    )
    tournament = generate_team_tournament(13, settings, seed=5, boards=3)
    doc = parse_team_trf(write_team_trf(generated_team_document(tournament)))
    read = team_swiss_settings(
        doc.event,
        colour_preferences=kind,
        primary_score=primary,
        initial_colour=doc.players.tournament.initial_colour,
    )
    assert read == settings
    for rnd in doc.event.rounds:
        states = team_states(doc.event, before_round=rnd.number, primary=primary)
        assert states == states_before(tournament, rnd.number)
        found = check_team_round(states, played_round(rnd), read)
        assert [v.criterion for v in found if v.criterion != "tables"] == []
