"""The table delta in both forms (service/live/frames.py): a patch per changed field,
new rows whole, and in the compact form the ranks as one list in table order."""

from __future__ import annotations

from typing import Any

from service.live.frames import Frame, table_delta


def _row(number: int, rank: int, points: float) -> dict[str, Any]:
    return {"start_number": number, "name": f"P{number}", "rank": rank, "points": points}


def test_both_forms_of_one_result_that_moves_every_rank() -> None:
    """Four players tied at rank 1; player 3 beats player 4 and a fifth player
    registers: 3 leads, 1 and 2 share rank 2 with the newcomer, 4 is last."""
    before = {n: _row(n, 1, 0.0) for n in (1, 2, 3, 4)}
    after: dict[str, Any] = {
        "round": 1,
        "rows": [
            _row(3, 1, 1.0),
            _row(1, 2, 0.0),
            _row(2, 2, 0.0),
            _row(5, 2, 0.0),
            _row(4, 5, 0.0),
        ],
    }
    delta = table_delta(before, after, "start_number")
    full = delta.message_parts("standings", compact=False)
    assert full == {
        "standings": {
            "round": 1,
            "rows": [
                {"start_number": 3, "points": 1.0},
                {"start_number": 1, "rank": 2},
                {"start_number": 2, "rank": 2},
                _row(5, 2, 0.0),
                {"start_number": 4, "rank": 5},
            ],
        },
        "changed": [3, 1, 2, 5, 4],
        "positions": [3, 1, 2, 5, 4],
    }
    compact = delta.message_parts("standings", compact=True)
    assert compact == {
        "standings": {"round": 1, "rows": [{"start_number": 3, "points": 1.0}, _row(5, 2, 0.0)]},
        "changed": [3, 5],
        "positions": [3, 1, 2, 5, 4],
        "ranks": [1, 2, 2, 2, 5],
    }
    assert delta.added == {5}


def test_a_table_nothing_moved_in_carries_no_patch_in_either_form() -> None:
    rows = [_row(1, 1, 1.0), _row(2, 2, 0.0)]
    delta = table_delta({r["start_number"]: dict(r) for r in rows}, {"rows": rows}, "start_number")
    assert delta.message_parts("ranking", compact=False)["ranking"] == {"rows": []}
    compact = delta.message_parts("ranking", compact=True)
    assert (compact["ranking"], compact["ranks"]) == ({"rows": []}, [1, 2])


def test_a_frame_gives_the_text_of_the_form_asked_for() -> None:
    frame = Frame(7, "full text", "compact text")
    assert (frame.text(compact=False), frame.text(compact=True)) == ("full text", "compact text")


def _team(team: int, rank: int, match_points: float, game_points: float) -> dict[str, Any]:
    return {"rank": rank, "team": team, "match_points": match_points, "game_points": game_points}


def test_a_team_ranking_is_a_second_table_keyed_by_team() -> None:
    """Three teams level at rank 1; team 3 wins its match 2-0 and leads, team 1 lost it
    and drops to 3rd: the team rows travel as their own delta, not inside `standings`."""
    players = [_row(1, 1, 0.0), _row(2, 1, 0.0)]
    before = {t: _team(t, 1, 0.0, 0.0) for t in (1, 2, 3)}
    after = {
        "round": 1,
        "rows": players,
        "teams": [_team(3, 1, 2.0, 2.0), _team(2, 2, 0.0, 0.0), _team(1, 3, 0.0, 0.0)],
        "boards": [{"board": 1, "players": []}],
    }
    delta = table_delta(
        {r["start_number"]: r for r in players},
        after,
        "start_number",
        {"teams": "team"},
        {"teams": before},
    )
    full = delta.message_parts("standings", compact=False)
    assert full["standings"] == {"round": 1, "rows": [], "boards": [{"board": 1, "players": []}]}
    assert full["teams"] == {
        "rows": [
            {"team": 3, "match_points": 2.0, "game_points": 2.0},
            {"team": 2, "rank": 2},
            {"team": 1, "rank": 3},
        ],
        "changed": [3, 2, 1],
        "positions": [3, 2, 1],
    }
    compact = delta.message_parts("standings", compact=True)
    assert compact["teams"] == {
        "rows": [{"team": 3, "match_points": 2.0, "game_points": 2.0}],
        "changed": [3],
        "positions": [3, 2, 1],
        "ranks": [1, 2, 3],
    }
    assert delta.inner["teams"].rows[3] == _team(3, 1, 2.0, 2.0)


def test_a_first_team_table_comes_whole_and_a_null_one_stays_in_the_document() -> None:
    rows, teams = [_row(1, 1, 0.0)], [_team(1, 1, 0.0, 0.0)]
    inner = {"teams": "team"}
    first = table_delta(None, {"rows": rows, "teams": teams}, "start_number", inner)
    assert first.message_parts("standings", compact=True)["teams"]["rows"] == teams
    individual = table_delta(None, {"rows": rows, "teams": None}, "start_number", inner)
    parts = individual.message_parts("standings", compact=False)
    assert parts["standings"]["teams"] is None and "teams" not in parts
