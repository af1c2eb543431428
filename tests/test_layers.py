"""Dependencies point one way (docs/architecture.md: api -> views -> app/live/db ->
engine, and api -> app): the read side (views), the application layer, the live layer,
the database layer and the engine never import the API layer; the application layer,
the live layer, the database layer and the engine never import the read side (which
takes the CPU pool of app/offload.py and the frames of live/); and the database layer
and the engine never import the live layer.

Every check reads one graph of the modules under service/ and the modules each imports:
at the top of the file, inside a function (a lazy import) or under `TYPE_CHECKING`
alike, relative imports resolved, and `from package import module` read as an import of
that module. On it: no import cycles; `service.config` imports nothing from the service;
the engine imports nothing outside `service.engine`; the routes import no database
module that writes rows (they read through the read modules of service/db), and write
only through the application layer's workflows."""

from __future__ import annotations

import ast
import importlib
from collections import deque
from collections.abc import Mapping
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"


def _name_of(path: Path) -> str:
    """`service/db/tables.py` -> `service.db.tables`; a package by its `__init__.py`."""
    parts = list(path.relative_to(SERVICE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_name_of(path): path for path in sorted(SERVICE.rglob("*.py"))}
"""Every module of the service by its dotted name."""


def _absolute(node: ast.ImportFrom, name: str, path: Path) -> str:
    """The module a `from ... import` names, its dots resolved against `name`."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _known(module: str) -> str | None:
    """The service module `module` loads (the longest known prefix of a dotted name:
    `service.db.tables.TournamentRow` is not a module), or None outside the service."""
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    return module or None


def _imports(name: str, path: Path) -> set[str]:
    """The service modules `name` imports anywhere in its file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, name, path)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    known = {_known(module) for module in found}
    return {module for module in known if module is not None and module != name}


GRAPH: dict[str, set[str]] = {name: _imports(name, path) for name, path in MODULES.items()}
"""Module -> the service modules it imports."""


def _inside(package: str, module: str) -> bool:
    return module == package or module.startswith(package + ".")


RULES = [
    *(("service.api", layer) for layer in ("views", "app", "live", "db", "engine")),
    *(("service.views", layer) for layer in ("app", "live", "db", "engine")),
    *(("service.live", layer) for layer in ("db", "engine")),
]
"""(package, layer): the layer never imports the package above it."""


@pytest.mark.parametrize(("above", "layer"), RULES)
def test_a_layer_does_not_import_the_layers_above_it(above: str, layer: str) -> None:
    offenders = {
        name: sorted(m for m in GRAPH[name] if _inside(above, m))
        for name in MODULES
        if _inside(f"service.{layer}", name)
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def cycle_groups(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (the
    strongly connected components of more than one module, Tarjan's algorithm), each
    sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(sorted(group) for group in groups)


def a_cycle(graph: Mapping[str, set[str]], group: list[str]) -> list[str]:
    """A cycle of the group to show: the shortest way from its first module back to
    itself, inside the group, as the path `[a, b, ..., a]`."""
    start = group[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node] & set(group)):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise AssertionError(f"{sorted(group)} is not a cycle")


ALLOWED_CYCLES: list[list[str]] = []
"""The import cycles that remain, each by its modules (sorted); each must still be
there, so that the list shrinks as they are removed."""


def test_no_module_imports_itself_through_others() -> None:
    found = cycle_groups(GRAPH)
    unexpected = [
        " -> ".join(a_cycle(GRAPH, group)) + f" (the cycle's modules: {', '.join(group)})"
        for group in found
        if group not in ALLOWED_CYCLES
    ]
    assert unexpected == [], "import cycles:\n" + "\n".join(unexpected)
    assert found == sorted(ALLOWED_CYCLES)  # an entry no longer needed is taken out


def test_a_cycle_is_found_and_shown() -> None:
    """The check above can fail: modules that import each other, directly or through
    others, beside imports that close no cycle, are found, and a cycle shown as a path."""
    graph = {"a": {"b", "x"}, "b": {"c", "a"}, "c": {"a"}, "x": set(), "p": {"q"}, "q": {"p"}}
    assert cycle_groups(graph) == [["a", "b", "c"], ["p", "q"]]
    assert a_cycle(graph, ["a", "b", "c"]) == ["a", "b", "a"]
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert cycle_groups({"a": {"b"}, "b": set()}) == []


def test_every_kind_of_import_is_read() -> None:
    """Lazy imports, `TYPE_CHECKING` imports, relative imports and `from package import
    module` are all in the graph (each of these occurs in the service today)."""
    assert "service.live.redis_bus" in GRAPH["service.live.bus"]  # inside a function
    assert "service.live.hub" in GRAPH["service.api.state"]  # under TYPE_CHECKING
    assert "service.engine.pairing.dutch.brackets" in GRAPH["service.engine.pairing.dutch"]
    assert "service.db.bridge_tables" in GRAPH["service.db.tables"]  # from service.db import


def test_config_imports_nothing_from_the_service() -> None:
    """The settings are the bottom of every layer: any module may read them."""
    assert GRAPH["service.config"] == set()


def test_the_engine_imports_nothing_outside_the_engine() -> None:
    offenders = {
        name: sorted(m for m in GRAPH[name] if not _inside("service.engine", m))
        for name in MODULES
        if _inside("service.engine", name)
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


WRITE_MODULES = {
    "service.db.bridge",  # creates bridge events
    "service.db.events",  # appends to the event log, locks tournaments
    "service.db.idempotency",  # claims and stores the API's idempotency records
    "service.db.migrate",  # changes the schema
    "service.db.repository",  # creates tournaments, stores players and rounds
    "service.db.result_store",  # stores reported results
}
"""The database modules with functions that add, change, delete or lock rows (or change
the schema). The other modules of service/db read (`tournament_reads`, `player_reads`,
`game_reads`, `bridge_reads`, ...), or define tables, types and connections:
`test_the_other_database_modules_write_nothing` checks it."""


def test_routes_do_not_import_database_modules_that_write() -> None:
    """A route's writes go through an application workflow (service/app/), which holds
    the tournament's lock and appends the event; a route that wrote rows itself could
    skip either. Its reads go through the read modules of service/db."""
    assert set(MODULES) >= WRITE_MODULES  # each still exists
    found = {
        name: sorted(GRAPH[name] & WRITE_MODULES)
        for name in MODULES
        if _inside("service.api.routes", name) and GRAPH[name] & WRITE_MODULES
    }
    assert found == {}


DB_WRITERS = {
    "service.db.repository": {
        "create_tournament",
        "get_locked_tournament",
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
    "service.db.result_store": {"store_result"},
    "service.db.bridge": {"create_bridge_event"},
}
"""The database layer's functions that add, update, delete or lock rows: only the
application layer's workflows call them (docs/architecture.md#the-layers)."""
_SESSION_WRITES = frozenset({"add", "add_all", "delete"})
"""Session methods that change rows."""
_SQL_WRITES = frozenset({"insert", "update", "delete"})
"""SQLAlchemy's constructs that change rows: `insert(table)`, `table.insert()`, ... (a
method call with arguments, `router.delete("/path")` or `found.update(more)`, is
another thing)."""
_SCHEMA_CHANGES = frozenset({"upgrade", "downgrade", "create_all", "drop_all"})
"""Alembic's and SQLAlchemy's calls that change the schema."""
_SQL_WRITE_WORDS = ("INSERT ", "UPDATE ", "DELETE ")
"""Statements in SQL text that change rows."""


def writes_found(tree: ast.AST) -> list[str]:
    """The ways a module's code changes rows or the schema, found in its syntax: a
    session's write method, an insert, update or delete construct, SQL text that begins
    with INSERT, UPDATE or DELETE, a migration or `create_all`, or an import of one of
    `DB_WRITERS`."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in DB_WRITERS:
            found += [
                f"imports {node.module}.{alias.name}"
                for alias in node.names
                if alias.name in DB_WRITERS[node.module]
            ]
        elif isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name in DB_WRITERS]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            session = (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and "session" in func.value.id
            )
            construct = isinstance(func, ast.Name) or not (node.args or node.keywords)
            if (
                (session and called in _SESSION_WRITES)
                or (not session and construct and called in _SQL_WRITES)
                or called in _SCHEMA_CHANGES
            ):
                found.append(f"line {node.lineno}: {called}()")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.lstrip().upper().startswith(_SQL_WRITE_WORDS)
        ):
            found.append(f"line {node.lineno}: SQL {node.value.split()[0]}")
    return sorted(found)


def test_the_other_database_modules_write_nothing() -> None:
    """Every database module outside `WRITE_MODULES` (the read modules the routes import
    among them) changes no row, and every module in it does."""
    writing = {
        name
        for name, path in MODULES.items()
        if _inside("service.db", name) and writes_found(ast.parse(path.read_text()))
    }
    assert writing == WRITE_MODULES
    assert set(DB_WRITERS) <= WRITE_MODULES


def test_a_write_is_found() -> None:
    """The check above can fail: each kind of write is found, and reads are not."""
    source = """
from service.db.events import append_event, events_since
import service.db.result_store
async def f(session, other, table):
    session.add(row)
    other.delete()
    await session.exec(update(table))
    table.insert()
    text("INSERT INTO t VALUES (1)")
    command.upgrade(config, "head")
    await session.get(row)
    select(table).where(table.c.id == 1)
    text("SELECT 1")
    router.delete("/path")
    found.update(more)
"""
    assert writes_found(ast.parse(source)) == [
        "imports service.db.events.append_event",
        "imports service.db.result_store",
        "line 10: upgrade()",
        "line 5: add()",
        "line 6: delete()",
        "line 7: update()",
        "line 8: insert()",
        "line 9: SQL INSERT",
    ]


def test_the_writer_list_names_real_functions() -> None:
    for module_name, names in DB_WRITERS.items():
        module = importlib.import_module(module_name)
        assert {name for name in names if not callable(getattr(module, name, None))} == set()


@pytest.mark.parametrize(
    "path", sorted((SERVICE / "api" / "routes").glob("*.py")), ids=lambda p: p.name
)
def test_routes_write_only_through_the_application_layer(path: Path) -> None:
    """A route parses, calls one workflow of service/app and renders: it imports no
    database writer and changes no row itself (through a session, a statement or SQL
    text)."""
    assert writes_found(ast.parse(path.read_text(), filename=str(path))) == []
