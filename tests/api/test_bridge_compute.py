"""Stateless bridge scoring endpoints (/v1/compute/bridge/...): worked numbers from the
lecture *Wynik rozdania* and the Laws' tables (tests/data), bad input as problem+json naming
the field, and invariants checked on the handlers directly with hypothesis."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.routes.bridge_compute import (
    cavendish_answer,
    matchpoints_answer,
    score,
    victory_points,
)
from service.api.schemas.bridge import (
    CavendishRequest,
    MatchpointsRequest,
    ScoreRequest,
    VpRequest,
)
from tests.data import bridge_reference, spec_bridge

BASE = "/v1/compute/bridge"


def _spec_matchpoint_board() -> tuple[list[int], list[int], list[float]]:
    """The lecture's worked matchpoint board: scores -> MP (percent)."""
    board = spec_bridge()["matchpoint_board"]
    return list(board["scores"]), list(board["matchpoints"]), [float(p) for p in board["percent"]]


def _spec_butler() -> tuple[int, dict[int, int]]:
    """The lecture's Butler example: the datum and IMPs per score."""
    butler = spec_bridge()["butler"]
    return butler["datum"], {score: imp for score, imp in butler["imps"]}


# Reference 1.2's Law 77 test vectors and 1.3's IMP test vectors ("0→0, 10→0, ...").
SCORE_VECTORS: list[tuple[str, bool, int, int]] = [
    (contract, vulnerable, tricks, score)
    for contract, vulnerable, tricks, score in bridge_reference()["law77_vectors"]
]
IMP_VECTORS: list[tuple[int, int]] = [(d, imp) for d, imp in bridge_reference()["imp_vectors"]]


def test_reference_tables_were_read() -> None:
    assert len(SCORE_VECTORS) == 39
    assert len(IMP_VECTORS) > 40
    assert _spec_matchpoint_board()[1] == [14, 12, 9, 9, 6, 3, 3, 0]


async def test_score_vectors_from_the_reference(client: httpx.AsyncClient) -> None:
    for contract, vulnerable, tricks, expected in SCORE_VECTORS:
        for declarer, sign in (("N", 1), ("W", -1)):
            body = {
                "contract": contract,
                "declarer": declarer,
                "vulnerable": vulnerable,
                "tricks": tricks,
            }
            response = await client.post(f"{BASE}/score", json=body)
            assert response.status_code == 200, response.text
            assert response.json()["score"] == expected, body
            assert response.json()["ns"] == sign * expected


async def test_score_from_the_board_number(client: httpx.AsyncClient) -> None:
    # Board 7 is vulnerable both ways: 4SX down two is -500; board 1 (none vul) -300.
    seven = await client.post(
        f"{BASE}/score", json={"contract": "4SX", "declarer": "E", "board": 7, "tricks": 8}
    )
    assert seven.json() == {"contract": "4SX", "score": -500, "ns": 500, "vulnerable": True}
    one = await client.post(
        f"{BASE}/score", json={"contract": "4SX", "declarer": "E", "board": 1, "tricks": 8}
    )
    assert one.json()["score"] == -300
    # Board 2: NS vulnerable, so an EW declarer is not.
    two = await client.post(
        f"{BASE}/score", json={"contract": "3NT", "declarer": "W", "board": 2, "tricks": 9}
    )
    assert two.json() == {"contract": "3NT", "score": 400, "ns": -400, "vulnerable": False}


async def test_pass_scores_zero(client: httpx.AsyncClient) -> None:
    response = await client.post(f"{BASE}/score", json={"contract": "pass"})
    assert response.status_code == 200
    assert response.json() == {"contract": "pass", "score": 0, "ns": 0, "vulnerable": None}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"contract": "8S", "declarer": "N", "vulnerable": True, "tricks": 9}, "contract"),
        ({"contract": "4Q", "declarer": "N", "vulnerable": True, "tricks": 9}, "contract"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True, "tricks": 14}, "tricks"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True, "tricks": -1}, "tricks"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True, "tricks": True}, "tricks"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True, "tricks": "9"}, "tricks"),
        ({"contract": "-4S", "declarer": "N", "vulnerable": True, "tricks": 9}, "contract"),
        ({"contract": "4S", "declarer": "X", "vulnerable": True, "tricks": 9}, "declarer"),
        ({"contract": "4S", "vulnerable": True, "tricks": 9}, "declarer"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True}, "tricks"),
        ({"contract": "4S", "declarer": "N", "tricks": 9}, "vulnerable"),
        (
            {"contract": "4S", "declarer": "N", "vulnerable": True, "board": 3, "tricks": 9},
            "vulnerable",
        ),
        ({"contract": "4S", "declarer": "N", "board": 0, "tricks": 9}, "board"),
        ({"contract": "4S", "declarer": "N", "vulnerable": True, "tricks": 9, "x": 1}, "x"),
    ],
)
async def test_score_rejects_bad_input(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    response = await client.post(f"{BASE}/score", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    # request validation, or the bridge engine refusing the contract
    assert problem["type"] in {
        "urn:arbiter:problem:invalid-input",
        "urn:arbiter:problem:invalid-bridge-input",
    }
    assert problem["field"] == field


async def test_imps_follow_the_reference_vectors(client: httpx.AsyncClient) -> None:
    for difference, expected in IMP_VECTORS:
        response = await client.post(f"{BASE}/imps", json={"difference": difference})
        assert response.json() == {"imps": expected}, difference
    # Not a multiple of 10: the two documented policies differ.
    nearest = await client.post(f"{BASE}/imps", json={"difference": 15})
    lower = await client.post(f"{BASE}/imps", json={"difference": 15, "rounding": "lower-bound"})
    assert (nearest.json()["imps"], lower.json()["imps"]) == (1, 0)


@pytest.mark.parametrize(
    ("imps", "boards", "winner", "loser"),
    [
        (23, 16, 15.56, 4.44),
        (5, 24, 11.23, 8.77),
        (50, 8, 20, 0),
        (40, 8, 19.74, 0.26),
        (0, 8, 10, 10),
    ],
)
async def test_vp_examples(
    client: httpx.AsyncClient, imps: int, boards: int, winner: float, loser: float
) -> None:
    response = await client.post(f"{BASE}/vp", json={"imps": imps, "boards": boards})
    assert response.status_code == 200, response.text
    assert response.json() == {"winner": winner, "loser": loser}
    negative = await client.post(f"{BASE}/vp", json={"imps": -imps, "boards": boards})
    assert negative.json() == response.json()


async def test_vp_rejects_bad_input(client: httpx.AsyncClient) -> None:
    unknown = await client.post(f"{BASE}/vp", json={"imps": 3, "boards": 8, "scale": "old-25"})
    assert (unknown.status_code, unknown.json()["field"]) == (422, "scale")
    no_boards = await client.post(f"{BASE}/vp", json={"imps": 3, "boards": 0})
    assert (no_boards.status_code, no_boards.json()["field"]) == (422, "boards")
    acbl = await client.post(f"{BASE}/vp", json={"imps": 3, "boards": 40, "scale": "acbl-20"})
    assert (acbl.status_code, acbl.json()["field"]) == (422, "boards")


async def test_matchpoints_reproduce_the_spec_board(client: httpx.AsyncClient) -> None:
    scores, mps, percents = _spec_matchpoint_board()
    response = await client.post(f"{BASE}/matchpoints", json={"scores": scores})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["top"] == 14
    assert body["ns"] == mps
    assert body["ew"] == [14 - mp for mp in mps]
    assert body["ns_percent"] == percents


async def test_matchpoints_with_adjusted_and_weighted_entries(client: httpx.AsyncClient) -> None:
    # Reference 1.9: +420, +450, -50, +140 and a table assigned 60 % of +420 and 40 % of
    # -50 -> that table scores 3.4 of a top of 8 (42.5 %).
    scores = [
        420,
        450,
        -50,
        140,
        {"weighted": [{"weight": "0.6", "score": 420}, {"weight": 0.4, "score": -50}]},
    ]
    response = await client.post(f"{BASE}/matchpoints", json={"scores": scores})
    assert response.status_code == 200, response.text
    assert response.json()["ns"][4] == 3.4
    assert response.json()["ns_percent"][4] == 42.5
    # An artificial 60/40 gets 60 % of the top for NS, 40 % for EW.
    adjusted = await client.post(
        f"{BASE}/matchpoints",
        json={"scores": [430, 420, 400, {"ns_percent": 60, "ew_percent": 40}]},
    )
    assert adjusted.json()["ns_percent"][3] == 60
    assert adjusted.json()["ew_percent"][3] == 40
    # Neuberg (reference 1.8): 3 results factored to 6 tables -> 9, 5, 1 of 10.
    factored = await client.post(
        f"{BASE}/matchpoints", json={"scores": [430, 400, -50], "tables": 6}
    )
    assert factored.json()["ns"] == [9, 5, 1]


async def test_matchpoints_reject_bad_entries(client: httpx.AsyncClient) -> None:
    bad_weights = {"weighted": [{"weight": "0.6", "score": 420}, {"weight": "0.3", "score": -50}]}
    response = await client.post(f"{BASE}/matchpoints", json={"scores": [420, bad_weights]})
    assert (response.status_code, response.json()["field"]) == (422, "scores.1")
    empty = await client.post(f"{BASE}/matchpoints", json={"scores": []})
    assert (empty.status_code, empty.json()["field"]) == (422, "scores")
    text = await client.post(f"{BASE}/matchpoints", json={"scores": [420, "lots"]})
    assert text.status_code == 422
    assert text.json()["field"].startswith("scores.1")
    huge = await client.post(f"{BASE}/matchpoints", json={"scores": [420, 10**9]})
    assert huge.status_code == 422
    assert huge.json()["field"].startswith("scores.1")
    too_few = await client.post(f"{BASE}/matchpoints", json={"scores": [1, 2, 3], "tables": 2})
    assert (too_few.status_code, too_few.json()["field"]) == (422, "tables")


async def test_butler_reproduces_the_spec_board(client: httpx.AsyncClient) -> None:
    scores, _, _ = _spec_matchpoint_board()
    datum, imps = _spec_butler()
    response = await client.post(f"{BASE}/butler", json={"scores": scores, "datum_method": "pzbs"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["datum"] == datum == 440
    assert body["mean"] == 445
    assert sorted(body["kept"]) == [-100, 620, 630, 630]
    for value, ns_imps, ew_imps in zip(scores, body["ns_imps"], body["ew_imps"], strict=True):
        if value in imps:
            assert ns_imps == imps[value]
        assert ew_imps == -ns_imps


async def test_butler_reference_examples(client: httpx.AsyncClient) -> None:
    # Reference 1.10: Bermuda Bowl 2011 style, no discard: 3 x 980, 11 x 480, 7 x 450,
    # 1 x -50 -> datum 510 (nearest 10); 980 -> 10, 480 -> -1, 450 -> -2, -50 -> -11.
    scores = [980] * 3 + [480] * 11 + [450] * 7 + [-50]
    body = {"scores": scores, "datum_method": "mean", "rounding": "nearest"}
    response = (await client.post(f"{BASE}/butler", json=body)).json()
    assert response["datum"] == 510
    by_score = dict(zip(scores, response["ns_imps"], strict=True))
    assert by_score == {980: 10, 480: -1, 450: -2, -50: -11}
    # ACBL: a mean of 425 rounds to 420 with nearest-even.
    even = {"scores": [400, 450], "datum_method": "mean", "rounding": "nearest-even"}
    assert (await client.post(f"{BASE}/butler", json=even)).json()["datum"] == 420
    wrong = await client.post(f"{BASE}/butler", json={"scores": [1], "datum_method": "median"})
    assert (wrong.status_code, wrong.json()["field"]) == (422, "datum_method")


async def test_cavendish_reference_examples(client: httpx.AsyncClient) -> None:
    # Reference 1.11, Polish averaged Cavendish (17-IMP cap, divided by comparisons).
    body = {"scores": [730, -170, 100, -420, -400], "divisor": "comparisons", "comparison_cap": 17}
    response = (await client.post(f"{BASE}/cavendish", json=body)).json()
    assert response["ns_imps"] == [14, -2.25, 4.25, -8.25, -7.75]
    assert response["comparisons"] == 4
    # BridgeHit: 430, 400, 150, -50 -> 6.0, 5.0, -2.667, -8.333 per comparison.
    body = {"scores": [430, 400, 150, -50], "divisor": "comparisons"}
    response = (await client.post(f"{BASE}/cavendish", json=body)).json()
    assert response["ns_imps"] == [6, 5, -2.67, -8.33]
    assert response["ew_imps"] == [-6, -5, 2.67, 8.33]
    capped = await client.post(f"{BASE}/cavendish", json={"scores": [1, 2], "comparison_cap": 30})
    assert (capped.status_code, capped.json()["field"]) == (422, "comparison_cap")


async def test_patton_reference_examples(client: httpx.AsyncClient) -> None:
    # Reference 1.13 (a variant with n balance points for n boards): example A 6:6,
    # example B 11:1.
    a = {"boards": [[420, 420], [110, 140], [-50, -100], [430, 420]], "balance_total": 4}
    body = (await client.post(f"{BASE}/patton", json=a)).json()
    assert body["board_points"] == [4, 4]
    assert body["scored"] == [1060, 1030]
    assert body["total"] == [6, 6]
    b = {"boards": [[620, -200], [-100, -100], [450, 420], [170, -110]], "balance_total": 4}
    body = (await client.post(f"{BASE}/patton", json=b)).json()
    assert body["board_points"] == [7, 1]
    assert body["balance_points"] == [4, 0]
    assert body["total"] == [11, 1]
    # The lecture's default stakes 2 balance points per board: 68 % of the balance -> 8:0.
    b.pop("balance_total")
    assert (await client.post(f"{BASE}/patton", json=b)).json()["total"] == [15, 1]
    bad = await client.post(f"{BASE}/patton", json={"boards": [[420]]})
    assert bad.status_code == 422
    assert bad.json()["field"].startswith("boards.0")


async def test_team_match_to_vp(client: httpx.AsyncClient) -> None:
    # +420 vs -50 (470: 10 IMPs), +620 vs -100 (720: 12), +110 vs +90 (20: 1) -> 23 IMPs
    # over a 16-board match: 15.56 to 4.44.
    boards = [[420, -50], [620, -100], [110, 90]]
    body = {"boards": boards, "boards_in_match": 16}
    response = (await client.post(f"{BASE}/match", json=body)).json()
    assert response["board_imps"] == [[10, 0], [12, 0], [1, 0]]
    assert response["imps"] == [23, 0]
    assert response["margin"] == 23
    assert response["vp"] == [15.56, 4.44]
    away = (await client.post(f"{BASE}/match", json={"boards": [[-50, 420]]})).json()
    assert away["margin"] == -10
    assert away["vp"][0] < away["vp"][1]


T = TypeVar("T")


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-250, 250).map(lambda x: x * 10), min_size=1, max_size=12))
def test_matchpoint_pairs_add_up_to_the_top(scores: list[int]) -> None:
    body = matchpoints_answer(MatchpointsRequest(scores=scores))
    assert all(ns + ew == body.top for ns, ew in zip(body.ns, body.ew, strict=True))
    assert sum(body.ns) == pytest.approx(body.top * len(scores) / 2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-400, 400).map(lambda x: x * 10), min_size=2, max_size=10))
def test_cross_imps_sum_to_zero(scores: list[int]) -> None:
    body = cavendish_answer(CavendishRequest(scores=scores, divisor="total"))
    assert sum(body.ns_imps) == 0
    assert [-x for x in body.ns_imps] == body.ew_imps


@settings(max_examples=80, deadline=None)
@given(st.integers(-300, 300), st.integers(1, 64))
def test_vp_pairs_sum_to_twenty(imps: int, boards: int) -> None:
    body = _run(victory_points(VpRequest(imps=imps, boards=boards)))
    assert round(body.winner + body.loser, 2) == 20
    assert body.winner >= body.loser


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 7),
    st.sampled_from(["C", "D", "H", "S", "NT"]),
    st.sampled_from(["", "X", "XX"]),
    st.sampled_from(["N", "E", "S", "W"]),
    st.integers(1, 16),
    st.integers(0, 13),
)
def test_ns_is_the_declaring_sides_score_signed(
    level: int, strain: str, doubling: str, declarer: str, board: int, tricks: int
) -> None:
    request = ScoreRequest(
        contract=f"{level}{strain}{doubling}", declarer=declarer, board=board, tricks=tricks
    )
    body = _run(score(request))
    sign = 1 if declarer in "NS" else -1
    assert body.ns == sign * body.score
    assert (body.score > 0) == (tricks >= 6 + level)


OLD_STYLE = {
    "name": "club 25:0",
    "bands": [
        {"from": 0, "winner": 15, "loser": 15},
        {"from": 3, "winner": 16, "loser": 14},
        {"from": 8, "winner": 18, "loser": 12},
        {"from": 20, "winner": 25, "loser": 5},
        {"from": 40, "winner": 25, "loser": 0},
    ],
}


async def test_custom_band_scale(client: httpx.AsyncClient) -> None:
    """A federation's own whole-number scale (such as the pre-2013 25:0) as a band table."""
    for imps, expected in ((0, [15, 15]), (5, [16, 14]), (-25, [25, 5]), (60, [25, 0])):
        response = await client.post(
            "/v1/compute/bridge/vp", json={"imps": imps, "boards": 16, "scale": OLD_STYLE}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert [body["winner"], body["loser"]] == expected
    broken = {"bands": [{"from": 5, "winner": 20, "loser": 0}]}
    response = await client.post(
        "/v1/compute/bridge/vp", json={"imps": 3, "boards": 16, "scale": broken}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "scale"
