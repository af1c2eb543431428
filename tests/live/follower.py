"""A live-feed client that applies the protocol (snapshot, event deltas, batches) the way
a scoreboard must, and checks the seq rules while doing so."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any


class Follower:
    """The table a client holds, rebuilt from the messages it receives."""

    def __init__(
        self, key: str = "standings", row_id: str = "start_number", inner: str = "teams"
    ) -> None:
        self.key = key
        self.row_id = row_id
        self.inner = inner
        """The table inside the document that events carry as their own delta (`team`)."""
        self.teams: dict[Any, dict[str, Any]] = {}
        self.team_positions: list[Any] = []
        self.seq: int | None = None
        self.rows: dict[Any, dict[str, Any]] = {}
        self.positions: list[Any] = []
        self.document: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        """Every event message received, batches flattened, in order."""
        self.snapshots = 0

    def fork(self) -> Follower:
        """A second client holding the same table (to resume with `?since=`)."""
        other = Follower(self.key, self.row_id, self.inner)
        other.teams = copy.deepcopy(self.teams)
        other.team_positions = list(self.team_positions)
        other.seq = self.seq
        other.rows = copy.deepcopy(self.rows)
        other.positions = list(self.positions)
        other.document = copy.deepcopy(self.document)
        return other

    def table(self) -> list[dict[str, Any]]:
        """The rows in table order."""
        return [self.rows[i] for i in self.positions]

    def apply(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one message; returns the events it carried. Raises AssertionError when a
        seq is skipped or repeated without a snapshot covering it."""
        kind = message["type"]
        if kind == "snapshot":
            assert self.seq is None or message["seq"] >= self.seq, "snapshot went back"
            self.seq = message["seq"]
            self.document = message[self.key]
            self.rows = {r[self.row_id]: dict(r) for r in self.document["rows"]}
            self.positions = list(self.rows)
            held = self.document.get(self.inner)
            if isinstance(held, list):
                self.teams = {r["team"]: dict(r) for r in held}
                self.team_positions = list(self.teams)
            self.snapshots += 1
            return []
        if kind == "batch":
            frames: list[dict[str, Any]] = message["frames"]
            assert [f["seq"] for f in frames] == list(range(message["from"], message["to"] + 1))
            return [event for frame in frames for event in self.apply(frame)]
        if kind == "event":
            assert self.seq is not None, "an event before any snapshot or resume point"
            assert message["seq"] == self.seq + 1, f"seq {message['seq']} after {self.seq}"
            self.seq = message["seq"]
            delta = message.get(self.key)
            if delta is not None:
                for patch in delta["rows"]:
                    self.rows.setdefault(patch[self.row_id], {}).update(patch)
                self.positions = list(message["positions"])
                ranks = message.get("ranks")  # the compact form (`?delta=compact`)
                if ranks is not None:
                    for row_id, rank in zip(self.positions, ranks, strict=True):
                        self.rows[row_id]["rank"] = rank
                self.document = {**delta, "rows": self.table()}
                inner = message.get(self.inner)
                if inner is not None:
                    assert self.inner not in delta, "the inner table came twice"
                    self._apply_inner(inner)
                    self.document[self.inner] = [self.teams[i] for i in self.team_positions]
            self.events.append(message)
            return [message]
        assert kind == "ping", message
        return []

    def _apply_inner(self, delta: dict[str, Any]) -> None:
        """The team ranking's delta, applied like the rows'."""
        for patch in delta["rows"]:
            self.teams.setdefault(patch["team"], {}).update(patch)
        self.team_positions = list(delta["positions"])
        assert set(self.team_positions) == set(self.teams), "a team row missing or left over"
        ranks = delta.get("ranks")
        if ranks is not None:
            for team, rank in zip(self.team_positions, ranks, strict=True):
                self.teams[team]["rank"] = rank

    async def receive(self, ws: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (applied)."""
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        self.apply(message)
        return message

    async def until(self, ws: Any, seq: int, timeout: float = 20.0) -> None:
        """Receive until this client holds `seq` (or later), in `timeout` seconds in all:
        heartbeats, which keep coming while nothing else does, do not extend it."""
        async with asyncio.timeout(timeout):
            while self.seq is None or self.seq < seq:
                await self.receive(ws, timeout)
