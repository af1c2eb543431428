"""Rating changes of the tie-break oracle events (tests/data/tiebreaks, 40 Swiss events
with forfeits and byes) against an independent computation written here from FIDE B.02
(2024 and its 2025 amendment) and table 8.1.2 as transcribed in tests/data/ratings.

The computation reads the TRF lines by their columns (TRF-16: start number 5-8, rating
49-52, from column 92 one 10-column cell per round: opponent, colour, result), rates a
game when both players are rated and it was played over the board (`1`, `=`, `0`;
B.02 5.1), limits the difference to 400 for a player rated below 2650 (8.3.1), reads
PD from the table, and sums K x (W - PD) (8.3.2). Every rated player of every event is
compared: the service's answer for the file (`POST /v1/compute/ratings`), for the
stored tournament (`GET /standings?ratings=true` and each player's games), and for a
JSON body that gives each player the facts K needs (K decided by 8.3.3 here)."""

from __future__ import annotations

import csv
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
EVENTS = sorted(p.name for p in (DATA / "tiebreaks").glob("t-f*.trf"))
YEAR = 2026


def _table() -> list[tuple[int, int | None, Fraction]]:
    """Table 8.1.2 as bands (from, to or None, PD of the higher-rated player)."""
    with (DATA / "ratings" / "fide_8_1_2.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    bands = [
        (int(r["d_from"]), int(r["d_to"]) if r["d_to"] else None, Fraction(r["pd_higher"]))
        for r in rows
    ]
    for (_, high, _), (low, _, _) in itertools.pairwise(bands):
        assert high is not None and low == high + 1, "the bands must be contiguous"
    for row in rows:
        assert Fraction(row["pd_higher"]) + Fraction(row["pd_lower"]) == 1
    return bands


TABLE = _table()


def pd(rating: int, opponent: int) -> Fraction:
    """PD of `rating` against `opponent` (B.02 8.3.1, 8.3.2a): the 400-point rule for a
    player rated below 2650, then table 8.1.2 for the higher or the lower player."""
    difference = abs(rating - opponent)
    if rating < 2650:
        difference = min(difference, 400)
    higher = next(
        p for low, high, p in TABLE if low <= difference and (high is None or difference <= high)
    )
    return higher if rating >= opponent else 1 - higher


@dataclass
class Line:
    """One player of a file, read by columns."""

    number: int
    rating: int
    games: list[tuple[int, int, str, str]] = field(default_factory=list)
    """(round, opponent, colour, result code) of every cell with an opponent."""


def read_lines(text: str) -> dict[int, Line]:
    """The 001 lines of a TRF-16 file."""
    lines: dict[int, Line] = {}
    for raw in text.splitlines():
        if not raw.startswith("001"):
            continue
        line = Line(int(raw[4:8]), int(raw[48:52].strip() or 0))
        for index, start in enumerate(range(91, len(raw), 10), start=1):
            cell = raw[start : start + 8].ljust(8)
            opponent = cell[0:4].strip()
            if opponent and opponent != "0000":
                line.games.append((index, int(opponent), cell[5], cell[7]))
        lines[line.number] = line
    return lines


SCORES = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}


@dataclass(frozen=True)
class Expected:
    """The independent figures of one rated player."""

    games: int
    score: Fraction
    expected: Fraction
    per_game: dict[int, Fraction]
    """Round -> PD of each rated game."""


def independent(lines: dict[int, Line]) -> dict[int, Expected]:
    """Every rated player's rated games, score and expected score."""
    figures = {}
    for line in lines.values():
        if not line.rating:
            continue
        per_game = {
            rnd: pd(line.rating, lines[opponent].rating)
            for rnd, opponent, _, code in line.games
            if code in SCORES and lines[opponent].rating
        }
        score = sum(
            (SCORES[code] for rnd, _, _, code in line.games if rnd in per_game), Fraction(0)
        )
        figures[line.number] = Expected(
            len(per_game), score, sum(per_game.values(), Fraction(0)), per_game
        )
    return figures


def facts_k(number: int, rating: int, games: int) -> tuple[dict[str, Any], int]:
    """Facts given to the service for a player and the K they give (B.02 8.3.3): 10
    from a published 2400; 40 under 30 games before the event; 40 for a junior under
    2300; else 20; K x n at most 700."""
    facts = {
        "reached_2400": rating >= 2400 or number % 5 == 0,
        "games_before": (number * 7) % 60,
        "birth_year": 2010 if number % 2 else 1990,
    }
    if facts["reached_2400"]:
        k = 10
    elif facts["games_before"] < 30 or (rating < 2300 and facts["birth_year"] + 18 >= YEAR):
        k = 40  # a new player, or a junior
    else:
        k = 20
    if games and k * games > 700:
        k = 700 // games
    return facts, k


def _k_from_file(rating: int) -> int | None:
    """A file alone decides K only from a rating of 2400 or more (8.3.3): 10."""
    return 10 if rating >= 2400 else None


def _check_rows(
    rows: dict[int, dict[str, Any]], mine: dict[int, Expected], ks: dict[int, int | None]
) -> None:
    """Every rated player's row against the independent figures."""
    assert set(rows) == set(mine)
    for number, figures in mine.items():
        row = rows[number]
        k = ks[number]
        got = (row["games"], row["score"], row["expected"], row["k"], row["change"])
        want = (
            figures.games,
            float(figures.score),
            float(figures.expected),
            k,
            None if k is None else float(k * (figures.score - figures.expected)),
        )
        assert got == want, f"player {number}"
        assert bool(row["missing"]) == (k is None), f"player {number}"


def _rated(players: list[dict[str, Any]], key: str) -> dict[int, dict[str, Any]]:
    return {int(p[key]): p for p in players if p.get("rating")}


@pytest.mark.parametrize("name", EVENTS)
async def test_the_compute_route_agrees_for_every_player(
    client: httpx.AsyncClient, name: str
) -> None:
    text = (DATA / "tiebreaks" / name).read_text()
    lines = read_lines(text)
    mine = independent(lines)
    response = await client.post(
        "/v1/compute/ratings", content=text, headers={"content-type": "text/plain"}
    )
    assert response.status_code == 200, response.text
    rows = _rated(response.json()["players"], "id")
    _check_rows(rows, mine, {n: _k_from_file(lines[n].rating) for n in mine})
    # the same events with the facts K needs: every player's change is decided
    players: list[dict[str, Any]] = []
    ks: dict[int, int | None] = {}
    for number, line in sorted(lines.items()):
        facts, ks[number] = facts_k(number, line.rating, mine[number].games)
        players.append({"id": number, "rating": line.rating, **facts})
    games = {
        (rnd, number if colour == "w" else opponent): (
            number if colour == "w" else opponent,
            opponent if colour == "w" else number,
            _result(code, colour),
        )
        for number, line in lines.items()
        for rnd, opponent, colour, code in line.games
    }
    body = {
        "players": players,
        "year": YEAR,
        "games": [
            {"round": rnd, "white": white, "black": black, "result": result}
            for (rnd, _), (white, black, result) in sorted(games.items())
        ],
    }
    response = await client.post("/v1/compute/ratings", json=body)
    assert response.status_code == 200, response.text
    _check_rows(_rated(response.json()["players"], "id"), mine, ks)


def _result(code: str, colour: str) -> str:
    """A cell's result code from the white player's side, as the JSON body writes it."""
    white_wins = {"1": "1-0", "=": "1/2-1/2", "0": "0-1", "+": "+-", "-": "-+"}
    black_wins = {"1": "0-1", "=": "1/2-1/2", "0": "1-0", "+": "-+", "-": "+-"}
    return (white_wins if colour == "w" else black_wins)[code]


@pytest.mark.parametrize("name", EVENTS)
async def test_the_stored_tournament_agrees_for_every_player(
    client: httpx.AsyncClient, name: str
) -> None:
    text = (DATA / "tiebreaks" / name).read_text()
    lines = read_lines(text)
    mine = independent(lines)
    imported = await client.post(
        "/v1/tournaments/import", content=text, headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, imported.text
    tid, token = imported.json()["id"], imported.json()["organizer_token"]
    auth = {"Authorization": f"Bearer {token}"}
    standings = await client.get(f"/v1/tournaments/{tid}/standings?ratings=true", headers=auth)
    assert standings.status_code == 200, standings.text
    rows = {
        r["start_number"]: {**r["rating_change"], "rating": r["rating"]}
        for r in standings.json()["rows"]
        if r["rating"]
    }
    _check_rows(rows, mine, {n: _k_from_file(lines[n].rating) for n in mine})
    for number, figures in mine.items():
        games = await client.get(
            f"/v1/tournaments/{tid}/players/{number}/games?ratings=true", headers=auth
        )
        assert games.status_code == 200, games.text
        shares = {
            g["round"]: g["rating"]["expected"]
            for g in games.json()["games"]
            if g["rating"]["rated"]
        }
        assert shares == {rnd: float(p) for rnd, p in figures.per_game.items()}, number


def test_the_computation_covers_every_player_and_both_sides_of_the_400_rule() -> None:
    """40 events, 396 players, all rated; 97 of them 2400 or more (K 10 from the file
    alone); games where the 400-point rule applies, and games of players rated 2650 or
    more with a difference above 400 (the 2025 amendment)."""
    everyone = {name: read_lines((DATA / "tiebreaks" / name).read_text()) for name in EVENTS}
    players = [line for lines in everyone.values() for line in lines.values()]
    assert len(EVENTS) == 40 and len(players) == 396
    assert all(line.rating for line in players)
    assert sum(1 for line in players if line.rating >= 2400) == 97
    wide = [
        (line.rating, lines[opponent].rating)
        for lines in everyone.values()
        for line in lines.values()
        for _, opponent, _, code in line.games
        if code in SCORES and abs(line.rating - lines[opponent].rating) > 400
    ]
    assert any(rating < 2650 for rating, _ in wide)
    assert any(rating >= 2650 for rating, _ in wide)


def test_the_transcribed_table_reads_as_the_regulations_print_it() -> None:
    """Rows of table 8.1.2 as printed: 0-3 0.50, 92-98 0.63, 198-206 0.76, 345-357
    0.89, 392-411 0.92 (the 400-point limit's 0.92 / 0.08), over 735 1.00."""
    assert [pd(2000 + d, 2000) for d in (0, 3, 92, 98, 198, 206, 345, 357, 400)] == [
        Fraction(n, 100) for n in (50, 50, 63, 63, 76, 76, 89, 89, 92)
    ]
    assert pd(1600, 2400) == Fraction(8, 100)
    assert pd(2700, 1900) == 1
