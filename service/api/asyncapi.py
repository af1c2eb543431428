"""The live channel's contract: an AsyncAPI 3.0 document, generated from the message
models and committed as `openapi/asyncapi.json` (a test keeps the two equal)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from service.api.schemas.live import (
    BatchMessage,
    ErrorMessage,
    EventMessage,
    PingMessage,
    SnapshotMessage,
)
from service.live.frames import DELTA_FORMS

__all__ = ["CLOSE_CODES", "asyncapi_document"]

CLOSE_CODES: dict[int, str] = {
    1000: "normal closure",
    1011: "the feed cannot read the tournament (database outage): reconnect with ?since=",
    1012: "the server is restarting: reconnect with ?since=",
    4400: "a query parameter is invalid (an `error` message names it)",
    4401: (
        "the tournament is private and no valid token was given, or the token no longer "
        "admits (an open socket too, once the token is revoked or rotated, or the "
        "tournament made private)"
    ),
    4404: "no such tournament or bridge event",
    4410: "the organizer archived the tournament (an open socket too)",
    4429: (
        "too many failed authentications from the client's address (a `?token=` refused "
        "counts as one): retry after the time the reason gives"
    ),
}
"""WebSocket close codes the server uses (RFC 6455 7.4; 4xxx are the application's)."""

_MESSAGES: dict[str, type[BaseModel]] = {
    "snapshot": SnapshotMessage,
    "event": EventMessage,
    "batch": BatchMessage,
    "ping": PingMessage,
    "error": ErrorMessage,
}

_QUERY = {
    "type": "object",
    "properties": {
        "since": {
            "type": "integer",
            "minimum": 0,
            "description": (
                "Resume after this seq: the events after it, then live ones (a snapshot "
                "instead when they are no longer kept, when a change of what readers may "
                "see came after it, or when the seq, of any length, is ahead of the log)."
            ),
        },
        "delta": {
            "type": "string",
            "enum": list(DELTA_FORMS),
            "default": DELTA_FORMS[0],
            "description": (
                "How a table delta gives the ranks: `full`, a patch for every row whose "
                "rank moved; `compact`, every row's rank as one list (`ranks`, in "
                "`positions` order), with patches only for rows whose other fields "
                "changed: a fifth of the bytes when one result moves most ranks."
            ),
        },
        "token": {
            "type": "string",
            "description": "A viewer, player or organizer token (private tournaments).",
        },
    },
}

_DESCRIPTION = """Live standings over WebSocket. On connect the server sends a `snapshot`,
then one `event` per event of the tournament's log in `seq` order (or a `batch` of them),
and a `ping` while nothing happens. A client that reconnects with `?since=<seq>` gets
exactly what it missed. The client sends nothing.

Close codes: """


def _channel(address: str, parameter: str, description: str) -> dict[str, Any]:
    codes = "; ".join(f"{code} {meaning}" for code, meaning in CLOSE_CODES.items())
    return {
        "address": address,
        "title": description,
        "description": _DESCRIPTION + codes + ".",
        "parameters": {parameter: {"description": "The id returned at creation"}},
        "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in _MESSAGES},
        "bindings": {"ws": {"query": _QUERY, "bindingVersion": "0.1.0"}},
    }


def asyncapi_document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document of `/v1/tournaments/{id}/live` and
    `/v1/bridge/events/{id}/live`."""
    _, schemas = models_json_schema(
        [(model, "serialization") for model in _MESSAGES.values()],
        ref_template="#/components/schemas/{model}",
        by_alias=True,
    )
    channels = {
        "tournamentLive": _channel(
            "/v1/tournaments/{tournamentId}/live", "tournamentId", "A tournament's live feed"
        ),
        "bridgeEventLive": _channel(
            "/v1/bridge/events/{eventId}/live", "eventId", "A bridge event's live feed"
        ),
    }
    operations = {
        f"receive{name[0].upper()}{name[1:]}": {
            "action": "receive",
            "channel": {"$ref": f"#/channels/{name}"},
            "messages": [
                {"$ref": f"#/channels/{name}/messages/{message}"} for message in _MESSAGES
            ],
        }
        for name in channels
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Arbiter live channel",
            "version": "1.0.0",
            "description": "Live standings and results; the HTTP API is in openapi.json.",
        },
        "defaultContentType": "application/json",
        "servers": {
            "local": {"host": "127.0.0.1:8000", "protocol": "ws", "description": "make run"}
        },
        "channels": channels,
        "operations": operations,
        "components": {
            "messages": {
                name: {
                    "name": name,
                    "title": model.__name__,
                    "summary": (model.__doc__ or "").split("\n", 1)[0],
                    "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
                }
                for name, model in _MESSAGES.items()
            },
            "schemas": schemas.get("$defs", {}),
        },
    }
