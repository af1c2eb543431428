"""Result reports queued in a tournament's write queue commit together
(docs/decisions/group-commit.md; `api.idempotency`): one transaction for the group, each
report answered as it would be alone, in arrival order, on both databases."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy import text

from service.api.app import create_app
from service.config import Settings
from service.db.events import events_since
from service.db.result_store import store_result
from service.errors import Conflict
from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800), ("Eve", 1700), ("Fay", 1600)]
REPORTING = "service.app.report_result"
"""The workflow module, where the tests break `store_result` on purpose."""
Report = tuple[int, int, str]
"""Round, table, result."""


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(Settings(database_url=database_url, rate_limits_enabled=False))
    async with application.router.lifespan_context(application):
        yield application


@contextmanager
def counting_commits(app: FastAPI) -> Iterator[list[int]]:
    """Count the commits of the writers' engine while the block runs."""
    commits: list[int] = []

    def seen(_connection: Any) -> None:
        commits.append(1)

    engine = app.state.arbiter.db_engine.sync_engine
    sqlalchemy_event.listen(engine, "commit", seen)
    try:
        yield commits
    finally:
        sqlalchemy_event.remove(engine, "commit", seen)


async def queue_behind_a_writer(
    app: FastAPI,
    client: httpx.AsyncClient,
    event: Event,
    reports: list[Report],
    keys: Sequence[str | None] | None = None,
    tokens: list[str] | None = None,
) -> list[httpx.Response]:
    """Send `reports` (by the organizer, or with `tokens`; each with its key, None: sent
    without one) while another writer holds the head of the tournament's write queue, so
    they queue in this order; then let go and return their answers."""
    keys = keys or [str(uuid.uuid4()) for _ in reports]
    tokens = tokens or [event.organizer for _ in reports]
    base = f"/v1/tournaments/{event.id}/rounds"
    async with app.state.arbiter.write_queues.hold(f"tournaments/{event.id}"):
        queued = []
        for (round_number, table, result), key, token in zip(reports, keys, tokens, strict=True):
            headers = {"Authorization": f"Bearer {token}"}
            if key is not None:
                headers["Idempotency-Key"] = key
            queued.append(
                asyncio.create_task(
                    client.put(
                        f"{base}/{round_number}/games/{table}/result",
                        json={"result": result},
                        headers=headers,
                    )
                )
            )
            for _ in range(20):  # let it reach the queue before the next one starts
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert not any(task.done() for task in queued)
    return list(await asyncio.gather(*queued))


async def logged_results(app: FastAPI, tournament_id: str) -> list[tuple[int, int, str]]:
    async with app.state.arbiter.sessions() as session:
        logged = await events_since(session, tournament_id, 0)
    return [
        (e.payload["round"], e.payload["table"], e.payload["result"])
        for e in logged
        if e.type.startswith("result")
    ]


async def test_reports_queued_in_the_write_queue_commit_once_in_arrival_order(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 3, "1/2-1/2"), (2, 1, "1-0"), (2, 2, "0-1")]
    engine = app.state.arbiter.db_engine.sync_engine
    listeners = len(engine.dispatch.before_cursor_execute)
    with counting_commits(app) as commits:
        answers = await queue_behind_a_writer(app, client, event, reports)
    # the group's count of writes listened on its own connection, not on the engine
    assert len(engine.dispatch.before_cursor_execute) == listeners
    assert [a.status_code for a in answers] == [200] * len(reports)
    assert len(commits) == 1  # one transaction for the five
    assert await logged_results(app, event.id) == reports
    for answer, (_, table, result) in zip(answers, reports, strict=True):
        assert (answer.json()["table"], answer.json()["result"]) == (table, result)
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert sum(row["points"] for row in standings["rows"]) == len(reports)
    # round 1 is complete: the group moved the current round on, as one report alone would
    tournament = (await client.get(f"/v1/tournaments/{event.id}", headers=event.auth())).json()
    assert tournament["current_round"] == 2


@pytest.mark.parametrize("keyed", [(False, False, False, False), (True, False, True, False)])
async def test_reports_without_a_key_join_the_group(
    app: FastAPI, client: httpx.AsyncClient, keyed: tuple[bool, ...]
) -> None:
    """A report sent without an Idempotency-Key commits in the group like a keyed one
    (alone, or among keyed ones): one transaction, arrival order, its own answer, and
    no record stored for it."""
    event = await create_round_robin(client, PLAYERS)
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 3, "1/2-1/2"), (2, 1, "1-0")]
    keys: list[str | None] = [str(uuid.uuid4()) if k else None for k in keyed]
    async with app.state.arbiter.sessions() as session:
        records = await session.exec(text("SELECT count(*) FROM idempotency_keys"))
        before = records.one()[0]
    with counting_commits(app) as commits:
        answers = await queue_behind_a_writer(app, client, event, reports, keys)
    assert [a.status_code for a in answers] == [200] * len(reports)
    assert len(commits) == 1  # one transaction for the four
    assert await logged_results(app, event.id) == reports
    for answer, (_, table, result) in zip(answers, reports, strict=True):
        assert (answer.json()["table"], answer.json()["result"]) == (table, result)
        assert "idempotent-replayed" not in answer.headers
    async with app.state.arbiter.sessions() as session:
        records = await session.exec(text("SELECT count(*) FROM idempotency_keys"))
        assert records.one()[0] == before + sum(keyed)


async def test_a_refused_report_without_a_key_keeps_its_answer(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A report without a key refused in a group is answered as alone; the others land."""
    event = await create_round_robin(client, PLAYERS)
    reports = [(1, 1, "1-0"), (1, 9, "1-0"), (1, 2, "0-1")]  # round 1 has no table 9
    with counting_commits(app) as commits:
        answers = await queue_behind_a_writer(app, client, event, reports, [None, None, None])
    assert [a.status_code for a in answers] == [200, 404, 200]
    assert answers[1].json()["field"] == "table"
    assert len(commits) == 1
    assert await logged_results(app, event.id) == [reports[0], reports[2]]


async def test_the_group_reads_its_games_in_one_statement_and_sees_its_own_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """After the first report has locked the tournament, the group reads the games of
    the others at once; two players agreeing on one game in the same group confirm it."""
    event = await create_round_robin(client, PLAYERS)
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    white, black = games[1]["white"], games[1]["black"]
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 3, "1-0"), (1, 2, "0-1"), (2, 1, "1-0")]
    organizer = event.organizer
    tokens = [organizer, event.players[white], organizer, event.players[black], organizer]
    engine = app.state.arbiter.db_engine.sync_engine
    game_reads: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().startswith("SELECT games.id,"):  # whole game rows
            game_reads.append(statement)

    sqlalchemy_event.listen(engine, "before_cursor_execute", seen)
    try:
        with counting_commits(app) as commits:
            answers = await queue_behind_a_writer(app, client, event, reports, tokens=tokens)
    finally:
        sqlalchemy_event.remove(engine, "before_cursor_execute", seen)
    assert [a.status_code for a in answers] == [200] * len(reports)
    assert len(commits) == 1
    assert len(game_reads) == 2  # the first report's game, then the other four at once
    assert answers[1].json()["status"] == "provisional"
    assert answers[3].json()["status"] == "confirmed"
    assert answers[3].json()["reports"] == {"white": "0-1", "black": "0-1"}
    round_one = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    assert [(g["result"], g["status"]) for g in round_one] == [
        ("1-0", "confirmed"),
        ("0-1", "confirmed"),
        ("1-0", "confirmed"),
    ]
    async with app.state.arbiter.sessions() as session:
        logged = await events_since(session, event.id, 0)
    table_two = [e.payload["status"] for e in logged if e.payload.get("table") == 2]
    assert table_two == ["provisional", "confirmed"]  # the second saw the first's report


@pytest.mark.parametrize("refused_at", [0, 1, 2])
async def test_a_refused_report_keeps_its_answer_and_the_others_land(
    app: FastAPI, client: httpx.AsyncClient, refused_at: int
) -> None:
    """Refused anywhere in the group: first (its lock was a write, so the group splits
    around it), in the middle or last (it changed nothing: the group goes on)."""
    event = await create_round_robin(client, PLAYERS)
    reports: list[Report] = [(1, 1, "1-0"), (1, 2, "0-1")]
    reports.insert(refused_at, (1, 9, "1-0"))  # round 1 has no table 9
    keys = [str(uuid.uuid4()) for _ in reports]
    with counting_commits(app) as commits:
        answers = await queue_behind_a_writer(app, client, event, reports, keys)
    expected = [200, 200]
    expected.insert(refused_at, 404)
    assert [a.status_code for a in answers] == expected
    assert answers[refused_at].json()["field"] == "table"
    assert len(commits) == 1  # the two reports still commit together
    assert await logged_results(app, event.id) == [r for r in reports if r[1] != 9]
    # nothing was stored for the refused key: its retry runs again (and is refused again)
    retry = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/9/result",
        json={"result": "1-0"},
        headers={**event.auth(), "Idempotency-Key": keys[refused_at]},
    )
    assert retry.status_code == 404
    assert "idempotent-replayed" not in retry.headers
    first_stored = 1 if refused_at == 0 else 0
    replayed = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/{reports[first_stored][1]}/result",
        json={"result": reports[first_stored][2]},
        headers={**event.auth(), "Idempotency-Key": keys[first_stored]},
    )
    assert replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json() == answers[first_stored].json()


async def test_a_report_that_fails_after_writing_is_split_from_its_group(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = await create_round_robin(client, PLAYERS)

    async def store_then_refuse_table_2(*args: Any, **kwargs: Any) -> Any:
        stored = await store_result(*args, **kwargs)
        if args[1].table_no == 2:
            raise Conflict("refused after writing", field="table")
        return stored

    monkeypatch.setattr(f"{REPORTING}.store_result", store_then_refuse_table_2)
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 3, "1/2-1/2"), (2, 1, "1-0")]
    with counting_commits(app) as commits:
        answers = await queue_behind_a_writer(app, client, event, reports)
    assert [a.status_code for a in answers] == [200, 409, 200, 200]
    # the group was rolled back and run again without the failed report: each kept the
    # answer it gets alone, and nothing of the failed one was stored
    assert len(commits) == 2  # the report before it, then the reports after it
    assert await logged_results(app, event.id) == [reports[0], reports[2], reports[3]]
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    assert [g["result"] for g in games] == ["1-0", None, "1/2-1/2"]


async def test_an_error_in_one_report_is_its_own_500_and_the_others_land(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as client:
        event = await create_round_robin(client, PLAYERS)

        async def store_then_break_on_table_1(*args: Any, **kwargs: Any) -> Any:
            stored = await store_result(*args, **kwargs)
            if args[1].table_no == 1:
                raise RuntimeError("a bug")
            return stored

        monkeypatch.setattr(f"{REPORTING}.store_result", store_then_break_on_table_1)
        reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 3, "1-0")]
        answers = await queue_behind_a_writer(app, client, event, reports)
        assert [a.status_code for a in answers] == [500, 200, 200]
        assert await logged_results(app, event.id) == reports[1:]


async def test_a_retry_queued_with_its_first_request_replays_its_answer(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    key = str(uuid.uuid4())
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (1, 1, "1-0"), (1, 3, "1-0")]
    keys = [key, str(uuid.uuid4()), key, str(uuid.uuid4())]
    answers = await queue_behind_a_writer(app, client, event, reports, keys)
    assert [a.status_code for a in answers] == [200] * 4
    assert "idempotent-replayed" not in answers[0].headers
    assert answers[2].headers["idempotent-replayed"] == "true"
    assert answers[2].json() == answers[0].json()
    assert await logged_results(app, event.id) == [reports[0], reports[1], reports[3]]


async def test_a_write_that_is_not_a_report_keeps_its_place_in_the_queue(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A write that is not a report stops the group and commits alone, in its turn:
    the pairing of round 2, queued before the last result of round 1, is refused (were
    the last report taken into the group ahead of it, the pairing would succeed)."""
    event = await create_round_robin(client, PLAYERS, system="swiss-dutch", rounds=3)
    queues = app.state.arbiter.write_queues
    base = f"/v1/tournaments/{event.id}"
    paired = await client.post(f"{base}/rounds", headers=event.auth())
    assert paired.status_code in (200, 201), paired.text
    round_one = (await client.get(f"{base}/rounds/1")).json()["games"]
    assert len(round_one) == 3

    def report(game: dict[str, Any], result: str) -> Any:
        return client.put(
            f"{base}/rounds/1/games/{game['table']}/result",
            json={"result": result},
            headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
        )

    async with queues.hold(f"tournaments/{event.id}"):
        tasks = []
        for make in (
            lambda: report(round_one[0], "1-0"),
            lambda: report(round_one[1], "0-1"),
            lambda: client.post(
                f"{base}/rounds", headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())}
            ),
            lambda: report(round_one[2], "1-0"),
        ):
            tasks.append(asyncio.create_task(make()))
            for _ in range(20):
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
    *reported, pairing, late = await asyncio.gather(*tasks)
    assert [r.status_code for r in reported] == [200, 200]
    # pairing round 2 needs every result of round 1: it ran before the late report
    assert pairing.status_code == 409, pairing.text
    assert late.status_code == 200, late.text
    assert len(queues) == 0


async def test_reports_taken_by_a_leader_that_is_cancelled_are_told_to_retry(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leader's request is cancelled while its group runs (its server shuts down):
    the reports it took are answered 503 with `Retry-After`, nothing is stored, and
    the next writer is let in."""
    event = await create_round_robin(client, PLAYERS)
    running = asyncio.Event()

    async def stuck(*_: Any) -> int | None:
        running.set()
        await asyncio.Event().wait()  # until cancelled
        return None

    monkeypatch.setattr("service.api.group_commit._try_group", stuck)
    base = f"/v1/tournaments/{event.id}/rounds/1/games"
    async with app.state.arbiter.write_queues.hold(f"tournaments/{event.id}"):
        tasks = []
        for table in (1, 2, 3):
            tasks.append(
                asyncio.create_task(
                    client.put(
                        f"{base}/{table}/result",
                        json={"result": "1-0"},
                        headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
                    )
                )
            )
            for _ in range(20):
                await asyncio.sleep(0)
    async with asyncio.timeout(5):
        await running.wait()
        tasks[0].cancel()
        answers = await asyncio.gather(*tasks[1:])
    assert [a.status_code for a in answers] == [503, 503]
    assert all(a.headers["retry-after"] for a in answers)
    monkeypatch.undo()
    assert await logged_results(app, event.id) == []
    after = await client.put(
        f"{base}/1/result",
        json={"result": "1-0"},
        headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
    )
    assert after.status_code == 200, after.text
