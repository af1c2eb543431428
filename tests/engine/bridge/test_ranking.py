"""The live ranking of bridge events (service.engine.bridge.ranking): invariants checked
with hypothesis on random results of a three-table Mitchell and a four-team event, and
worked cases (the lecture's matchpoint board, the Polish round cap, adjusted scores).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.bridge import ArtificialScore, BridgeInputError, vp
from service.engine.bridge.movement import Layout, layout_from_settings
from service.engine.bridge.ranking import EventRanking, TableResult, event_ranking


def _mitchell(scoring: str) -> dict[str, Any]:
    sets = [[1, 2], [3, 4], [5, 6]]
    movement = [
        {
            "round": r + 1,
            "tables": [
                {"table": t + 1, "ns": t + 1, "ew": 4 + (t - r) % 3, "boards": sets[(t + r) % 3]}
                for t in range(3)
            ],
        }
        for r in range(3)
    ]
    return {
        "kind": "pairs",
        "name": "prop",
        "scoring": scoring,
        "pairs": [{"number": n, "name": f"P{n}"} for n in range(1, 7)],
        "boards": 6,
        "movement": movement,
    }


def _teams() -> dict[str, Any]:
    pairings = [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    rounds = []
    for r, matches in enumerate(pairings):
        rounds.append(
            {
                "round": r + 1,
                "matches": [
                    {
                        "home": home,
                        "away": away,
                        "open_table": 2 * m + 1,
                        "closed_table": 2 * m + 2,
                        "boards": [3 * r + 1, 3 * r + 2, 3 * r + 3],
                    }
                    for m, (home, away) in enumerate(matches)
                ],
            }
        )
    return {
        "kind": "teams",
        "name": "prop",
        "teams": [{"number": n, "name": f"T{n}"} for n in range(1, 5)],
        "boards": 9,
        "rounds": rounds,
    }


def _rows(layout: Layout, scores: Sequence[int | ArtificialScore | None]) -> list[TableResult]:
    """Results for the plays whose drawn score is not None (a partial session)."""
    return [
        TableResult(play.round, play.table, play.board, play.ns, play.ew, score)
        for play, score in zip(layout.plays.values(), scores, strict=False)
        if score is not None
    ]


def ranking(layout: Layout, results: list[TableResult]) -> dict[str, Any]:
    """The ranking as plain data, for compact assertions."""
    return asdict(event_ranking(layout, results))


SCORE = st.one_of(st.none(), st.integers(-150, 150).map(lambda x: x * 10))
PLAYS = st.lists(SCORE, min_size=18, max_size=18)


def _check_ranks(rows: list[dict[str, Any]], key: str) -> None:
    for index, row in enumerate(rows):
        if index == 0:
            assert row["rank"] == 1
            continue
        before = rows[index - 1]
        assert before[key] >= row[key]
        if before[key] == row[key]:
            assert row["rank"] == before["rank"]
        else:
            assert row["rank"] == index + 1


@settings(max_examples=60, deadline=None)
@given(PLAYS)
def test_matchpoints_share_every_boards_top(scores: list[int | None]) -> None:
    layout = layout_from_settings(_mitchell("matchpoints"))
    results = _rows(layout, scores)
    document = ranking(layout, results)
    per_board: dict[int, int] = {}
    for result in results:
        per_board[result.board] = per_board.get(result.board, 0) + 1
    # Every board is played 3 times; Neuberg factors the results in to that count, so
    # each table's NS and EW matchpoints add up to the full top, 2 (3 - 1) = 4.
    awarded = sum(count * 4 for count in per_board.values())
    assert sum(row["score"] for row in document["rows"]) == awarded
    assert sum(row["boards"] for row in document["rows"]) == 2 * len(results)
    for row in document["rows"]:
        expected = Fraction(row["score"]) * 100 / row["top"] if row["top"] else 50
        assert row["percent"] == expected
    _check_ranks(document["rows"], "percent")


@settings(max_examples=60, deadline=None)
@given(PLAYS, st.sampled_from(["butler", "cavendish"]))
def test_imp_sessions_balance_to_zero(scores: list[int | None], scoring: str) -> None:
    layout = layout_from_settings(_mitchell(scoring))
    document = ranking(layout, _rows(layout, scores))
    # Every table's EW IMPs are the negative of its NS IMPs.
    assert sum(row["score"] for row in document["rows"]) == 0
    _check_ranks(document["rows"], "score")


@settings(max_examples=60, deadline=None)
@given(st.lists(SCORE, min_size=36, max_size=36))
def test_team_matches_share_the_vp(scores: list[int | None]) -> None:
    layout = layout_from_settings(_teams())
    document = ranking(layout, _rows(layout, scores))
    total = Fraction(0)
    for match in document["matches"]:
        if match["boards"]:
            assert sum(match["vp"]) == 20
            margin = match["imps"][0] - match["imps"][1]
            winner = vp(margin, 3).winner
            assert max(match["vp"]) == winner
            total += 20
    assert sum(row["score"] for row in document["rows"]) == total
    for row in document["rows"]:
        assert row["imps_for"] >= 0 and row["imps_against"] >= 0
    keys = [(row["score"], row["imps_for"] - row["imps_against"]) for row in document["rows"]]
    assert keys == sorted(keys, reverse=True)


def test_polish_round_cap_limits_winnings_only() -> None:
    # The lecture: a pair may win at most 10 + k IMPs in a round of k boards (losses are
    # not capped). One board, eight tables: seven flat scores and one +2210 (19 IMPs
    # against a datum of 0) -> capped at 11 for the NS pair; EW keeps its -19.
    settings_doc = {
        "kind": "pairs",
        "name": "cap",
        "scoring": "butler",
        "butler": {"datum_method": "pzbs", "trim": 1, "rounding": "down", "round_cap": True},
        "pairs": [{"number": n, "name": f"P{n}"} for n in range(1, 17)],
        "boards": [2],
        "movement": [
            {
                "round": 1,
                "tables": [{"table": t, "ns": t, "ew": t + 8, "boards": [2]} for t in range(1, 9)],
            }
        ],
    }
    layout = layout_from_settings(settings_doc)
    scores: list[int | None] = [2210, 0, 0, 0, 0, 0, 0, 0]
    rows = {row["number"]: row for row in ranking(layout, _rows(layout, scores))["rows"]}
    assert (rows[1]["score"], rows[9]["score"]) == (11, -19)
    uncapped = dict(settings_doc, butler={"round_cap": False})
    layout = layout_from_settings(uncapped)
    rows = {row["number"]: row for row in ranking(layout, _rows(layout, scores))["rows"]}
    assert (rows[1]["score"], rows[9]["score"]) == (19, -19)


def _one_board(tables: int) -> dict[str, Any]:
    """One board played at every table of a single round: pairs t (NS) v t + tables."""
    return {
        "kind": "pairs",
        "scoring": "matchpoints",
        "pairs": [{"number": n, "name": f"P{n}"} for n in range(1, 2 * tables + 1)],
        "boards": [1],
        "movement": [
            {
                "round": 1,
                "tables": [
                    {"table": t, "ns": t, "ew": t + tables, "boards": [1]}
                    for t in range(1, tables + 1)
                ],
            }
        ],
    }


def test_seed_matchpoint_board_ranks_the_pairs() -> None:
    # The lecture's worked board: 690, 660, 630, 630, 620, -100, -100, -200 ->
    # NS 14, 12, 9, 9, 6, 3, 3, 0 of a top of 14; EW gets top - NS.
    layout = layout_from_settings(_one_board(8))
    scores: list[int | ArtificialScore | None] = [690, 660, 630, 630, 620, -100, -100, -200]
    result = event_ranking(layout, _rows(layout, scores))
    by_number = {line.number: line for line in result.rows}
    assert [by_number[t].score for t in range(1, 9)] == [14, 12, 9, 9, 6, 3, 3, 0]
    assert [by_number[t + 8].score for t in range(1, 9)] == [0, 2, 5, 5, 8, 11, 11, 14]
    assert by_number[1].percent == 100 and by_number[1].top == 14
    assert by_number[3].percent == Fraction(900, 14)
    # Places are shared on equal figures only (1, 1, 3, 4, 4, ...), equal ones listed
    # by number: 14 (pairs 1, 16), 12 (2), 11 (14, 15), 9 (3, 4), 8 (13), ...
    assert [line.number for line in result.rows][:7] == [1, 16, 2, 14, 15, 3, 4]
    ranks = [line.rank for line in result.rows]
    assert ranks == [1, 1, 3, 4, 4, 6, 6, 8, 9, 10, 10, 12, 12, 14, 15, 15]
    assert result.kind == "pairs" and result.scoring == "matchpoints" and result.results == 8


def test_a_lone_result_is_average_and_neuberg_factors_the_rest() -> None:
    layout = layout_from_settings(_one_board(4))
    lone = {line.number: line for line in event_ranking(layout, _rows(layout, [420])).rows}
    # One of four results in: Neuberg gives it (0 + 1/2) * 4/1 - 1/2 = 3 of a top of 6.
    assert (lone[1].score, lone[1].top, lone[1].percent) == (3, 6, 50)
    assert lone[2].boards == 0 and lone[2].percent == 50
    two = {line.number: line for line in event_ranking(layout, _rows(layout, [420, 400])).rows}
    # Two of four: the better scores 2 MP of a 2 top -> (2 + 1) * 4/2 - 1 = 5 of 6.
    assert (two[1].score, two[2].score) == (5, 1)
    assert two[1].score + two[5].score == 6


def test_team_board_with_an_adjusted_room_becomes_imps() -> None:
    # Home sits NS in the open room: an artificial 60/40 there is +3 / -3 IMPs (Law
    # 86B's average-plus / average-minus at IMPs); the other board is 620 v -620, a
    # 1,240 swing = 15 IMPs to home.
    teams = {
        "kind": "teams",
        "teams": [{"number": 1, "name": "A"}, {"number": 2, "name": "B"}],
        "boards": 2,
        "rounds": [
            {
                "round": 1,
                "matches": [
                    {"home": 1, "away": 2, "open_table": 1, "closed_table": 2, "boards": [1, 2]}
                ],
            }
        ],
    }
    layout = layout_from_settings(teams)
    results = [
        TableResult(1, 1, 1, 1, 2, ArtificialScore.of(60, 40)),
        TableResult(1, 2, 1, 2, 1, 420),
        TableResult(1, 1, 2, 1, 2, 620),
        TableResult(1, 2, 2, 2, 1, -620),
    ]
    ranked: EventRanking = event_ranking(layout, results)
    assert ranked.matches is not None
    (match,) = ranked.matches
    assert match.imps == (18, -3) and match.boards == 2
    assert sum(match.vp) == 20 and match.vp[0] == vp(21, 2).winner
    # The closed room's artificial score counts for home from the EW seats.
    results[0] = TableResult(1, 1, 1, 1, 2, 620)
    results[1] = TableResult(1, 2, 1, 2, 1, ArtificialScore.of(60, 40))
    (match,) = event_ranking(layout, results).matches or ()
    assert match.imps[0] - match.imps[1] == 15 - 6


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            lambda s: s["movement"][0]["tables"][1].update(boards=[7]),
            "movement.0.tables.1.boards.0",
        ),
        (lambda s: s["movement"][0]["tables"][1].update(ns=1), "movement.0.tables.1.ns"),
        (lambda s: s["movement"][0]["tables"][1].update(table=1), "movement.0.tables.1.table"),
        (lambda s: s["movement"][0]["tables"][0].update(ew=99), "movement.0.tables.0.ew"),
        (lambda s: s.update(boards=0), "boards"),
        (lambda s: s.update(teams=[]), "teams"),
    ],
)
def test_movement_errors_name_the_field(change: Any, field: str) -> None:
    settings_doc = _one_board(2)
    change(settings_doc)
    with pytest.raises(BridgeInputError) as caught:
        layout_from_settings(settings_doc)
    assert caught.value.field == field
