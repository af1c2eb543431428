"""Real team files posted to the stored import (tests/data/trf/SURVEY.md,
docs/rules/teams.md#real-team-files). The team reader takes the three real events, but
a stored team round holds a game on every board of every match, the first-named team
with White on odd boards, and every team in a Swiss round: the ICU's league, the two
Heraklion events and FIDE's sample each break one of these, so the import refuses them
naming what, and stores nothing."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import stored_tournaments

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"

CANNOT_STORE = "a team file Arbiter cannot store: "


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        # round 1, Bray / Greystones (1) against Phibsboro (9): Bray's 49 `134 w 1` has
        # White on board 2 (the ICU's league seats colours freely)
        (
            "armstrong_cup_2011.tab",
            CANNOT_STORE + "round 1: match 1-9, board 2: the first-named team must hold "
            "White on odd boards",
        ),
        # round 1, team 6 against team 2 on eight boards of the event's ten
        (
            "heraklion_championship_2025.trf",
            CANNOT_STORE + "round 1: match 6-2 does not have boards 1..10",
        ),
        # round 1, ΣΟΗ (4) against team 11: player 31 `0000 - +` won board 3 by default
        (
            "heraklion_friendship_cup_2024.trf",
            CANNOT_STORE + "round 1: match 4-11, board 3 was won by default (the other "
            "team left it empty); a stored match holds a game on every board",
        ),
        (
            "fide_trf26_team_sample.trf",
            "line 182, column 147 (player 150, round 6): board 4 of team 13 has white, "
            "record 352 says B; neither team's 310 order seats the match",
        ),
    ],
)
async def test_real_team_files_are_refused_with_the_reason(
    client: httpx.AsyncClient, app: FastAPI, name: str, detail: str
) -> None:
    before = await stored_tournaments(app)
    answer = await client.post(
        "/v1/tournaments/import",
        content=(DATA / name).read_bytes(),
        headers={"content-type": "text/plain"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "body"
    assert answer.json()["detail"] == detail
    assert await stored_tournaments(app) == before
