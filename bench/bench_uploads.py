"""Benchmark: uploads of pathological text, read by the service's readers.

Prints:
- the time each reader takes on 5 MB of pathological text (PBN: unclosed braces, a
  brace a line, comment lines, blank lines, games; TRF: blank lines, comment lines,
  one XXA record, a long player record; a JSON tournament for the compute endpoints),
  in this process;
- `/healthz` timed again and again on a real server (uvicorn, loopback) while each of
  five uploads is read there (a PBN import, a TRF import sent as
  application/octet-stream, TRF and JSON compute bodies): the number of probes
  answered meanwhile, their median and their maximum.

Run: .venv/bin/python bench/bench_uploads.py
     [--server postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]
Bounded: about 30 s (SQLite file by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from bench_writes import _launch, create_database, drop_database, stop_server  # bench/

from service.api.compute_input import from_body
from service.db.migrate import upgrade
from service.engine.bridge.pbn import read_pbn
from service.engine.errors import EngineError
from service.engine.trf import parse_trf
from service.errors import Problem

SIZE = 5_000_000
GAME = '[Board "1"]\n[Table "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n\n'
SESSION = {
    "kind": "pairs",
    "name": "Bench pairs",
    "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 5)],
    "boards": 2,
    "movement": [
        {
            "round": 1,
            "tables": [
                {"table": 1, "ns": 1, "ew": 3, "boards": [1, 2]},
                {"table": 2, "ns": 2, "ew": 4, "boards": [1, 2]},
            ],
        }
    ],
}


def _json_tournament(bad_last: bool) -> bytes:
    """About 4 MB: 20,000 players, 5 rounds; the last game's player unknown if `bad_last`."""
    players = [{"id": n, "name": f"Player {n}", "rating": 1500} for n in range(1, 20_001)]
    games = [
        {"round": r, "white": 2 * k + 1, "black": 2 * k + 2, "result": "1-0"}
        for r in range(1, 6)
        for k in range(10_000)
    ]
    if bad_last:
        games[-1]["black"] = 99_999
    return json.dumps({"players": players, "games": games, "rounds": 6}).encode()


XXA = "XXA    1" + "  1.0" * (SIZE // 5 - 2)

READS: dict[str, tuple[Callable[[str], object], str]] = {
    "PBN unclosed braces": (read_pbn, "{" * SIZE),
    "PBN a brace a line": (read_pbn, "{\n" * (SIZE // 2)),
    "PBN braces closed at the end": (read_pbn, "{\n" * (SIZE // 2 - 1) + "}"),
    "PBN comment lines": (read_pbn, "; {\n" * (SIZE // 4)),
    "PBN blank lines": (read_pbn, "\n" * SIZE),
    "PBN games": (read_pbn, GAME * (SIZE // len(GAME))),
    "TRF blank lines": (parse_trf, "\n" * SIZE),
    "TRF comment lines": (parse_trf, "###\n" * (SIZE // 4)),
    "TRF one XXA record": (parse_trf, XXA),
    "TRF a long player record": (parse_trf, "001    1      A".ljust(91) + "   2 w 1  " * 499_990),
}


def readers() -> None:
    print(f"{'reader, 5 MB of':32} {'seconds':>8}  outcome")
    for name, (read, text) in READS.items():
        start = time.perf_counter()
        try:
            result = read(text)
            outcome = f"{len(result)} games" if isinstance(result, tuple) else "read"
        except EngineError as error:
            outcome = str(error)[:60]
        print(f"{name:32} {time.perf_counter() - start:8.2f}  {outcome}")
    body = _json_tournament(bad_last=False)
    start = time.perf_counter()
    try:
        from_body(body, True)
        outcome = "read"
    except Problem as error:
        outcome = error.detail
    print(f"{'JSON tournament (4 MB)':32} {time.perf_counter() - start:8.2f}  {outcome}")


async def _probed(
    client: httpx.AsyncClient, path: str, body: bytes, headers: dict[str, str]
) -> tuple[int, float, list[float]]:
    start = time.perf_counter()
    upload = asyncio.create_task(client.post(path, content=body, headers=headers))
    waits: list[float] = []
    while not upload.done():
        began = time.perf_counter()
        await client.get("/healthz", timeout=30)
        if not upload.done():
            waits.append(time.perf_counter() - began)
        await asyncio.sleep(0.005)
    response = await upload
    return response.status_code, time.perf_counter() - start, waits


async def server(url: str) -> None:
    process, base = await _launch("service.api.app:create_app", {"ARBITER_DATABASE_URL": url})
    try:
        async with httpx.AsyncClient(base_url=base, timeout=600) as client:
            event = (await client.post("/v1/bridge/events", json=SESSION)).json()
            auth = {"Authorization": f"Bearer {event['organizer_token']}"}
            uploads = {
                "PBN import, a brace a line": (
                    f"/v1/bridge/events/{event['id']}/import",
                    b"{\n" * (SIZE // 2 - 1),
                    {**auth, "content-type": "text/plain"},
                ),
                "PBN import, games": (
                    f"/v1/bridge/events/{event['id']}/import",
                    (GAME * (SIZE // len(GAME))).encode(),
                    {**auth, "content-type": "text/plain"},
                ),
                "TRF import, one XXA record": (
                    "/v1/tournaments/import",
                    XXA.encode(),
                    {"content-type": "application/octet-stream"},
                ),
                "compute, TRF body": ("/v1/compute/standings", XXA.encode(), {}),
                "compute, JSON body (refused)": (
                    "/v1/compute/pairings",
                    _json_tournament(bad_last=True),
                    {"content-type": "application/json"},
                ),
            }
            print(f"\n{'upload':30} status  seconds probes  p50 ms  max ms")
            for name, (path, body, headers) in uploads.items():
                status, seconds, waits = await _probed(client, path, body, headers)
                p50 = 1000 * statistics.median(waits) if waits else float("nan")
                worst = 1000 * max(waits) if waits else float("nan")
                print(
                    f"{name:30} {status:>6} {seconds:8.2f} {len(waits):>6} {p50:7.1f} {worst:7.1f}"
                )
    finally:
        stop_server(process)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="PostgreSQL server URL (default: a SQLite file)")
    args = parser.parse_args()
    readers()
    if args.server:
        url = await create_database(args.server)
        try:
            await server(url)
        finally:
            await drop_database(args.server, url)
    else:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            await asyncio.to_thread(upgrade, url)
            await server(url)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
