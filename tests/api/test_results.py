"""Result reporting: provisional, confirmed, disputed, corrected; Idempotency-Key."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event as sqlalchemy_event

from service.db.events import events_since
from service.live.bus import InProcessBus
from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def _game(client: httpx.AsyncClient, event: Event, n: int, table: int) -> dict[str, Any]:
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
    return next(g for g in games if g["table"] == table)


async def _report(
    client: httpx.AsyncClient, event: Event, result: str, who: int | None, **headers: str
) -> httpx.Response:
    return await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": result},
        headers={**event.auth(who), **headers},
    )


async def test_two_agreeing_players_confirm(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    first = await _report(client, event, "0-1", game["white"])
    assert first.json()["status"] == "provisional"
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert all(row["points"] == 0 for row in standings["rows"])  # provisional: not counted
    second = await _report(client, event, "0-1", game["black"])
    assert second.json()["status"] == "confirmed"
    assert second.json()["reports"] == {"white": "0-1", "black": "0-1"}
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert {r["start_number"]: r["points"] for r in rows}[game["black"]] == 1


async def test_disagreement_is_disputed_until_the_organizer_decides(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    await _report(client, event, "1-0", game["white"])
    disputed = await _report(client, event, "0-1", game["black"])
    assert (disputed.json()["status"], disputed.json()["result"]) == ("disputed", None)
    decided = await _report(client, event, "1/2-1/2", None)
    assert (decided.json()["status"], decided.json()["result"]) == ("confirmed", "1/2-1/2")
    # both reports are kept beside the arbiter's decision
    assert decided.json()["reports"] == {"white": "1-0", "black": "0-1", "arbiter": "1/2-1/2"}


async def test_player_cannot_change_a_confirmed_result(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    await _report(client, event, "1-0", None)
    same = await _report(client, event, "1-0", game["black"])
    assert same.status_code == 200
    other = await _report(client, event, "0-1", game["black"])
    assert other.status_code == 409
    assert other.headers["content-type"] == "application/problem+json"
    assert other.json()["field"] == "result"
    assert (await _game(client, event, 1, 1))["result"] == "1-0"


async def test_a_player_reporting_another_pairs_game_is_forbidden(
    client: httpx.AsyncClient,
) -> None:
    """The engine's refusal (`NotOwnGame`, a rule refusal) is the service's 403, and the
    confirmed result's (`ResultLocked`) its 409, each with its own type and field."""
    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    stranger = next(n for n in range(1, 5) if n not in (game["white"], game["black"]))
    refused = await _report(client, event, "1-0", stranger)
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    body = refused.json()
    assert (body["type"], body["title"], body["field"]) == (
        "urn:arbiter:problem:forbidden",
        "Forbidden",
        "table",
    )
    assert body["detail"] == "a player may report only the results of their own games"
    assert (await _game(client, event, 1, 1))["status"] == "pending"
    await _report(client, event, "1-0", None)
    locked = (await _report(client, event, "0-1", game["black"])).json()
    assert (locked["type"], locked["status"], locked["field"]) == (
        "urn:arbiter:problem:conflict",
        409,
        "result",
    )


async def test_organizer_correction_is_an_event_not_an_overwrite(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    await _report(client, event, "1-0", None)
    corrected = await _report(client, event, "0-1", None)
    assert corrected.json()["result"] == "0-1"
    from service.db.events import events_since

    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.arbiter.sessions() as session:
        events = await events_since(session, event.id, 0)
    kinds = [e.type for e in events if e.type.startswith("result")]
    assert kinds == ["result_confirmed", "result_corrected"]
    assert events[-1].payload["previous"]["result"] == "1-0"


async def test_notation_is_kept_as_submitted(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    response = await _report(client, event, "+-", None)
    assert response.json()["result"] == "+-"
    body = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    assert body["games"][0]["result"] == "+-"


async def test_idempotency_key_replays_and_changes_nothing(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    key = {"Idempotency-Key": "report-1"}
    first = await _report(client, event, "1-0", game["white"], **key)
    again = await _report(client, event, "1-0", game["white"], **key)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again.headers.get("idempotent-replayed") == "true"
    clash = await _report(client, event, "0-1", game["white"], **key)
    assert clash.status_code == 422
    assert clash.json()["field"] == "Idempotency-Key"
    assert (await _game(client, event, 1, 1))["reports"] == {"white": "1-0"}


async def test_idempotent_create_makes_one_tournament(client: httpx.AsyncClient) -> None:
    body = {"name": "Once", "system": "round-robin"}
    headers = {"Idempotency-Key": "create-once-8d1f7c2e-0b9a-4e55-a6c3-5f2e9d7b1a04"}
    first = await client.post("/v1/tournaments", json=body, headers=headers)
    second = await client.post("/v1/tournaments", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]


async def test_simultaneous_reports_lose_nothing(client: httpx.AsyncClient) -> None:
    """Both players report at the same instant: one confirmation, both reports kept."""
    import asyncio

    event = await create_round_robin(client, PLAYERS)
    game = await _game(client, event, 1, 1)
    first, second = await asyncio.gather(
        _report(client, event, "1/2-1/2", game["white"]),
        _report(client, event, "1/2-1/2", game["black"]),
    )
    assert {first.status_code, second.status_code} == {200}
    final = await _game(client, event, 1, 1)
    assert final["status"] == "confirmed"
    assert final["reports"] == {"white": "1/2-1/2", "black": "1/2-1/2"}


async def test_many_tables_at_once(client: httpx.AsyncClient) -> None:
    import asyncio

    players = [(f"P{n:02d}", 2400 - n) for n in range(20)]
    event = await create_round_robin(client, players)
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    responses = await asyncio.gather(
        *(
            client.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/{g['table']}/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            for g in games
        )
    )
    assert all(r.status_code == 200 for r in responses)
    from service.db.events import events_since

    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.arbiter.sessions() as session:
        events = await events_since(session, event.id, 0)
    seqs = [e.seq for e in events]
    assert seqs == list(range(1, len(seqs) + 1))  # gapless, no duplicate sequence numbers
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert sum(r["points"] for r in standings["rows"]) == len(games)


async def test_the_current_round_moves_on_with_its_last_confirmation(
    client: httpx.AsyncClient,
) -> None:
    """`current_round` is the first round with a game not confirmed. It
    moves only when the round's last game is confirmed, not when a game is merely
    reported, and a later round's results never move it past an open one."""
    event = await create_round_robin(client, PLAYERS)

    async def current() -> int:
        body = (await client.get(f"/v1/tournaments/{event.id}")).json()
        return int(body["current_round"])

    async def confirm(round_number: int, table: int) -> None:
        response = await client.put(
            f"/v1/tournaments/{event.id}/rounds/{round_number}/games/{table}/result",
            json={"result": "1/2-1/2"},
            headers=event.auth(None),
        )
        assert response.status_code == 200, response.text

    assert await current() == 1
    second = await _game(client, event, 1, 2)
    provisional = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/2/result",
        json={"result": "1-0"},
        headers=event.auth(second["white"]),
    )
    assert provisional.json()["status"] == "provisional"
    await confirm(1, 1)
    assert await current() == 1  # table 2 is only provisional
    await confirm(2, 1)
    await confirm(2, 2)  # round 2 complete, but round 1 is not
    assert await current() == 1
    await confirm(1, 2)
    assert await current() == 3  # past round 1 and the completed round 2 at once
    await confirm(3, 1)
    await confirm(3, 2)
    finished = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert (finished["current_round"], finished["status"]) == (3, "finished")


async def test_a_result_announces_the_seq_its_event_took_without_reading_it_back(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write keeps the seq its event took (`append_event`): nothing reads the
    tournament's `last_seq` again before the announcement, and the seq announced is
    the newest event's (SQLite: the in-process bus, after the commit; PostgreSQL: the
    NOTIFY the appending statement queued)."""
    event = await create_round_robin(client, PLAYERS)
    state = app.state.arbiter
    announced: list[tuple[str, int]] = []
    if isinstance(state.bus, InProcessBus):
        publish = state.bus.publish

        async def recorded(tournament_id: str, seq: int) -> None:
            announced.append((tournament_id, seq))
            await publish(tournament_id, seq)

        monkeypatch.setattr(state.bus, "publish", recorded)
    engine = state.db_engine.sync_engine
    reads: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "SELECT last_seq FROM tournaments" in statement:
            reads.append(statement)

    sqlalchemy_event.listen(engine, "before_cursor_execute", seen)
    try:
        for table in (1, 2):
            answer = await client.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
                json={"result": "1-0"},
                headers={**event.auth(), "Idempotency-Key": f"announce-{table}"},
            )
            assert answer.status_code == 200, answer.text
    finally:
        sqlalchemy_event.remove(engine, "before_cursor_execute", seen)
    assert reads == []
    async with state.sessions() as session:
        logged = await events_since(session, event.id, 0)
    if isinstance(state.bus, InProcessBus):
        assert announced == [(event.id, e.seq) for e in logged[-2:]]
