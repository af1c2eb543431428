"""`POST /v1/compute/ratings`: the norm rules of the event's kind (B.01 1.4.3a-d, named
in `exempt`) and, with one round left, each norm's forecast, worked by hand."""

from __future__ import annotations

import httpx

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.trf import TrfDocument, write_trf

TITLES = ["GM", "GM", "IM", "IM", "IM", "FM", None, None]
FEDS = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED"]
RESULTS = ["1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1", "1-0"]
"""5.5 of 8 for the seeker."""


def _body(feds: list[str] = FEDS) -> dict[str, object]:
    """The seeker (ENG, a man) met eight 2450s in rounds 1-8 of 9."""
    players: list[dict[str, object]] = [
        {"id": "seeker", "rating": 2400, "federation": "ENG", "sex": "m", "k": 10}
    ]
    games = []
    for n, (title, fed, result) in enumerate(zip(TITLES, feds, RESULTS, strict=True), start=1):
        players.append({"id": n, "rating": 2450, "title": title, "federation": fed})
        games.append({"round": n, "white": "seeker", "black": n, "result": result})
    return {"players": players, "games": games, "rounds": 9}


async def test_the_forecast_before_the_last_round(client: httpx.AsyncClient) -> None:
    """Round 9 unpaired. GM (two GMs met, a third needed): eight 2450s sum 19600; a
    win (6.5/9 = 72 %, dp 166) needs Ra >= 2434, the ninth rated 2302 or more
    ((19600 + 2302) / 9 = 2433.56 -> 2434); a draw (67 %, dp 125) needs Ra 2475, 2671 or
    more. IM: a loss (61 %, dp 80) on Ra >= 2406 (the IM floor 2050) is 2486: secured."""
    response = await client.post("/v1/compute/ratings", json=_body())
    assert response.status_code == 200, response.text
    seeker = response.json()["players"][0]
    gm, im = seeker["norms"]
    assert gm["forecast"] == {
        "round": 9,
        "opponent": None,
        "status": "open",
        "needs": "draw",
        "against": {
            "min_rating": 2671,
            "titles": ["GM"],
            "new_federation": False,
            "federations_excluded": [],
        },
        "options": [
            {
                "result": "draw",
                "against": {
                    "min_rating": 2671,
                    "titles": ["GM"],
                    "new_federation": False,
                    "federations_excluded": [],
                },
            },
            {
                "result": "win",
                "against": {
                    "min_rating": 2302,
                    "titles": ["GM"],
                    "new_federation": False,
                    "federations_excluded": [],
                },
            },
        ],
    }
    assert (im["forecast"]["status"], im["forecast"]["needs"]) == ("secured", "loss")
    assert im["forecast"]["against"] is None


async def test_the_forecast_against_the_paired_opponent(client: httpx.AsyncClient) -> None:
    """Round 9 paired against a GM of 2350: Ra 2439; a win gives 2605, a draw 2564."""
    body = _body()
    body["players"].append(  # type: ignore[attr-defined]
        {"id": "last", "rating": 2350, "title": "GM", "federation": "GER"}
    )
    body["games"].append({"round": 9, "white": "last", "black": "seeker"})  # type: ignore[attr-defined]
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 200, response.text
    gm = response.json()["players"][0]["norms"][0]
    forecast = gm["forecast"]
    assert (forecast["opponent"], forecast["needs"], forecast["against"]) == ("last", "win", None)
    assert [o["result"] for o in forecast["options"]] == ["win"]


async def test_no_forecast_without_the_round_count(client: httpx.AsyncClient) -> None:
    body = _body()
    del body["rounds"]
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.json()["players"][0]["norms"][0]["forecast"] is None


async def test_a_national_championship_exempts_its_players(client: httpx.AsyncClient) -> None:
    """All eight opponents ENG, like the seeker: 1.4.3 and 1.4.4 fail; declared the
    ENG national championship (body or query), they are waived (1.4.3a)."""
    body = _body(["ENG"] * 8)
    response = await client.post("/v1/compute/ratings", json=body)
    im = response.json()["players"][0]["norms"][1]
    own = next(c for c in im["conditions"] if c["name"] == "own_federation")
    assert (own["value"], own["met"], own["exempt"]) == (8, False, None)
    body.update(event_kind="national-championship", host_federation="ENG")
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 200, response.text
    im = response.json()["players"][0]["norms"][1]
    own = next(c for c in im["conditions"] if c["name"] == "own_federation")
    assert (own["value"], own["met"], own["exempt"]) == (8, True, "1.4.3a national championship")
    assert im["forecast"]["status"] == "secured"
    del body["host_federation"]
    response = await client.post(
        "/v1/compute/ratings", json=body, params={"host_federation": "eng"}
    )
    im = response.json()["players"][0]["norms"][1]
    own = next(c for c in im["conditions"] if c["name"] == "own_federation")
    assert own["exempt"] == "1.4.3a national championship"


async def test_bad_norm_settings_are_problems(client: httpx.AsyncClient) -> None:
    body = _body()
    body["event_kind"] = "open"
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 422
    assert "event_kind" in response.text
    response = await client.post(
        "/v1/compute/ratings", json=_body(), params={"host_federation": "ENGL"}
    )
    assert response.status_code == 422
    assert "host_federation" in response.text


async def test_a_trf_file_names_its_host_and_format(client: httpx.AsyncClient) -> None:
    """032 ENG and 092 "National championship, Swiss": the format is read from 092; the
    kind comes from the query; the seeker's eight ENG opponents are then exempt."""
    players = [Player(1, "Seeker, S", 2400, federation="ENG", sex="m")] + [
        Player(n + 2, f"Opponent, {n}", 2450, federation="ENG", title=title)
        for n, title in enumerate(TITLES)
    ]
    rounds = tuple(
        Round(n, (Game(n, 1, n + 1, GameResult(r)),)) for n, r in enumerate(RESULTS, start=1)
    )
    event = Tournament(players=tuple(players), rounds=rounds, total_rounds=9)
    text = write_trf(TrfDocument(event, headers=(("032", "ENG"), ("092", "Swiss System"))))
    response = await client.post(
        "/v1/compute/ratings",
        content=text,
        headers={"content-type": "text/plain"},
        params={"event_kind": "national-championship"},
    )
    assert response.status_code == 200, response.text
    im = response.json()["players"][0]["norms"][1]
    own = next(c for c in im["conditions"] if c["name"] == "own_federation")
    assert own["exempt"] == "1.4.3a national championship"
    assert im["forecast"]["status"] == "secured"


def _eleven_rounds() -> dict[str, object]:
    """The seeker (ENG, a man) met nine 2390s (4 GMs, 2 IMs; beat the first five, drew
    the rest) in rounds 1-9, then beat a 1900 (round 10) and a 2100 (round 11)."""
    titles = ["GM", "GM", "GM", "GM", "IM", "IM", None, None, None, None, None]
    feds = ["GER", "FRA", "ESP", "ITA", "NED", "POL", "HUN", "SWE", "NOR", "SUI", "AUT"]
    ratings = [2390] * 9 + [1900, 2100]
    players: list[dict[str, object]] = [
        {"id": "seeker", "rating": 2400, "federation": "ENG", "sex": "m", "k": 10}
    ]
    games = []
    for n in range(1, 12):
        players.append(
            {"id": n, "rating": ratings[n - 1], "title": titles[n - 1], "federation": feds[n - 1]}
        )
        result = "1-0" if n <= 5 or n >= 10 else "1/2-1/2"
        games.append({"round": n, "white": "seeker", "black": n, "result": result})
    return {"players": players, "games": games, "rounds": 11}


async def test_a_norm_made_leaving_out_two_wins(client: httpx.AsyncClient) -> None:
    """B.01 1.4.1f. Over the 11 games Ra = (9 x 2390 + 2200 + 2100) / 11 = 2346 (the
    1900 raised to the GM floor) < 2380; one win left out keeps the other at 2200, Ra
    2371. Without rounds 10 and 11: Ra 2390, 7/9 = 78 % (dp 220), Rp 2610: the GM norm,
    naming the games left out; the IM norm (1900 raised to 2050: Ra 2333, 82 %, dp 262,
    Rp 2595) needs none."""
    response = await client.post("/v1/compute/ratings", json=_eleven_rounds())
    assert response.status_code == 200, response.text
    gm, im = response.json()["players"][0]["norms"]
    assert gm["met"] is True
    assert gm["excluded"] == [{"round": 10, "opponent": 10}, {"round": 11, "opponent": 11}]
    values = {c["name"]: c["value"] for c in gm["conditions"]}
    assert (values["games"], values["average_rating"], values["performance"]) == (9, 2390, 2610)
    assert values["excluded_games"] == 2
    assert (im["met"], im["excluded"]) == (True, [])
