"""Benchmark: the live reader's cold read of a large tournament
(docs/decisions/standings-brought-forward.md).

A start or a pairing leaves the reader's view of a tournament cold: its next standings
table reads the whole tournament back from the database. This script starts a real
server on a fresh PostgreSQL database, registers P players (default 400) in a
round-robin and starts it (79,800 games), stops the server, and then, in this process,
times K reads of its table by fresh readers (`--repeat`, default 5), each with nothing
cached, after one untimed read (the database's first read of the freshly written rows,
which the server's own warm-up may have made already). Alternating with them, K fresh
readers compute the same table from the rounds as the start stored them (what the start
route hands its replica's reader, `Tables.table` given the schedule), and the script
prints the ratio.

Run: .venv/bin/python bench/bench_cold_view.py [--players 400] [--repeat 5]
     [--server postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]
Bounded: set-up (registration and start, a few seconds) plus about a second a read.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import httpx
from bench_writes import (  # bench/: this folder
    _launch,
    create_database,
    drop_database,
    register_round_robin,
    start_tournament,
    stop_server,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tree this script is in

from service.config import Settings
from service.db.loading import Schedule, stored_schedule
from service.db.session import create_engine, create_session_factory
from service.db.tournament_reads import get_tournament, load_engine_tournament
from service.views.live_tables import Tables


async def _cold_read(url: str, tournament_id: str) -> float:
    tables = Tables(Settings(database_url=url))
    await tables.open()
    try:
        start = time.perf_counter()
        found = await tables.table(tournament_id, 0)
        assert found is not None
        return time.perf_counter() - start
    finally:
        await tables.close()


async def _seeded_read(url: str, tournament_id: str, seq: int, schedule: Schedule) -> float:
    tables = Tables(Settings(database_url=url))
    await tables.open()
    try:
        start = time.perf_counter()
        found = await tables.table(tournament_id, seq, schedule)
        assert found is not None
        return time.perf_counter() - start
    finally:
        await tables.close()


def _spread(seconds: list[float]) -> str:
    """Median, min and max in milliseconds."""
    median, low, high = (1000 * f(seconds) for f in (statistics.median, min, max))
    return f"{median:.0f} ms (min {low:.0f} ms, max {high:.0f} ms)"


async def _stored_schedule(url: str, tournament_id: str) -> tuple[int, Schedule]:
    """The start's seq and the rounds as it stored them (what the start route hands its
    replica's reader)."""
    engine = create_engine(url)
    try:
        async with create_session_factory(engine)() as session:
            row = await get_tournament(session, tournament_id)
            view = await load_engine_tournament(session, row, confirmed_only=False)
    finally:
        await engine.dispose()
    return row.last_seq, stored_schedule(view.rounds)


async def bench(players: int, repeat: int, server: str) -> None:
    url = await create_database(server)
    process = None
    try:
        process, base = await _launch("service.api.app:create_app", {"ARBITER_DATABASE_URL": url})
        async with httpx.AsyncClient(base_url=base, timeout=600) as http:
            tournament_id, auth = await register_round_robin(http, players)
            await start_tournament(http, tournament_id, auth)
        stop_server(process)  # its own warm-up read would race the reads timed here
        await _cold_read(url, tournament_id)
        seq, schedule = await _stored_schedule(url, tournament_id)
        reads: list[float] = []
        seeded: list[float] = []
        for _ in range(repeat):  # alternating, the same tournament
            reads.append(await _cold_read(url, tournament_id))
            seeded.append(await _seeded_read(url, tournament_id, seq, schedule))
        games = players * (players - 1) // 2
        print(
            f"{players}-player round-robin ({games:,} games), medians of {repeat}: "
            f"a cold read {_spread(reads)}; the table from the start's schedule "
            f"{_spread(seeded)}; ratio {statistics.median(seeded) / statistics.median(reads):.2f}"
        )
    finally:
        stop_server(process)
        await drop_database(server, url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--server", default="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    asyncio.run(bench(args.players, args.repeat, args.server))


if __name__ == "__main__":
    main()
