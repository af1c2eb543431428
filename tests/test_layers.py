"""Dependencies point one way (docs/architecture.md: api -> views -> app/live/db ->
engine, and api -> app): the read side (views), the application layer, the live layer,
the database layer and the engine never import the API layer; the application layer,
the live layer, the database layer and the engine never import the read side (which
takes the CPU pool of app/offload.py and the frames of live/); and the database layer
and the engine never import the live layer."""

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


RULES = [
    *(("service.api", layer) for layer in ("views", "app", "live", "db", "engine")),
    *(("service.views", layer) for layer in ("app", "live", "db", "engine")),
    *(("service.live", layer) for layer in ("db", "engine")),
]
"""(package, layer): the layer never imports the package above it."""


@pytest.mark.parametrize(("above", "layer"), RULES)
def test_a_layer_does_not_import_the_layers_above_it(above: str, layer: str) -> None:
    offenders = {
        str(path.relative_to(SERVICE)): sorted(m for m in _imports(path) if m.startswith(above))
        for path in sorted((SERVICE / layer).rglob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
