"""Live fan-out under load: N WebSocket subscribers while the organizer reports one
result every 100 ms: live standings for thousands of spectators (docs/live.md).

For each N the script starts real `arbiter serve` processes with their defaults, access
log on (`--server-log warning`: without it), one on SQLite, `--replicas` on PostgreSQL
(subscribers split across them), creates a 200-player round-robin,
connects N subscribers from `--client-procs` lean client processes (asyncio protocols
that do the handshake and parse frames by hand, reading only the seq at the head of each
message; a failed handshake is tried again, up to four times, as an app would; once all
are connected, each process reads its sockets through one epoll set of its own rather
than asyncio's loop, and at the departures shuts every socket down in one tight loop;
`--client-loop asyncio` for the loop and its task-by-task closing), with
`--delta compact` asking for the compact table delta, PUTs one result every
`--interval` s for `--duration` s, and reports:

- connect: seconds until every subscriber held its snapshot;
- e2e p50/p99: PUT sent -> subscriber holding a message covering that seq (an event,
  a batch, or a snapshot at or after it);
- lost: (subscriber, seq) pairs never covered within the drain time;
- PUT outcomes and p50/p99;
- the same for `--join-watch` s of results reported from the moment every subscriber
  starts connecting at once, as when a venue's screens come back after a network
  outage, and for `--leave-watch` s of further results while every subscriber leaves
  at once (closing its socket), as when a venue's screens or a stream's audience go;
- memory per idle subscriber: server RSS growth / N, after connecting, before results;
- the server's own part: the mean of `arbiter_live_bus_lag_seconds` (a notification to
  the end of its fan-out), read from `/metrics`; and the load processes' CPU share while
  they follow the results (on stderr);
- the bare-FastAPI ceiling: a tiny app in this script broadcasting a message of the
  same mean size (encoded once, one queue and sender per client) at the same rate to
  the same number of subscribers, measured in the same run.

Bounded: every phase has a timeout; the whole run for one N takes about a minute.
Usage: `python bench/bench_live.py 1000 5000 [--database postgresql --replicas 2]`.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import multiprocessing as mp
import os
import re
import resource
import select
import signal
import socket
import statistics
import sys
import tempfile
import time
from array import array
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from http_load import collector_paused  # bench/: the script's folder

HEAD = re.compile(rb'^\{"type":"(\w+)","(?:seq|from)":(\d+)(?:,"to":(\d+))?')
PG = "postgresql+asyncpg://postgres@127.0.0.1:5432"
HANDSHAKE_TRIES = 4
"""Tries of a subscriber's opening handshake before it counts as never connected."""


def _raise_nofile() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _rss_kib(pids: Sequence[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def _children(pid: int) -> list[int]:
    """The pid and its descendants (uvicorn workers)."""
    found = [pid]
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    found.extend(_children(int(child)))
    return found


# --- the bare FastAPI broadcaster ----------------------------------------------------


def _bare_server(port: int) -> None:
    """A plain FastAPI broadcast: POST /fire?seq=&size= sends one message of `size`
    bytes, encoded once, to every socket through one queue and sender per client."""
    import uvicorn

    app = FastAPI()
    queues: set[asyncio.Queue[str]] = set()

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=256)
        queues.add(queue)
        await websocket.send_text('{"type":"snapshot","seq":0}')

        async def drain() -> None:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass

        receiver = asyncio.create_task(drain())
        try:
            while not receiver.done():
                getter = asyncio.create_task(queue.get())
                await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    await websocket.send_text(getter.result())
                else:
                    getter.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            queues.discard(queue)
            receiver.cancel()

    @app.post("/fire")
    async def fire(seq: int, size: int) -> dict[str, int]:
        head = f'{{"type":"event","seq":{seq},"pad":"'
        text = head + "x" * max(0, size - len(head) - 2) + '"}'
        for queue in tuple(queues):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(text)
        return {"seq": seq}

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        backlog=4096,
        ws_per_message_deflate=False,  # as `arbiter serve`: the same socket settings
        loop="asyncio",  # and the same event loop
    )


# --- the load clients ---------------------------------------------------------------


class _Subscriber(asyncio.Protocol):
    """One lean subscriber: the opening handshake written by hand, then server frames
    parsed just enough to read the head of each text message (RFC 6455 5.2: server
    frames are unmasked) and to answer pings; the payload is never decoded. The load
    client must cost far less than the server it measures on the same two cores."""

    def __init__(self, path: str, host: str, record: Any, opened: asyncio.Future[None]) -> None:
        self.path, self.host, self.record, self.opened = path, host, record, opened
        self.buffer = bytearray()
        self.upgraded = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self._fail(ConnectionError(bytes(buffer[:40])))
                return
            self.upgraded = True
            del buffer[: end + 4]
            if not self.opened.done():
                self.opened.set_result(None)
        now = time.monotonic()
        at, size = 0, len(buffer)
        while size - at >= 2:
            opcode, length = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            head = 2
            if length == 126:
                if size - at < 4:
                    break
                length, head = int.from_bytes(buffer[at + 2 : at + 4], "big"), 4
            elif length == 127:
                if size - at < 10:
                    break
                length, head = int.from_bytes(buffer[at + 2 : at + 10], "big"), 10
            if size - at < head + length:
                break
            payload = at + head
            if opcode == 1:
                self.record(bytes(buffer[payload : payload + min(length, 96)]), length, now)
            elif opcode == 9:  # a ping: answer with a masked pong (clients mask, RFC 6455 5.3)
                self._pong(bytes(buffer[payload : payload + length]))
            elif opcode == 8:
                assert self.transport is not None
                self.transport.close()
            at = payload + length
        del buffer[:at]

    def _pong(self, data: bytes) -> None:
        assert self.transport is not None
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.transport.write(bytes([0x8A, 0x80 | len(data)]) + mask + masked)

    def _fail(self, exc: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc)
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("closed"))


async def _subscriber(
    url: str,
    first: list[int],
    covered: list[float],
    sizes: list[int],
    ready: Any,
    gate: asyncio.Semaphore,
    feeds: list[tuple[asyncio.Transport, _Subscriber]],
) -> None:
    """Follow one feed until cancelled: the first snapshot marks it ready, then every
    message's top seq and arrival time are kept in `covered` (pings are skipped)."""
    host, _, path = url.removeprefix("ws://").partition("/")
    address, _, port = host.partition(":")
    got_snapshot = False

    def record(head: bytes, length: int, now: float) -> None:
        nonlocal got_snapshot
        match = HEAD.match(head)
        if match is None:
            return
        kind, seq, to = match.group(1), int(match.group(2)), match.group(3)
        top = int(to) if to else seq
        if kind == b"ping":
            return
        if kind == b"snapshot" and not got_snapshot:
            got_snapshot = True
            first.append(top)
            ready()
            return
        sizes.append(length)
        covered.append(float(top))
        covered.append(now)

    loop = asyncio.get_running_loop()
    opened: asyncio.Future[None] = loop.create_future()
    async with gate:  # bounded concurrent handshakes: a herd would time out together
        transport, protocol = await asyncio.wait_for(
            loop.create_connection(
                lambda: _Subscriber("/" + path, host, record, opened), address, int(port)
            ),
            60,
        )
        await asyncio.wait_for(asyncio.shield(opened), 60)
    feeds.append((transport, protocol))
    try:
        await asyncio.Future()  # until cancelled
    finally:
        transport.close()


def _follow(
    feeds: list[tuple[asyncio.Transport, _Subscriber]], deadline: float, done_event: Any
) -> None:
    """Read every connected feed with one epoll set and no event loop, until `deadline`
    or `done_event`: each readable socket's bytes go straight to its protocol's
    `data_received`. asyncio's own selector and callbacks cost this process about as much
    again per message; the client shares the two cores with the servers it measures."""
    poller = select.epoll()
    by_fd: dict[int, _Subscriber] = {}
    for transport, protocol in feeds:
        fd = transport.get_extra_info("socket").fileno()
        by_fd[fd] = protocol
        poller.register(fd, select.EPOLLIN)
    read = os.read
    try:
        while time.monotonic() < deadline and not done_event.is_set():
            for fd, _ in poller.poll(0.1):
                try:
                    data = read(fd, 262144)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    by_fd[fd].data_received(data)
                else:  # closed by the server: left to the event loop from here
                    poller.unregister(fd)
    finally:
        poller.close()


def _hang_up(feeds: list[tuple[asyncio.Transport, _Subscriber]]) -> None:
    """Every subscriber leaves at once: each socket is shut down in one tight loop, as
    many devices closing their connections would, and the event loop's own bookkeeping
    of the closed connections waits until the timed departures are over."""
    for transport, _ in feeds:
        with contextlib.suppress(OSError):
            transport.get_extra_info("socket").shutdown(socket.SHUT_RDWR)


def _client_main(
    url: str,
    count: int,
    start_at: float,
    out: Any,
    deadline: float,
    done_event: Any,
    client_loop: str = "epoll",
    report_event: Any = None,
) -> None:
    """One load process: `count` subscribers; sends back connect time and coverage, and
    its own CPU seconds over the wall seconds while results were followed. With the
    epoll loop, every socket is shut down when `done_event` is set, and the rest waits
    for `report_event` (the departures' results timed meanwhile)."""
    _raise_nofile()

    async def main() -> None:
        covered: list[list[float]] = []
        first: list[int] = []
        sizes: list[int] = []
        feeds: list[tuple[asyncio.Transport, _Subscriber]] = []
        held = 0
        all_ready = asyncio.Event()

        def ready() -> None:
            nonlocal held
            held += 1
            if held == count:
                all_ready.set()

        gate = asyncio.Semaphore(64)

        async def one() -> None:
            """One subscriber, whose handshake is tried again after a failure (a
            listen backlog overflowing during the connect storm), as an app would."""
            slot: list[float] = []
            covered.append(slot)
            for attempt in range(HANDSHAKE_TRIES):
                try:
                    await _subscriber(url, first, slot, sizes, ready, gate, feeds)
                except (OSError, TimeoutError):
                    await asyncio.sleep(0.25 * 2**attempt)
                except Exception:
                    return

        while time.monotonic() < start_at:
            await asyncio.sleep(0.01)
        tasks = [asyncio.create_task(one()) for _ in range(count)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_ready.wait(), 60)
        out.put(("ready", held, time.monotonic()))
        wall, cpu = time.monotonic(), time.process_time()
        with collector_paused():
            if client_loop == "epoll":
                _follow(feeds, deadline, done_event)
            else:
                while time.monotonic() < deadline and not done_event.is_set():
                    await asyncio.sleep(0.1)
        share = (time.process_time() - cpu) / max(1e-9, time.monotonic() - wall)
        if client_loop == "epoll":
            _hang_up(feeds)
            if report_event is not None:
                report_event.wait(max(0.0, deadline - time.monotonic()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        flat = [array("d", c) for c in covered]
        out.put(("data", first, [c.tobytes() for c in flat], sizes[:2000], share))

    asyncio.run(main())


# --- the run ------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _server(database_url: str, port: int, quiet: bool, log: Path) -> AsyncIterator[int]:
    """`arbiter serve` as a user starts it (its defaults: log level info, the access log
    on, written to `log`), or with `--log-level warning` when `quiet`."""
    env = {
        **os.environ,
        "ARBITER_DATABASE_URL": database_url,
        "ARBITER_RATE_LIMITS_ENABLED": "false",  # the fan-out is measured, not the limits
    }
    code = "import sys; from service.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["serve", "--port", str(port), *(["--log-level", "warning"] if quiet else [])]
    with log.open("ab") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, *args, env=env, stdout=output, stderr=output
        )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            for _ in range(600):
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.05)
        yield process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
            await process.wait()


async def _database(kind: str, tmp: Path) -> str:
    if kind == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp / 'bench.db'}"
        from service.db.migrate import upgrade

        await asyncio.to_thread(upgrade, url)
        return url
    from bench_writes import create_database  # bench/: this folder

    return await create_database(f"{PG}/postgres")


async def _tournament(base: str, players: int) -> tuple[str, dict[str, str]]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        created = (
            await http.post("/v1/tournaments", json={"name": "Bench", "system": "round-robin"})
        ).json()
        auth = {"Authorization": f"Bearer {created['organizer_token']}"}
        for n in range(players):
            response = await http.post(
                f"/v1/tournaments/{created['id']}/players",
                json={"name": f"Player {n}", "rating": 2500 - n},
                headers=auth,
            )
            response.raise_for_status()
        (await http.post(f"/v1/tournaments/{created['id']}/start", headers=auth)).raise_for_status()
        return created["id"], auth


def _note(text: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _load(
    urls: list[str],
    n: int,
    procs: int,
    fire: Any,
    args: argparse.Namespace,
    server_pids: list[int],
    leave: Any = None,
    join: Any = None,
) -> dict[str, Any]:
    """Connect n subscribers, measure idle memory, fire results, collect coverage; with
    `join`, report results (`join(args)`) from the moment every subscriber starts to
    connect; with `leave`, keep reporting results (`leave(args)`) while every subscriber
    leaves at once."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    done = ctx.Event()
    report = ctx.Event()
    rss_before = _rss_kib(server_pids)
    start_at = time.monotonic() + 1.5
    deadline = start_at + 60 + args.duration + args.drain + 30
    workers = []
    for i in range(procs):
        count = n // procs + (1 if i < n % procs else 0)
        url = urls[i % len(urls)]
        worker = ctx.Process(
            target=_client_main,
            args=(url, count, start_at, out, deadline, done, args.client_loop, report),
        )
        worker.start()
        workers.append(worker)
    _note(f"connecting {n} subscribers from {procs} processes")
    joining: list[float] = []
    joined: dict[str, int] = {}
    with contextlib.ExitStack() as paused:
        joiner = None
        if join is not None:
            await asyncio.sleep(max(0.0, start_at - time.monotonic()))
            paused.enter_context(collector_paused())
            joiner = asyncio.create_task(join(args))
        readies = [await asyncio.to_thread(out.get, True, 120) for _ in workers]
        if joiner is not None:
            _, joining, joined = await joiner
    held = sum(r[1] for r in readies)
    connect = max(r[2] for r in readies) - start_at
    await asyncio.sleep(1.0)
    rss_idle = _rss_kib(server_pids)
    _note(f"{held} held their snapshot in {connect:.1f}s; firing")
    with collector_paused():
        sent, put_ms, outcomes = await fire(args)
    await asyncio.sleep(args.drain)
    done.set()  # every subscriber closes its socket now
    leaving: list[float] = []
    left: dict[str, int] = {}
    if leave is not None:
        with collector_paused():
            _, leaving, left = await leave(args)
    report.set()
    datas = [await asyncio.to_thread(out.get, True, 120) for _ in workers]
    for worker in workers:
        worker.join(30)
    latencies: list[float] = []
    lost = 0
    sizes: list[int] = []
    client_cpu = [data[4] for data in datas]
    for _, firsts, covered, some_sizes, _share in datas:
        sizes.extend(some_sizes)
        for start_seq, raw in zip(firsts, covered, strict=False):
            pairs = array("d")
            pairs.frombytes(raw)
            marks = [(int(pairs[i]), pairs[i + 1]) for i in range(0, len(pairs), 2)]
            position = 0
            for seq, at in sorted(sent.items()):
                if seq <= start_seq:
                    continue
                while position < len(marks) and marks[position][0] < seq:
                    position += 1
                if position == len(marks):
                    lost += 1
                else:
                    latencies.append(marks[position][1] - at)
        lost += (len(covered) - len(firsts)) * len(sent)
    lost += (n - held) * len(sent)
    return {
        "held": held,
        "connect_s": connect,
        "p50_ms": 1000 * _pct(latencies, 0.50),
        "p99_ms": 1000 * _pct(latencies, 0.99),
        "lost": lost,
        "expected": n * len(sent),
        "put": outcomes,
        "put_p50_ms": _pct(put_ms, 0.5),
        "put_p99_ms": _pct(put_ms, 0.99),
        "join_put": joined,
        "join_p50_ms": _pct(joining, 0.5) if joining else float("nan"),
        "join_p99_ms": _pct(joining, 0.99) if joining else float("nan"),
        "leave_put": left,
        "leave_p50_ms": _pct(leaving, 0.5) if leaving else float("nan"),
        "leave_p99_ms": _pct(leaving, 0.99) if leaving else float("nan"),
        "kib_per_sub": (rss_idle - rss_before) / max(1, n),
        "mean_bytes": statistics.fmean(sizes) if sizes else 0.0,
        "client_cpu": client_cpu,
    }


Fired = tuple[dict[int, float], list[float], dict[str, int]]
"""(send time by seq, request milliseconds, outcomes by status)."""


async def _drop_database(url: str) -> None:
    """Drop the PostgreSQL database `_database` made (its servers stopped first)."""
    from bench_writes import drop_database  # bench/: this folder

    await drop_database(f"{PG}/postgres", url)


async def _arbiter(n: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    url = await _database(args.database, tmp)
    replicas = args.replicas if args.database == "postgresql" else 1
    ports = [_free_port() for _ in range(replicas)]
    async with contextlib.AsyncExitStack() as stack:
        if args.database == "postgresql":  # dropped last, once the servers have stopped
            stack.push_async_callback(_drop_database, url)
        quiet = args.server_log == "warning"
        pids = [
            await stack.enter_async_context(_server(url, port, quiet, tmp / f"serve-{port}.log"))
            for port in ports
        ]
        _note(f"{replicas} server(s) up; creating a {args.players}-player round-robin")
        tid, auth = await _tournament(f"http://127.0.0.1:{ports[0]}", args.players)
        server_pids = [p for pid in pids for p in _children(pid)]

        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=30)
            )
            for p in ports
        ]
        async with __import__("websockets").connect(
            f"ws://127.0.0.1:{ports[0]}/v1/tournaments/{tid}/live"
        ) as ws:
            first = HEAD.match((await ws.recv()).encode())
            assert first is not None
            base_seq = int(first.group(2))
        games_per_round = args.players // 2
        count = int(args.duration / args.interval)

        async def results(start: int, many: int, interval: float) -> Fired:
            """PUT results `start` .. `start + many - 1` (round by round, table by
            table), one every `interval` s, over the replicas in turn."""
            sent: dict[int, float] = {}
            put_ms: list[float] = []
            outcomes: dict[str, int] = {}

            async def one(i: int) -> None:
                rnd, table = divmod(i, games_per_round)
                client = clients[i % len(clients)]
                seq = base_seq + i + 1
                started = time.monotonic()
                sent[seq] = started
                try:
                    response = await client.put(
                        f"/v1/tournaments/{tid}/rounds/{rnd + 1}/games/{table + 1}/result",
                        json={"result": ("1-0", "0-1", "1/2-1/2")[i % 3]},
                        headers=auth,
                    )
                    key = str(response.status_code)
                except httpx.HTTPError as exc:
                    key = type(exc).__name__
                put_ms.append(1000 * (time.monotonic() - started))
                outcomes[key] = outcomes.get(key, 0) + 1
                if key != "200":
                    sent.pop(seq, None)

            t0 = time.monotonic()
            tasks = []
            for k in range(many):
                await asyncio.sleep(max(0.0, t0 + k * interval - time.monotonic()))
                tasks.append(asyncio.create_task(one(start + k)))
            await asyncio.gather(*tasks)
            return sent, put_ms, outcomes

        joins = int(args.join_watch / args.interval)

        async def join(a: argparse.Namespace) -> Fired:
            return await results(0, joins, a.interval)

        async def fire(a: argparse.Namespace) -> Fired:
            fired = await results(joins, count, a.interval)
            await asyncio.sleep(1.0)  # the last fan-outs
            for client in clients:
                lag.extend(_bus_lag(await client.get("/metrics")))
            return fired

        async def leave(a: argparse.Namespace) -> Fired:
            leaving = int(a.leave_watch / a.interval)
            fired = await results(joins + count, leaving, a.interval)
            for client in clients if leaving else ():  # departures not yet seen
                still_open.append(_gauge(await client.get("/metrics"), "arbiter_live_subscribers"))
            return fired

        urls = [f"ws://127.0.0.1:{p}/v1/tournaments/{tid}/live?delta={args.delta}" for p in ports]
        lag: list[tuple[float, float]] = []
        still_open: list[float] = []
        result = await _load(
            urls, n, args.client_procs, fire, args, server_pids, leave, join if joins else None
        )
        lag_sum, lag_count = sum(s for s, _ in lag), sum(c for _, c in lag)
        result["lag_ms"] = 1000 * lag_sum / lag_count if lag_count else float("nan")
        result["still_open"] = int(sum(still_open)) if still_open else "-"
        return result


def _samples(metrics: httpx.Response) -> dict[str, float]:
    """The unlabelled samples of a `/metrics` page, by name (comments skipped)."""
    values: dict[str, float] = {}
    for line in metrics.text.splitlines():
        name, _, value = line.partition(" ")
        if value and not name.startswith("#") and "{" not in name:
            values[name] = float(value)
    return values


def _gauge(metrics: httpx.Response, name: str) -> float:
    """The value of the unlabelled gauge `name` in a `/metrics` page (0 when absent)."""
    return _samples(metrics).get(name, 0.0)


def _bus_lag(metrics: httpx.Response) -> list[tuple[float, float]]:
    """(sum, count) of `arbiter_live_bus_lag_seconds`: the server's own part of the
    delay, from a notification to the end of its fan-out to every socket."""
    values = _samples(metrics)
    total = values.get("arbiter_live_bus_lag_seconds_sum")
    count = values.get("arbiter_live_bus_lag_seconds_count")
    return [] if total is None or count is None else [(total, count)]


async def _bare(n: int, size: int, args: argparse.Namespace) -> dict[str, Any]:
    port = _free_port()
    ctx = mp.get_context("spawn")
    server = ctx.Process(target=_bare_server, args=(port,))
    server.start()
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            for _ in range(200):
                with contextlib.suppress(httpx.TransportError):
                    await http.get("/docs")
                    break
                await asyncio.sleep(0.05)

            async def fire(
                a: argparse.Namespace,
            ) -> tuple[dict[int, float], list[float], dict[str, int]]:
                sent: dict[int, float] = {}
                put_ms: list[float] = []
                count = int(a.duration / a.interval)
                t0 = time.monotonic()

                async def one(i: int) -> None:
                    started = sent[i + 1] = time.monotonic()
                    with contextlib.suppress(httpx.HTTPError):
                        await http.post("/fire", params={"seq": i + 1, "size": size})
                    put_ms.append(1000 * (time.monotonic() - started))

                tasks = []
                for i in range(count):
                    await asyncio.sleep(max(0.0, t0 + i * a.interval - time.monotonic()))
                    tasks.append(asyncio.create_task(one(i)))
                await asyncio.gather(*tasks)
                return sent, put_ms, {"200": count}

            pids = _children(server.pid or 0)
            return await _load(
                [f"ws://127.0.0.1:{port}/ws"], n, args.client_procs, fire, args, pids
            )
    finally:
        server.terminate()
        server.join(10)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("subscribers", type=int, nargs="+")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--replicas", type=int, default=2, help="PostgreSQL only")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--drain", type=float, default=5.0)
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument(
        "--client-loop",
        choices=("epoll", "asyncio"),
        default="epoll",
        help="how a load process reads its feeds once all are connected: one epoll set "
        "read directly (default), or asyncio's event loop (the client before)",
    )
    parser.add_argument(
        "--join-watch",
        type=float,
        default=0.0,
        help="seconds of results, one per --interval, from the moment every subscriber "
        "starts connecting (default 0: none, so the connect time is the crowd's alone)",
    )
    parser.add_argument(
        "--leave-watch",
        type=float,
        default=8.0,
        help="seconds of further results, one per --interval, while every subscriber leaves",
    )
    parser.add_argument("--no-bare", action="store_true")
    parser.add_argument(
        "--server-log",
        choices=("default", "warning"),
        default="default",
        help="`arbiter serve` with its defaults (log level info, access log on; default) or "
        "with --log-level warning (no access log), the configuration measured before",
    )
    parser.add_argument(
        "--delta",
        choices=("full", "compact"),
        default="full",
        help="the table delta form the subscribers ask for (`?delta=`)",
    )
    args = parser.parse_args(argv)
    _raise_nofile()
    header = (
        "| N | connect s | e2e p50 / p99 ms | lost | PUTs | PUT p50 / p99 ms | KiB/sub | "
        "msg bytes | PUTs while all join | their p50 / p99 ms | PUTs while all leave | "
        "their p50 / p99 ms | bare connect s | "
        "bare p50 / p99 ms | bare lost |"
    )
    print(
        f"database={args.database} replicas={args.replicas if args.database == 'postgresql' else 1}"
        f" players={args.players} duration={args.duration}s interval={args.interval}s"
        f" delta={args.delta} server-log={args.server_log}",
        flush=True,
    )
    print(header)
    print("|" + "---|" * 15, flush=True)
    for n in args.subscribers:
        with tempfile.TemporaryDirectory() as tmp:
            a = asyncio.run(_arbiter(n, args, Path(tmp)))
        puts = " ".join(f"{k}x{v}" for k, v in sorted(a["put"].items()))
        join_puts = " ".join(f"{k}x{v}" for k, v in sorted(a["join_put"].items())) or "-"
        leave_puts = " ".join(f"{k}x{v}" for k, v in sorted(a["leave_put"].items()))
        print(
            f"  arbiter N={n}: connect {a['connect_s']:.1f}s, e2e p50/p99 "
            f"{a['p50_ms']:.0f}/{a['p99_ms']:.0f} ms, lost {a['lost']} of {a['expected']}, "
            f"PUTs {puts}, PUT p50/p99 {a['put_p50_ms']:.0f}/{a['put_p99_ms']:.0f} ms, "
            f"{a['kib_per_sub']:.1f} KiB/sub, {a['mean_bytes']:.0f} B/msg, "
            f"server notification-to-fan-out-end mean {a['lag_ms']:.0f} ms, load clients' "
            f"CPU {', '.join(f'{c:.0%}' for c in a['client_cpu'])} of a core "
            f"({args.client_loop}); while every "
            f"subscriber joined: PUTs {join_puts}, p50/p99 {a['join_p50_ms']:.0f}/"
            f"{a['join_p99_ms']:.0f} ms; while every "
            f"subscriber left: PUTs {leave_puts}, p50/p99 {a['leave_p50_ms']:.0f}/"
            f"{a['leave_p99_ms']:.0f} ms, {a['still_open']} still open on the servers at "
            "the end",
            file=sys.stderr,
            flush=True,
        )
        b: dict[str, Any] = {
            "connect_s": float("nan"),
            "p50_ms": float("nan"),
            "p99_ms": float("nan"),
            "lost": "-",
        }
        if not args.no_bare:
            try:
                b = asyncio.run(_bare(n, int(a["mean_bytes"]) or 1000, args))
            except Exception as exc:  # the ceiling itself can collapse under load
                _note(f"bare broadcast failed: {type(exc).__name__}")
        print(
            f"| {n:,} | {a['connect_s']:.1f} | {a['p50_ms']:.0f} / {a['p99_ms']:.0f} | "
            f"{a['lost']} of {a['expected']} | {puts} | "
            f"{a['put_p50_ms']:.0f} / {a['put_p99_ms']:.0f} | "
            f"{a['kib_per_sub']:.1f} | {a['mean_bytes']:.0f} | {join_puts} | "
            f"{a['join_p50_ms']:.0f} / {a['join_p99_ms']:.0f} | {leave_puts} | "
            f"{a['leave_p50_ms']:.0f} / {a['leave_p99_ms']:.0f} | {b['connect_s']:.1f} | "
            f"{b['p50_ms']:.0f} / {b['p99_ms']:.0f} | {b['lost']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
