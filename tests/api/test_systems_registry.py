"""The API, the TRF round trip and the CLI take their systems from the registry
(engine/systems.py), so none of them can drift from it."""

from __future__ import annotations

import argparse
from typing import Any

import httpx
import pytest

from service.api.app import create_app
from service.cli import build_parser
from service.engine.systems import SYSTEMS, PairingName, SystemName
from service.engine.teams.draw import TeamPairingSystem
from service.engine.teams.systems import TEAM_SYSTEMS
from service.engine.trf import parse_trf
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


def _schema(document: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = document["components"]["schemas"][name]
    return found


def test_the_contract_lists_the_registry() -> None:
    document = create_app().openapi()
    assert _schema(document, "SystemName")["enum"] == [name.value for name in SystemName]
    paired = [name.value for name in PairingName]
    # the compute endpoint adds the team systems for TRF-26 team files
    teams = ["team-swiss", "team-round-robin"]
    assert _schema(document, "ComputePairingSystem")["enum"] == [*paired, *teams]
    create = _schema(document, "TournamentCreate")["properties"]["system"]
    assert create["anyOf"] == [
        {"$ref": "#/components/schemas/SystemName"},
        {"$ref": "#/components/schemas/TeamPairingSystem"},
    ]
    teams = _schema(document, "TeamPairingSystem")["enum"]
    assert teams == [name.value for name in TeamPairingSystem] == [s.value for s in TEAM_SYSTEMS]


def _choices(command: str) -> list[str]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in commands.choices[command]._actions if a.dest == "system")
    return [str(choice) for choice in action.choices or ()]


def test_the_cli_offers_the_registry() -> None:
    assert _choices("standings") == [name.value for name in SystemName]
    teams = ["team-swiss", "team-round-robin"]
    paired = [s.pairing_name for s in SYSTEMS.values() if s.pairing_name]
    assert _choices("pair") == [*paired, *teams]
    assert _choices("generate") == [
        *(s.pairing_name for s in SYSTEMS.values() if s.pairing_name and not s.paired_in_advance),
        "team-swiss",
    ]


@pytest.mark.parametrize("system", [name for name in SystemName if name is not SystemName.FLAMPARK])
async def test_an_exported_tournament_imports_as_its_own_system(
    client: httpx.AsyncClient, system: SystemName
) -> None:
    """092 carries the registry's code and reads back as the same system (JCA and the
    round-robins used to come back as Dutch Swiss events)."""
    settings: dict[str, Any] = {"rounds": 3} if SYSTEMS[system].needs_round_count else {}
    event = await create_round_robin(client, PLAYERS, system=system.value, **settings)
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert parse_trf(text).system == SYSTEMS[system].trf_code
    imported = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["system"] == system.value


async def test_a_flampark_export_says_flampark_and_is_refused_on_import(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(
        client, PLAYERS, system="flampark", rounds=2, flampark={"kinds": ["basic", "basic"]}
    )
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert parse_trf(text).system == "FLAMPARK"
    refused = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert refused.status_code == 422
    assert "FLAMPARK" in refused.json()["detail"]
