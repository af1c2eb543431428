"""Real team files posted to the stored import (tests/data/trf/SURVEY.md,
docs/rules/teams.md#real-team-files, docs/teams.md#trf-export-and-import). The ICU's
league seats colours freely and has boards won by default; the Heraklion championship
has matches on eight boards of ten; the Heraklion friendship cup leaves a team out of
each Swiss round and has boards won by default. Each is stored as the file has it: the
stored standings are the file's own (as `POST /v1/compute/standings` reads the same
file), and the export of the stored event imports as itself, byte for byte. FIDE's
TRF-26 sample contradicts its own record 352 and stays refused, naming the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import stored_tournaments

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"

REAL = [
    "armstrong_cup_2011.tab",
    "heraklion_championship_2025.trf",
    "heraklion_friendship_cup_2024.trf",
]


async def _import(client: httpx.AsyncClient, body: bytes) -> dict[str, Any]:
    answer = await client.post(
        "/v1/tournaments/import", content=body, headers={"content-type": "text/plain"}
    )
    assert answer.status_code == 201, answer.text
    imported: dict[str, Any] = answer.json()
    return imported


def _lines(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r["rank"], r["team"], r["match_points"], r["game_points"], r["tiebreaks"]) for r in rows
    ]


@pytest.mark.parametrize("name", REAL)
async def test_a_real_team_file_is_stored_with_its_own_standings(
    client: httpx.AsyncClient, name: str
) -> None:
    body = (DATA / name).read_bytes()
    computed = await client.post("/v1/compute/standings", content=body)
    assert computed.status_code == 200, computed.text
    stored = await _import(client, body)
    standings = (await client.get(f"/v1/tournaments/{stored['id']}/standings")).json()
    assert _lines(standings["teams"]) == _lines(computed.json()["teams"])
    first = (await client.get(f"/v1/tournaments/{stored['id']}/trf")).text
    again = await _import(client, first.encode())
    second = (await client.get(f"/v1/tournaments/{again['id']}/trf")).text
    assert second == first


async def test_the_fide_sample_is_refused_naming_the_line(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    before = await stored_tournaments(app)
    answer = await client.post(
        "/v1/tournaments/import",
        content=(DATA / "fide_trf26_team_sample.trf").read_bytes(),
        headers={"content-type": "text/plain"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "body"
    assert answer.json()["detail"] == (
        "line 182, column 147 (player 150, round 6): board 4 of team 13 has white, "
        "record 352 says B; neither team's 310 order seats the match"
    )
    assert await stored_tournaments(app) == before


def _boards(match: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(b["board"], b["white"], b["black"], b["result"]) for b in match["boards"]]


async def _round(client: httpx.AsyncClient, name: str, number: int) -> dict[str, Any]:
    stored = await _import(client, (DATA / name).read_bytes())
    answer = await client.get(f"/v1/tournaments/{stored['id']}/rounds/{number}")
    assert answer.status_code == 200, answer.text
    document: dict[str, Any] = answer.json()
    return document


async def test_boards_won_by_default_and_colours_as_played(client: httpx.AsyncClient) -> None:
    """Armstrong Cup round 5, Dublin University (3) against Elm Mount (5): University
    fielded six, so Elm Mount's 86 and 93 (`0000 - +`) won boards 1 and 7 by default;
    88 `62 b 1`, 89 `68 w =`, 90 `59 b 1`, 91 `63 w 1`, 92 `60 w =`, 95 `67 b 1`: 7 to 1.
    University had White on boards 2, 4 and 8, Black on 3, 5 and 6: colours as played,
    not the alternating sequence."""
    document = await _round(client, "armstrong_cup_2011.tab", 5)
    (match,) = (m for m in document["matches"] if (m["home"], m["away"]) == (3, 5))
    assert _boards(match) == [
        (1, 0, 86, "-+"),
        (2, 62, 88, "0-1"),
        (3, 89, 68, "1/2-1/2"),
        (4, 59, 90, "0-1"),
        (5, 91, 63, "1-0"),
        (6, 92, 60, "1/2-1/2"),
        (7, 0, 93, "-+"),
        (8, 67, 95, "0-1"),
    ]
    assert (match["game_points"], match["match_points"]) == ([1.0, 7.0], [0.0, 2.0])
    # University's colour on each board (the empty boards 1 and 7 take the alternating one)
    assert [b["home"] for b in match["boards"]] == ["w", "w", "b", "w", "b", "b", "w", "w"]


async def test_a_match_on_fewer_boards(client: httpx.AsyncClient) -> None:
    """Heraklion championship round 1, team 6 against team 2 on eight boards of ten:
    6 to 2 (board 6, 28 `123 w +`, a forfeit win)."""
    document = await _round(client, "heraklion_championship_2025.trf", 1)
    (match,) = (m for m in document["matches"] if (m["home"], m["away"]) == (6, 2))
    assert [b["board"] for b in match["boards"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert _boards(match)[5] == (6, 28, 123, "+-")
    assert (match["game_points"], match["match_points"]) == ([6.0, 2.0], [2.0, 0.0])


async def test_a_team_left_out_of_a_swiss_round(client: httpx.AsyncClient) -> None:
    """Heraklion friendship cup round 1: fifteen teams, ΣΑΧ (15) not paired and given
    nothing (its players' cells are `0000 - -`); ΣΟΗ (4) beat team 11 6 to 0, board 3
    won by default by 31 (`0000 - +`)."""
    document = await _round(client, "heraklion_friendship_cup_2024.trf", 1)
    assert document["byes"] == [{"team": 15, "type": "free"}]
    (match,) = (m for m in document["matches"] if (m["home"], m["away"]) == (4, 11))
    assert _boards(match)[2] == (3, 31, 0, "+-")
    assert (match["game_points"], match["match_points"]) == ([6.0, 0.0], [2.0, 0.0])


async def test_boards_not_played_have_no_result_to_report(client: httpx.AsyncClient) -> None:
    """Armstrong Cup round 5, match 3 (University against Elm Mount): board 1 was won by
    default, so there is no game to report; the organizer's whole-match forfeit `+-`
    gives University the boards it played, with their colours as played (White on
    boards 2, 4, 8: `+-`; Black on boards 3, 5, 6: `-+`), and leaves boards 1 and 7."""
    stored = await _import(client, (DATA / "armstrong_cup_2011.tab").read_bytes())
    auth = {"Authorization": f"Bearer {stored['organizer_token']}"}
    url = f"/v1/tournaments/{stored['id']}/rounds/5/matches/3"
    refused = await client.put(f"{url}/boards/1/result", json={"result": "1-0"}, headers=auth)
    assert refused.status_code == 404, refused.text
    assert refused.json()["field"] == "board"
    assert refused.json()["detail"] == (
        "match 3 of round 5 has no game on board 1 (not played, or won by default)"
    )
    answer = await client.put(f"{url}/forfeit", json={"forfeit": "+-"}, headers=auth)
    assert answer.status_code == 200, answer.text
    assert [b["result"] for b in answer.json()["boards"]] == [
        "-+",
        "+-",
        "-+",
        "+-",
        "-+",
        "-+",
        "-+",
        "+-",
    ]


async def test_a_board_of_a_short_match_beyond_its_boards(client: httpx.AsyncClient) -> None:
    """Heraklion championship round 1, match 2 (team 6 against team 2) was played on
    boards 1-8 of ten: board 9 has no game."""
    stored = await _import(client, (DATA / "heraklion_championship_2025.trf").read_bytes())
    auth = {"Authorization": f"Bearer {stored['organizer_token']}"}
    url = f"/v1/tournaments/{stored['id']}/rounds/1/matches/2/boards/9/result"
    refused = await client.put(url, json={"result": "1-0"}, headers=auth)
    assert refused.status_code == 404 and refused.json()["field"] == "board"


async def test_a_board_won_by_default_counts_in_the_board_prizes(
    client: httpx.AsyncClient,
) -> None:
    """Elm Mount's 86 on board 1 of the Armstrong Cup: round 1 drawn with 102, rounds 2
    and 4 lost to 129 and 30, round 5 won by default (University left board 1 empty),
    round 7 won against 115: 2.5 of 5 (C.07 Art. 11: a forfeit win is a point)."""
    stored = await _import(client, (DATA / "armstrong_cup_2011.tab").read_bytes())
    standings = (await client.get(f"/v1/tournaments/{stored['id']}/standings")).json()
    (board_1,) = (s for s in standings["boards"] if s["board"] == 1)
    (line,) = (p for p in board_1["players"] if p["player"] == 86)
    assert (line["points"], line["games"], line["percentage"]) == (2.5, 5, 50.0)


async def test_an_inconsistent_real_file_is_refused_naming_the_line(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """The friendship cup with ΣΟΗ's 29 listed in ΓΑΖΙ 2's squad too (line 161)."""
    text = (DATA / "heraklion_friendship_cup_2024.trf").read_text(encoding="utf-8")
    squad = "013 ΓΑΖΙ 2                            84"
    assert squad in text
    before = await stored_tournaments(app)
    answer = await client.post(
        "/v1/tournaments/import",
        content=text.replace(squad, squad.replace("84", "29   84"), 1).encode(),
        headers={"content-type": "text/plain"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "body"
    assert answer.json()["detail"] == "line 161: player 29 is already in team 4 (line 154)"
    assert await stored_tournaments(app) == before


@pytest.mark.parametrize(
    ("name", "planned", "byes"),
    [
        ("heraklion_championship_2025.trf", ("\n142 4", "\n142 5"), []),
        # fifteen teams: Α.Σ.ΗΡΟΔΟΤΟΣ (13) gets round 8's pairing-allocated bye
        (
            "heraklion_friendship_cup_2024.trf",
            ("\n142 7", "\n142 8"),
            [{"team": 13, "type": "pairing-allocated"}],
        ),
    ],
)
async def test_an_imported_swiss_pairs_its_next_round_as_the_file_would(
    client: httpx.AsyncClient, name: str, planned: tuple[str, str], byes: list[Any]
) -> None:
    """With one more round planned (record 142), the stored event pairs it as
    `POST /v1/compute/pairings` pairs the same file: the matches on fewer boards, the
    boards won by default and the Friendship Cup's teams left out of a round (no
    points, no bye) read the same way in both."""
    text = (DATA / name).read_text(encoding="utf-8")
    assert planned[0] in text
    body = text.replace(*planned).encode()
    computed = await client.post("/v1/compute/pairings", content=body)
    assert computed.status_code == 200, computed.text
    stored = await _import(client, body)
    auth = {"Authorization": f"Bearer {stored['organizer_token']}"}
    paired = await client.post(f"/v1/tournaments/{stored['id']}/rounds", headers=auth)
    assert paired.status_code == 201, paired.text
    expected = computed.json()
    assert paired.json()["round"] == expected["round"]
    assert [(m["home"], m["away"]) for m in paired.json()["matches"]] == [
        (m["home"], m["away"]) for m in expected["matches"]
    ]
    assert paired.json()["byes"] == expected["byes"] == byes
