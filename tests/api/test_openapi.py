"""The committed OpenAPI contract matches the app (regenerate with `make openapi`)."""

from __future__ import annotations

import json

from service.api.app import create_app
from tests.conftest import REPO_ROOT


def test_committed_contract_is_current() -> None:
    committed = json.loads((REPO_ROOT / "openapi" / "openapi.json").read_text())
    assert committed == create_app().openapi(), "run `make openapi` and commit the result"


def test_operation_ids_are_stable_and_unique() -> None:
    spec = create_app().openapi()
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert "tournaments-create" in ids
    assert "rounds-report_result" in ids
