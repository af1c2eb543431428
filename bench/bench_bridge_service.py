"""Bridge events: ranking from stored results, and results entered through the API.

Prints:
- the live ranking of a full pairs session (a Mitchell of T tables and 9 rounds of 3
  boards, each board played 9 times) by matchpoints, Butler and Cavendish, and of a
  teams event (VP), computed by the engine from the results as the endpoint reads
  them;
- results entered over HTTP (in-process ASGI, SQLite file): per-request latency of a
  table's PUT, and of the ranking GET after each write (the ranking is recomputed once
  per event and cached per sequence number).

Complexity: the ranking scores each board once: matchpoints O(n log n), Butler
O(n log n), Cavendish O(d^2) for d distinct scores on a board of n results.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from service.api.app import create_app
from service.config import Settings
from service.db.bridge_reads import validate_layout
from service.db.migrate import upgrade
from service.engine.bridge.ranking import TableResult, event_ranking

SCORES = [-800, -300, -200, -100, -50, 90, 110, 140, 170, 400, 420, 430, 450, 620, 650, 980]


def mitchell(tables: int, rounds: int, per_round: int = 3) -> dict[str, Any]:
    """NS pairs 1..T stay, EW pairs T+1..2T move up, board sets move down (T odd)."""
    movement = []
    for r in range(rounds):
        movement.append(
            {
                "round": r + 1,
                "tables": [
                    {
                        "table": t + 1,
                        "ns": t + 1,
                        "ew": tables + 1 + (t - r) % tables,
                        "boards": [
                            ((t + r) % tables) * per_round + k + 1 for k in range(per_round)
                        ],
                    }
                    for t in range(tables)
                ],
            }
        )
    return {
        "kind": "pairs",
        "name": "bench",
        "scoring": "matchpoints",
        "pairs": [{"number": n, "name": f"P{n}"} for n in range(1, 2 * tables + 1)],
        "boards": tables * per_round,
        "movement": movement,
    }


def teams(count: int, rounds: int, boards: int) -> dict[str, Any]:
    """Round-robin-like rounds (team i v i + r); each match uses two tables."""
    schedule = []
    for r in range(rounds):
        matches = []
        used: set[int] = set()
        for home in range(1, count + 1):
            away = (home - 1 + r + 1) % count + 1
            if home in used or away in used or away == home:
                continue
            used |= {home, away}
            table = 2 * len(matches) + 1
            matches.append(
                {
                    "home": home,
                    "away": away,
                    "open_table": table,
                    "closed_table": table + 1,
                    "boards": list(range(r * boards + 1, (r + 1) * boards + 1)),
                }
            )
        schedule.append({"round": r + 1, "matches": matches})
    return {
        "kind": "teams",
        "name": "bench teams",
        "teams": [{"number": n, "name": f"T{n}"} for n in range(1, count + 1)],
        "boards": rounds * boards,
        "rounds": schedule,
    }


def rows_for(settings: dict[str, Any], rng: random.Random) -> list[TableResult]:
    """A full event's results, as the ranking endpoint reads them from storage."""
    layout = validate_layout(settings)
    return [
        TableResult(play.round, play.table, play.board, play.ns, play.ew, rng.choice(SCORES))
        for play in layout.plays.values()
    ]


def bench_rankings() -> None:
    rng = random.Random(7)
    for tables in (15, 51):
        settings = mitchell(tables, rounds=9)
        rows = rows_for(settings, rng)
        for scoring in ("matchpoints", "butler", "cavendish"):
            settings["scoring"] = scoring
            start = time.perf_counter()
            layout = validate_layout(settings)
            built = time.perf_counter()
            event_ranking(layout, rows)
            done = time.perf_counter()
            print(
                f"pairs {tables:3d} tables x 9 rounds ({len(rows):5d} results) {scoring:11s}: "
                f"layout {1000 * (built - start):6.1f} ms, ranking {1000 * (done - built):7.1f} ms"
            )
    settings = teams(40, rounds=7, boards=12)
    rows = rows_for(settings, rng)
    start = time.perf_counter()
    layout = validate_layout(settings)
    built = time.perf_counter()
    event_ranking(layout, rows)
    done = time.perf_counter()
    print(
        f"teams 40 teams x 7 rounds x 12 boards ({len(rows)} results): "
        f"layout {1000 * (built - start):.1f} ms, ranking {1000 * (done - built):.1f} ms"
    )


async def bench_http(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            created = (await client.post("/v1/bridge/events", json=mitchell(15, 9))).json()
            tokens = {t["table"]: t["token"] for t in created["table_tokens"]}
            layout = validate_layout(mitchell(15, 9))
            rng = random.Random(3)
            writes: list[float] = []
            reads: list[float] = []
            for (table, board), _play in list(layout.plays.items())[:300]:
                tricks = rng.randint(7, 12)
                start = time.perf_counter()
                response = await client.put(
                    f"/v1/bridge/events/{created['id']}/tables/{table}/boards/{board}",
                    json={"contract": "4S", "declarer": "N", "tricks": tricks},
                    headers={"Authorization": f"Bearer {tokens[table]}"},
                )
                writes.append(time.perf_counter() - start)
                assert response.status_code == 200, response.text
                start = time.perf_counter()
                response = await client.get(f"/v1/bridge/events/{created['id']}/ranking")
                reads.append(time.perf_counter() - start)
                assert response.status_code == 200
    print(
        f"HTTP (SQLite, 15-table session, {len(writes)} results): "
        f"PUT median {1000 * statistics.median(writes):.1f} ms, "
        f"ranking GET median {1000 * statistics.median(reads):.1f} ms"
    )


def main() -> None:
    bench_rankings()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        upgrade(url)
        asyncio.run(bench_http(url))


if __name__ == "__main__":
    main()
