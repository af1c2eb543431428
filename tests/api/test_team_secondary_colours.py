"""The team Swiss's `team.secondary_for_colours` (C.04.6 4.2.2: the secondary score
chooses a match's first-team "unless the rules of the competition state not to use
it"): stored, shown, and handed to the engine by the stored round, the compute
endpoint and the command line. What the engine does with it is pinned by the article's
position in tests/engine/pairing/test_team_swiss_positions.py."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from service.engine.pairing.team_swiss.engine import pair_team_round
from service.engine.pairing.team_swiss.model import TeamPairing, TeamState, TeamSwissSettings
from service.engine.teams import draw
from tests.api.team_events import create_team_event


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[TeamSwissSettings]:
    """Record the settings every team Swiss pairing is made with."""
    seen: list[TeamSwissSettings] = []

    def recording(
        states: Sequence[TeamState], number: int, settings: TeamSwissSettings
    ) -> TeamPairing:
        seen.append(settings)
        return pair_team_round(states, number, settings)

    monkeypatch.setattr(draw, "pair_team_round", recording)
    return seen


@pytest.mark.parametrize("chosen", [True, False])
async def test_a_stored_team_swiss_pairs_with_its_setting(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, chosen: bool
) -> None:
    seen = _spy(monkeypatch)
    event = await create_team_event(
        client,
        4,
        system="team-swiss",
        rounds=3,
        team={"boards": 2, "secondary_for_colours": chosen},
    )
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()["team"]
    assert shown["secondary_for_colours"] is chosen
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    assert [s.secondary_for_colours for s in seen] == [chosen]


async def test_the_setting_is_a_boolean(client: httpx.AsyncClient) -> None:
    body = {
        "name": "Teams",
        "system": "team-swiss",
        "rounds": 3,
        "team": {"boards": 2, "secondary_for_colours": "no"},
    }
    refused = await client.post("/v1/tournaments", json=body)
    assert refused.status_code == 422
    assert refused.json()["field"] == "team.secondary_for_colours"


def test_compute_and_the_command_line_hand_it_over(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`secondary_for_colours=false` on the compute endpoint and
    `--no-secondary-for-colours` on `arbiter pair` reach the engine; their defaults
    keep the secondary score."""
    from service.api.compute_teams import team_pairing
    from service.cli import main

    seen = _spy(monkeypatch)
    # a real team Swiss of 4 rounds, with a fifth planned (record 142)
    real = Path(__file__).resolve().parents[1] / "data" / "trf" / "heraklion_championship_2025.trf"
    text = real.read_text(encoding="utf-8")
    assert "\n142 4" in text
    team_file = tmp_path / "planned.trf"
    team_file.write_text(text.replace("\n142 4", "\n142 5"), encoding="utf-8")
    raw = team_file.read_bytes()
    team_pairing(raw, None, "A", "match", 10_000)
    team_pairing(raw, None, "A", "match", 10_000, False)
    assert [s.secondary_for_colours for s in seen] == [True, False]
    seen.clear()
    assert main(["pair", str(team_file), "--no-secondary-for-colours"]) == 0
    assert [s.secondary_for_colours for s in seen] == [False]
