"""The committed contract works in the Python client generator integrators use most
(openapi-python-client): every schema and every operation comes through, and the README's "A
tournament end to end" (create, players, start, report, standings) runs through the
generated client against a real server."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.db_backends import on_backends
from tests.live.conftest import start_server, stop_server

CONTRACT = REPO_ROOT / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "arbiter_generated_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, str]]:
    """The client generated from the committed contract, imported; and the generator's
    output."""
    root = tmp_path_factory.mktemp("client")
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = [str(GENERATOR), "generate", "--path", str(CONTRACT), "--meta", "none"]
    run = subprocess.run(
        [*command, "--output-path", str(root / PACKAGE)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE), run.stdout + run.stderr
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _class_name(schema: str) -> str:
    """The generator's class name for a schema name (words capitalised, no separators)."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", schema))


def test_every_schema_becomes_a_model(generated: tuple[ModuleType, str]) -> None:
    client, _ = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    schemas = json.loads(CONTRACT.read_text())["components"]["schemas"]
    missing = [name for name in schemas if not hasattr(models, _class_name(name))]
    assert missing == []
    assert client is not None


def test_every_operation_is_generated(generated: tuple[ModuleType, str]) -> None:
    _, output = generated
    assert "will not be generated" not in output, output
    assert "duplicate" not in output.lower(), output
    spec = json.loads(CONTRACT.read_text())
    for path_item in spec["paths"].values():
        for operation in path_item.values():
            module = _operation_module(operation["tags"][0], operation["operationId"])
            assert hasattr(module, "asyncio_detailed")


def test_errors_are_problem_details(generated: tuple[ModuleType, str]) -> None:
    spec = json.loads(CONTRACT.read_text())
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    result_path = "/v1/tournaments/{tournament_id}/rounds/{round_number}/games/{table}/result"
    put = spec["paths"][result_path]
    responses = put["put"]["responses"]
    assert set(responses["422"]["content"]) == {"application/problem+json"}
    assert set(responses["default"]["content"]) == {"application/problem+json"}
    names = [p["name"] for p in put["put"]["parameters"]]
    assert "Idempotency-Key" in names


@pytest.fixture
async def base_url(database_url: str) -> AsyncIterator[str]:
    server, task, address = await start_server(database_url)
    try:
        yield f"http://{address}"
    finally:
        await stop_server(server, task)


def _snake(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).lower()


def _operation_module(tag: str, operation_id: str) -> ModuleType:
    """The generated module of one operation: `api/<tag>/<operation id>.py`, snake case."""
    return importlib.import_module(f"{PACKAGE}.api.{_snake(tag)}.{_snake(operation_id)}")


def _call(_package: ModuleType, operation: str, **kwargs: Any) -> Any:
    """Call an operation's `asyncio_detailed` by its operation id (tag before the dash)."""
    tag = operation.rpartition("-")[0]
    return _operation_module(tag, operation).asyncio_detailed(**kwargs)


@on_backends("sqlite")  # the client is the subject here, not the database
async def test_readme_walkthrough_through_the_generated_client(
    generated: tuple[ModuleType, str], base_url: str
) -> None:
    package, _ = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    anonymous = package.Client(base_url=base_url)

    created = await _call(
        package,
        "tournaments-create",
        client=anonymous,
        body=models.TournamentCreate.from_dict(
            {"name": "Club championship", "system": "round-robin"}
        ),
    )
    assert created.status_code == 201, created.content
    tournament = created.parsed
    assert isinstance(tournament, models.TournamentCreated)
    organizer = package.AuthenticatedClient(base_url=base_url, token=tournament.organizer_token)

    for name, rating in [("Kowalski, Jan", 2150), ("Nowak, Anna", 2210), ("Lis, Ewa", 1980)]:
        registered = await _call(
            package,
            "players-register",
            client=organizer,
            tournament_id=tournament.id,
            body=models.PlayerCreate.from_dict({"name": name, "rating": rating}),
        )
        assert registered.status_code == 201, registered.content
    started = await _call(
        package, "tournaments-start", client=organizer, tournament_id=tournament.id
    )
    assert started.status_code == 200, started.content
    assert isinstance(started.parsed, models.TournamentStarted)

    round_one = await _call(
        package, "rounds-read_round", client=anonymous, tournament_id=tournament.id, round_number=1
    )
    assert round_one.status_code == 200
    game = round_one.parsed.games[0]
    reported = await _call(
        package,
        "rounds-report_result",
        client=organizer,
        tournament_id=tournament.id,
        round_number=1,
        table=game.table,
        body=models.ResultSubmit.from_dict({"result": "1-0"}),
        idempotency_key="walkthrough-first-result",
    )
    assert reported.status_code == 200, reported.content
    replayed = await _call(
        package,
        "rounds-report_result",
        client=organizer,
        tournament_id=tournament.id,
        round_number=1,
        table=game.table,
        body=models.ResultSubmit.from_dict({"result": "1-0"}),
        idempotency_key="walkthrough-first-result",
    )
    assert replayed.status_code == 200
    assert replayed.headers.get("idempotent-replayed") == "true"

    standings = await _call(
        package, "standings-read_standings", client=anonymous, tournament_id=tournament.id
    )
    assert standings.status_code == 200
    leader = standings.parsed.rows[0]
    assert leader.start_number == game.white and leader.points == 1

    refused = await _call(
        package,
        "rounds-report_result",
        client=anonymous,
        tournament_id=tournament.id,
        round_number=1,
        table=game.table,
        body=models.ResultSubmit.from_dict({"result": "0-1"}),
    )
    assert refused.status_code == 401
    assert isinstance(refused.parsed, models.ProblemDetails)
    assert refused.parsed.type_ == "urn:arbiter:problem:unauthenticated"
