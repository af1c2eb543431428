"""Invariants of the bridge events' live ranking (service.db.bridge.ranking), checked with
hypothesis on random results of a three-table Mitchell and a four-team event."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.db.bridge import Layout, ranking, validate_layout
from service.db.bridge_tables import BridgeResultRow
from service.engine.bridge import vp


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


def _rows(layout: Layout, scores: list[int | None]) -> list[BridgeResultRow]:
    """Result rows for the plays whose drawn score is not None (a partial session)."""
    rows = []
    for play, score in zip(layout.plays.values(), scores, strict=False):
        if score is None:
            continue
        rows.append(
            BridgeResultRow(
                tournament_id="prop",
                round=play.round,
                table_no=play.table,
                board=play.board,
                ns=play.ns,
                ew=play.ew,
                ns_score=score,
                entered_by="test",
            )
        )
    return rows


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
    layout = validate_layout(_mitchell("matchpoints"))
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
    layout = validate_layout(_mitchell(scoring))
    document = ranking(layout, _rows(layout, scores))
    # Every table's EW IMPs are the negative of its NS IMPs.
    assert sum(row["score"] for row in document["rows"]) == 0
    _check_ranks(document["rows"], "score")


@settings(max_examples=60, deadline=None)
@given(st.lists(SCORE, min_size=36, max_size=36))
def test_team_matches_share_the_vp(scores: list[int | None]) -> None:
    layout = validate_layout(_teams())
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
    # Seed 003: a pair may win at most 10 + k IMPs in a round of k boards (losses are
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
    layout = validate_layout(settings_doc)
    scores: list[int | None] = [2210, 0, 0, 0, 0, 0, 0, 0]
    rows = {row["number"]: row for row in ranking(layout, _rows(layout, scores))["rows"]}
    assert (rows[1]["score"], rows[9]["score"]) == (11, -19)
    uncapped = dict(settings_doc, butler={"round_cap": False})
    layout = validate_layout(uncapped)
    rows = {row["number"]: row for row in ranking(layout, _rows(layout, scores))["rows"]}
    assert (rows[1]["score"], rows[9]["score"]) == (19, -19)
