"""Team tournaments for the tests (docs/teams.md): create one with its teams and their
captains' tokens, and start it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["TeamEvent", "create_team_event", "roster"]


@dataclass
class TeamEvent:
    id: str
    organizer: str
    captains: dict[int, str] = field(default_factory=dict)
    rosters: dict[int, list[int]] = field(default_factory=dict)

    def auth(self, team: int | None = None) -> dict[str, str]:
        token = self.organizer if team is None else self.captains[team]
        return {"Authorization": f"Bearer {token}"}


def roster(team: int, size: int) -> list[dict[str, Any]]:
    return [{"name": f"T{team} P{k}", "rating": 2400 - 100 * team - 10 * k} for k in range(size)]


async def create_team_event(
    client: httpx.AsyncClient,
    teams: int,
    *,
    system: str = "team-round-robin",
    team: dict[str, Any] | None = None,
    size: int = 3,
    start: bool = True,
    **settings: Any,
) -> TeamEvent:
    body = {"name": "Team event", "system": system, "team": team or {"boards": 2}, **settings}
    created = await client.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    event = TeamEvent(created.json()["id"], created.json()["organizer_token"])
    for number in range(1, teams + 1):
        answer = await client.post(
            f"/v1/tournaments/{event.id}/teams",
            json={"name": f"Team {number}", "players": roster(number, size)},
            headers=event.auth(),
        )
        assert answer.status_code == 201, answer.text
        assert answer.json()["id"] == number
        event.captains[number] = answer.json()["captain_token"]
        event.rosters[number] = answer.json()["players"]
    if start:
        started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
        assert started.status_code == 200, started.text
    return event
