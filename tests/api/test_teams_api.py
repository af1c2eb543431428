"""Stored team tournaments through the HTTP API (docs/teams.md): creation with team
settings, teams and captains, lineups, team rounds paired board by board, board
results confirmed by the two captains, a whole-match forfeit, and the standings."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.engine.pairing.team_roundrobin import team_round_robin
from tests.api.team_events import TeamEvent, create_team_event, roster


async def test_create_validates_the_team_settings(client: httpx.AsyncClient) -> None:
    bad: list[tuple[dict[str, Any], str]] = [
        ({"system": "team-swiss", "rounds": 5, "team": {"boards": 21}}, "team.boards"),
        ({"system": "team-swiss", "rounds": 5, "team": {"boards": 0}}, "team.boards"),
        ({"system": "team-swiss", "team": {"boards": 4}}, "rounds"),
        ({"system": "team-swiss", "rounds": 5, "team": {"colours": "C"}}, "team.colours"),
        ({"system": "team-swiss", "rounds": 5, "team": {"double": True}}, "team.double"),
        ({"system": "swiss-dutch", "rounds": 5, "team": {"boards": 4}}, "team"),
        (
            {"system": "team-swiss", "rounds": 5, "team": {"match_points": {"win": 1, "draw": 1}}},
            "team.match_points",
        ),
        ({"system": "team-swiss", "rounds": 5, "tiebreaks": ["MPVGP", "XX"]}, "tiebreaks.1"),
        ({"system": "team-round-robin", "tiebreaks": ["BH:MP"]}, "tiebreaks.0"),
    ]
    for body, name in bad:
        answer = await client.post("/v1/tournaments", json={"name": "T", **body})
        assert answer.status_code == 422, (body, answer.text)
        fields = [e["field"] for e in answer.json().get("errors", [])] or [
            answer.json().get("field")
        ]
        assert any(f is not None and f.startswith(name) for f in fields), (body, answer.json())
    good = await client.post(
        "/v1/tournaments",
        json={"name": "T", "system": "team-swiss", "rounds": 5, "team": {"boards": 6}},
    )
    assert good.status_code == 201, good.text
    assert good.json()["team"]["boards"] == 6
    assert good.json()["tiebreaks"] == ["PTS", "MPVGP", "EDE", "EMGSB", "BH:MP", "BC"]


async def test_teams_register_with_their_players_and_a_captain(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, start=False)
    assert event.rosters == {1: [1, 2, 3], 2: [4, 5, 6]}
    listed = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert [(t["id"], t["name"], t["players"]) for t in listed] == [
        (1, "Team 1", [1, 2, 3]),
        (2, "Team 2", [4, 5, 6]),
    ]
    short = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "Small", "players": roster(3, 1)},
        headers=event.auth(),
    )
    assert short.status_code == 422 and short.json()["field"] == "players"
    alone = await client.post(
        f"/v1/tournaments/{event.id}/players", json={"name": "Solo"}, headers=event.auth()
    )
    assert alone.status_code == 409 and alone.json()["field"] == "system"
    by_captain = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "X", "players": roster(3, 2)},
        headers=event.auth(1),
    )
    assert by_captain.status_code == 403
    assert len((await client.get(f"/v1/tournaments/{event.id}/teams")).json()) == 2
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    # players numbered team by team in board order; each gets a token like any player
    assert [(t["start_number"], t["name"]) for t in started.json()["player_tokens"]] == [
        (1, "T1 P0"),
        (2, "T1 P1"),
        (3, "T1 P2"),
        (4, "T2 P0"),
        (5, "T2 P1"),
        (6, "T2 P2"),
    ]
    assert started.json()["rounds"] == 1


async def test_lineups(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, size=4)
    base = f"/v1/tournaments/{event.id}/rounds/1/lineups"
    default = (await client.get(f"{base}/1")).json()
    assert default == {"round": 1, "team": 1, "players": [1, 2], "set": False}
    refused = [
        ([], "players"),
        ([1, 2, 3], "players"),
        ([1, 5], "players.1"),
        ([3, 2], "players.1"),
        ([2, 2], "players.1"),
    ]
    for players, name in refused:
        answer = await client.put(f"{base}/1", json={"players": players}, headers=event.auth(1))
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == name
    other = await client.put(f"{base}/2", json={"players": [5, 6]}, headers=event.auth(1))
    assert other.status_code == 403
    assert (await client.get(f"{base}/1")).json()["set"] is False  # nothing stored
    ok = await client.put(f"{base}/1", json={"players": [2, 4]}, headers=event.auth(1))
    assert ok.status_code == 200, ok.text
    by_organizer = await client.put(f"{base}/2", json={"players": [5, 7]}, headers=event.auth())
    assert by_organizer.status_code == 200
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    (match,) = paired.json()["matches"]
    # start numbers: team 1 = 1..4, team 2 = 5..8; ids are the same here
    seated = {(b["white"], b["black"]) for b in match["boards"]}
    assert seated == {(2, 5), (7, 4)}  # home White on board 1, Black on board 2
    late = await client.put(f"{base}/1", json={"players": [1, 2]}, headers=event.auth(1))
    assert late.status_code == 409 and late.json()["field"] == "round"


async def test_round_robin_rounds_follow_berger(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 4)
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["rounds"] == 3 and tournament["system"] == "team-round-robin"
    for rnd in team_round_robin(4):
        paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
        assert paired.status_code == 201, paired.text
        body = paired.json()
        assert [(m["home"], m["away"]) for m in body["matches"]] == list(rnd.matches)
        assert body == (await client.get(f"/v1/tournaments/{event.id}/rounds/{rnd.round}")).json()
        for match in body["matches"]:
            for board in match["boards"]:
                answer = await client.put(
                    f"/v1/tournaments/{event.id}/rounds/{rnd.round}/matches/{match['match']}"
                    f"/boards/{board['board']}/result",
                    json={"result": "1-0"},
                    headers=event.auth(),
                )
                assert answer.status_code == 200, answer.text
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    # White wins every board: each match is 1-1, three drawn matches each
    assert "teams" in standings, standings
    assert [t["match_points"] for t in standings["teams"]] == [3.0] * 4
    assert [t["game_points"] for t in standings["teams"]] == [3.0] * 4


async def test_captains_confirm_a_board(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2)
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/1/result"
    first = await client.put(url, json={"result": "1-0"}, headers=event.auth(1))
    assert first.status_code == 200 and first.json()["status"] == "provisional"
    agreed = await client.put(url, json={"result": "1-0"}, headers=event.auth(2))
    assert agreed.json()["status"] == "confirmed"
    url2 = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/2/result"
    await client.put(url2, json={"result": "1-0"}, headers=event.auth(1))
    disputed = await client.put(url2, json={"result": "0-1"}, headers=event.auth(2))
    assert disputed.json()["status"] == "disputed"
    decided = await client.put(url2, json={"result": "1/2-1/2"}, headers=event.auth())
    assert decided.json()["status"] == "confirmed"
    missing = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/3/result",
        json={"result": "1-0"},
        headers=event.auth(1),
    )
    assert missing.status_code == 404 and missing.json()["field"] == "board"
    no_match = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/matches/2/boards/1/result",
        json={"result": "1-0"},
        headers=event.auth(1),
    )
    assert no_match.status_code == 404 and no_match.json()["field"] == "match"
    body = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    (match,) = body["matches"]
    # board 1: home (team 1) White wins; board 2 drawn: 1.5 - 0.5, a won match 2-0
    assert match["game_points"] == [1.5, 0.5]
    assert match["match_points"] == [2.0, 0.0]


async def test_a_captain_reports_only_their_boards(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 4)
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/1/result"
    match = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["matches"][0]
    outsider = next(t for t in event.captains if t not in (match["home"], match["away"]))
    answer = await client.put(url, json={"result": "1-0"}, headers=event.auth(outsider))
    assert answer.status_code == 403


async def test_whole_match_forfeit(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, team={"boards": 2, "match_points": {"win": 3}})
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/forfeit"
    refused = await client.put(url, json={"forfeit": "-+"}, headers=event.auth(1))
    assert refused.status_code == 403
    answer = await client.put(url, json={"forfeit": "-+"}, headers=event.auth())
    assert answer.status_code == 200, answer.text
    match = answer.json()
    assert match["forfeit"] == "-+"
    # the away team wins every board: Black on board 1 (-+), White on board 2 (+-)
    assert [b["result"] for b in match["boards"]] == ["-+", "+-"]
    assert match["match_points"] == [0.0, 3.0]
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert [(t["team"], t["match_points"]) for t in standings["teams"]] == [(2, 3.0), (1, 0.0)]
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["status"] == "finished"


async def test_team_swiss_pairs_and_gives_the_pab(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 5, system="team-swiss", rounds=3)
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    body = paired.json()
    assert len(body["matches"]) == 2
    assert body["byes"] == [{"team": 5, "type": "pairing-allocated"}]
    # C.04.6 round 1: the top half meets the bottom half
    assert sorted(tuple(sorted((m["home"], m["away"]))) for m in body["matches"]) == [
        (1, 3),
        (2, 4),
    ]
    again = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert again.status_code == 409 and again.json()["field"] == "round"


@pytest.mark.parametrize("ranking", ["match-points", "game-points"])
async def test_standings_and_board_prizes(client: httpx.AsyncClient, ranking: str) -> None:
    event = await create_team_event(client, 2, team={"boards": 2, "ranking": ranking})
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/{board}/result",
            json={"result": result},
            headers=event.auth(),
        )
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    first = "PTS" if ranking == "match-points" else "GPTS"
    assert standings["tiebreaks"][0] == first
    assert standings["teams"][0] == {
        "rank": 1,
        "team": 1,
        "name": "Team 1",
        "match_points": 2.0,
        "game_points": 1.5,
        "tiebreaks": standings["teams"][0]["tiebreaks"],
    }
    assert standings["teams"][0]["tiebreaks"][first] == (2.0 if first == "PTS" else 1.5)
    assert len(standings["rows"]) == 6 and standings["player_tiebreaks"]
    board1, board2 = standings["boards"]
    # board 1: player 1 (2300) beat player 4 (2200): 100%, TPR 2200 + 800
    assert board1["players"][0] == {
        "rank": 1,
        "player": 1,
        "name": "T1 P0",
        "team": 1,
        "points": 1.0,
        "games": 1,
        "percentage": 100.0,
        "performance": 3000,
    }
    assert board1["players"][1]["percentage"] == 0.0
    assert board1["players"][1]["performance"] == 2300 - 800
    # board 2: 2290 drew 2190, both 50%, TPR = the opponent's rating: the better
    # performance ranks first
    assert [(p["player"], p["rank"], p["performance"]) for p in board2["players"]] == [
        (5, 1, 2290),
        (2, 2, 2190),
    ]


async def test_trf_export_reads_back(client: httpx.AsyncClient) -> None:
    from service.engine.teams.trf import parse_team_trf

    event = await create_team_event(client, 2, team={"boards": 2})
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/{board}/result",
            json={"result": result},
            headers=event.auth(),
        )
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert "FIDE_TEAM_ROUNDROBIN" in text
    doc = parse_team_trf(text)
    assert [(t.number, t.name, t.players) for t in doc.event.teams] == [
        (1, "Team 1", (1, 2, 3)),
        (2, "Team 2", (4, 5, 6)),
    ]
    (rnd,) = doc.event.rounds
    (match,) = rnd.matches
    assert (match.home, match.away) == (1, 2)
    assert [(b.board, b.home_player, b.away_player, b.result) for b in match.boards] == [
        (1, 1, 4, "1-0"),
        (2, 2, 5, "1/2-1/2"),
    ]
    assert dict(doc.ranks) == {1: 1, 2: 2}


async def test_removing_a_player_leaves_the_team_list(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, start=False)  # 3 players, 2 boards
    gone = await client.delete(f"/v1/tournaments/{event.id}/players/2", headers=event.auth())
    assert gone.status_code == 204
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert teams[0]["players"] == [1, 3]
    kept = await client.delete(f"/v1/tournaments/{event.id}/players/3", headers=event.auth())
    assert kept.status_code == 409 and kept.json()["field"] == "players"
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert teams[0]["players"] == [1, 3]
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert [t["name"] for t in started.json()["player_tokens"]][:2] == ["T1 P0", "T1 P2"]


async def test_who_sets_a_lineup_and_reads_a_private_event(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, visibility="private")
    teams = f"/v1/tournaments/{event.id}/teams"
    assert (await client.get(teams)).status_code == 401
    assert (await client.get(teams, headers=event.auth(2))).status_code == 200
    started = await client.get(f"/v1/tournaments/{event.id}", headers=event.auth())
    assert started.json()["status"] == "running"
    tokens = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth(1))
    assert tokens.status_code == 403  # a captain does not pair


async def test_a_player_does_not_set_the_lineup(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/tournaments", json={"name": "T", "system": "team-round-robin", "team": {"boards": 1}}
    )
    body = created.json()
    organizer = {"Authorization": f"Bearer {body['organizer_token']}"}
    for name in ("A", "B"):
        await client.post(
            f"/v1/tournaments/{body['id']}/teams",
            json={"name": name, "players": [{"name": f"{name}1"}, {"name": f"{name}2"}]},
            headers=organizer,
        )
    started = await client.post(f"/v1/tournaments/{body['id']}/start", headers=organizer)
    player = started.json()["player_tokens"][0]["token"]
    answer = await client.put(
        f"/v1/tournaments/{body['id']}/rounds/1/lineups/1",
        json={"players": [2]},
        headers={"Authorization": f"Bearer {player}"},
    )
    assert answer.status_code == 403


async def test_an_organizer_list_gets_the_primary_score_in_front(
    client: httpx.AsyncClient,
) -> None:
    event = await create_team_event(client, 2, tiebreaks=["EDE", "BC"])
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["tiebreaks"] == ["PTS", "EDE", "BC"]
    changed = await client.patch(
        f"/v1/tournaments/{event.id}", json={"tiebreaks": ["BH:MP"]}, headers=event.auth()
    )
    assert changed.status_code == 422 and changed.json()["field"] == "tiebreaks.0"


async def _confirm_round(client: httpx.AsyncClient, event: TeamEvent, body: dict[str, Any]) -> None:
    for match in body["matches"]:
        for board in match["boards"]:
            answer = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{body['round']}/matches/{match['match']}"
                f"/boards/{board['board']}/result",
                json={"result": "1/2-1/2"},
                headers=event.auth(),
            )
            assert answer.status_code == 200, answer.text


async def test_an_odd_round_robin_frees_a_team_each_round(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 3)
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["rounds"] == 3
    free: list[int] = []
    for rnd in team_round_robin(3):
        body = (
            await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
        ).json()
        assert [(m["home"], m["away"]) for m in body["matches"]] == list(rnd.matches)
        assert body["byes"] == [{"team": rnd.free, "type": "free"}]
        assert rnd.free is not None
        free.append(rnd.free)
        await _confirm_round(client, event, body)
    assert sorted(free) == [1, 2, 3]
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    # two drawn matches each (1 + 1 MP, 1 + 1 GP); the free round scores nothing
    assert [(t["match_points"], t["game_points"]) for t in standings["teams"]] == [(2.0, 2.0)] * 3
    assert [t["rank"] for t in standings["teams"]] == [1, 1, 1]


async def test_a_double_round_robin_reverses_the_colours(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, team={"boards": 2, "double": True})
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["rounds"] == 2
    homes = []
    for _ in range(2):
        body = (
            await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
        ).json()
        (match,) = body["matches"]
        homes.append(match["home"])
        await _confirm_round(client, event, body)
    assert sorted(homes) == [1, 2]
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["status"] == "finished"


async def test_a_withdrawn_player_is_fielded_no_more(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, size=3)  # 2 boards, one reserve each
    withdraw = await client.patch(
        f"/v1/tournaments/{event.id}/players/1", json={"withdrawn": True}, headers=event.auth()
    )
    assert withdraw.status_code == 200, withdraw.text
    lineup = (await client.get(f"/v1/tournaments/{event.id}/rounds/1/lineups/1")).json()
    assert lineup["players"] == [2, 3]  # the reserve moves up
    refused = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/lineups/1",
        json={"players": [1, 2]},
        headers=event.auth(1),
    )
    assert refused.status_code == 422 and refused.json()["field"] == "players.0"
    for number in (5, 6):
        await client.patch(
            f"/v1/tournaments/{event.id}/players/{number}",
            json={"withdrawn": True},
            headers=event.auth(),
        )
    short = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert short.status_code == 409 and short.json()["field"] == "lineups"
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404


async def test_a_captain_token_is_rotated_and_revoked(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2)
    base = f"/v1/tournaments/{event.id}"
    lineup = {"players": [1, 2]}
    rotated = await client.post(
        f"{base}/tokens/rotate", json={"role": "captain", "team": 1}, headers=event.auth()
    )
    assert rotated.status_code == 200, rotated.text
    assert rotated.json()["team"] == 1
    old = await client.put(f"{base}/rounds/1/lineups/1", json=lineup, headers=event.auth(1))
    assert old.status_code == 401
    event.captains[1] = rotated.json()["token"]
    new = await client.put(f"{base}/rounds/1/lineups/1", json=lineup, headers=event.auth(1))
    assert new.status_code == 200
    no_team = await client.post(
        f"{base}/tokens/rotate", json={"role": "captain"}, headers=event.auth()
    )
    assert no_team.status_code == 422 and no_team.json()["errors"][0]["field"] == "team"
    unknown = await client.post(
        f"{base}/tokens/rotate", json={"role": "captain", "team": 9}, headers=event.auth()
    )
    assert unknown.status_code == 404 and unknown.json()["field"] == "team"
    revoked = await client.post(
        f"{base}/tokens/revoke", json={"role": "captain", "team": 1}, headers=event.auth()
    )
    assert revoked.status_code == 204
    gone = await client.put(f"{base}/rounds/1/lineups/1", json=lineup, headers=event.auth(1))
    assert gone.status_code == 401


def _without_reports(document: Any) -> Any:
    """A document without who reported each board (a file keeps the results only)."""
    if isinstance(document, dict):
        return {k: _without_reports(v) for k, v in document.items() if k != "reports"}
    if isinstance(document, list):
        return [_without_reports(item) for item in document]
    return document


async def test_an_exported_team_event_imports_as_itself(client: httpx.AsyncClient) -> None:
    event = await create_team_event(
        client, 3, system="team-swiss", rounds=3, team={"boards": 2, "match_points": {"win": 3}}
    )
    for number in (1, 2):
        body = (
            await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
        ).json()
        assert len(body["matches"]) == 1
        url = f"/v1/tournaments/{event.id}/rounds/{number}/matches/1"
        if number == 1:  # round 1: forfeited whole; round 2: played board by board
            forfeit = await client.put(
                f"{url}/forfeit", json={"forfeit": "+-"}, headers=event.auth()
            )
            assert forfeit.status_code == 200
            continue
        for board, result in ((1, "0-1"), (2, "1/2-1/2")):
            answer = await client.put(
                f"{url}/boards/{board}/result", json={"result": result}, headers=event.auth()
            )
            assert answer.status_code == 200
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    imported = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, text + imported.text
    copy = imported.json()
    assert copy["system"] == "team-swiss" and copy["rounds"] == 3
    assert copy["team"]["boards"] == 2 and copy["team"]["match_points"]["win"] == 3
    assert [c["team"] for c in copy["captain_tokens"]] == [1, 2, 3]
    for path in ("teams", "rounds/1", "rounds/2", "standings"):
        original = (await client.get(f"/v1/tournaments/{event.id}/{path}")).json()
        again = (await client.get(f"/v1/tournaments/{copy['id']}/{path}")).json()
        assert _without_reports(again) == _without_reports(original), path
    # the copy goes on as the original would: round 3 has no legal pairing in either
    # (team 1 won a match by forfeit and teams 2 and 3 had the PAB: C.04.6 C2, 3.4)
    answers = [
        await client.post(
            f"/v1/tournaments/{tid}/rounds", headers={"Authorization": f"Bearer {token}"}
        )
        for tid, token in ((event.id, event.organizer), (copy["id"], copy["organizer_token"]))
    ]
    assert [a.status_code for a in answers] == [422, 422]
    assert answers[0].json()["detail"] == answers[1].json()["detail"]
    captain = {c["team"]: c["token"] for c in copy["captain_tokens"]}[2]
    lineup = await client.put(
        f"/v1/tournaments/{copy['id']}/rounds/3/lineups/2",
        json={"players": [4, 6]},
        headers={"Authorization": f"Bearer {captain}"},
    )
    assert lineup.status_code == 200, lineup.text


async def test_a_team_file_that_cannot_be_stored_is_refused(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, team={"boards": 2})
    await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    lines = text.split("\n")
    # team 2 keeps one player of three on its 310 record: the others are in no team
    shortened = [line[:-10] if line.startswith("310   2") else line for line in lines]
    answer = await client.post(
        "/v1/tournaments/import",
        content="\n".join(shortened).encode(),
        headers={"content-type": "text/plain"},
    )
    assert answer.status_code == 422 and answer.json()["field"] == "body"
    assert answer.json()["detail"] == "line 8: player 5 is in no team (310/013)"
