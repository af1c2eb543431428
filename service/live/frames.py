"""The live protocol's messages, encoded once and sent as is (DESIGN: Live standings).

Every message is a JSON object with a `type`:

- `snapshot`: `seq`, `status`, `round` and the whole table (`standings` for chess,
  `ranking` for bridge events);
- `event`: `seq`, `event` (its type), `payload` (as stored in the event log); the newest
  event of a batch that moves the table also carries the table as a delta: the table's
  key holds the document without its rows plus `rows`, the rows that changed given as
  patches (the row id and the fields whose value changed; a new row in full),
  `changed` (the ids of those rows) and `positions` (every row id in table order);
- `batch`: `from`, `to` and `frames`, the consecutive `event` messages `from`..`to`
  (a client that fell slightly behind gets them in one message);
- `ping`: `seq`, the newest seq of the tournament (a heartbeat while nothing happens);
- `error`: `status`, `detail`, `field` before a refusing close.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = [
    "Rows",
    "batch_message",
    "encode",
    "event_message",
    "ping_message",
    "snapshot_message",
    "table_delta",
]

Rows = dict[Any, dict[str, Any]]
"""A table's rows by row id."""


def encode(message: dict[str, Any]) -> str:
    """Compact JSON, built once per message and shared by every socket."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def table_delta(
    previous: Rows | None, document: dict[str, Any], row_id: str
) -> tuple[dict[str, Any], list[Any], list[Any], Rows]:
    """(delta document, changed ids, positions, rows by id) of a new table against the
    rows a client already holds. A patch keeps the row id and the fields that differ."""
    rows: Rows = {row[row_id]: row for row in document["rows"]}
    patches: list[dict[str, Any]] = []
    for row in document["rows"]:
        before = None if previous is None else previous.get(row[row_id])
        if before is None:
            patches.append(row)
            continue
        patch = {key: value for key, value in row.items() if before.get(key) != value}
        if patch:
            patches.append({row_id: row[row_id], **patch})
    delta = {key: value for key, value in document.items() if key != "rows"}
    delta["rows"] = patches
    changed = [patch[row_id] for patch in patches]
    return delta, changed, list(rows), rows


def event_message(
    seq: int, event: str, payload: dict[str, Any], table: dict[str, Any] | None = None
) -> str:
    """One event, with the table delta (key -> delta, `changed`, `positions`) if any."""
    message: dict[str, Any] = {"type": "event", "seq": seq, "event": event, "payload": payload}
    if table is not None:
        message.update(table)
    return encode(message)


def snapshot_message(
    seq: int, status: str, current_round: int, key: str, document: dict[str, Any]
) -> str:
    """The whole state a client starts from."""
    return encode(
        {"type": "snapshot", "seq": seq, "status": status, "round": current_round, key: document}
    )


def batch_message(frames: Sequence[tuple[int, str]]) -> str:
    """Consecutive encoded events as one message (joined, never re-encoded)."""
    inner = ",".join(text for _, text in frames)
    return f'{{"type":"batch","from":{frames[0][0]},"to":{frames[-1][0]},"frames":[{inner}]}}'


def ping_message(seq: int) -> str:
    """The heartbeat."""
    return f'{{"type":"ping","seq":{seq}}}'
