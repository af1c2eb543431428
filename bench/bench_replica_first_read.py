"""Benchmark: the first `GET /standings` on another replica after a start
(docs/live.md#workers-and-replicas).

Two real servers (A and B) on one fresh PostgreSQL database. For each of K round-robins
of P players (default 3 of 400: 79,800 games each), the script registers the players
through A, reads the standings once through B (a results page open before the start:
B now follows the tournament), starts the tournament through A, waits `--settle`
seconds (default 3, the time a peer has to prepare the table after hearing of the
start), then times the first `GET /standings` after the start on B (the replica that
did not start it) and then on A. Before the bus's table channel, B's first read waited
for its live reader's cold read of the whole schedule; with it, B computed that table
as soon as the start committed.

Run: .venv/bin/python bench/bench_replica_first_read.py [--players 400] [--tournaments 3]
     [--settle 3] [--server postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]
Bounded: per tournament, registration and start (a few seconds) plus the settle time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

import httpx
from bench_writes import (  # bench/: this folder
    _launch,
    create_database,
    drop_database,
    register_round_robin,
    start_tournament,
    stop_server,
)


async def _first_read_ms(http: httpx.AsyncClient, tournament_id: str) -> float:
    began = time.perf_counter()
    response = await http.get(f"/v1/tournaments/{tournament_id}/standings")
    assert response.status_code == 200, response.text
    return (time.perf_counter() - began) * 1000


async def bench(players: int, tournaments: int, settle: float, server: str) -> None:
    url = await create_database(server)
    processes = []
    try:
        for _ in range(2):
            processes.append(
                await _launch("service.api.app:create_app", {"ARBITER_DATABASE_URL": url})
            )
        (_, base_a), (_, base_b) = processes
        other: list[float] = []
        own: list[float] = []
        async with (
            httpx.AsyncClient(base_url=base_a, timeout=600) as a,
            httpx.AsyncClient(base_url=base_b, timeout=600) as b,
        ):
            for _ in range(tournaments):
                tournament_id, auth = await register_round_robin(a, players)
                await _first_read_ms(b, tournament_id)  # the registered players
                await start_tournament(a, tournament_id, auth)
                await asyncio.sleep(settle)
                other.append(await _first_read_ms(b, tournament_id))
                own.append(await _first_read_ms(a, tournament_id))
        print(
            f"{players}-player round-robins started through replica A, {settle:g} s later: "
            f"first GET /standings on replica B "
            + ", ".join(f"{ms:.0f}" for ms in other)
            + f" ms (median {statistics.median(other):.0f}); on A "
            + ", ".join(f"{ms:.0f}" for ms in own)
            + f" ms (median {statistics.median(own):.0f})"
        )
    finally:
        for process, _ in processes:
            stop_server(process)
        await drop_database(server, url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--tournaments", type=int, default=3)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument(
        "--server",
        default=os.environ.get(
            "ARBITER_TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
        ),
    )
    args = parser.parse_args()
    asyncio.run(bench(args.players, args.tournaments, args.settle, args.server))


if __name__ == "__main__":
    main()
