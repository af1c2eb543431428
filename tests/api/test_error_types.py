"""One error hierarchy: every engine error is an `EngineError` with a problem type of its
own (service/api/errors.py), and a bare `ValueError` is a bug, reported as a 500 with
its traceback logged, never as a 422."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from service.api.errors import ENGINE_PROBLEMS, engine_problem, problem_type
from service.engine.bridge.errors import BridgeInputError
from service.engine.errors import EngineError, RuleRefusal
from service.engine.pairing.matching import MatchingError
from service.engine.pairing.round_pairing import PairingError
from service.engine.result_reporting import NotOwnGame, ResultLocked
from service.engine.trf import TrfError
from tests.data import ORACLE_DUTCH

PREFIX = "urn:arbiter:problem:"


def _subclasses(cls: type[EngineError]) -> set[type[EngineError]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_engine_error_has_a_problem_type() -> None:
    """Every class of the tree (imported with the app) resolves to a 422 type, and the
    table lists nothing outside the tree."""
    classes = _subclasses(EngineError)
    assert len(classes) >= 12
    for cls in classes:
        slug, title = problem_type(cls)
        assert slug != "invalid-input" and title, cls  # each family has its own type
    assert set(ENGINE_PROBLEMS) <= classes | {EngineError}


def test_the_table_picks_the_nearest_listed_base() -> None:
    assert engine_problem(MatchingError("no perfect matching")).slug == "pairing-impossible"
    assert engine_problem(PairingError("x")).slug == "pairing-impossible"
    assert engine_problem(TrfError("line 3: bad rating")).slug == "invalid-trf"
    problem = engine_problem(EngineError("x", field="f"))
    assert (problem.status, problem.slug, problem.body()["field"]) == (422, "invalid-input", "f")


def test_rule_refusals_are_the_services_own_refusals() -> None:
    """A request the rules refuse is not bad input: its problem is the 403 or 409 the
    service answers for such refusals, with the refusal's message and field."""
    assert issubclass(NotOwnGame, RuleRefusal) and issubclass(ResultLocked, RuleRefusal)
    cases = [
        (NotOwnGame("not yours", field="table"), 403, "forbidden", "Forbidden"),
        (ResultLocked("confirmed", field="result"), 409, "conflict", "Conflict"),
        (RuleRefusal("not now"), 409, "conflict", "Conflict"),
    ]
    for error, status, slug, title in cases:
        problem = engine_problem(error)
        assert (problem.status, problem.slug, problem.title) == (status, slug, title)
        assert (problem.detail, problem.field) == (str(error), error.field)
        assert problem_type(type(error)) == (slug, title)


def test_bridge_contract_parts_name_the_contract_field() -> None:
    assert engine_problem(BridgeInputError("level", "8 is not 1-7")).field == "contract"
    assert engine_problem(BridgeInputError("tricks", "14 > 13")).field == "tricks"


def _problem(response: httpx.Response, slug: str, field: str | None = None) -> None:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == PREFIX + slug, body
    if field is not None:
        assert body["field"] == field, body


async def test_engine_errors_over_http(client: httpx.AsyncClient) -> None:
    text = (ORACLE_DUTCH / "v0004.trf").read_text()
    broken = text.replace("001    1", "001    x", 1)
    _problem(
        await client.post(
            "/v1/compute/standings", content=broken, headers={"content-type": "text/plain"}
        ),
        "invalid-trf",
    )
    _problem(
        await client.post(
            "/v1/compute/standings?tiebreaks=BH,NOPE",
            content=text,
            headers={"content-type": "text/plain"},
        ),
        "unknown-tiebreak",
        "tiebreaks",
    )
    _problem(
        await client.post(
            "/v1/tournaments", json={"name": "X", "system": "round-robin", "tiebreaks": ["NOPE"]}
        ),
        "unknown-tiebreak",
        "tiebreaks.0",
    )
    _problem(
        await client.post(
            "/v1/compute/bridge/score",
            json={"contract": "8S", "declarer": "N", "vulnerable": False, "tricks": 10},
        ),
        "invalid-bridge-input",
        "contract",
    )
    _problem(
        await client.post("/v1/compute/flampark/schedule", json={"player_count": 5, "rounds": 9}),
        "too-few-players",
        "players",
    )


async def test_an_announced_pairing_allocated_bye_is_refused(client: httpx.AsyncClient) -> None:
    """The PAB is the pairing's to give: announcing one is bad input (422), not a bug."""
    body = {
        "players": [{"id": f"p{n}", "rating": 2000 - n} for n in range(5)],
        "byes": [{"round": 1, "player": "p4", "type": "pairing-allocated"}],
        "rounds": 3,
    }
    _problem(await client.post("/v1/compute/pairings", json=body), "pairing-impossible", "byes")


async def test_wrong_method_has_its_type(client: httpx.AsyncClient) -> None:
    response = await client.delete("/v1/compute/bridge/score")
    assert response.status_code == 405
    assert response.json()["type"] == PREFIX + "method-not-allowed"


@pytest.fixture
async def buggy(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """The app plus a route with a bug; the transport returns the 500 instead of raising."""

    async def bug() -> None:
        raise ValueError("an internal invariant broke")

    app.add_api_route("/v1/test-only/bug", bug, methods=["GET"])
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as c:
        yield c


async def test_a_bare_value_error_is_a_logged_500(
    buggy: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="arbiter.api"):
        response = await buggy.get("/v1/test-only/bug")
    assert response.status_code == 500
    assert response.json()["type"] == PREFIX + "internal"
    assert "invariant" not in response.text  # the detail stays in the log
    logged = [r for r in caplog.records if r.exc_info is not None]
    assert logged and isinstance(logged[0].exc_info[1], ValueError)  # type: ignore[index]
