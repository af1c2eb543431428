"""The live protocol's messages, encoded once and sent as is (docs/live.md#messages).

Every message is a JSON object with a `type`:

- `snapshot`: `seq`, `status`, `round` and the whole table (`standings` for chess,
  `ranking` for bridge events), and `prizes` (the prize list) when prizes are set;
- `event`: `seq`, `event` (its type), `payload` (as stored in the event log); the newest
  event of a batch that moves the table also carries the table as a delta: the table's
  key holds the document without its rows plus `rows`, the rows that changed given as
  patches (the row id and the fields whose value changed; a new row in full),
  `changed` (the ids of those rows) and `positions` (every row id in table order);
  a client that asked for `?delta=compact` gets the rank of every row as one list
  instead, `ranks` (in `positions` order), and patches only for rows whose other fields
  changed (one result in a 200-player round-robin moves the rank of most rows: 1.6 KB
  against 7.7 KB); a team event's standings hold a second table, `teams` (keyed by
  `team`): an event leaves it out of `standings` and carries it as its own key, `teams`,
  with its `rows` (patches), `changed`, `positions` and, compact, `ranks`; the event
  that moves the table carries `prizes`, the whole prize list, when it changed (null
  once the prizes are unset);
- `batch`: `from`, `to` and `frames`, the consecutive `event` messages `from`..`to`
  (a client that fell slightly behind gets them in one message);
- `ping`: `seq`, the newest seq of the tournament (a heartbeat while nothing happens);
- `error`: `status`, `detail`, `field` before a refusing close.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = [
    "DELTA_FORMS",
    "Frame",
    "Rows",
    "TableDelta",
    "batch_message",
    "encode",
    "error_message",
    "event_message",
    "ping_message",
    "snapshot_message",
    "table_delta",
]

Rows = dict[Any, dict[str, Any]]
"""A table's rows by row id."""

DELTA_FORMS = ("full", "compact")
"""The forms of a table delta a client can ask for (`?delta=`; `full` by default)."""


class Frame(NamedTuple):
    """One event's message in each delta form: the same string twice when the event
    carries no table."""

    seq: int
    full: str
    compact: str

    def text(self, compact: bool) -> str:
        """The message in the form a client asked for."""
        return self.compact if compact else self.full


@dataclass(frozen=True, slots=True)
class TableDelta:
    """A new table against the rows clients hold, in both delta forms."""

    document: dict[str, Any]
    """The table without its rows."""
    patches: list[dict[str, Any]]
    """The rows that changed: a patch (the id and the fields that differ) or a new row
    in full."""
    positions: list[Any]
    """Every row id in table order."""
    rows: Rows
    """The new table's rows by id (what clients hold next)."""
    added: frozenset[Any]
    """The ids of the rows given in full (new to the client)."""
    row_id: str
    inner: dict[str, TableDelta] = field(default_factory=dict)
    """The tables inside the document diffed like its rows, by field (a team event's
    `teams`, keyed by `team`): left out of `document`."""

    def message_parts(self, key: str, compact: bool) -> dict[str, Any]:
        """The keys an event message carries for this delta (`key`: `standings` or
        `ranking`). Compact: a patch leaves out `rank` (a patch with nothing else
        left is dropped) and `ranks` lists every row's rank in `positions` order. Each
        inner table comes as its own key (`teams`) holding its `rows` (patches),
        `changed`, `positions` and, compact, `ranks`."""
        patches, changed, ranks = self._parts(compact)
        parts: dict[str, Any] = {
            key: {**self.document, "rows": patches},
            "changed": changed,
            "positions": self.positions,
        }
        if ranks is not None:
            parts["ranks"] = ranks
        for name, table in self.inner.items():
            patches, changed, ranks = table._parts(compact)
            inner: dict[str, Any] = {
                "rows": patches,
                "changed": changed,
                "positions": table.positions,
            }
            if ranks is not None:
                inner["ranks"] = ranks
            parts[name] = inner
        return parts

    def _parts(self, compact: bool) -> tuple[list[dict[str, Any]], list[Any], list[Any] | None]:
        """The patches, the ids they change, and (compact) every row's rank."""
        patches = self.patches
        if not compact:
            return patches, [patch[self.row_id] for patch in patches], None
        patches = [p for p in map(self._without_rank, patches) if len(p) > 1]
        ranks = [self.rows[row_id].get("rank") for row_id in self.positions]
        return patches, [patch[self.row_id] for patch in patches], ranks

    def _without_rank(self, patch: dict[str, Any]) -> dict[str, Any]:
        if "rank" not in patch or patch[self.row_id] in self.added:
            return patch  # a new row stays whole
        return {name: value for name, value in patch.items() if name != "rank"}


def encode(message: dict[str, Any]) -> str:
    """Compact JSON, built once per message and shared by every socket."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def table_delta(
    previous: Rows | None,
    document: dict[str, Any],
    row_id: str,
    inner: Mapping[str, str] | None = None,
    previous_inner: Mapping[str, Rows] | None = None,
) -> TableDelta:
    """A new table against the rows a client already holds (None: it holds none). A
    patch keeps the row id and the fields that differ. `inner` names the lists inside
    the document diffed the same way (field -> row id; a field that is not a list, a
    null `teams`, stays in the document), against `previous_inner`'s rows."""
    inner_deltas: dict[str, TableDelta] = {}
    for name, inner_id in (inner or {}).items():
        if isinstance(document.get(name), list):
            held = None if previous_inner is None else previous_inner.get(name)
            inner_deltas[name] = table_delta(held, {"rows": document[name]}, inner_id)
    rows: Rows = {row[row_id]: row for row in document["rows"]}
    patches: list[dict[str, Any]] = []
    added: set[Any] = set()
    for row in document["rows"]:
        before = None if previous is None else previous.get(row[row_id])
        if before is None:
            patches.append(row)
            added.add(row[row_id])
            continue
        patch = {key: value for key, value in row.items() if before.get(key) != value}
        if patch:
            patches.append({row_id: row[row_id], **patch})
    rest = {
        key: value for key, value in document.items() if key != "rows" and key not in inner_deltas
    }
    return TableDelta(rest, patches, list(rows), rows, frozenset(added), row_id, inner_deltas)


def event_message(
    seq: int, event: str, payload: dict[str, Any], table: dict[str, Any] | None = None
) -> str:
    """One event, with the table delta (key -> delta, `changed`, `positions`) if any."""
    message: dict[str, Any] = {"type": "event", "seq": seq, "event": event, "payload": payload}
    if table is not None:
        message.update(table)
    return encode(message)


def snapshot_message(
    seq: int,
    status: str,
    current_round: int,
    key: str,
    document: dict[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> str:
    """The whole state a client starts from; `extra`: documents beside the table (the
    prize list, `prizes`)."""
    return encode(
        {
            "type": "snapshot",
            "seq": seq,
            "status": status,
            "round": current_round,
            key: document,
            **(extra or {}),
        }
    )


def batch_message(frames: Sequence[tuple[int, str]]) -> str:
    """Consecutive encoded events as one message (joined, never re-encoded)."""
    inner = ",".join(text for _, text in frames)
    return f'{{"type":"batch","from":{frames[0][0]},"to":{frames[-1][0]},"frames":[{inner}]}}'


def error_message(status: int, detail: str, field: str) -> str:
    """Why the server is about to close the socket (`status` as the HTTP answer would
    give it, `field` the query parameter or path part at fault)."""
    return encode({"type": "error", "status": status, "detail": detail, "field": field})


def ping_message(seq: int) -> str:
    """The heartbeat."""
    return f'{{"type":"ping","seq":{seq}}}'
