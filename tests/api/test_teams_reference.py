"""The 20 reference team events (tests/data/team_tiebreaks: TRF-26 files with the
values of FIDE's tie-break checker) imported as stored team tournaments: the stored
tournament's team standings give the checker's values and ranks (docs/teams.md)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "team_tiebreaks"
EVENTS = sorted(DATA.glob("v*.json"))
_SCORE = {"PTS": "MPTS"}
"""The checker's name of a code where the standings use another spelling."""
_PLACES = ("DE", "EDE", "TBR", "BBE")
"""Codes whose standings value is a place within the group they were applied to; the
reference holds the place right after match points (one-code calls)."""


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.stem)
async def test_a_reference_event_stores_with_the_checkers_standings(
    client: httpx.AsyncClient, path: Path
) -> None:
    reference = json.loads(path.read_text())
    imported = await client.post(
        "/v1/tournaments/import",
        content=reference["trf"].encode(),
        headers={"content-type": "text/plain"},
    )
    assert imported.status_code == 201, imported.text
    body = imported.json()
    assert body["team"]["boards"] == reference["boards"]
    assert len(body["captain_tokens"]) == reference["teams"]
    standings = (await client.get(f"/v1/tournaments/{body['id']}/standings")).json()
    assert standings["tiebreaks"] == reference["ranking_tiebreaks"]
    teams = standings["teams"]
    assert {str(t["team"]): t["rank"] for t in teams} == reference["rank"]
    for code in standings["tiebreaks"]:
        if code.startswith(_PLACES):
            continue  # a place within the group the code split, not the one-code value
        expected = reference["tiebreaks"][_SCORE.get(code, code)]
        assert {str(t["team"]): t["tiebreaks"][code] for t in teams} == expected, code
    assert {str(t["team"]): t["game_points"] for t in teams} == reference["tiebreaks"]["GPTS"]
