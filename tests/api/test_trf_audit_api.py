"""The audit trail in the TRF export (docs/rules/trf.md#audit-trail), on each database:
manual pairings, an unpairing, a changed tie-break list and the drawn initial colour
are written as `### AUDIT` lines with who and when; an import keeps them and applies
what they settle; export -> import -> export gives the same bytes; a third-party file's
own comments do not stop an import."""

from __future__ import annotations

from typing import Any

import httpx

from service.db.tables import EventRow
from service.engine.trf import parse_trf, rounds_prefix, write_trf
from service.engine.trf_audit import read_audit
from tests.api.conftest import Event, create_round_robin
from tests.api.test_manual_pairing_api import put_round
from tests.api.test_swiss_api import confirm_all, event_log, pair
from tests.data import ORACLE_DUTCH

FOUR = [(f"Player {n}", 2500 - 100 * n) for n in range(1, 5)]


async def _export(client: httpx.AsyncClient, tournament_id: str) -> str:
    response = await client.get(f"/v1/tournaments/{tournament_id}/trf")
    assert response.status_code == 200, response.text
    return response.text


async def _import(client: httpx.AsyncClient, text: str) -> dict[str, Any]:
    response = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _stamp(row: EventRow) -> str:
    return row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")


async def _audited_event(client: httpx.AsyncClient) -> Event:
    """Dutch, four players, seed 7 (its lot: black for player 1 in round 1). Round 1
    by the engine: 3-1, 2-4; 1 wins, 2-4 drawn. Round 2 by the engine, then by hand
    1-3, 4-2 (two rematches), taken back, paired by hand again 1-2, 3-4; then the
    tie-breaks BH, SB."""
    event = await create_round_robin(
        client, FOUR, system="swiss-dutch", rounds=3, swiss={"seed": 7}
    )
    assert (await pair(client, event)).status_code == 201
    first = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    assert [(g["white"], g["black"]) for g in first["games"]] == [(3, 1), (2, 4)]
    await confirm_all(client, event, 1)
    assert (await pair(client, event)).status_code == 201
    replaced = await put_round(client, event, 2, [(1, 3), (4, 2)])
    assert replaced.status_code == 200, replaced.text
    gone = await client.delete(f"/v1/tournaments/{event.id}/rounds/2", headers=event.auth())
    assert gone.status_code == 204
    by_hand = await put_round(client, event, 2, [(1, 2), (3, 4)])
    assert by_hand.status_code == 200, by_hand.text
    patched = await client.patch(
        f"/v1/tournaments/{event.id}", json={"tiebreaks": ["BH", "SB"]}, headers=event.auth()
    )
    assert patched.status_code == 200, patched.text
    return event


async def test_the_trail_in_the_export(client: httpx.AsyncClient) -> None:
    event = await _audited_event(client)
    text = await _export(client, event.id)
    trail = read_audit(text)
    log = {row.type: row for row in await event_log(client, event)}  # the last of each
    paired = [r for r in await event_log(client, event) if r.type == "round_paired"]
    repaired = [r for r in await event_log(client, event) if r.type == "round_repaired"]
    assert [(e.actor, e.action) for e in trail.entries] == [
        ("engine", "lot"),
        ("organizer", "pairing-replaced"),
        ("organizer", "unpaired"),
        ("organizer", "pairing-by-hand"),
        ("organizer", "setting"),
    ]
    lot, replaced, unpaired, by_hand, setting = trail.lines
    assert lot == (
        f"### AUDIT {_stamp(paired[0])} engine lot draw=initial-colour colour=black seed=7"
    )
    assert replaced.startswith(
        f"### AUDIT {_stamp(repaired[0])} organizer pairing-replaced round=2 "
        "games=1-3,4-2 byes= warnings="
    )
    rules = dict(trail.entries[1].fields)["warnings"].split(",")
    assert "C.04.1 b" in rules  # the rematches
    assert unpaired == f"### AUDIT {_stamp(log['round_unpaired'])} organizer unpaired round=2"
    assert by_hand.startswith(
        f"### AUDIT {_stamp(repaired[1])} organizer pairing-by-hand round=2 games=1-2,3-4 byes="
    )
    assert setting == (
        f"### AUDIT {_stamp(log['settings_changed'])} organizer setting name=tiebreaks "
        'before=null after=["BH","SB"]'
    )
    # the trail closes the file, after the records; every reader skips it
    assert text.endswith(setting + "\n")
    assert len(parse_trf(text).tournament.rounds) == 2


async def test_import_keeps_the_trail_and_the_round_trip_is_byte_identical(
    client: httpx.AsyncClient,
) -> None:
    event = await _audited_event(client)
    first = await _export(client, event.id)
    created = await _import(client, first)
    assert created["warnings"] == []
    # the lot's colour and seed, and the tie-breaks the trail settles, are the import's
    assert created["swiss"]["initial_colour"] == "black" and created["swiss"]["seed"] == 7
    assert created["tiebreaks"] == ["BH", "SB"]
    second = await _export(client, created["id"])
    assert second == first
    again = await _import(client, second)
    assert await _export(client, again["id"]) == first


async def test_the_imported_tournament_adds_its_own_decisions(client: httpx.AsyncClient) -> None:
    """After the import, the organizer replaces round 2 (a round the file paired) and
    takes it back: the kept lines, then its own."""
    event = await _audited_event(client)
    first = await _export(client, event.id)
    created = await _import(client, first)
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    body = {"games": [{"white": 2, "black": 1}, {"white": 4, "black": 3}], "byes": []}
    put = await client.put(f"/v1/tournaments/{created['id']}/rounds/2", json=body, headers=auth)
    assert put.status_code == 200, put.text
    gone = await client.delete(f"/v1/tournaments/{created['id']}/rounds/2", headers=auth)
    assert gone.status_code == 204, gone.text
    after = read_audit(await _export(client, created["id"]))
    assert after.lines[:5] == read_audit(first).lines
    assert [(e.actor, e.action, e.fields[:2]) for e in after.entries[5:]] == [
        ("organizer", "pairing-replaced", (("round", "2"), ("games", "2-1,4-3"))),
        ("organizer", "unpaired", (("round", "2"),)),
    ]


async def test_choices_at_creation_and_a_set_colour_is_no_lot(
    client: httpx.AsyncClient,
) -> None:
    """Created with tie-breaks DE, BH and White for the top player: two `setting` lines
    at the creation time, no lot; a later change of the tie-breaks says what they were.
    The import applies both choices, and the round trip keeps the bytes."""
    event = await create_round_robin(
        client,
        FOUR,
        system="swiss-dutch",
        rounds=3,
        swiss={"initial_colour": "white"},
        tiebreaks=["DE", "BH"],
    )
    assert (await pair(client, event)).status_code == 201
    patched = await client.patch(
        f"/v1/tournaments/{event.id}", json={"tiebreaks": ["SB"]}, headers=event.auth()
    )
    assert patched.status_code == 200
    text = await _export(client, event.id)
    created_at = _stamp((await event_log(client, event))[0])
    assert [line.split(" ", 3)[2:] for line in read_audit(text).lines] == [
        [created_at, 'organizer setting name=tiebreaks after=["DE","BH"]'],
        [created_at, 'organizer setting name=initial_colour after="white"'],
        [
            _stamp((await event_log(client, event))[-1]),
            'organizer setting name=tiebreaks before=["DE","BH"] after=["SB"]',
        ],
    ]
    imported = await _import(client, text)
    assert imported["swiss"]["initial_colour"] == "white"
    assert imported["tiebreaks"] == ["SB"]
    assert await _export(client, imported["id"]) == text


async def test_jca_colour_lots_name_their_seed(client: httpx.AsyncClient) -> None:
    """The JCA Swiss with seed 3 (its lot: white) draws colour lots each round."""
    event = await create_round_robin(client, FOUR, system="swiss-jca", rounds=3, swiss={"seed": 3})
    assert (await pair(client, event)).status_code == 201
    trail = read_audit(await _export(client, event.id))
    assert [dict(e.fields) for e in trail.entries] == [
        {"draw": "initial-colour", "colour": "white", "seed": "3"},
        {"draw": "colours", "round": "1", "seed": "3"},
    ]


async def test_a_third_party_file_with_comments_imports(client: httpx.AsyncClient) -> None:
    """Comment lines of another program (TRF-26 Remark 1), one spoiled audit line: the
    file imports, the spoiled line is named in the warnings and dropped."""
    original = (ORACLE_DUTCH / "v0004.trf").read_text()
    lines = original.splitlines()
    commented = "\n".join(
        [
            "### exported by another program",
            *lines[:1],
            "### SSSS SSSS NNNNNNNNNN",
            *lines[1:],
            "### AUDIT sometime organizer unpaired round=6",
            "### the end",
        ]
    )
    created = await _import(client, commented + "\n")
    assert created["status"] == "finished"
    assert [w for w in created["warnings"] if "audit" in w] == [
        f"line {len(lines) + 3}: an audit line that does not read as `### AUDIT <time> "
        "<actor> <action> key=value ...` is dropped"
    ]
    exported = await _export(client, created["id"])
    assert "###" not in exported
    assert parse_trf(exported).tournament.rounds == parse_trf(original).tournament.rounds


async def test_hand_pairing_the_next_round(client: httpx.AsyncClient) -> None:
    """PUT /rounds/{n} for the round after the last paired one pairs it by hand, with
    the warnings and the engine's pairing a replacement gets; 409 while the round
    before has a result to confirm, 404 beyond the next round."""
    event = await create_round_robin(
        client, FOUR, system="swiss-dutch", rounds=2, swiss={"initial_colour": "white"}
    )
    made = await put_round(client, event, 1, [(1, 2), (3, 4)])
    assert made.status_code == 200, made.text
    body = made.json()
    assert [(g["white"], g["black"]) for g in body["games"]] == [(1, 2), (3, 4)]
    assert [(g["white"], g["black"]) for g in body["engine"]["games"]] == [(1, 3), (4, 2)]
    assert (await put_round(client, event, 2, [(1, 3), (2, 4)])).status_code == 409
    assert (await put_round(client, event, 3, [(1, 3), (2, 4)])).status_code == 404
    await confirm_all(client, event, 1)
    second = await put_round(client, event, 2, [(1, 2), (3, 4)])
    assert second.status_code == 200, second.text
    assert [w["rule"] for w in second.json()["warnings"]][:2] == ["C.04.1 b", "C.04.1 b"]
    await confirm_all(client, event, 2)
    status = (await client.get(f"/v1/tournaments/{event.id}")).json()["status"]
    assert status == "finished"
    assert (await put_round(client, event, 3, [(1, 3), (2, 4)])).status_code == 409
    trail = read_audit(await _export(client, event.id))
    assert trail.entries[0].action == "setting"  # the initial colour chosen at creation
    assert [(e.action, dict(e.fields)["round"]) for e in trail.entries[1:]] == [
        ("pairing-by-hand", "1"),
        ("pairing-by-hand", "2"),
    ]


async def test_hand_pairing_the_next_round_of_an_imported_file(client: httpx.AsyncClient) -> None:
    """A file paired to round 3 announcing player 9's absence from round 4 (v0019): the
    round paired by hand as it was played, player 9 left out, gets that bye."""
    doc = parse_trf((ORACLE_DUTCH / "v0019.trf").read_text())
    before = rounds_prefix(doc, 3)
    assert [(b.player, b.kind.value) for b in before.next_round_byes] == [(9, "zero-point")]
    created = await _import(client, write_trf(before))
    played = doc.tournament.rounds[3]
    body = {
        "games": [{"white": g.white, "black": g.black} for g in played.games],
        "byes": [{"player": b.player, "type": b.kind.value} for b in played.byes if b.player != 9],
    }
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    made = await client.put(f"/v1/tournaments/{created['id']}/rounds/4", json=body, headers=auth)
    assert made.status_code == 200, made.text
    stored = made.json()
    assert (9, "zero-point") in [(b["player"], b["type"]) for b in stored["byes"]]
    assert {(g["white"], g["black"]) for g in stored["games"]} == {
        (g.white, g.black) for g in played.games
    }
    # the engine pairs the round as it was played: no quality criterion is worse
    assert [w for w in stored["warnings"] if w["severity"] != "info"] == []


async def test_a_team_events_export_carries_its_trail(client: httpx.AsyncClient) -> None:
    """A team event's export closes with its audit trail too: the tie-breaks chosen at
    creation and changed by PATCH, with who and when; its import keeps the lines and
    exports the same bytes."""
    from tests.api.team_events import create_team_event

    event = await create_team_event(client, 2, tiebreaks=["MPVGP", "EDE"])
    changed = await client.patch(
        f"/v1/tournaments/{event.id}", json={"tiebreaks": ["MPVGP"]}, headers=event.auth()
    )
    assert changed.status_code == 200, changed.text
    text = await _export(client, event.id)
    trail = read_audit(text)
    assert [(e.actor, e.action, dict(e.fields)) for e in trail.entries] == [
        ("organizer", "setting", {"name": "tiebreaks", "after": '["MPVGP","EDE"]'}),
        (
            "organizer",
            "setting",
            {"name": "tiebreaks", "before": '["MPVGP","EDE"]', "after": '["MPVGP"]'},
        ),
    ]
    assert text.endswith("\n") and text.splitlines()[-1].startswith("### AUDIT ")
    body = await _import(client, text)
    assert body["warnings"] == []
    assert await _export(client, body["id"]) == text
