"""Benchmark: the write path on PostgreSQL (docs/decisions/index.md, "The write path").

A real server process (one uvicorn worker) on a fresh database:

1. registers P players (default 400) and starts a round-robin (times both);
2. C clients (default 50) report organizer results in that one tournament for S
   seconds (default 15), each result with its own Idempotency-Key, while more
   clients poll `GET /standings` (one, or `--pollers N`) and `GET /healthz` (one),
   5 times a second each: prints
   results/s, latency p50/p99, the count of 5xx, the two reads' latency p50/p99, and
   checks every acknowledged result is stored once;
3. the same C clients hit a bare FastAPI + asyncpg insert endpoint
   (bench/bare_insert_app.py) for S seconds: prints its rate and the ratio.

Run: .venv/bin/python bench/bench_writes.py [--players 400] [--clients 50] [--seconds 15]
     [--server postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]
     .venv/bin/python bench/bench_writes.py --tournaments 4   (the same load over 4 events)
     .venv/bin/python bench/bench_writes.py --no-standings   (the writes without the reads)
     .venv/bin/python bench/bench_writes.py --pollers 50   (50 scoreboards polling the standings)
     .venv/bin/python bench/bench_writes.py --swiss 2000 --clients 200   (exactly once)
Bounded: about 2 x S seconds plus set-up (registration and start).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import httpx
from http_load import LoadConnection, collector_paused  # bench/: the script's folder

ROOT = Path(__file__).resolve().parents[1]
_QUIET = ("--host", "127.0.0.1", "--log-level", "warning", "--no-access-log", "--loop", "asyncio")
_UVICORN: list[str] = []
"""More uvicorn options for both servers (`--uvicorn "--loop uvloop --http httptools"`)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _launch(app: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            app,
            "--port",
            str(port),
            *_QUIET,
            *_UVICORN,
        ],
        # throughput, not the rate limits, is measured here
        env={**os.environ, **env, "PYTHONPATH": str(ROOT), "ARBITER_RATE_LIMITS_ENABLED": "false"},
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base) as client:
        for _ in range(400):
            try:
                await client.get("/docs")
                return process, base
            except httpx.TransportError:
                await asyncio.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{app} did not start")


async def register_round_robin(http: httpx.AsyncClient, players: int) -> tuple[str, dict[str, str]]:
    """A new round-robin with `players` registered one by one (ratings 2800 down), not
    started: its id and the organizer's `Authorization` header."""
    created = (
        await http.post("/v1/tournaments", json={"name": "Bench", "system": "round-robin"})
    ).json()
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    tournament_id: str = created["id"]
    for n in range(players):
        await http.post(
            f"/v1/tournaments/{tournament_id}/players",
            json={"name": f"Player {n:04d}", "rating": 2800 - n},
            headers=auth,
        )
    return tournament_id, auth


async def start_tournament(
    http: httpx.AsyncClient, tournament_id: str, auth: dict[str, str]
) -> None:
    """Close the list and pair (a round-robin: every round)."""
    started = await http.post(f"/v1/tournaments/{tournament_id}/start", headers=auth)
    assert started.status_code == 200, started.text


def stop_server(process: subprocess.Popen[bytes] | None) -> None:
    """End a server `_launch` started, if it still runs."""
    if process is not None and process.poll() is None:
        process.terminate()
        process.wait(10)


def _admin_dsn(server: str) -> str:
    return server.replace("postgresql+asyncpg://", "postgresql://", 1)


async def create_database(server: str) -> str:
    """A new, migrated database on the PostgreSQL `server`; returns its URL."""
    name = f"arbiter_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(_admin_dsn(server))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = f"{server.rpartition('/')[0]}/{name}"
    from service.db.migrate import upgrade

    await asyncio.to_thread(upgrade, url)
    return url


async def drop_database(server: str, url: str) -> None:
    """Drop a database `create_database` made (its connections closed first)."""
    admin = await asyncpg.connect(_admin_dsn(server))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')
    finally:
        await admin.close()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


async def _hammer(
    clients: int,
    seconds: float,
    send: Callable[[LoadConnection, int], Awaitable[int]],
    base: str,
) -> tuple[list[float], list[int]]:
    """C clients, each on its own keep-alive connection, send requests (job numbers from a
    shared counter) for `seconds`."""
    latencies: list[float] = []
    statuses: list[int] = []
    counter = iter(range(10**9))
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        connection = LoadConnection.to(base)
        while time.perf_counter() < deadline:
            job = next(counter)
            t0 = time.perf_counter()
            try:
                status = await send(connection, job)
            except ConnectionError:
                status = 599
            latencies.append(time.perf_counter() - t0)
            statuses.append(status)
        connection.close()

    with collector_paused():
        await asyncio.gather(*(client() for _ in range(clients)))
    return latencies, statuses


async def _hammer_httpx(clients: int, seconds: float, base: str) -> float:
    """The bare insert through one shared httpx client with C connections, as this bench
    measured before: shows how much of the figure the load client itself costs."""
    count = 0
    counter = iter(range(10**9))
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def client() -> None:
            nonlocal count
            while time.perf_counter() < deadline:
                response = await http.put(f"/games/{next(counter)}/result", json={"result": "1-0"})
                count += response.status_code == 200

        t0 = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
    return count / (time.perf_counter() - t0)


async def bench(
    players: int,
    clients: int,
    seconds: float,
    server: str,
    tournaments: int = 1,
    standings_pollers: int = 1,
) -> None:
    url = await create_database(server)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        process, base = await _launch("service.api.app:create_app", {"ARBITER_DATABASE_URL": url})
        processes.append(process)
        events: list[tuple[str, dict[str, str]]] = []  # (tournament id, organizer auth)
        async with httpx.AsyncClient(base_url=base, timeout=600) as http:
            for _ in range(tournaments):
                t0 = time.perf_counter()
                tid, auth = await register_round_robin(http, players)
                registered = time.perf_counter() - t0
                t0 = time.perf_counter()
                await start_tournament(http, tid, auth)
                start_seconds = time.perf_counter() - t0
                events.append((tid, auth))
        tid, auth = events[0]
        tables = players // 2
        print(
            f"players {players}: registration {registered:.1f} s (sequential), "
            f"start {start_seconds:.1f} s"
            + (f" (each of {tournaments} round-robins)" if tournaments > 1 else "")
        )

        acked = 0

        async def report(connection: LoadConnection, job: int) -> int:
            nonlocal acked
            job, which = divmod(job, tournaments)
            event_id, event_auth = events[which]
            round_number, table = divmod(job, tables)
            status, _ = await connection.request(
                "PUT",
                f"/v1/tournaments/{event_id}/rounds/{round_number + 1}/games/{table + 1}/result",
                {"result": "1-0"},
                {**event_auth, "Idempotency-Key": str(uuid.uuid4())},
            )
            acked += status == 200
            return status

        standings: list[float] = []
        health: list[float] = []
        stop = asyncio.Event()

        async def poll(path: str, took: list[float]) -> None:
            """GET `path` 5 times a second on a fixed schedule (a scoreboard's poll, so
            a faster answer does not make more requests)."""
            connection = LoadConnection.to(base)
            due = time.perf_counter()
            while not stop.is_set():
                t0 = time.perf_counter()
                await connection.request("GET", path)
                took.append(time.perf_counter() - t0)
                due += 0.2
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            connection.close()

        pollers = [asyncio.create_task(poll("/healthz", health))]
        pollers += [
            asyncio.create_task(poll(f"/v1/tournaments/{tid}/standings", standings))
            for _ in range(standings_pollers)
        ]
        t0 = time.perf_counter()
        latencies, statuses = await _hammer(clients, seconds, report, base)
        elapsed = time.perf_counter() - t0
        stop.set()
        await asyncio.gather(*pollers)
        rate = acked / elapsed
        errors = sum(s >= 500 for s in statuses)
        spread = f"{tournaments} {players}-player round-robins" if tournaments > 1 else ""
        print(
            f"{clients} clients, {spread or f'one {players}-player round-robin'}: "
            f"{rate:.0f} results/s, "
            f"p50 {_pct(latencies, 0.5):.0f} ms, p99 {_pct(latencies, 0.99):.0f} ms, "
            f"5xx {errors} of {len(statuses)}"
        )
        reads = (
            f"GET /standings while reporting ({standings_pollers} pollers, 5 a second "
            f"each): {len(standings)} reads, "
            f"p50 {_pct(standings, 0.5):.0f} ms, p99 {_pct(standings, 0.99):.0f} ms "
            f"(the first, on cold caches, {standings[0] * 1000 if standings else 0:.0f} ms; "
            f"the others p99 {_pct(standings[1:], 0.99):.0f} ms); "
            if standings_pollers
            else "GET /standings not polled; "
        )
        print(
            f"{reads}GET /healthz p50 {_pct(health, 0.5):.0f} ms, p99 {_pct(health, 0.99):.0f} ms"
        )
        db = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        stored = await db.fetchval(
            "SELECT count(*) FROM events WHERE tournament_id = ANY($1::text[]) "
            "AND type = 'result_confirmed'",
            [event_id for event_id, _ in events],
        )
        await db.close()
        print(
            f"acknowledged {acked}, stored {stored}: "
            + ("exactly once" if stored == acked else "MISMATCH")
        )
        stop_server(process)

        bare, bare_base = await _launch(
            "bench.bare_insert_app:create", {"BARE_DSN": url.replace("+asyncpg", "")}
        )
        processes.append(bare)

        async def insert(connection: LoadConnection, job: int) -> int:
            status, _ = await connection.request("PUT", f"/games/{job}/result", {"result": "1-0"})
            return status

        t0 = time.perf_counter()
        bare_latencies, bare_statuses = await _hammer(clients, seconds, insert, bare_base)
        bare_rate = sum(s == 200 for s in bare_statuses) / (time.perf_counter() - t0)
        print(
            f"bare FastAPI + asyncpg insert: {bare_rate:.0f} req/s, "
            f"p50 {_pct(bare_latencies, 0.5):.0f} ms, p99 {_pct(bare_latencies, 0.99):.0f} ms; "
            f"arbiter/bare = {rate / bare_rate:.2f}"
        )
        httpx_rate = await _hammer_httpx(clients, seconds, bare_base)
        print(
            f"the same bare insert through one shared httpx client ({clients} connections): "
            f"{httpx_rate:.0f} req/s (the load client, not the server, bounds that figure)"
        )
        print(f"(median result latency {statistics.median(latencies) * 1000:.0f} ms)")
    finally:
        for process in processes:
            stop_server(process)
        await drop_database(server, url)


def _start_list(players: int, rounds: int) -> str:
    """A TRF start list (no round played) of `players` rated players."""
    lines = ["012 Bench Swiss", f"XXR {rounds}", "092 FIDE_DUTCH_2025"]
    for n in range(1, players + 1):
        name = f"Player {n:05d}"
        lines.append(f"001 {n:4d} m    {name:<33}{2800 - n % 1800:4d}".ljust(80) + " 0.0")
    return "\n".join(lines) + "\n"


async def swiss_round(players: int, clients: int, server: str) -> None:
    """Exactly once: C clients report every result of one round of a P-player Swiss, each
    request sent twice with the same Idempotency-Key (a retry over a flaky network);
    every acknowledged result must be stored exactly once and every replay must answer
    the first response."""
    url = await create_database(server)
    process = None
    try:
        process, base = await _launch("service.api.app:create_app", {"ARBITER_DATABASE_URL": url})
        async with httpx.AsyncClient(base_url=base, timeout=600) as http:
            created = await http.post(
                "/v1/tournaments/import",
                content=_start_list(players, 9).encode(),
                headers={"content-type": "text/plain"},
            )
            assert created.status_code == 201, created.text
            body = created.json()
            tid, auth = body["id"], {"Authorization": f"Bearer {body['organizer_token']}"}
            t0 = time.perf_counter()
            paired = await http.post(f"/v1/tournaments/{tid}/rounds", json={}, headers=auth)
            assert paired.status_code == 201, paired.text
            pairing_seconds = time.perf_counter() - t0
        tables = len(paired.json()["games"])
        print(f"{players}-player Swiss: round 1 paired through the API in {pairing_seconds:.1f} s")

        jobs = iter(range(1, tables + 1))
        latencies: list[float] = []
        statuses: list[int] = []
        replays_differ = 0
        resent = 0
        acked = 0

        async def put(
            connection: LoadConnection, url_: str, headers: dict[str, str]
        ) -> tuple[int, bytes]:
            """A mobile app's PUT: a dropped connection is retried with the same key."""
            nonlocal resent
            for _ in range(5):
                try:
                    return await connection.request("PUT", url_, {"result": "1-0"}, headers)
                except ConnectionError:
                    resent += 1
            return await connection.request("PUT", url_, {"result": "1-0"}, headers)

        async def client() -> None:
            nonlocal replays_differ, acked
            connection = LoadConnection.to(base)
            for table in jobs:
                url_ = f"/v1/tournaments/{tid}/rounds/1/games/{table}/result"
                headers = {**auth, "Idempotency-Key": str(uuid.uuid4())}
                t0 = time.perf_counter()
                first = await put(connection, url_, headers)
                latencies.append(time.perf_counter() - t0)
                statuses.append(first[0])
                again = await put(connection, url_, headers)
                statuses.append(again[0])
                acked += first[0] == 200
                if again != first:
                    replays_differ += 1
            connection.close()

        t0 = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        elapsed = time.perf_counter() - t0
        db = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        stored = await db.fetchval(
            "SELECT count(*) FROM events WHERE tournament_id = $1 AND type = 'result_confirmed'",
            tid,
        )
        confirmed = await db.fetchval(
            "SELECT count(*) FROM games WHERE tournament_id = $1 AND status = 'confirmed'", tid
        )
        await db.close()
        errors = sum(s >= 500 for s in statuses)
        print(
            f"{clients} clients, {tables} results each sent twice with one key: "
            f"{acked / elapsed:.0f} results/s, p50 {_pct(latencies, 0.5):.0f} ms, "
            f"p99 {_pct(latencies, 0.99):.0f} ms, 5xx {errors} of {len(statuses)}, "
            f"replays differing {replays_differ}, resent after a dropped connection {resent}"
        )
        print(
            f"acknowledged {acked}, result events {stored}, games confirmed {confirmed}: "
            + ("exactly once" if acked == stored == confirmed == tables else "MISMATCH")
        )
    finally:
        stop_server(process)
        await drop_database(server, url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument(
        "--server",
        default=os.environ.get(
            "ARBITER_TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
        ),
    )
    parser.add_argument(
        "--swiss",
        type=int,
        metavar="P",
        help="instead: one round of a P-player Swiss reported by --clients clients, each "
        "result sent twice with one Idempotency-Key (e.g. 2000 players, 200 clients)",
    )
    parser.add_argument(
        "--tournaments",
        type=int,
        default=1,
        metavar="K",
        help="spread the clients' results over K round-robins of --players each (one "
        "tournament's results are written one at a time under its lock; K > 1 shows "
        "what the server does without that bound)",
    )
    parser.add_argument(
        "--no-standings",
        action="store_true",
        help="leave out the GET /standings poll (what the standings reads cost the writes)",
    )
    parser.add_argument(
        "--pollers",
        type=int,
        default=1,
        metavar="N",
        help="N scoreboards polling GET /standings, 5 times a second each (default 1)",
    )
    parser.add_argument(
        "--uvicorn",
        default="",
        metavar="OPTIONS",
        help="more uvicorn options for the Arbiter and the bare server alike, e.g. "
        '"--loop asyncio --http h11" to compare event loops and HTTP parsers',
    )
    args = parser.parse_args()
    _UVICORN.extend(args.uvicorn.split())
    if args.swiss:
        asyncio.run(swiss_round(args.swiss, args.clients, args.server))
        return
    asyncio.run(
        bench(
            args.players,
            args.clients,
            args.seconds,
            args.server,
            args.tournaments,
            standings_pollers=0 if args.no_standings else args.pollers,
        )
    )


if __name__ == "__main__":
    main()
