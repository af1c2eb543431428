"""Dependencies point one way (README, Architecture: api -> app -> live/db -> engine):
the application layer, the live layer, the database layer and the engine never import
the API layer, and the database layer and the engine never import the live layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("layer", ["app", "live", "db", "engine"])
def test_a_layer_below_the_api_does_not_import_it(layer: str) -> None:
    offenders = {
        str(path.relative_to(SERVICE)): sorted(
            m for m in _imports(path) if m.startswith("service.api")
        )
        for path in sorted((SERVICE / layer).rglob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


@pytest.mark.parametrize("layer", ["db", "engine"])
def test_the_layers_under_live_do_not_import_it(layer: str) -> None:
    offenders = {
        str(path.relative_to(SERVICE)): sorted(
            m for m in _imports(path) if m.startswith("service.live")
        )
        for path in sorted((SERVICE / layer).rglob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
