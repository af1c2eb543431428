"""Dependencies point one way (docs/architecture.md: api -> app -> live/db -> engine):
the application layer, the live layer, the database layer and the engine never import
the API layer, and the database layer and the engine never import the live layer. The
routes write only through the application layer's workflows."""

from __future__ import annotations

import ast
import importlib
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
    *(("service.api", layer) for layer in ("app", "live", "db", "engine")),
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


DB_WRITERS = {
    "service.db.repository": {
        "create_tournament",
        "number_players",
        "store_players",
        "store_round",
        "store_rounds",
    },
    "service.db.events": {
        "append_event",
        "keep_appended",
        "load_locked",
        "lock_and_reload",
        "lock_tournament",
    },
    "service.db.results": {"store_result"},
    "service.db.bridge": {"create_bridge_event"},
}
"""The database layer's functions that add, update, delete or lock rows: only the
application layer's workflows call them (docs/architecture.md#the-layers)."""
_SESSION_WRITES = frozenset({"add", "add_all", "delete"})
"""Session methods that change rows."""


def test_the_writer_list_names_real_functions() -> None:
    for module_name, names in DB_WRITERS.items():
        module = importlib.import_module(module_name)
        assert {name for name in names if not callable(getattr(module, name, None))} == set()


@pytest.mark.parametrize(
    "path", sorted((SERVICE / "api" / "routes").glob("*.py")), ids=lambda p: p.name
)
def test_routes_write_only_through_the_application_layer(path: Path) -> None:
    """A route parses, calls one workflow of service/app and renders: it imports no
    database writer and changes no row through a session itself."""
    tree = ast.parse(path.read_text(), filename=str(path))
    offences: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in DB_WRITERS:
            offences += [
                f"imports {node.module}.{alias.name}"
                for alias in node.names
                if alias.name in DB_WRITERS[node.module]
            ]
        elif isinstance(node, ast.Import):
            offences += [f"imports {a.name}" for a in node.names if a.name in DB_WRITERS]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SESSION_WRITES
            and isinstance(node.func.value, ast.Name)
            and "session" in node.func.value.id
        ):
            offences.append(f"line {node.lineno}: session.{node.func.attr}()")
    assert offences == []
