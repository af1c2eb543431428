"""Points the organizer gives a team without a match (docs/teams.md#absent-teams,
docs/teams.md#late-entries): an absence worth stated match and game points, a late
team's missed rounds; scored in the team standings, written as TRF-26 299 records and
read back."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from service.db.events import events_since
from tests.api.team_events import TeamEvent, create_team_event, roster


def _absence(event: TeamEvent, rnd: int, team: int) -> str:
    return f"/v1/tournaments/{event.id}/rounds/{rnd}/absences/{team}"


async def _results(client: httpx.AsyncClient, event: TeamEvent, rnd: int, result: str) -> None:
    body = (await client.get(f"/v1/tournaments/{event.id}/rounds/{rnd}")).json()
    for match in body["matches"]:
        for board in match["boards"]:
            url = (
                f"/v1/tournaments/{event.id}/rounds/{rnd}/matches/{match['match']}"
                f"/boards/{board['board']}/result"
            )
            answer = await client.put(url, json={"result": result}, headers=event.auth())
            assert answer.status_code == 200, answer.text


async def _scores(client: httpx.AsyncClient, tournament: str) -> dict[int, tuple[float, float]]:
    standings = (await client.get(f"/v1/tournaments/{tournament}/standings")).json()
    return {t["team"]: (t["match_points"], t["game_points"]) for t in standings["teams"]}


async def _copy(client: httpx.AsyncClient, text: str) -> dict[str, Any]:
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    made: dict[str, Any] = copy.json()
    return made


async def _pairs(client: httpx.AsyncClient, tournament: str, token: str) -> list[tuple[int, int]]:
    paired = await client.post(
        f"/v1/tournaments/{tournament}/rounds", headers={"Authorization": f"Bearer {token}"}
    )
    assert paired.status_code == 201, paired.text
    return [(m["home"], m["away"]) for m in paired.json()["matches"]]


async def test_an_absence_worth_the_organizers_points(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Five teams of two boards; the organizer gives absent team 5 a drawn match for
    round 1 (1 MP, 1 GP); team 3's absence from round 2 with points is taken back
    (nothing left). Round 1 pairs 1-3, 4-2, every board drawn: every team has
    1 MP and 1 GP, team 5 too. The file writes `299 Z   1.0   1.0  001    5`; the copy
    scores team 5 alike, exports the same bytes and pairs round 2 as the original."""
    event = await create_team_event(client, 5, system="team-swiss", rounds=3)
    given = {"type": "zero-point", "match_points": 1.0, "game_points": 1.0}
    announced = await client.put(_absence(event, 1, 5), json=given, headers=event.auth())
    assert announced.status_code == 200, announced.text
    assert announced.json() == {"round": 1, **given}
    taken = await client.put(_absence(event, 2, 3), json=given, headers=event.auth())
    assert taken.status_code == 200, taken.text
    assert (await client.delete(_absence(event, 2, 3), headers=event.auth())).is_success
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert [t["absences"] for t in teams] == [[], [], [], [], [{"round": 1, **given}]]
    async with app.state.arbiter.sessions() as session:
        logged = [e.payload for e in await events_since(session, event.id, 0)]
    assert logged[-3:] == [
        {"round": 1, "team": 5, **given},
        {"round": 2, "team": 3, **given},
        {"round": 2, "team": 3, "type": None, "match_points": 0.0, "game_points": 0.0},
    ]
    first = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert [(m["home"], m["away"]) for m in first.json()["matches"]] == [(1, 3), (4, 2)]
    assert first.json()["byes"] == [{"team": 5, "type": "free"}]
    await _results(client, event, 1, "1/2-1/2")
    assert await _scores(client, event.id) == {t: (1.0, 1.0) for t in range(1, 6)}
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert [line for line in text.split("\n") if line.startswith("299")] == [
        "299 Z   1.0   1.0  001    5"
    ]
    made = await _copy(client, text)
    assert await _scores(client, made["id"]) == {t: (1.0, 1.0) for t in range(1, 6)}
    copied = (await client.get(f"/v1/tournaments/{made['id']}/teams")).json()
    assert copied[4]["absences"] == []  # the round is paired: only its points remain
    assert copied[4]["awarded"] == [{"round": 1, "match_points": 1.0, "game_points": 1.0}]
    assert (await client.get(f"/v1/tournaments/{made['id']}/trf")).text == text
    assert await _pairs(client, event.id, event.organizer) == await _pairs(
        client, made["id"], made["organizer_token"]
    )


async def test_only_the_organizer_gives_points_and_within_a_win(
    client: httpx.AsyncClient,
) -> None:
    """Two boards, 2/1/0: a captain announcing points 403 naming `match_points` (a
    zero-point absence is still theirs), 3 MP 422 `match_points`, 2.5 GP 422
    `game_points`, 0.3 GP 422 `game_points`. Nothing is stored."""
    event = await create_team_event(client, 4, system="team-swiss", rounds=3)
    bad = [
        ({"match_points": 1.0}, event.auth(2), 403, "match_points"),
        ({"match_points": 3.0}, event.auth(), 422, "match_points"),
        ({"game_points": 2.5}, event.auth(), 422, "game_points"),
        ({"game_points": 0.3}, event.auth(), 422, "game_points"),
    ]
    for extra, headers, code, field in bad:
        answer = await client.put(
            _absence(event, 1, 2), json={"type": "zero-point", **extra}, headers=headers
        )
        assert answer.status_code == code, (extra, answer.text)
        fields = [e["field"] for e in answer.json().get("errors", [])] or [answer.json()["field"]]
        assert any(field in f for f in fields), answer.json()
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert all(t["absences"] == [] for t in teams)
    own = await client.put(
        _absence(event, 1, 2), json={"type": "zero-point"}, headers=event.auth(2)
    )
    assert own.status_code == 200, own.text


async def test_a_late_team_gets_the_stated_points_for_missed_rounds(
    client: httpx.AsyncClient,
) -> None:
    """Four teams of two boards, round 1: 1-3, 4-2, the first-named teams win 2-0. Team 5
    enters with a drawn match for each missed round (1 MP, 1 GP): standings 1 and 4 on
    2/2, team 5 on 1/1, 2 and 3 on 0/0. The file writes a 299 record for round 1; the
    copy scores alike, exports the same bytes and pairs round 2 as the original.
    `missed_rounds` before the start is 422 naming it; above a win 422 naming
    `missed_rounds.match_points`."""
    early = await create_team_event(client, 2, system="team-swiss", rounds=3, start=False)
    refused = await client.post(
        f"/v1/tournaments/{early.id}/teams",
        json={"name": "X", "players": roster(3, 3), "missed_rounds": {"match_points": 1.0}},
        headers=early.auth(),
    )
    assert refused.status_code == 422 and refused.json()["field"] == "missed_rounds"
    event = await create_team_event(client, 4, system="team-swiss", rounds=3)
    first = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert [(m["home"], m["away"]) for m in first.json()["matches"]] == [(1, 3), (4, 2)]
    too_many = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "Late", "players": roster(5, 3), "missed_rounds": {"match_points": 2.5}},
        headers=event.auth(),
    )
    assert too_many.status_code == 422, too_many.text
    assert too_many.json()["field"] == "missed_rounds.match_points"
    late = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={
            "name": "Late",
            "players": roster(5, 3),
            "missed_rounds": {"match_points": 1.0, "game_points": 1.0},
        },
        headers=event.auth(),
    )
    assert late.status_code == 201, late.text
    assert late.json()["id"] == 5
    assert late.json()["awarded"] == [{"round": 1, "match_points": 1.0, "game_points": 1.0}]
    body = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    for match in body["matches"]:
        for board in match["boards"]:
            url = (
                f"/v1/tournaments/{event.id}/rounds/1/matches/{match['match']}"
                f"/boards/{board['board']}/result"
            )
            result = "1-0" if board["home"] == "w" else "0-1"
            answer = await client.put(url, json={"result": result}, headers=event.auth())
            assert answer.status_code == 200, answer.text
    expected = {1: (2.0, 2.0), 4: (2.0, 2.0), 5: (1.0, 1.0), 2: (0.0, 0.0), 3: (0.0, 0.0)}
    assert await _scores(client, event.id) == expected
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert [line for line in text.split("\n") if line.startswith("299")] == [
        "299 Z   1.0   1.0  001    5"
    ]
    made = await _copy(client, text)
    assert await _scores(client, made["id"]) == expected
    assert (await client.get(f"/v1/tournaments/{made['id']}/trf")).text == text
    assert await _pairs(client, event.id, event.organizer) == await _pairs(
        client, made["id"], made["organizer_token"]
    )
