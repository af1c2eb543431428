"""Bridge events over the API: pairs sessions (matchpoints, Butler, Cavendish) and a
teams event, results per table with tokens, corrections with history, PBN import, and
bad input that stores nothing."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.data import spec_bridge

EVENTS = "/v1/bridge/events"

# The lecture's worked board (docs/rules/bridge.md) as contracts on board 2 (NS
# vulnerable), declared by North:
# 3NT +3 = 690, 3NT +2 = 660, 3NT +1 = 630, 4S = 620, 4S -1 = -100, 4S -2 = -200.
CONTRACT_FOR = {
    690: ("3NT", 12),
    660: ("3NT", 11),
    630: ("3NT", 10),
    620: ("4S", 10),
    -100: ("4S", 9),
    -200: ("4S", 8),
}


def _spec_board() -> tuple[list[int], list[int]]:
    """The lecture's worked matchpoint board: eight NS scores and their matchpoints."""
    board = spec_bridge()["matchpoint_board"]
    return list(board["scores"]), list(board["matchpoints"])


@dataclass
class Bridge:
    """A created event and its tokens."""

    id: str
    organizer: str
    tables: dict[int, str]
    body: dict[str, Any]

    def auth(self, table: int | None = None) -> dict[str, str]:
        token = self.organizer if table is None else self.tables[table]
        return {"Authorization": f"Bearer {token}"}


async def _create(client: httpx.AsyncClient, body: dict[str, Any]) -> Bridge:
    response = await client.post(EVENTS, json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    tokens = {t["table"]: t["token"] for t in created["table_tokens"]}
    return Bridge(created["id"], created["organizer_token"], tokens, created)


def _one_board_session(scoring: str = "matchpoints", **extra: Any) -> dict[str, Any]:
    """Eight tables playing board 2 in one round: NS pairs 1-8, EW pairs 9-16."""
    return {
        "kind": "pairs",
        "name": "Worked board",
        "scoring": scoring,
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 17)],
        "boards": [2],
        "movement": [
            {
                "round": 1,
                "tables": [{"table": t, "ns": t, "ew": t + 8, "boards": [2]} for t in range(1, 9)],
            }
        ],
        **extra,
    }


def _small_session() -> dict[str, Any]:
    """A three-table Mitchell: NS pairs 1-3 stay at tables 1-3, EW pairs 4-6 move up,
    the board sets [1, 2], [3, 4], [5, 6] move down; boards 7 and 8 are in the session
    but nobody plays them."""
    sets = [[1, 2], [3, 4], [5, 6]]
    movement = []
    for r in range(3):
        tables = [
            {"table": t + 1, "ns": t + 1, "ew": 4 + (t - r) % 3, "boards": sets[(t + r) % 3]}
            for t in range(3)
        ]
        movement.append({"round": r + 1, "tables": tables})
    return {
        "kind": "pairs",
        "name": "Monday pairs",
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 7)],
        "boards": 8,
        "movement": movement,
    }


async def _enter(
    client: httpx.AsyncClient,
    event: Bridge,
    table: int,
    board: int,
    body: dict[str, Any],
    *,
    by: int | None = None,
    expect: int = 200,
) -> dict[str, Any]:
    response = await client.put(
        f"{EVENTS}/{event.id}/tables/{table}/boards/{board}",
        json=body,
        headers=event.auth(table if by is None else by) if by != 0 else event.auth(),
    )
    assert response.status_code == expect, response.text
    result: dict[str, Any] = response.json()
    return result


def _contract(score: int) -> dict[str, Any]:
    contract, tricks = CONTRACT_FOR[score]
    return {"contract": contract, "declarer": "N", "tricks": tricks}


async def _play_spec_board(client: httpx.AsyncClient, event: Bridge) -> list[int]:
    scores, _ = _spec_board()
    for table, score in enumerate(scores, start=1):
        stored = await _enter(client, event, table, 2, _contract(score))
        assert stored["ns_score"] == score
        assert (stored["ns"], stored["ew"], stored["round"]) == (table, table + 8, 1)
    return scores


async def _ranking(client: httpx.AsyncClient, event: Bridge) -> dict[str, Any]:
    response = await client.get(f"{EVENTS}/{event.id}/ranking")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_create_returns_tokens_once_and_reads_back(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    assert sorted(event.tables) == [1, 2, 3]
    assert event.body["kind"] == "pairs"
    assert event.body["scoring"] == "matchpoints"
    assert event.body["boards"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert (event.body["rounds"], event.body["expected_results"]) == (3, 18)
    read = (await client.get(f"{EVENTS}/{event.id}")).json()
    assert "organizer_token" not in read and "table_tokens" not in read
    assert read["status"] == "running" and read["current_round"] == 1
    # A bridge event is not a chess tournament's id under this path, and vice versa.
    assert (await client.get(f"{EVENTS}/nope")).status_code == 404


async def test_matchpoint_ranking_of_the_spec_board(client: httpx.AsyncClient) -> None:
    event = await _create(client, _one_board_session())
    scores, mps = _spec_board()
    await _play_spec_board(client, event)
    ranking = await _ranking(client, event)
    assert ranking["results"] == 8
    rows = {row["number"]: row for row in ranking["rows"]}
    for table, mp in enumerate(mps, start=1):
        assert rows[table]["score"] == mp
        assert rows[table + 8]["score"] == 14 - mp
        assert rows[table]["top"] == 14
        assert rows[table]["percent"] == round(mp * 100 / 14, 2)
    # NS 1 (690) and EW 16 (against -200) both have 14 of 14: a shared first place.
    first = [row for row in ranking["rows"] if row["rank"] == 1]
    assert sorted(row["number"] for row in first) == [1, 16]
    assert ranking["rows"][2]["rank"] == 3
    event_state = (await client.get(f"{EVENTS}/{event.id}")).json()
    assert event_state["status"] == "finished"
    assert len(scores) == event_state["results"]


async def test_butler_and_cavendish_sessions(client: httpx.AsyncClient) -> None:
    butler = await _create(client, _one_board_session("butler"))
    assert butler.body["options"] == {
        "butler": {"datum_method": "pzbs", "trim": 1, "rounding": "down", "round_cap": False}
    }
    await _play_spec_board(client, butler)
    rows = {row["number"]: row for row in (await _ranking(client, butler))["rows"]}
    # The lecture: datum 440; 690 -> 6, 660 -> 6, 630 -> 5, 620 -> 5, -100 -> -11, -200 -> -12.
    assert [rows[t]["score"] for t in range(1, 9)] == [6, 6, 5, 5, 5, -11, -11, -12]
    assert [rows[t + 8]["score"] for t in range(1, 9)] == [-6, -6, -5, -5, -5, 11, 11, 12]
    # EW 16 (+12) leads, EW 14 and 15 (+11) share second, NS 1 and 2 (+6) fourth.
    assert rows[16]["rank"] == 1
    assert rows[14]["rank"] == rows[15]["rank"] == 2
    assert rows[1]["rank"] == rows[2]["rank"] == 4
    cavendish = await _create(
        client, _one_board_session("cavendish", cavendish={"divisor": "total"})
    )
    await _play_spec_board(client, cavendish)
    ranking = await _ranking(client, cavendish)
    assert sum(row["score"] for row in ranking["rows"]) == 0
    assert ranking["rows"][0]["number"] in (1, 16)


async def test_table_tokens_enter_only_their_own_table(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    body = {"contract": "4S", "declarer": "N", "tricks": 10}
    # Table 1's token writing table 2's board: 403 naming the table; nothing stored.
    response = await client.put(
        f"{EVENTS}/{event.id}/tables/2/boards/3", json=body, headers=event.auth(1)
    )
    assert response.status_code == 403
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["field"] == "table"
    # No token, or a foreign token: 401.
    anonymous = await client.put(f"{EVENTS}/{event.id}/tables/1/boards/1", json=body)
    assert anonymous.status_code == 401
    other = await _create(client, _small_session())
    foreign = await client.put(
        f"{EVENTS}/{event.id}/tables/1/boards/1", json=body, headers=other.auth(1)
    )
    assert foreign.status_code == 401
    # A table may not award an adjusted score.
    adjusted = {"adjusted": {"ns_percent": 60, "ew_percent": 40}}
    refused = await client.put(
        f"{EVENTS}/{event.id}/tables/1/boards/1", json=adjusted, headers=event.auth(1)
    )
    assert (refused.status_code, refused.json()["field"]) == (403, "adjusted")
    assert (await client.get(f"{EVENTS}/{event.id}/results")).json() == []
    # The organizer may write any table.
    stored = await _enter(client, event, 2, 3, body, by=0)
    assert stored["entered_by"] == "organizer"
    assert stored["ns_score"] == 420  # board 3: EW vulnerable, North not


@pytest.mark.parametrize(
    ("table", "board", "body", "status", "field"),
    [
        (1, 7, {"contract": "4S", "declarer": "N", "tricks": 10}, 422, "board"),
        (1, 9, {"contract": "4S", "declarer": "N", "tricks": 10}, 422, "board"),
        (1, 1, {"contract": "8S", "declarer": "N", "tricks": 10}, 422, "contract"),
        (1, 1, {"contract": "4S", "declarer": "N", "tricks": 14}, 422, "tricks"),
        (1, 1, {"contract": "4S", "declarer": "N", "tricks": -2}, 422, "tricks"),
        (1, 1, {"contract": "4S", "tricks": 10}, 422, "declarer"),
        (1, 1, {"contract": "4S", "declarer": "N"}, 422, "tricks"),
        (1, 1, {"declarer": "N", "tricks": 10}, 422, "contract"),
        (9, 1, {"contract": "4S", "declarer": "N", "tricks": 10}, 404, "table"),
    ],
)
async def test_bad_results_are_refused_and_store_nothing(
    client: httpx.AsyncClient,
    table: int,
    board: int,
    body: dict[str, Any],
    status: int,
    field: str,
) -> None:
    event = await _create(client, _small_session())
    before = (await client.get(f"{EVENTS}/{event.id}")).json()
    response = await client.put(
        f"{EVENTS}/{event.id}/tables/{table}/boards/{board}", json=body, headers=event.auth()
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["field"] == field
    assert (await client.get(f"{EVENTS}/{event.id}/results")).json() == []
    after = (await client.get(f"{EVENTS}/{event.id}")).json()
    assert after == before


async def test_corrections_keep_their_history(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    url = f"{EVENTS}/{event.id}/tables/1/boards/1"
    first = await _enter(client, event, 1, 1, {"contract": "3NT", "declarer": "S", "tricks": 9})
    assert (first["ns_score"], first["version"], first["entered_by"]) == (400, 1, "table:1")
    # Repeating the same result changes nothing.
    again = await _enter(client, event, 1, 1, {"contract": "3NT", "declarer": "S", "tricks": 9})
    assert again["version"] == 1
    # The table corrects its own typo.
    fixed = await _enter(client, event, 1, 1, {"contract": "3NT", "declarer": "S", "tricks": 10})
    assert (fixed["ns_score"], fixed["version"]) == (430, 2)
    # The director awards an adjusted score; the table can no longer change it.
    adjusted = {"adjusted": {"ns_percent": 60, "ew_percent": 40}}
    director = await _enter(client, event, 1, 1, adjusted, by=0)
    assert (director["ns_score"], director["adjusted"], director["version"]) == (
        None,
        {"ns_percent": 60, "ew_percent": 40},
        3,
    )
    refused = await client.put(url, json={"contract": "pass"}, headers=event.auth(1))
    assert (refused.status_code, refused.json()["field"]) == (409, "board")
    history = (await client.get(url)).json()
    assert history["version"] == 3
    steps = history["history"]
    assert [s["event"] for s in steps] == [
        "bridge_result_entered",
        "bridge_result_corrected",
        "bridge_result_corrected",
    ]
    assert [s["by"] for s in steps] == ["table:1", "table:1", "organizer"]
    assert steps[0]["previous"] is None
    assert steps[1]["previous"]["ns_score"] == 400
    assert steps[2]["previous"]["ns_score"] == 430
    assert steps[2]["result"]["adjusted"] == {"ns_percent": 60, "ew_percent": 40}
    missing = await client.get(f"{EVENTS}/{event.id}/tables/1/boards/2")
    assert missing.status_code == 404


async def test_idempotent_retry_returns_the_first_answer(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    url = f"{EVENTS}/{event.id}/tables/2/boards/3"
    headers = {**event.auth(2), "Idempotency-Key": "t2-b3"}
    body = {"contract": "2HX", "declarer": "E", "tricks": 8}
    first = await client.put(url, json=body, headers=headers)
    second = await client.put(url, json=body, headers=headers)
    assert first.status_code == second.status_code == 200
    assert second.headers.get("idempotent-replayed") == "true"
    assert first.json() == second.json()
    assert first.json()["ns_score"] == -670  # board 3: EW vulnerable, 2HX= is 670 vul
    history = (await client.get(url)).json()["history"]
    assert len(history) == 1


async def test_live_ranking_of_a_small_session(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    empty = await _ranking(client, event)
    assert [row["percent"] for row in empty["rows"]] == [50] * 6
    assert all(row["rank"] == 1 for row in empty["rows"])
    # Board 1 is played at table 1 (round 1: 1 v 4), table 3 (round 2: 3 v 5) and
    # table 2 (round 3: 2 v 6); tables 1 and 3 report.
    await _enter(client, event, 1, 1, {"contract": "4H", "declarer": "N", "tricks": 10})
    await _enter(client, event, 3, 1, {"contract": "4H", "declarer": "N", "tricks": 9})
    ranking = await _ranking(client, event)
    rows = {row["number"]: row for row in ranking["rows"]}
    # Two of the board's three results are in: Neuberg factors 2 and 0 on a top of 2
    # up to 3.5 and 0.5 on the full top of 4 (reference 1.8).
    assert (rows[1]["score"], rows[1]["top"], rows[1]["percent"]) == (3.5, 4, 87.5)
    assert (rows[5]["score"], rows[5]["percent"]) == (3.5, 87.5)  # EW at table 3
    assert (rows[4]["score"], rows[4]["percent"], rows[4]["boards"]) == (0.5, 12.5, 1)
    assert rows[2]["boards"] == 0 and rows[2]["percent"] == 50
    assert [row["number"] for row in ranking["rows"]] == [1, 5, 2, 6, 3, 4]
    assert [row["rank"] for row in ranking["rows"]] == [1, 1, 3, 3, 5, 5]
    only_board_one = (await client.get(f"{EVENTS}/{event.id}/results?board=1")).json()
    assert [(r["table"], r["round"]) for r in only_board_one] == [(1, 1), (3, 2)]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            lambda b: b["movement"][0]["tables"][0].update(boards=[1, 9]),
            "movement.0.tables.0.boards.1",
        ),
        (lambda b: b["movement"][0]["tables"][1].update(ns=1), "movement.0.tables.1.ns"),
        (lambda b: b["movement"][0]["tables"][1].update(ew=77), "movement.0.tables.1.ew"),
        (
            lambda b: b["movement"][1]["tables"][0].update(boards=[1, 2]),
            "movement.1.tables.0.boards.0",
        ),
        (lambda b: b["movement"][1].update(round=1), "movement.1.round"),
        (lambda b: b["movement"][0]["tables"][1].update(table=1), "movement.0.tables.1.table"),
        (lambda b: b["pairs"][1].update(number=1), "pairs.1.number"),
        (lambda b: b.update(boards=0), "boards"),
        (lambda b: b.update(scoring="aggregate"), "scoring"),
        (lambda b: b.pop("movement"), "movement"),
        (lambda b: b.update(rounds=[]), "rounds"),
    ],
)
async def test_bad_movements_are_refused(
    client: httpx.AsyncClient, change: Any, field: str
) -> None:
    body = _small_session()
    change(body)
    response = await client.post(EVENTS, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field


def _teams_event(boards: int = 16) -> dict[str, Any]:
    return {
        "kind": "teams",
        "name": "Club teams",
        "teams": [{"number": 1, "name": "Home"}, {"number": 2, "name": "Away"}],
        "boards": boards,
        "rounds": [
            {
                "round": 1,
                "matches": [
                    {
                        "home": 1,
                        "away": 2,
                        "open_table": 1,
                        "closed_table": 2,
                        "boards": list(range(1, boards + 1)),
                    }
                ],
            }
        ],
    }


def _pbn_game(board: int, table: int, contract: str, declarer: str, tricks: int) -> str:
    lines = [
        '[Event "Club teams"]',
        f'[Board "{board}"]',
        f'[Table "{table}"]',
        '[Round "1"]',
        f'[Declarer "{declarer}"]',
        f'[Contract "{contract}"]',
        f'[Result "{tricks}"]',
    ]
    return "\n".join(lines) + "\n"


async def test_teams_match_imps_and_vp_from_a_pbn_import(client: httpx.AsyncClient) -> None:
    event = await _create(client, _teams_event())
    assert sorted(event.tables) == [1, 2]
    assert (event.body["kind"], event.body["scoring"]) == ("teams", "imps-vp")
    assert event.body["options"] == {"scale": "wbf-2013"}
    # Board 1 (none vul): open 4S= +420, closed 4S-1 -50 -> 470 = 10 IMPs. Board 2 (NS
    # vul): 4S= +620 v 4S-1 -100 -> 12 IMPs. Board 3: 2S+0 +110 v 1NT= +90 -> 1 IMP.
    # Every other board is passed out in both rooms: 23 IMPs over 16 boards.
    games = [
        _pbn_game(1, 1, "4S", "N", 10),
        _pbn_game(1, 2, "4S", "N", 9),
        _pbn_game(2, 1, "4S", "N", 10),
        _pbn_game(2, 2, "4S", "N", 9),
        _pbn_game(3, 1, "2S", "N", 8),
        _pbn_game(3, 2, "1NT", "N", 7),
    ]
    for board in range(4, 17):
        for table in (1, 2):
            games.append(f'[Board "{board}"]\n[Table "{table}"]\n[Contract "Pass"]\n')
    text = "% PBN 2.1\n\n" + "\n".join(games)
    response = await client.post(
        f"{EVENTS}/{event.id}/import",
        content=text.encode(),
        headers={**event.auth(), "content-type": "text/plain"},
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"games": 32, "changed": 32, "unchanged": 0}
    ranking = await _ranking(client, event)
    home, away = ranking["rows"]
    assert (home["number"], home["score"], home["imps_for"]) == (1, 15.56, 23)
    assert (away["number"], away["score"], away["imps_against"]) == (2, 4.44, 23)
    assert ranking["matches"] == [
        {"round": 1, "home": 1, "away": 2, "boards": 16, "imps": [23, 0], "vp": [15.56, 4.44]}
    ]
    # Importing the same file again changes nothing.
    again = await client.post(
        f"{EVENTS}/{event.id}/import",
        content=text.encode(),
        headers={**event.auth(), "content-type": "text/plain"},
    )
    assert again.json() == {"games": 32, "changed": 0, "unchanged": 32}


async def test_teams_live_match_and_adjusted_board(client: httpx.AsyncClient) -> None:
    event = await _create(client, _teams_event(boards=2))
    # Only the open room is in: nothing scored yet.
    await _enter(client, event, 1, 1, {"contract": "4S", "declarer": "N", "tricks": 10})
    first = await _ranking(client, event)
    assert first["matches"][0]["boards"] == 0
    assert [row["rank"] for row in first["rows"]] == [1, 1]
    # The closed room's North (the visitors) makes the same 4S: a flat board.
    await _enter(client, event, 2, 1, {"contract": "4S", "declarer": "N", "tricks": 10})
    second = await _ranking(client, event)
    assert second["matches"][0]["imps"] == [0, 0]
    # Had the home East declared it in the closed room, home would gain 840: 13 IMPs.
    await _enter(client, event, 2, 1, {"contract": "4S", "declarer": "E", "tricks": 10})
    assert (await _ranking(client, event))["matches"][0]["imps"] == [13, 0]
    await _enter(client, event, 2, 1, {"contract": "4S", "declarer": "N", "tricks": 10})
    # The director gives the closed room 40/60 on board 2 (home sits EW there):
    # home +3 IMPs, away -3.
    await _enter(client, event, 2, 2, {"adjusted": {"ns_percent": 40, "ew_percent": 60}}, by=0)
    await _enter(client, event, 1, 2, {"contract": "pass"})
    third = await _ranking(client, event)
    assert third["matches"][0]["imps"] == [3, -3]
    assert third["rows"][0]["number"] == 1
    assert (await client.get(f"{EVENTS}/{event.id}")).json()["status"] == "finished"


async def test_pbn_import_is_all_or_nothing(client: httpx.AsyncClient) -> None:
    event = await _create(client, _small_session())
    headers = {**event.auth(), "content-type": "text/plain"}
    good = _pbn_game(1, 1, "4H", "N", 10)
    cases = [
        (good + "\n" + _pbn_game(7, 1, "4H", "N", 10), "games.1.Board"),
        (good + "\n" + _pbn_game(2, 1, "8H", "N", 10), "body"),
        (
            good + "\n" + '[Board "2"]\n[Contract "4H"]\n[Declarer "N"]\n[Result "9"]\n',
            "games.1.Table",
        ),
        (
            good + "\n" + _pbn_game(2, 1, "4H", "N", 10).replace('Round "1"', 'Round "2"'),
            "games.1.Round",
        ),
        (good + "\n" + _pbn_game(9, 2, "4H", "N", 10), "games.1.Board"),
        ('[Board "1"]\n[Deal "N:..."]\n', "body"),
        # `²` is a digit to str.isdigit and not to int(): named, not a 500
        (
            good + "\n" + _pbn_game(2, 1, "4H", "N", 10).replace('Table "1"', 'Table "²"'),
            "games.1.Table",
        ),
        (good + "\n" + _pbn_game(2, 1, "4H", "N", 10).replace('Board "2"', 'Board "²"'), "body"),
        (
            good + "\n" + _pbn_game(2, 1, "4H", "N", 10).replace('Result "10"', 'Result "¹⁰"'),
            "body",
        ),
    ]
    for text, field in cases:
        response = await client.post(f"{EVENTS}/{event.id}/import", content=text, headers=headers)
        assert response.status_code == 422, (field, response.text)
        assert response.json()["field"] == field
        assert (await client.get(f"{EVENTS}/{event.id}/results")).json() == []
    table_token = await client.post(
        f"{EVENTS}/{event.id}/import",
        content=good,
        headers={**event.auth(1), "content-type": "text/plain"},
    )
    assert table_token.status_code == 403


async def test_every_table_reporting_at_once(client: httpx.AsyncClient) -> None:
    # All eight scoring apps send the board's result at the same moment: every write
    # lands, each as its own event with a gapless sequence number.
    event = await _create(client, _one_board_session())
    scores, mps = _spec_board()

    async def report(table: int, score: int) -> httpx.Response:
        return await client.put(
            f"{EVENTS}/{event.id}/tables/{table}/boards/2",
            json=_contract(score),
            headers=event.auth(table),
        )

    responses = await asyncio.gather(
        *(report(table, score) for table, score in enumerate(scores, start=1))
    )
    assert [r.status_code for r in responses] == [200] * 8
    steps = [
        (await client.get(f"{EVENTS}/{event.id}/tables/{t}/boards/2")).json()["history"][0]["seq"]
        for t in range(1, 9)
    ]
    assert sorted(steps) == list(range(min(steps), min(steps) + 8))
    ranking = await _ranking(client, event)
    assert [row["score"] for row in ranking["rows"] if row["number"] <= 8] == sorted(
        mps, reverse=True
    )


async def test_the_organizer_removes_a_result_entered_by_mistake(
    client: httpx.AsyncClient,
) -> None:
    event = await _create(client, _teams_event(boards=1))
    url = f"{EVENTS}/{event.id}/tables/2/boards/1"
    await _enter(client, event, 1, 1, {"contract": "3NT", "declarer": "S", "tricks": 9})
    await _enter(client, event, 2, 1, {"contract": "3NT", "declarer": "S", "tricks": 8})
    assert (await client.get(f"{EVENTS}/{event.id}")).json()["status"] == "finished"
    by_table = await client.delete(url, headers=event.auth(2))
    assert (by_table.status_code, by_table.json()["field"]) == (403, "Authorization")
    removed = await client.delete(url, headers=event.auth())
    assert removed.status_code == 204
    assert (await client.get(url)).status_code == 404
    state = (await client.get(f"{EVENTS}/{event.id}")).json()
    assert (state["status"], state["results"]) == ("running", 1)
    assert (await _ranking(client, event))["matches"][0]["boards"] == 0
    again = await client.delete(url, headers=event.auth())
    assert (again.status_code, again.json()["field"]) == (404, "board")
    # The table enters the board again; the log shows entry, removal, entry.
    await _enter(client, event, 2, 1, {"contract": "3NT", "declarer": "S", "tricks": 9})
    history = (await client.get(url)).json()["history"]
    assert [h["event"] for h in history] == [
        "bridge_result_entered",
        "bridge_result_removed",
        "bridge_result_entered",
    ]
    assert history[1]["result"] is None
    assert history[1]["previous"]["ns_score"] == -50


async def test_teams_event_with_a_custom_scale(client: httpx.AsyncClient) -> None:
    scale = {
        "name": "club 25:0",
        "bands": [
            {"from": 0, "winner": 15, "loser": 15},
            {"from": 10, "winner": 20, "loser": 10},
            {"from": 13, "winner": 25, "loser": 5},
        ],
    }
    event = await _create(client, {**_teams_event(boards=2), "scale": scale})
    assert event.body["options"]["scale"]["bands"][1] == {"from": 10, "winner": 20, "loser": 10}
    # open room 4S= by the home NS (+420), closed room 4S-1 by the visitors' NS: +50 for
    # home there, so 470 on the board: 10 IMPs, the 20:10 band
    await _enter(client, event, 1, 1, {"contract": "4S", "declarer": "N", "tricks": 10})
    await _enter(client, event, 2, 1, {"contract": "4S", "declarer": "N", "tricks": 9})
    ranking = await _ranking(client, event)
    assert ranking["matches"][0]["imps"] == [10, 0]
    assert ranking["matches"][0]["vp"] == [20, 10]
    bad = await client.post(
        EVENTS, json={**_teams_event(), "scale": {"bands": [{"from": 3, "winner": 1}]}}
    )
    assert bad.status_code == 422
