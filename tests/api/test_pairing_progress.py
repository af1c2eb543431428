"""A long pairing reports its progress
(docs/rules/swiss.md#pairing-a-large-round-the-progress-stream): `POST /rounds` with
`Accept: application/x-ndjson` streams one JSON line per bracket step, then the round (the
same document as the plain 201) or the problem that stopped it."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from service.engine.model import Player, Tournament
from service.engine.pairing import dutch
from service.errors import Conflict
from tests.api.conftest import Event, create_round_robin
from tests.api.test_swiss_api import confirm_all, pair

FIELD = [(f"Player {n:02d}", 2600 - 10 * n) for n in range(1, 42)]  # 41: a bye a round
NDJSON = {"accept": "application/x-ndjson"}


def _lines(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


async def _streamed(client: httpx.AsyncClient, event: Event, **headers: str) -> httpx.Response:
    return await client.post(
        f"/v1/tournaments/{event.id}/rounds", headers={**event.auth(), **NDJSON, **headers}
    )


async def _swiss(client: httpx.AsyncClient) -> Event:
    return await create_round_robin(
        client, FIELD, system="swiss-dutch", rounds=5, swiss={"initial_colour": "white"}
    )


async def test_progress_lines_then_the_round(client: httpx.AsyncClient) -> None:
    event = await _swiss(client)
    assert (await pair(client, event)).status_code == 201
    await confirm_all(client, event, 1)
    response = await _streamed(client, event)
    assert response.status_code == 200, response.text
    lines = _lines(response)
    progress = [line for line in lines[:-1] if line["event"] == "progress"]
    assert len(progress) == len(lines) - 1 >= 2
    assert {line["players"] for line in progress} == {41}  # everyone present
    reached = [line["reached"] for line in progress]
    assert reached == sorted(reached) and reached[0] == 0 and reached[-1] == 41
    assert lines[-1]["event"] == "round"
    stored = (await client.get(f"/v1/tournaments/{event.id}/rounds/2")).json()
    streamed = lines[-1]["round"]
    assert (streamed["round"], streamed["games"], streamed["byes"]) == (
        2,
        stored["games"],
        stored["byes"],
    )


async def test_a_check_that_fails_first_is_an_ordinary_problem(
    client: httpx.AsyncClient,
) -> None:
    event = await _swiss(client)
    assert (await pair(client, event)).status_code == 201
    blocked = await _streamed(client, event)  # round 1 still open
    assert blocked.status_code == 409
    assert blocked.headers["content-type"] == "application/problem+json"
    assert blocked.json()["tables"] == list(range(1, 21))


async def test_a_stream_is_not_replayable(client: httpx.AsyncClient) -> None:
    event = await _swiss(client)
    refused = await _streamed(client, event, **{"idempotency-key": "pair-round-1-abcdefgh"})
    assert refused.status_code == 422
    assert refused.json()["field"] == "Idempotency-Key"
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404


async def test_the_plain_request_still_answers_201(client: httpx.AsyncClient) -> None:
    event = await _swiss(client)
    response = await pair(client, event)
    assert response.status_code == 201
    assert response.json()["round"] == 1


def test_the_engine_reports_each_bracket() -> None:
    players = tuple(Player(n, f"P{n}", 2400 - n) for n in range(1, 13))
    steps: list[tuple[int, int]] = []
    dutch.pair_round(Tournament(players=players, total_rounds=3), progress=_into(steps))
    assert steps[0] == (0, 12) and steps[-1] == (12, 12)
    assert [reached for reached, _ in steps] == sorted(reached for reached, _ in steps)


def _into(steps: list[tuple[int, int]]) -> Any:
    def record(reached: int, players: int) -> None:
        steps.append((reached, players))

    return record


async def test_a_failure_after_the_stream_began_is_its_last_line(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine reported progress, then storing the round failed: the stream ends with
    the problem, and nothing was stored."""
    from service.app import pair_round as workflow

    async def failing_store(*_args: object, **_kwargs: object) -> None:
        raise Conflict("the round could not be stored", field="round")

    event = await _swiss(client)
    monkeypatch.setattr(workflow, "store_round", failing_store)
    response = await _streamed(client, event)
    assert response.status_code == 200
    lines = _lines(response)
    assert lines[0]["event"] == "progress"
    assert lines[-1]["event"] == "error"
    assert lines[-1]["problem"]["status"] == 409
    assert lines[-1]["problem"]["field"] == "round"
    monkeypatch.undo()
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404
    again = await pair(client, event)  # the tournament is not left locked or half-paired
    assert again.status_code == 201, again.text
