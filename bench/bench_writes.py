"""Benchmark: the write path on PostgreSQL (docs/decisions/index.md, "The write path").

Real server processes (one uvicorn worker each) on a fresh database, in two
configurations side by side (`--configurations`):

- `serve`: `arbiter serve` as a user starts it, with its defaults (log level info,
  uvicorn's access log on, written to a file; the spectator event loop);
- `tuned`: uvicorn with the access log off, log level warning, asyncio's own loop (and
  any `--uvicorn` options).

1. each server gets its own round-robin of P players (default 400), registered and
   started (times both);
2. C clients (default 50) report organizer results in that one tournament for S
   seconds (default 10), while more clients poll `GET /standings` (one, or `--pollers
   N`) and `GET /healthz` (one), 5 times a second each. Each result goes either with an
   Idempotency-Key of its own (keyed) or without one (unkeyed). The phases alternate,
   R rounds (default 2) of: each configuration keyed and unkeyed, the order turned
   round every round, so every figure is measured on the same build, in the same run,
   under the same drift of a shared machine. Prints each phase (results/s, latency
   p50/p99, 5xx, the reads' latency), the median of the rounds, and the ratios unkeyed
   to keyed and serve to tuned; checks every acknowledged result is stored once. A
   warm-up of 2 seconds keyed and 2 unkeyed on each server comes first, not counted;
3. the same C clients hit a bare FastAPI + asyncpg insert endpoint
   (bench/bare_insert_app.py) for S seconds: prints its rate and the ratio.

Rate limits are off in both configurations (50 clients on one address would be limited:
throughput is measured here, not the limits).

Run: .venv/bin/python bench/bench_writes.py [--players 400] [--clients 50] [--seconds 10]
     [--rounds 2] [--configurations serve,tuned] [--no-bare]
     [--server postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]
     .venv/bin/python bench/bench_writes.py --tournaments 4   (the same load over 4 events)
     .venv/bin/python bench/bench_writes.py --no-standings   (the writes without the reads)
     .venv/bin/python bench/bench_writes.py --pollers 50   (50 scoreboards polling the standings)
     .venv/bin/python bench/bench_writes.py --swiss 2000 --clients 200   (exactly once)
Bounded: about 2 x R x (number of configurations) x S seconds, plus S for the bare
insert, plus set-up (registration and start).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
from http_load import LoadConnection, collector_paused  # bench/: the script's folder

ROOT = Path(__file__).resolve().parents[1]
_QUIET = ("--host", "127.0.0.1", "--log-level", "warning", "--no-access-log", "--loop", "asyncio")
_UVICORN: list[str] = []
"""More uvicorn options for the tuned and the bare server (`--uvicorn "--loop uvloop
--http httptools"`)."""
WARM_UP_SECONDS = 2.0
"""Each server's first requests, keyed and unkeyed, before the measured phases (the
first phase of a fresh process measured up to a third slower than the later ones)."""
CONFIGURATIONS = ("serve", "tuned")
"""The server configurations measured side by side (module docstring)."""


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


@dataclass
class Server:
    """One configuration of the Arbiter server under test, with its tournaments."""

    name: str
    process: subprocess.Popen[bytes]
    base: str
    events: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    """(tournament id, organizer auth) of each of its round-robins."""
    jobs: Iterator[int] = field(default_factory=lambda: iter(range(10**9)))
    """The next result to report, across the phases (each game is reported once)."""
    acked: int = 0
    access_log: Path | None = None


@dataclass
class Phase:
    """One timed phase: a server configuration, keyed or not, and what it measured."""

    server: str
    keyed: bool
    rate: float
    latencies: list[float]
    errors: int
    requests: int
    standings: list[float]
    health: list[float]


async def _launch_serve(
    env: dict[str, str], access_log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    """`arbiter serve` as a user starts it: its defaults (log level info, uvicorn's access
    log on, the spectator event loop), the access log written to `access_log`."""
    port = _free_port()
    code = "import sys; from service.cli import main; sys.exit(main(sys.argv[1:]))"
    with access_log.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--host", "127.0.0.1", "--port", str(port)],
            env={
                **os.environ,
                **env,
                "PYTHONPATH": str(ROOT),
                "ARBITER_RATE_LIMITS_ENABLED": "false",
            },
            cwd=ROOT,
            stdout=log,
            stderr=log,
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
    raise RuntimeError("arbiter serve did not start")


async def _phase(
    server: Server,
    keyed: bool,
    clients: int,
    seconds: float,
    tables: int,
    games: int,
    standings_pollers: int,
) -> Phase:
    """C clients report organizer results on `server` for `seconds`, each result with an
    Idempotency-Key of its own (`keyed`) or without one, while the standings and
    `/healthz` are polled."""
    tournaments = len(server.events)
    acked = 0

    async def report(connection: LoadConnection, _job: int) -> int:
        nonlocal acked
        job = next(server.jobs)
        job, which = divmod(job, tournaments)
        if job >= games:
            raise RuntimeError(f"every game of {server.name} is reported: give more --players")
        event_id, event_auth = server.events[which]
        round_number, table = divmod(job, tables)
        headers = {**event_auth, "Idempotency-Key": str(uuid.uuid4())} if keyed else event_auth
        status, _ = await connection.request(
            "PUT",
            f"/v1/tournaments/{event_id}/rounds/{round_number + 1}/games/{table + 1}/result",
            {"result": "1-0"},
            headers,
            resend=keyed,  # a write without a key is never sent twice
        )
        acked += status == 200
        return status

    standings: list[float] = []
    health: list[float] = []
    stop = asyncio.Event()

    async def poll(path: str, took: list[float]) -> None:
        """GET `path` 5 times a second on a fixed schedule (a scoreboard's poll, so a
        faster answer does not make more requests)."""
        connection = LoadConnection.to(server.base)
        due = time.perf_counter()
        while not stop.is_set():
            t0 = time.perf_counter()
            await connection.request("GET", path)
            took.append(time.perf_counter() - t0)
            due += 0.2
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        connection.close()

    tid = server.events[0][0]
    pollers = [asyncio.create_task(poll("/healthz", health))]
    pollers += [
        asyncio.create_task(poll(f"/v1/tournaments/{tid}/standings", standings))
        for _ in range(standings_pollers)
    ]
    t0 = time.perf_counter()
    try:
        latencies, statuses = await _hammer(clients, seconds, report, server.base)
    finally:
        elapsed = time.perf_counter() - t0
        stop.set()
        await asyncio.gather(*pollers)
    server.acked += acked
    errors = sum(s >= 500 for s in statuses)
    return Phase(
        server.name, keyed, acked / elapsed, latencies, errors, len(statuses), standings, health
    )


def _phase_line(phase: Phase) -> str:
    kind = "keyed  " if phase.keyed else "unkeyed"
    reads = (
        f"; GET /standings p50 {_pct(phase.standings, 0.5):.0f} ms, "
        f"p99 {_pct(phase.standings, 0.99):.0f} ms"
        if phase.standings
        else ""
    )
    return (
        f"  {phase.server:<5} {kind}: {phase.rate:5.0f} results/s, "
        f"p50 {_pct(phase.latencies, 0.5):3.0f} ms, p99 {_pct(phase.latencies, 0.99):3.0f} ms, "
        f"5xx {phase.errors} of {phase.requests}{reads}; "
        f"GET /healthz p99 {_pct(phase.health, 0.99):.0f} ms"
    )


async def bench(
    players: int,
    clients: int,
    seconds: float,
    server: str,
    tournaments: int = 1,
    standings_pollers: int = 1,
    configurations: Sequence[str] = CONFIGURATIONS,
    rounds: int = 2,
    bare: bool = True,
) -> None:
    url = await create_database(server)
    servers: list[Server] = []
    processes: list[subprocess.Popen[bytes]] = []
    logs = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    env = {"ARBITER_DATABASE_URL": url}
    try:
        for name in configurations:
            if name == "serve":
                access_log = logs / "serve.log"
                process, base = await _launch_serve(env, access_log)
            else:
                access_log = None
                process, base = await _launch("service.api.app:create_app", env)
            processes.append(process)
            servers.append(Server(name, process, base, access_log=access_log))
        tables = players // 2
        games = tables * (players - 1)
        for each in servers:
            async with httpx.AsyncClient(base_url=each.base, timeout=600) as http:
                for _ in range(tournaments):
                    t0 = time.perf_counter()
                    tid, auth = await register_round_robin(http, players)
                    registered = time.perf_counter() - t0
                    t0 = time.perf_counter()
                    await start_tournament(http, tid, auth)
                    start_seconds = time.perf_counter() - t0
                    each.events.append((tid, auth))
            print(
                f"{each.name}: players {players}: registration {registered:.1f} s "
                f"(sequential), start {start_seconds:.1f} s"
                + (f" (each of {tournaments} round-robins)" if tournaments > 1 else "")
            )
        spread = f"{tournaments} {players}-player round-robins" if tournaments > 1 else ""
        print(
            f"{clients} clients, {spread or f'one {players}-player round-robin'} per server, "
            f"{seconds:g} s a phase; phases alternate (keyed and unkeyed, "
            f"{' and '.join(configurations)}), {rounds} rounds:"
        )
        for each in servers:  # warm-up, not counted: the first requests of a process
            for keyed in (True, False):
                await _phase(each, keyed, clients, WARM_UP_SECONDS, tables, games, 0)
        phases: list[Phase] = []
        for turn in range(rounds):
            order = servers[turn % len(servers) :] + servers[: turn % len(servers)]
            for each in order:
                for keyed in (True, False) if (turn % 2 == 0) else (False, True):
                    phase = await _phase(
                        each, keyed, clients, seconds, tables, games, standings_pollers
                    )
                    phases.append(phase)
                    print(_phase_line(phase), flush=True)
        _summary(phases, configurations)
        db = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        for each in servers:
            stored = await db.fetchval(
                "SELECT count(*) FROM events WHERE tournament_id = ANY($1::text[]) "
                "AND type = 'result_confirmed'",
                [event_id for event_id, _ in each.events],
            )
            log = ""
            if each.access_log is not None and each.access_log.exists():
                lines = each.access_log.read_bytes().count(b'HTTP/1.1" ')
                log = f"; its access log has {lines} request lines"
            print(
                f"{each.name}: acknowledged {each.acked}, stored {stored}: "
                + ("exactly once" if stored == each.acked else "MISMATCH")
                + log
            )
        await db.close()
        for process in processes:
            stop_server(process)
        if bare:
            await _bare(url, clients, seconds, phases)
    finally:
        for process in processes:
            stop_server(process)
        shutil.rmtree(logs, ignore_errors=True)
        await drop_database(server, url)


def _summary(phases: list[Phase], configurations: Sequence[str]) -> None:
    """Medians over the rounds of each configuration, keyed and unkeyed, and their
    ratios (phase by phase the same machine, so ratios compare; absolutes drift)."""
    print("summary (median of the rounds):")
    rates: dict[tuple[str, bool], float] = {}
    for name in configurations:
        for keyed in (True, False):
            mine = [p for p in phases if p.server == name and p.keyed == keyed]
            if not mine:
                continue
            rate = statistics.median(p.rate for p in mine)
            p99 = statistics.median(_pct(p.latencies, 0.99) for p in mine)
            rates[name, keyed] = rate
            kind = "keyed  " if keyed else "unkeyed"
            print(
                f"  {name:<5} {kind}: {rate:5.0f} results/s, p99 {p99:3.0f} ms "
                f"(rounds: {', '.join(f'{p.rate:.0f}' for p in mine)} results/s; "
                f"p99 {', '.join(f'{_pct(p.latencies, 0.99):.0f}' for p in mine)} ms)"
            )
    for name in configurations:
        if (name, True) in rates and (name, False) in rates:
            print(f"  {name}: unkeyed/keyed = {rates[name, False] / rates[name, True]:.2f}")
    if {"serve", "tuned"} <= set(configurations):
        for keyed in (True, False):
            kind = "keyed" if keyed else "unkeyed"
            ratio = rates["serve", keyed] / rates["tuned", keyed]
            print(f"  {kind}: serve/tuned = {ratio:.2f}")


async def _bare(url: str, clients: int, seconds: float, phases: list[Phase]) -> None:
    """The same C clients against a bare FastAPI + asyncpg insert endpoint: the ratio of
    the Arbiter's keyed rate (tuned, else serve) to it."""
    bare, bare_base = await _launch(
        "bench.bare_insert_app:create", {"BARE_DSN": url.replace("+asyncpg", "")}
    )
    try:

        async def insert(connection: LoadConnection, job: int) -> int:
            status, _ = await connection.request("PUT", f"/games/{job}/result", {"result": "1-0"})
            return status

        t0 = time.perf_counter()
        bare_latencies, bare_statuses = await _hammer(clients, seconds, insert, bare_base)
        bare_rate = sum(s == 200 for s in bare_statuses) / (time.perf_counter() - t0)
        keyed = [p for p in phases if p.keyed and p.server == "tuned"] or [
            p for p in phases if p.keyed
        ]
        rate = statistics.median(p.rate for p in keyed)
        print(
            f"bare FastAPI + asyncpg insert: {bare_rate:.0f} req/s, "
            f"p50 {_pct(bare_latencies, 0.5):.0f} ms, p99 {_pct(bare_latencies, 0.99):.0f} ms; "
            f"arbiter ({keyed[0].server}, keyed)/bare = {rate / bare_rate:.2f}"
        )
        httpx_rate = await _hammer_httpx(clients, seconds, bare_base)
        print(
            f"the same bare insert through one shared httpx client ({clients} connections): "
            f"{httpx_rate:.0f} req/s (the load client, not the server, bounds that figure)"
        )
    finally:
        stop_server(bare)


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
    parser.add_argument("--seconds", type=float, default=10, help="of each phase")
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds of the alternating phases (default 2)"
    )
    parser.add_argument(
        "--configurations",
        default=",".join(CONFIGURATIONS),
        help="server configurations, side by side: serve (arbiter serve, its defaults), "
        "tuned (no access log, log level warning, asyncio loop), or both (the default)",
    )
    parser.add_argument("--no-bare", action="store_true", help="leave out the bare insert")
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
        help="more uvicorn options for the tuned Arbiter and the bare server alike, e.g. "
        '"--loop asyncio --http h11" to compare event loops and HTTP parsers',
    )
    args = parser.parse_args()
    _UVICORN.extend(args.uvicorn.split())
    configurations = [c.strip() for c in args.configurations.split(",") if c.strip()]
    unknown = set(configurations) - set(CONFIGURATIONS)
    if unknown or not configurations:
        parser.error(f"--configurations: one or more of {', '.join(CONFIGURATIONS)}")
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
            configurations=configurations,
            rounds=args.rounds,
            bare=not args.no_bare,
        )
    )


if __name__ == "__main__":
    main()
