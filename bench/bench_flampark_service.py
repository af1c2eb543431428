"""FLAMPARK live standings through the service: 5,000 players x 11 rounds on SQLite.

Builds the tournament directly in the database (players, the whole schedule, ten rounds
of results), then times, through the HTTP API in-process: one more result (PUT) and the
standings with FLAMPARK scores and the progress premium that follow it (GET), as a
scoreboard would see them. Run: `python bench/bench_flampark_service.py [players]`.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx
from sqlmodel import select

from service.api.app import create_app
from service.app.register import register
from service.app.start import close_start_list
from service.config import Settings
from service.db.migrate import upgrade
from service.db.repository import create_tournament, store_rounds
from service.db.tables import GameRow
from service.engine.pairing.flampark import flampark_schedule

RESULTS = ("1-0", "1/2-1/2", "0-1")


async def build(app: object, players: int, rounds: int) -> tuple[str, str]:
    state = app.state.arbiter  # type: ignore[attr-defined]
    rng = random.Random(2026)
    async with state.sessions() as session:
        settings = {
            "points": {"win": 1, "draw": 0.5, "loss": 0},
            "time_control": {"base_minutes": 15, "increment_seconds": 1},
            "flampark": {"progress_premium": {"pool": 10000, "wb": 900}},
        }
        row, token = await create_tournament(
            session, name="Bench", system="flampark", settings=settings, total_rounds=rounds
        )
        for n in range(players):
            rating = 2700 - n * 1700 // players
            await register(session, row, {"name": f"P{n:05d}", "rating": rating})
        await close_start_list(session, row)
        await store_rounds(session, row, flampark_schedule(players, rounds).rounds)
        row.current_round = 1
        session.add(row)
        await session.flush()
        played = select(GameRow).where(GameRow.tournament_id == row.id, GameRow.round < rounds)
        for game in (await session.exec(played)).all():
            game.result, game.status = rng.choice(RESULTS), "confirmed"
            session.add(game)
        await session.commit()
        return row.id, token


def main(players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        upgrade(url)
        asyncio.run(measure(url, players))


async def measure(url: str, players: int) -> None:
    rounds = 11
    if True:
        app = create_app(Settings(database_url=url))
        async with app.router.lifespan_context(app):
            started = time.perf_counter()
            tid, token = await build(app, players, rounds)
            print(f"players={players} rounds={rounds} build: {time.perf_counter() - started:.1f} s")
            transport = httpx.ASGITransport(app=app)
            auth = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                first = time.perf_counter()
                await client.get(f"/v1/tournaments/{tid}/standings")
                print(f"first standings (cold):      {time.perf_counter() - first:.3f} s")
                timings = []
                for table in range(1, 6):
                    begin = time.perf_counter()
                    put = await client.put(
                        f"/v1/tournaments/{tid}/rounds/{rounds}/games/{table}/result",
                        json={"result": "1-0", "time_shortened_minutes": 5},
                        headers=auth,
                    )
                    written = time.perf_counter()
                    body = (await client.get(f"/v1/tournaments/{tid}/standings")).json()
                    done = time.perf_counter()
                    assert put.status_code == 200 and body["rows"][0]["flampark"]["PF"] is not None
                    timings.append((written - begin, done - written))
                for put_s, get_s in timings:
                    print(f"one more result: PUT {put_s:.3f} s, standings GET {get_s:.3f} s")
                if "--profile" in sys.argv:
                    import cProfile
                    import pstats

                    profiler = cProfile.Profile()
                    profiler.enable()
                    await client.put(
                        f"/v1/tournaments/{tid}/rounds/{rounds}/games/7/result",
                        json={"result": "0-1"},
                        headers=auth,
                    )
                    await client.get(f"/v1/tournaments/{tid}/standings")
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
                premiums = sum(r["flampark"]["PP"] for r in body["rows"])
                print(f"premiums sum to {premiums:.2f}")


if __name__ == "__main__":
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    main(int(numbers[0]) if numbers else 5000)
