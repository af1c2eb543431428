"""`POST /v1/compute/ratings`: rating changes, initial ratings and norms of a whole
tournament sent as JSON or TRF; missing facts named per player, bad input a problem."""

from __future__ import annotations

import httpx

TRF = (
    "012 Ratings example\n"
    "042 2026/03/01\n"
    "001    1 m    Alpha, A                          2000 ENG             1990/01/01  1.0    1"
    "     2 w 1  \n"
    "001    2 m    Beta, B                           1900 FRA             2010/01/01  0.0    2"
    "     1 b 0  \n"
)


def _body() -> dict[str, object]:
    return {
        "year": 2026,
        "players": [
            {
                "id": "a",
                "rating": 2000,
                "games_before": 100,
                "reached_2400": False,
                "birth_year": 1990,
            },
            {"id": "b", "rating": 1900, "k": 20},
            {"id": "c", "rating": 2500, "title": "GM", "federation": "ger"},
            {"id": "d"},
        ],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "1-0"},
            {"round": 1, "white": "c", "black": "d", "result": "1-0"},
            {"round": 2, "white": "b", "black": "a", "result": "+-"},
            {"round": 2, "white": "d", "black": "c", "result": "1/2-1/2"},
        ],
    }


async def test_json_rows(client: httpx.AsyncClient) -> None:
    """a beats b (0.64 expected, K 20: +7.2); the forfeit is not rated; c's games are
    against an unrated player: no rated game; d is unrated with too few games."""
    response = await client.post("/v1/compute/ratings", json=_body())
    assert response.status_code == 200, response.text
    rows = {row["id"]: row for row in response.json()["players"]}
    a = rows["a"]
    assert (a["games"], a["score"], a["expected"], a["k"], a["change"]) == (1, 1.0, 0.64, 20, 7.2)
    assert a["k_rule"] == "standard"
    assert rows["b"]["change"] == -7.2
    assert (rows["c"]["games"], rows["c"]["change"], rows["c"]["k"]) == (0, 0.0, 10)
    assert rows["d"]["rating"] is None
    assert rows["d"]["initial"]["status"] == "not-enough-games"
    assert rows["d"]["change"] is None
    assert [n["title"] for n in rows["a"]["norms"]] == ["GM", "IM", "WGM", "WIM"]


async def test_missing_facts_are_named(client: httpx.AsyncClient) -> None:
    body = _body()
    body["players"][0] = {"id": "a", "rating": 2000}  # type: ignore[index]
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 200, response.text
    a = response.json()["players"][0]
    assert (a["k"], a["change"]) == (None, None)
    assert a["missing"] == ["reached_2400", "games_before", "birth_year"]


async def test_trf_body_reads_the_year_and_birth_dates(client: httpx.AsyncClient) -> None:
    """Player 2, born 2010, is a junior in 2026 (042): K 40 once the 2400 fact is known;
    a TRF file does not carry it, so it is missing."""
    response = await client.post(
        "/v1/compute/ratings", content=TRF, headers={"content-type": "text/plain"}
    )
    assert response.status_code == 200, response.text
    document = response.json()
    assert document["year"] == 2026
    two = document["players"][1]
    assert two["missing"] == ["reached_2400"]
    assert (two["games"], two["expected"]) == (1, 0.36)


async def test_bad_input_is_a_problem_naming_the_field(client: httpx.AsyncClient) -> None:
    body = _body()
    body["players"][1] = {"id": "b", "rating": 1900, "k": 41}  # type: ignore[index]
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["field"] == "players.1.k"
    unknown = await client.post("/v1/compute/ratings", json={"players": [{"id": 1, "x": 1}]})
    assert unknown.status_code == 422


async def test_a_whole_file_is_an_upload(client: httpx.AsyncClient) -> None:
    """Like standings and pairings, the ratings route reads a whole tournament in the
    compute workers: a 2 MB file is within the upload limit, not the 1 MB body limit."""
    comments = "### a comment line of the file\n" * 65_000
    response = await client.post(
        "/v1/compute/ratings",
        content=(TRF + comments).encode(),
        headers={"content-type": "text/plain"},
    )
    assert response.status_code == 200, response.text
    assert len(response.json()["players"]) == 2


async def test_a_gm_norm_with_its_figures(client: httpx.AsyncClient) -> None:
    """Nine games against 2480s (3 GMs, 2 IMs, an FM, three untitled, four federations):
    7/9 = 78 % (dp 220) on Ra 2480 gives Rp 2700: a GM norm; as a man, no WGM/WIM."""
    titles = ["GM", "GM", "GM", "IM", "IM", "FM", None, None, None]
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED", "NED"]
    players: list[dict[str, object]] = [
        {"id": "seeker", "rating": 2450, "federation": "ENG", "sex": "m", "k": 10}
    ]
    games = []
    for n, (title, fed) in enumerate(zip(titles, feds, strict=True), start=1):
        players.append({"id": n, "rating": 2480, "title": title, "federation": fed})
        games.append(
            {"round": n, "white": "seeker", "black": n, "result": "1-0" if n <= 5 else "1/2-1/2"}
        )
    response = await client.post("/v1/compute/ratings", json={"players": players, "games": games})
    assert response.status_code == 200, response.text
    seeker = response.json()["players"][0]
    assert [n["title"] for n in seeker["norms"]] == ["GM", "IM"]
    gm = seeker["norms"][0]
    assert gm["met"] is True
    figures = {c["name"]: c["value"] for c in gm["conditions"]}
    assert (figures["average_rating"], figures["score_percent"], figures["performance"]) == (
        2480,
        78,
        2700,
    )
    # the rating change beside it: 9 games, expected 0.46 each (D 30: band 26-32)
    assert (seeker["games"], seeker["expected"], seeker["change"]) == (9, 4.14, 28.6)
