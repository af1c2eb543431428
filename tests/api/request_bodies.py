"""The JSON request bodies of the API's own OpenAPI document, for tests that try a value
at every field of a kind (names, numbers): which operations take which fields, and a
body holding one value at one field."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from service.api.app import create_app

__all__ = ["DOCUMENT", "FieldPath", "body_at", "json_body_operations", "resolve"]

DOCUMENT: dict[str, Any] = create_app().openapi()
"""The app's OpenAPI document, made once."""

_SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]

FieldPath = tuple[str | int, ...]
"""Where a field sits in a body: keys, and 0 for an array's item."""

_Leaf = TypeVar("_Leaf")


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its `$ref`s followed to the component they name."""
    while "$ref" in schema:
        schema = _SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def json_body_operations(
    leaves_of: Callable[[dict[str, Any]], Iterable[_Leaf]], *, skip_prefix: str | None = None
) -> list[tuple[str, str, list[_Leaf]]]:
    """(method, path template, the leaves `leaves_of` finds in its JSON body's schema) for
    every operation with a JSON body and at least one such leaf, paths starting with
    `skip_prefix` left out."""
    found = []
    for path, operations in DOCUMENT["paths"].items():
        if skip_prefix is not None and path.startswith(skip_prefix):
            continue
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                leaves = sorted(set(leaves_of(content["application/json"]["schema"])), key=str)
                if leaves:
                    found.append((method.upper(), path, leaves))
    return found


def body_at(path: FieldPath, value: object) -> object:
    """A body holding `value` at `path`, and nothing else."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    return [body_at(rest, value)] if isinstance(head, int) else {head: body_at(rest, value)}
