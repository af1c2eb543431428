"""A stored Swiss tournament's forbidden pairs, Baku acceleration and announced byes
(docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes): set at creation and by
PATCH between rounds, applied by `POST /rounds` exactly as `arbiter pair` and
`POST /v1/compute/pairings` apply the TRF-26 240/250/260 records of the tournament's
own export, read back by an import; the refusals name their field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.cli import main as arbiter
from service.db.events import events_since
from tests.api.conftest import Event, create_round_robin, stored_tournaments

FIELD = [(f"Player {n:02d}", 2600 - 20 * n) for n in range(1, 15)]  # fourteen players
SWISS = {"initial_colour": "white", "acceleration": "baku", "forbidden_pairs": [[1, 2]]}


async def _pair(client: httpx.AsyncClient, event: Event, **body: Any) -> httpx.Response:
    return await client.post(
        f"/v1/tournaments/{event.id}/rounds", json=body or None, headers=event.auth()
    )


async def _patch(client: httpx.AsyncClient, event: Event, swiss: dict[str, Any]) -> httpx.Response:
    return await client.patch(
        f"/v1/tournaments/{event.id}", json={"swiss": swiss}, headers=event.auth()
    )


async def _confirm(client: httpx.AsyncClient, event: Event, n: int) -> None:
    """The lower start number wins; boards divisible by 3 are drawn."""
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
    for game in games:
        result = "1/2-1/2" if game["table"] % 3 == 0 else "1-0"
        if game["table"] % 3 and game["white"] > game["black"]:
            result = "0-1"
        response = await client.put(
            f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
            json={"result": result},
            headers=event.auth(),
        )
        assert response.status_code == 200, response.text


def _shape(games: list[dict[str, Any]], byes: list[dict[str, Any]]) -> tuple[Any, ...]:
    return (
        [(g["white"], g["black"]) for g in games],
        sorted((b["player"], b["type"]) for b in byes),
    )


def _cli_pairing(trf: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Any, ...]:
    path = tmp_path / "export.trf"
    path.write_text(trf)
    capsys.readouterr()
    assert arbiter(["pair", str(path), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    return _shape(body["pairings"], body["byes"])


LOT = {k: v for k, v in SWISS.items() if k != "initial_colour"}
FOOTBALL = {"win": 3, "draw": 1, "loss": 0}
SETTINGS: dict[str, tuple[dict[str, Any], dict[str, Any] | None, str | None, str | None]] = {
    # name: swiss, points, the 152 record, the 162 record (None: not written)
    "set-white": (SWISS, None, "152 W", None),
    "lot-seed-0-black": ({**LOT, "seed": 0}, None, "152 B", None),
    "lot-by-id": (LOT, None, None, None),
    "3-1-0-set-black": (
        {**SWISS, "initial_colour": "black"},
        FOOTBALL,
        "152 B",
        "162  W 3.0    D 1.0    L 0.0",
    ),
    "3-1-0-lot-seed-1-white": (
        {**LOT, "seed": 1},
        FOOTBALL,
        "152 W",
        "162  W 3.0    D 1.0    L 0.0",
    ),
    "half-point-pab-lot": (
        {**LOT, "seed": 0},
        {"win": 1, "draw": 0.5, "loss": 0, "bye": 0.5},
        "152 B",
        "162  W 1.0    D 0.5    L 0.0    P 0.5",
    ),
}


@pytest.mark.parametrize("name", list(SETTINGS))
async def test_the_export_paired_by_cli_and_compute_gives_the_stored_rounds(
    client: httpx.AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Five rounds of a Baku-accelerated Dutch Swiss with forbidden pairs and announced
    byes changed between rounds: before each round the tournament's TRF export, paired
    by `arbiter pair` and by the compute endpoint, gives the round `POST /rounds`
    stores. The initial colour is set, or drawn by lot (seeded, or by the tournament's
    id), and written as 152/XXC from the start; points other than 1/½/0 are written as
    162. Before round 3 the export, imported, reads back as the same settings (Baku
    recognised under 3/1/0 too), exports the same bytes and pairs round 3 alike."""
    swiss, points, colour_record, scoring_record = SETTINGS[name]
    extra: dict[str, Any] = {} if points is None else {"points": points}
    event = await create_round_robin(
        client, FIELD, system="swiss-dutch", rounds=5, swiss=swiss, **extra
    )
    base = f"/v1/tournaments/{event.id}"
    changes: dict[int, dict[str, Any]] = {
        1: {"byes": [{"player": 9, "round": 2, "type": "half-point"}]},
        2: {
            "forbidden_pairs": [[1, 2], [3, 4], [5, 6]],
            "byes": [
                {"player": 9, "round": 2, "type": "half-point"},
                {"player": 10, "round": 3, "type": "zero-point"},
                {"player": 4, "round": 4, "type": "half-point"},
            ],
        },
        3: {"forbidden_pairs": [[1, 2], [3, 4], [5, 6], [1, 3]]},
    }
    stored: list[tuple[Any, ...]] = []
    for n in range(1, 6):
        trf = (await client.get(f"{base}/trf")).text
        lines = trf.splitlines()
        colours = [line for line in lines if line[:3] == "152"]
        expected = (
            [colour_record] if colour_record else [["152 W"], ["152 B"]][colours == ["152 B"]]
        )
        assert colours == expected, lines
        xxc = "XXC white1" if colours == ["152 W"] else "XXC black1"
        assert [line for line in lines if line[:3] == "XXC"] == [xxc]
        assert [line for line in lines if line[:3] == "162"] == (
            [] if scoring_record is None else [scoring_record]
        )
        copy = await _imported_alike(client, event, trf, swiss, points) if n == 3 else None
        via_cli = _cli_pairing(trf, tmp_path, capsys)
        computed = await client.post(
            "/v1/compute/pairings", content=trf.encode(), headers={"content-type": "text/plain"}
        )
        assert computed.status_code == 200, computed.text
        via_compute = _shape(computed.json()["pairings"], computed.json()["byes"])
        paired = await _pair(client, event)
        assert paired.status_code == 201, paired.text
        own = _shape(paired.json()["games"], paired.json()["byes"])
        assert own == via_cli == via_compute, (n, trf)
        if copy is not None:  # the import pairs the round as the tournament did
            other = await _pair(client, copy)
            assert other.status_code == 201, other.text
            assert _shape(other.json()["games"], other.json()["byes"]) == own
        stored.append(own)
        await _confirm(client, event, n)
        if n in changes:
            changed = await _patch(client, event, changes[n])
            assert changed.status_code == 200, changed.text
    # what the settings did: Baku pairs GA (1-8) among themselves in round 1
    # (1-5 2-6 3-7 4-8) and GB (9-14: 9-12 10-13 11-14); no forbidden pair ever met
    # once forbidden; the announced byes are there and not paired
    round_1 = {frozenset(pair) for pair in stored[0][0]}
    assert round_1 == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8), (9, 12))} | {
        frozenset((10, 13)),
        frozenset((11, 14)),
    }
    met = [{frozenset(p) for p in games} for games, _ in stored]
    assert frozenset((1, 2)) not in set().union(*met)
    assert not {frozenset((3, 4)), frozenset((5, 6))} & set().union(*met[2:])
    assert frozenset((1, 3)) not in set().union(*met[3:])
    assert (9, "half-point") in stored[1][1] and (10, "zero-point") in stored[2][1]
    assert (4, "half-point") in stored[3][1]
    assert all(9 not in pair for pair in stored[1][0])
    # the export carries the records (TRF-26 240/250/260) while rounds are left
    shown = (await client.get(base)).json()["swiss"]
    assert shown["acceleration"] == "baku" and [1, 3] in shown["forbidden_pairs"]


async def _imported_alike(
    client: httpx.AsyncClient,
    event: Event,
    trf: str,
    swiss: dict[str, Any],
    points: dict[str, Any] | None,
) -> Event:
    """The export imported: its settings are the tournament's and it exports the same
    bytes. Returns the imported tournament."""
    imported = await client.post(
        "/v1/tournaments/import", content=trf.encode(), headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, imported.text
    body = imported.json()
    assert not [w for w in body["warnings"] if "not applied" in w], body["warnings"]
    original = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert body["swiss"]["acceleration"] == "baku"
    assert body["swiss"]["initial_colour"] == (
        swiss.get("initial_colour") or ("white" if "152 W" in trf.splitlines() else "black")
    )
    assert body["swiss"]["forbidden_pairs"] == original["swiss"]["forbidden_pairs"]
    if points is not None:
        assert {k: body["points"][k] for k in points} == points
    again = (await client.get(f"/v1/tournaments/{body['id']}/trf")).text
    assert again == trf
    return Event(body["id"], body["organizer_token"], {})


async def test_the_records_are_written_and_read_back(client: httpx.AsyncClient) -> None:
    """Before round 3: 240 per round and type, Baku as two 250 records (14 players, 5
    rounds: GA = 2 x ceil(14 / 4) = 8; accelerated rounds 1-3, 1 point in rounds 1-2,
    0.5 in round 3), one 260 per pair for rounds 3-5. The import reads them into the
    settings and exports the same bytes."""
    event = await create_round_robin(client, FIELD, system="swiss-dutch", rounds=5, swiss=SWISS)
    base = f"/v1/tournaments/{event.id}"
    for n in (1, 2):
        assert (await _pair(client, event)).status_code == 201
        await _confirm(client, event, n)
    byes = [
        {"player": 9, "round": 3, "type": "half-point"},
        {"player": 11, "round": 3, "type": "half-point"},
        {"player": 10, "round": 3, "type": "zero-point"},
        {"player": 12, "round": 5, "type": "full-point"},
    ]
    assert (await _patch(client, event, {"byes": byes})).status_code == 200
    trf = (await client.get(f"{base}/trf")).text
    records = [line for line in trf.splitlines() if line[:3] in ("240", "250", "260")]
    assert records == [
        "240 H   3    9   11",
        "240 Z   3   10",
        "240 F   5   12",
        "250       1.0   1   2    1    8",
        "250       0.5   3   3    1    8",
        "260   3   5    1    2",
    ]
    imported = await client.post(
        "/v1/tournaments/import", content=trf.encode(), headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, imported.text
    body = imported.json()
    assert not [w for w in body["warnings"] if "not applied" in w], body["warnings"]
    swiss = body["swiss"]
    assert swiss["acceleration"] == "baku" and swiss["forbidden_pairs"] == [[1, 2]]
    assert sorted((b["round"], b["player"], b["type"]) for b in swiss["byes"]) == [
        (3, 9, "half-point"),
        (3, 10, "zero-point"),
        (3, 11, "half-point"),
        (5, 12, "full-point"),
    ]
    again = (await client.get(f"/v1/tournaments/{body['id']}/trf")).text
    assert again == trf
    # the imported tournament pairs round 3 as the original does
    copy = Event(body["id"], body["organizer_token"], {})
    own, other = await _pair(client, event), await _pair(client, copy)
    assert own.status_code == other.status_code == 201, other.text
    assert _shape(own.json()["games"], own.json()["byes"]) == _shape(
        other.json()["games"], other.json()["byes"]
    )


async def test_announced_byes_score_as_the_points_say(client: httpx.AsyncClient) -> None:
    """A half-point bye scores the tournament's draw (here 1 of 3/1/0), a zero-point bye
    nothing; neither player is paired."""
    event = await create_round_robin(
        client,
        FIELD[:6],
        system="swiss-dutch",
        rounds=3,
        points={"win": 3, "draw": 1, "loss": 0},
        swiss={
            "initial_colour": "white",
            "byes": [
                {"player": 5, "round": 1, "type": "half-point"},
                {"player": 6, "round": 1, "type": "zero-point"},
            ],
        },
    )
    first = await _pair(client, event)
    assert first.status_code == 201, first.text
    assert {(b["player"], b["type"]) for b in first.json()["byes"]} == {
        (5, "half-point"),
        (6, "zero-point"),
    }
    assert all({5, 6}.isdisjoint((g["white"], g["black"])) for g in first.json()["games"])
    await _confirm(client, event, 1)
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    points = {row["start_number"]: row["points"] for row in rows}
    assert points[5] == 1 and points[6] == 0


async def test_forbidden_pairs_that_leave_no_pairing_are_named(client: httpx.AsyncClient) -> None:
    """Four players, player 1 kept apart from all three: no pairing; 409 names the
    pairs, nothing stored."""
    event = await create_round_robin(
        client,
        FIELD[:4],
        system="swiss-dutch",
        rounds=3,
        swiss={"forbidden_pairs": [[1, 2], [3, 1], [1, 4]]},
    )
    response = await _pair(client, event)
    assert response.status_code == 409, response.text
    problem = response.json()
    assert problem["field"] == "swiss.forbidden_pairs"
    assert problem["pairs"] == [[1, 2], [1, 3], [1, 4]]
    assert "1-2, 1-3, 1-4" in problem["detail"]
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404
    # with player 4 announced absent, 2-3 play and 1 takes the bye: the pair 1-4 is moot
    fixed = await _patch(client, event, {"byes": [{"player": 4, "round": 1, "type": "zero-point"}]})
    assert fixed.status_code == 200, fixed.text
    paired = await _pair(client, event)
    assert paired.status_code == 201, paired.text
    assert [(g["white"], g["black"]) for g in paired.json()["games"]] in ([(2, 3)], [(3, 2)])


@pytest.mark.parametrize(
    ("swiss", "status", "field"),
    [
        ({"forbidden_pairs": [[3, 3]]}, 422, "swiss.forbidden_pairs.0"),
        ({"forbidden_pairs": [[1, 2, 3]]}, 422, "swiss.forbidden_pairs.0"),
        ({"forbidden_pairs": [[1, 99]]}, 422, "swiss.forbidden_pairs.0"),
        ({"byes": [{"player": 99, "round": 3, "type": "half-point"}]}, 422, "swiss.byes.0.player"),
        ({"byes": [{"player": 2, "round": 6, "type": "half-point"}]}, 422, "swiss.byes.0.round"),
        (
            {"byes": [{"player": 2, "round": 3, "type": "pairing-allocated"}]},
            422,
            "swiss.byes.0.type",
        ),
        (
            {
                "byes": [
                    {"player": 2, "round": 3, "type": "half-point"},
                    {"player": 2, "round": 3, "type": "zero-point"},
                ]
            },
            422,
            "swiss.byes.1",
        ),
        ({"byes": [{"player": 2, "round": 1, "type": "half-point"}]}, 409, "swiss.byes.0.round"),
        ({"byes": []}, 409, "swiss.byes"),
        ({"acceleration": None}, 409, "swiss.acceleration"),
        ({"rules": "dutch-2017"}, 422, "swiss.rules"),
        ({"forbidden_pairs": 7}, 422, "swiss.forbidden_pairs"),
    ],
)
async def test_refusals_name_the_field(
    client: httpx.AsyncClient, swiss: dict[str, Any], status: int, field: str
) -> None:
    """After round 1 (player 5 had a half-point bye in it, sent back with every list
    of byes but the empty one): each refusal names its field, and the settings stay as
    they were."""
    event = await create_round_robin(
        client,
        FIELD[:8],
        system="swiss-dutch",
        rounds=5,
        swiss={**SWISS, "byes": [{"player": 5, "round": 1, "type": "half-point"}]},
    )
    assert (await _pair(client, event)).status_code == 201
    before = (await client.get(f"/v1/tournaments/{event.id}")).json()["swiss"]
    if swiss.get("byes"):
        swiss = {"byes": [*swiss["byes"], {"player": 5, "round": 1, "type": "half-point"}]}
    response = await _patch(client, event, swiss)
    assert response.status_code == status, response.text
    assert response.json()["field"] == field
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["swiss"] == before
    # the bye of the paired round may be sent back as it is
    kept = await _patch(
        client,
        event,
        {
            "byes": [
                {"player": 5, "round": 1, "type": "half-point"},
                {"player": 6, "round": 2, "type": "zero-point"},
            ]
        },
    )
    assert kept.status_code == 200, kept.text


async def test_creation_and_start_check_the_settings(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """JCA takes no forbidden pairs or acceleration; a round-robin no Swiss settings; a
    bye's round is one of the tournament's; the start numbers are checked when the
    list closes (422, the list stays open)."""
    count = await stored_tournaments(app)
    for body, field in (
        ({"system": "swiss-jca", "rounds": 3, "swiss": {"forbidden_pairs": [[1, 2]]}},
         "swiss.forbidden_pairs"),
        ({"system": "swiss-jca", "rounds": 3, "swiss": {"acceleration": "baku"}},
         "swiss.acceleration"),
        ({"system": "swiss-dutch", "rounds": 3,
          "swiss": {"byes": [{"player": 1, "round": 4, "type": "zero-point"}]}},
         "swiss.byes.0.round"),
        ({"system": "round-robin", "swiss": {"acceleration": "baku"}}, "swiss"),
    ):  # fmt: skip
        response = await client.post("/v1/tournaments", json={"name": "Open", **body})
        assert response.status_code == 422, response.text
        assert response.json()["field"] == field
    assert await stored_tournaments(app) == count
    event = await create_round_robin(
        client,
        FIELD[:4],
        system="swiss-dutch",
        rounds=3,
        start=False,
        swiss={"forbidden_pairs": [[1, 2], [4, 5]]},
    )
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 422 and started.json()["field"] == "swiss.forbidden_pairs.1"
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert shown["status"] == "registration"
    assert (await _patch(client, event, {"forbidden_pairs": [[1, 2]]})).status_code == 200
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    # JCA takes announced byes
    jca = await create_round_robin(
        client,
        FIELD[:5],
        system="swiss-jca",
        rounds=3,
        swiss={"byes": [{"player": 2, "round": 1, "type": "half-point"}]},
    )
    paired = await _pair(client, jca)
    assert paired.status_code == 201, paired.text
    assert {"player": 2, "type": "half-point"} in paired.json()["byes"]


async def test_live_subscribers_see_the_change(app: FastAPI, client: httpx.AsyncClient) -> None:
    """A change appends one `settings_changed` event with the Swiss settings before
    (none stored: the system's defaults) and after; the same change again appends none;
    the tournament shows them with the other options."""
    event = await create_round_robin(client, FIELD[:6], system="swiss-dutch", rounds=3)
    change = {"forbidden_pairs": [[2, 3]], "acceleration": "baku"}
    for _ in range(2):
        assert (await _patch(client, event, change)).status_code == 200
    async with app.state.arbiter.sessions() as session:
        rows = [e for e in await events_since(session, event.id, 0) if e.type == "settings_changed"]
    assert len(rows) == 1
    before, after = rows[0].payload["before"]["swiss"], rows[0].payload["after"]["swiss"]
    assert before is None
    assert after == {"forbidden_pairs": [[2, 3]], "acceleration": "baku"}
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()["swiss"]
    assert shown["rules"] == "dutch-2026" and shown["forbidden_pairs"] == [[2, 3]]


async def test_a_manual_pairing_is_compared_with_the_settings(client: httpx.AsyncClient) -> None:
    """Round 1 of four players with 1-3 forbidden: the engine pairs 1-4 2-3 (not the
    unforbidden 1-3 2-4), and a manual 1-3 is an error of C.04.1 b (the pair may not
    meet)."""
    event = await create_round_robin(
        client,
        FIELD[:4],
        system="swiss-dutch",
        rounds=3,
        swiss={"initial_colour": "white", "forbidden_pairs": [[1, 3]]},
    )
    paired = await _pair(client, event)
    assert {frozenset((g["white"], g["black"])) for g in paired.json()["games"]} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }
    body = {"games": [{"white": 1, "black": 3}, {"white": 4, "black": 2}], "byes": []}
    manual = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1", json=body, headers=event.auth()
    )
    assert manual.status_code == 200, manual.text
    graded = [(w["severity"], w["rule"], w["players"]) for w in manual.json()["warnings"]]
    assert ("error", "C.04.1 b", [1, 3]) in graded
    engine = manual.json()["engine"]
    assert {frozenset((g["white"], g["black"])) for g in engine["games"]} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


async def test_a_withdrawn_player_is_absent_from_the_exported_rounds_left(
    client: httpx.AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Player 3 withdraws after round 1: the export announces their zero-point bye for
    every round left (240), so `arbiter pair` leaves them out as `POST /rounds` does."""
    event = await create_round_robin(
        client, FIELD[:7], system="swiss-dutch", rounds=4, swiss={"initial_colour": "white"}
    )
    assert (await _pair(client, event)).status_code == 201
    await _confirm(client, event, 1)
    withdrawn = await client.patch(
        f"/v1/tournaments/{event.id}/players/3", json={"withdrawn": True}, headers=event.auth()
    )
    assert withdrawn.status_code == 200, withdrawn.text
    trf = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert [line for line in trf.splitlines() if line.startswith("240")] == [
        "240 Z   2    3",
        "240 Z   3    3",
        "240 Z   4    3",
    ]
    via_cli = _cli_pairing(trf, tmp_path, capsys)
    paired = await _pair(client, event)
    assert paired.status_code == 201, paired.text
    assert _shape(paired.json()["games"], paired.json()["byes"]) == via_cli
    assert (3, "zero-point") in via_cli[1]


async def test_patch_refuses_what_the_system_or_the_state_does_not_take(
    client: httpx.AsyncClient,
) -> None:
    """JCA: no forbidden pairs or acceleration (byes it takes); a round-robin: no Swiss
    settings; a finished Swiss: nothing changes any more."""
    jca = await create_round_robin(client, FIELD[:4], system="swiss-jca", rounds=1)
    for swiss, field in (
        ({"forbidden_pairs": [[1, 2]]}, "swiss.forbidden_pairs"),
        ({"acceleration": "baku"}, "swiss.acceleration"),
    ):
        refused = await _patch(client, jca, swiss)
        assert refused.status_code == 422 and refused.json()["field"] == field
    taken = await _patch(client, jca, {"byes": [{"player": 4, "round": 1, "type": "zero-point"}]})
    assert taken.status_code == 200, taken.text
    robin = await create_round_robin(client, FIELD[:4])
    refused = await _patch(client, robin, {"byes": []})
    assert refused.status_code == 422 and refused.json()["field"] == "swiss"
    assert (await _pair(client, jca)).status_code == 201
    await _confirm(client, jca, 1)
    assert (await client.get(f"/v1/tournaments/{jca.id}")).json()["status"] == "finished"
    done = await _patch(client, jca, {"byes": []})
    assert done.status_code == 409 and done.json()["field"] == "swiss"
