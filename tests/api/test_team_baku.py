"""The team Baku acceleration (docs/teams.md#baku-acceleration): `team.acceleration:
"baku"` adds virtual match and game points to group A's pairing score in the first
rounds (FIDE C.04.5.1 read for teams); the standings never see them."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.team_events import TeamEvent, create_team_event


async def _home_wins(client: httpx.AsyncClient, event: TeamEvent, body: dict[str, object]) -> None:
    matches = body["matches"]
    assert isinstance(matches, list)
    for match in matches:
        for board in match["boards"]:
            url = (
                f"/v1/tournaments/{event.id}/rounds/{body['round']}/matches/{match['match']}"
                f"/boards/{board['board']}/result"
            )
            result = "1-0" if board["home"] == "w" else "0-1"
            answer = await client.put(url, json={"result": result}, headers=event.auth())
            assert answer.status_code == 200, answer.text


async def test_group_a_pairs_on_its_virtual_points(client: httpx.AsyncClient) -> None:
    """Eight teams, five rounds, two boards: group A is teams 1-4 (2 x ceil(8 / 4)),
    accelerated in rounds 1-3, by a won match (2 MP, 2 GP) in rounds 1-2. Round 1 pairs
    two score groups, 1-3, 4-2 and 5-7, 8-6 (unaccelerated: 1-5, 6-2, 3-7, 8-4). The
    first-named teams win 2-0; before round 2 the pairing scores are 1, 4: 2 + 2;
    2, 3 (0 + 2) with 5, 8 (2 + 0); 6, 7: 0. Round 2: 4-1, 2-5, 3-8, 6-7. The standings
    show the real points only."""
    event = await create_team_event(
        client, 8, system="team-swiss", rounds=5, team={"boards": 2, "acceleration": "baku"}
    )
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert shown["team"]["acceleration"] == "baku"
    first = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert first.status_code == 201, first.text
    assert [(m["home"], m["away"]) for m in first.json()["matches"]] == [
        (1, 3),
        (4, 2),
        (5, 7),
        (8, 6),
    ]
    await _home_wins(client, event, first.json())
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    scores = {t["team"]: (t["match_points"], t["game_points"]) for t in standings["teams"]}
    assert scores == {
        1: (2.0, 2.0),
        4: (2.0, 2.0),
        5: (2.0, 2.0),
        8: (2.0, 2.0),
        2: (0.0, 0.0),
        3: (0.0, 0.0),
        6: (0.0, 0.0),
        7: (0.0, 0.0),
    }
    second = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert second.status_code == 201, second.text
    assert [(m["home"], m["away"]) for m in second.json()["matches"]] == [
        (4, 1),
        (2, 5),
        (3, 8),
        (6, 7),
    ]


async def test_the_file_carries_the_acceleration(client: httpx.AsyncClient) -> None:
    """The same event exported after round 1: two TRF-26 250 records for teams (match
    points, game points, rounds, teams 1-4); the file imports as a team Swiss with
    the acceleration, exports the same bytes and pairs round 2 alike: 4-1, 2-5, 3-8,
    6-7."""
    event = await create_team_event(
        client, 8, system="team-swiss", rounds=5, team={"boards": 2, "acceleration": "baku"}
    )
    first = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert first.status_code == 201, first.text
    await _home_wins(client, event, first.json())
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert [line for line in text.split("\n") if line.startswith("250")] == [
        "250  2.0  2.0   1   2    1    4",
        "250  1.0  1.0   3   3    1    4",
    ]
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    made = copy.json()
    assert made["team"]["acceleration"] == "baku"
    assert (await client.get(f"/v1/tournaments/{made['id']}/trf")).text == text
    organizer = {"Authorization": f"Bearer {made['organizer_token']}"}
    paired = await client.post(f"/v1/tournaments/{made['id']}/rounds", headers=organizer)
    assert paired.status_code == 201, paired.text
    assert [(m["home"], m["away"]) for m in paired.json()["matches"]] == [
        (4, 1),
        (2, 5),
        (3, 8),
        (6, 7),
    ]


async def test_the_acceleration_is_a_team_swiss_setting(client: httpx.AsyncClient) -> None:
    bad: list[dict[str, Any]] = [
        {"system": "team-round-robin", "team": {"acceleration": "baku"}},
        {"system": "team-swiss", "rounds": 5, "team": {"acceleration": "fast"}},
    ]
    for body in bad:
        answer = await client.post("/v1/tournaments", json={"name": "T", **body})
        assert answer.status_code == 422, answer.text
        fields = [e["field"] for e in answer.json().get("errors", [])] or [
            answer.json().get("field")
        ]
        assert any(f and f.startswith("team.acceleration") for f in fields), answer.json()


async def test_a_file_exported_before_round_1_keeps_the_boards(
    client: httpx.AsyncClient,
) -> None:
    """Exported before round 1, no match shows the boards: record 352 does (TRF-26, one
    colour per board: `WB` for two boards of three-player teams). The copy has two
    boards, so its 250 records (2 MP, 2 GP; 1 MP, 1 GP) are Baku's; it exports the same
    bytes and pairs round 1 as the original: 1-3, 4-2, 5-7, 8-6."""
    event = await create_team_event(
        client, 8, system="team-swiss", rounds=5, team={"boards": 2, "acceleration": "baku"}
    )
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    lines = text.split("\n")
    assert "352 WB" in lines
    assert [line for line in lines if line.startswith("250")] == [
        "250  2.0  2.0   1   2    1    4",
        "250  1.0  1.0   3   3    1    4",
    ]
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    made = copy.json()
    assert made["team"]["boards"] == 2
    assert made["team"]["acceleration"] == "baku"
    assert (await client.get(f"/v1/tournaments/{made['id']}/trf")).text == text
    organizer = {"Authorization": f"Bearer {made['organizer_token']}"}
    pairs = []
    for tournament, auth in ((event.id, event.auth()), (made["id"], organizer)):
        paired = await client.post(f"/v1/tournaments/{tournament}/rounds", headers=auth)
        assert paired.status_code == 201, paired.text
        pairs.append([(m["home"], m["away"]) for m in paired.json()["matches"]])
    assert pairs == [[(1, 3), (4, 2), (5, 7), (8, 6)]] * 2
