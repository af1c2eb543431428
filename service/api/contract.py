"""The published contracts: the OpenAPI document (what FastAPI derives from the routes,
plus what the routes read themselves, JSON-or-TRF bodies, and the real error document)
and, at `/asyncapi.json`, the live channel's AsyncAPI document.

Integrators generate clients from this document, so it must say what the service does:
every error is `application/problem+json` (`ProblemDetails`), never FastAPI's default
`HTTPValidationError`, and no schema is split into `-Input`/`-Output` twins (client
generators reject the duplicates).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from service.api.asyncapi import asyncapi_document
from service.api.schemas.compute import ComputeTournament
from service.api.schemas.problems import ProblemDetails
from service.api.schemas.ratings import RatingsTournament

__all__ = ["install_contract"]

PROBLEM_MEDIA_TYPE = "application/problem+json"
_PROBLEM_REF = {"$ref": "#/components/schemas/ProblemDetails"}
_HTTP_METHODS = frozenset({"get", "put", "post", "patch", "delete", "head", "options"})
_DOCUMENTED_MODELS: tuple[type[BaseModel], ...] = (
    ComputeTournament,
    RatingsTournament,
    ProblemDetails,
)
"""Models the routes parse or render themselves, published under components/schemas."""


def _problem_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_MEDIA_TYPE: {"schema": _PROBLEM_REF}}}


def _publish_models(document: dict[str, Any]) -> None:
    _, extra = models_json_schema(
        [(model, "validation") for model in _DOCUMENTED_MODELS],
        ref_template="#/components/schemas/{model}",
    )
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in extra.get("$defs", {}).items():
        schemas.setdefault(name, schema)


def _problem_responses(document: dict[str, Any]) -> None:
    """Every operation answers errors as problem+json: its 422 says so, and a `default`
    response covers the rest (401, 403, 404, 409, 413, 429, 503)."""
    for path_item in document.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in _HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"] = _problem_response("Invalid input: the field is named")
            responses["default"] = _problem_response("Any other error (RFC 9457)")
    schemas = document.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)


def _binary_text_bodies(document: dict[str, Any]) -> None:
    """A text body (TRF, PBN) is also published as `application/octet-stream`: the routes
    read the raw bytes whatever the content type, and client generators that cannot send
    `text/plain` (openapi-python-client) send a file instead."""
    for path_item in document.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in _HTTP_METHODS:
                continue
            content = operation.get("requestBody", {}).get("content", {})
            text = content.get("text/plain")
            if text is not None:
                description = text.get("schema", {}).get("description", "The file, as bytes")
                content["application/octet-stream"] = {
                    "schema": {"type": "string", "format": "binary", "description": description}
                }


_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "Makes a retry safe: the same key and body return the first response and change "
        "nothing (IETF draft-ietf-httpapi-idempotency-key-header)."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
}


def _idempotency_header(document: dict[str, Any]) -> None:
    """Writes take `Idempotency-Key` (read by the service before the route runs): publish
    it, so generated clients can send it."""
    for path_item in document.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in {"post", "put", "patch", "delete"}:
                continue
            parameters = operation.setdefault("parameters", [])
            names = {str(p.get("name", "")).lower() for p in parameters}
            if "idempotency-key" not in names:
                parameters.append(dict(_IDEMPOTENCY_KEY))


def install_contract(app: FastAPI) -> None:
    """Make `app.openapi()` build (once) and return the published contract."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
            separate_input_output_schemas=app.separate_input_output_schemas,
        )
        _publish_models(document)
        _problem_responses(document)
        _binary_text_bodies(document)
        _idempotency_header(document)
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]
    live_contract = asyncapi_document()

    @app.get("/asyncapi.json", include_in_schema=False)
    async def asyncapi() -> JSONResponse:
        """The live channel's AsyncAPI 3 document."""
        return JSONResponse(live_contract)
