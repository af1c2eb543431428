"""The hub's fan-out policy with stand-in sockets and reader: a consumer that never
drains does not hold up the others and is resynchronised by snapshot; many events
during one read are read together (single flight)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import json
import random
import weakref
from collections.abc import Callable
from typing import Any, cast

import pytest

from service.config import Settings
from service.live import hub as hub_module
from service.live.frames import Frame
from service.live.hub import Channel, Hub, Refusal
from service.live.reader import FeedReader, TableText, Update
from tests.live.conftest import until


class _Log:
    """A stand-in for the reader: a tournament whose events are appended by the test."""

    def __init__(self) -> None:
        self.seq = 0
        self.calls = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def refresh(self, _tournament_id: str, since: int | None) -> Update:
        self.calls += 1
        await self.gate.wait()
        snapshot = json.dumps({"type": "snapshot", "seq": self.seq})
        if since is None:
            return Update(exists=True, system="round-robin", seq=self.seq, snapshot=snapshot)
        frames = [
            Frame(
                s,
                json.dumps({"type": "event", "seq": s}),
                json.dumps({"type": "event", "seq": s, "compact": True}),
            )
            for s in range(since + 1, self.seq + 1)
        ]
        return Update(
            exists=True, system="round-robin", seq=self.seq, frames=frames, snapshot=snapshot
        )

    async def forget(self, _tournament_id: str) -> None:
        return None


class _Socket:
    """Records what it is sent; a `stuck` socket never finishes a send (a client that
    stopped reading, once its buffers are full)."""

    def __init__(self, stuck: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.stuck = asyncio.Event()
        if not stuck:
            self.stuck.set()

    async def send_text(self, data: str) -> None:
        await self.stuck.wait()
        message = json.loads(data)
        self.sent.extend(message["frames"] if message["type"] == "batch" else [message])

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None

    def seqs(self) -> list[int]:
        return [m["seq"] for m in self.sent]


async def test_a_stuck_consumer_does_not_hold_up_the_others() -> None:
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=4, live_poll_seconds=60))
    channel = await hub.open("t")
    good, stuck = _Socket(), _Socket(stuck=True)
    clients = [channel.join(good, None), channel.join(stuck, None)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        for _ in range(20):  # twenty events, one notification each
            log.seq += 1
            hub.notify("t", log.seq)
            await until(lambda: channel.seq == log.seq)
        await until(lambda: good.seqs()[-1:] == [20])
        # the healthy client got the snapshot then every seq, in order
        assert good.sent[0]["type"] == "snapshot"
        assert good.seqs() == list(range(0, 21))
        # the stuck one holds at most its queue limit, and its overflow was noticed
        assert clients[1].overflows >= 1
        assert len(clients[1].pending) <= 4
        stuck.stuck.set()  # it reads again: a snapshot covering what it skipped
        await until(lambda: stuck.seqs()[-1:] == [20])
        assert [m["type"] for m in stuck.sent][-1] == "snapshot"
        assert sorted(set(stuck.seqs())) == stuck.seqs()  # never back, never twice
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()


async def test_events_during_a_read_are_read_together() -> None:
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_poll_seconds=60))
    channel = await hub.open("t")
    socket = _Socket()
    task = asyncio.create_task(channel.join(socket, None).run())
    try:
        await until(lambda: socket.seqs() == [0])
        calls = log.calls
        log.gate.clear()  # the next read takes a while
        log.seq = 1
        hub.notify("t", 1)
        await until(lambda: log.calls == calls + 1)
        for seq in range(2, 50):  # 48 more events while it reads: no extra reads
            log.seq = seq
            hub.notify("t", seq)
        assert log.calls == calls + 1
        log.gate.set()
        await until(lambda: socket.seqs()[-1:] == [49])
        assert log.calls == calls + 2  # the first read saw seq 49, the second caught up
        assert socket.seqs() == list(range(0, 50))
    finally:
        task.cancel()
        await hub.stop()


class _ClosingSocket(_Socket):
    def __init__(self) -> None:
        super().__init__()
        self.closed: tuple[int, str | None] | None = None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


async def test_a_quiet_feed_sends_heartbeats_with_the_newest_seq() -> None:
    log = _Log()
    log.seq = 7
    hub = Hub(cast(FeedReader, log), Settings(live_heartbeat_seconds=0.05, live_poll_seconds=60))
    channel = await hub.open("t")
    socket = _Socket()
    task = asyncio.create_task(channel.join(socket, None).run())
    try:
        await until(lambda: len(socket.sent) >= 3)
        assert socket.sent[0] == {"type": "snapshot", "seq": 7}
        assert socket.sent[1:3] == [{"type": "ping", "seq": 7}] * 2
    finally:
        task.cancel()
        await hub.stop()


async def test_an_outage_closes_with_1011_and_the_seq_to_resume_from() -> None:
    log = _Log()
    log.seq = 3
    hub = Hub(cast(FeedReader, log), Settings(live_poll_seconds=60), attempts=2)
    channel = await hub.open("t")
    socket = _ClosingSocket()
    task = asyncio.create_task(channel.join(socket, None).run())
    await until(lambda: socket.seqs() == [3])

    async def broken(_tournament_id: str, _since: int | None) -> Update:
        raise OSError("database unreachable")

    log.refresh = broken  # type: ignore[method-assign,assignment]
    hub.notify("t", 4)
    await until(lambda: socket.closed is not None)
    assert socket.closed == (1011, "live feed unavailable; reconnect with ?since=3")
    await asyncio.wait_for(task, 5)
    assert "t" not in hub.channels  # the next spectator starts a fresh channel
    await hub.stop()


async def test_shutdown_closes_with_1012_and_the_seq_to_resume_from() -> None:
    log = _Log()
    log.seq = 5
    hub = Hub(cast(FeedReader, log), Settings(live_poll_seconds=60))
    channel = await hub.open("t")
    socket = _ClosingSocket()
    task = asyncio.create_task(channel.join(socket, None).run())
    await until(lambda: socket.seqs() == [5])
    await hub.stop()
    await asyncio.wait_for(task, 5)
    assert socket.closed == (1012, "server restarting; reconnect with ?since=5")


class _Transport:
    """A stand-in for the socket's transport: records frames written to it directly,
    and can be paused like a transport above its high-water mark; `wrote` is told how
    many messages each write carried."""

    def __init__(self, socket: _Socket, wrote: Callable[[int], None] | None = None) -> None:
        self.socket = socket
        self.paused = False
        self.wrote = wrote

    def put(self, frame: bytes) -> bool:
        if self.paused:
            return False
        # the stand-in frame is the text after a 2-, 4- or 10-byte header
        size = frame[1] & 0x7F
        start = 2 if size < 126 else 4 if size == 126 else 10
        message = json.loads(frame[start:])
        carried = message["frames"] if message["type"] == "batch" else [message]
        self.socket.sent.extend(carried)
        if self.wrote is not None:
            self.wrote(len(carried))
        return True


async def test_caught_up_clients_take_frames_directly_in_order() -> None:
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=64, live_poll_seconds=60))
    channel = await hub.open("t")
    fast, paused = _Socket(), _Socket()
    fast_wire, paused_wire = _Transport(fast), _Transport(paused)
    clients = [
        channel.join(fast, None, cast(Any, fast_wire)),
        channel.join(paused, None, cast(Any, paused_wire)),
    ]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        await until(lambda: fast.seqs() == [0] and paused.seqs() == [0])
        for seq in range(1, 31):
            paused_wire.paused = 10 <= seq < 20  # a reader that lags for ten events
            log.seq = seq
            hub.notify("t", seq)
            await until(lambda: channel.seq == log.seq)
        await until(lambda: fast.seqs()[-1:] == [30] and paused.seqs()[-1:] == [30])
        assert fast.seqs() == list(range(31))
        assert paused.seqs() == list(range(31))  # queued while paused, then direct again
        assert clients[0].direct_writes == 30  # every event framed once, written at once
        assert 0 < clients[1].direct_writes < 30
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()


async def test_each_client_gets_the_delta_form_it_asked_for() -> None:
    """Full and compact clients on one channel, written to directly, through a paused
    transport's queue (batches) and resumed from the history: every message in the form
    the client asked for, every seq once, in order."""
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=64, live_poll_seconds=60))
    channel = await hub.open("t")
    sockets = [_Socket() for _ in range(4)]
    wires = [_Transport(socket) for socket in sockets]
    compact = [False, True, True, False]
    clients = [
        channel.join(socket, None, cast(Any, wire), compact=form)
        for socket, wire, form in zip(sockets, wires, compact, strict=True)
    ]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        await until(lambda: all(s.seqs() == [0] for s in sockets))
        for seq in range(1, 13):
            wires[2].paused = wires[3].paused = 4 <= seq < 8  # these two lag for a while
            log.seq = seq
            hub.notify("t", seq)
            await until(lambda: channel.seq == log.seq)
        late = _Socket()
        tasks.append(asyncio.create_task(channel.join(late, 9, compact=True).run()))
        sockets.append(late)
        compact.append(True)
        await until(lambda: all(s.seqs()[-1:] == [12] for s in sockets))
        for socket, form in zip(sockets, compact, strict=True):
            events = [m for m in socket.sent if m["type"] == "event"]
            assert all(m.get("compact", False) is form for m in events)
        assert [s.seqs() for s in sockets[:4]] == [list(range(13))] * 4
        assert late.seqs() == [10, 11, 12]  # resumed from the history, compact
        assert 0 < clients[2].direct_writes < 12  # queued while paused: a batch, compact
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()


async def test_a_read_during_a_fan_out_reaches_the_clients_not_yet_served_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A result reported while the previous one is still being fanned out is read at
    once (not after the fan-out), the clients not reached yet get both events in one
    message, and those reached before get the newer one in one more pass."""
    monkeypatch.setattr(hub_module, "FANOUT_SLICE_SECONDS", 0.0)  # yield every few sends
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=64, live_poll_seconds=60))
    lags: list[float] = []
    hub.observe_lag = lags.append
    channel = await hub.open("t")
    carried: list[int] = []
    counting = False

    def wrote(messages: int) -> None:
        if counting:
            carried.append(messages)
            if len(carried) == 20:  # the next result lands in the middle of the fan-out
                log.seq = 2
                hub.notify("t", 2)

    sockets = [_Socket() for _ in range(200)]
    clients = [channel.join(s, None, cast(Any, _Transport(s, wrote))) for s in sockets]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        await until(lambda: all(s.seqs() == [0] for s in sockets))
        reads = log.calls
        counting = True
        log.seq = 1
        hub.notify("t", 1)
        await until(lambda: all(s.seqs()[-1:] == [2] for s in sockets))
        assert all(s.seqs() == [0, 1, 2] for s in sockets)
        assert log.calls == reads + 2
        both = carried.count(2)  # clients reached after the second read landed
        assert 100 < both < 200
        assert len(carried) == 200 + (200 - both)  # one more write only for the others
        assert len(lags) == 2  # each notification observed once its pass ended
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()


async def test_a_spectator_who_left_is_freed_once_the_pass_has_gone_by(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fan-out pass holds each spectator only until it has served it: one who leaves
    meanwhile is freed by reference counting at once, not with thousands of others when
    the pass ends (10,000 leaving together: a 150 ms step of the loop)."""
    monkeypatch.setattr(hub_module, "FANOUT_SLICE_SECONDS", 0.0)  # yield every few sends
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=64, live_poll_seconds=60))
    channel = await hub.open("t")
    writes = 0
    gone: list[weakref.ref[Any]] = []
    freed_by: list[int] = []

    def wrote(index: int, _messages: int) -> None:
        nonlocal writes
        writes += 1
        if writes == 220:  # 200 snapshots, then the first event's pass: this one leaves
            client = held.pop(index)
            gone.append(weakref.ref(client))
            channel.leave(client)
            senders.pop(index).cancel()  # its sender ends, and nothing here keeps it
        elif gone and gone[0]() is None and not freed_by:
            freed_by.append(writes)

    sockets = [_Socket() for _ in range(200)]
    held = {
        i: channel.join(s, None, cast(Any, _Transport(s, functools.partial(wrote, i))))
        for i, s in enumerate(sockets)
    }
    senders = {i: asyncio.create_task(client.run()) for i, client in held.items()}
    gc.disable()
    try:
        await until(lambda: all(s.seqs() == [0] for s in sockets))
        for seq in (1, 2):
            log.seq = seq
            hub.notify("t", seq)
            await until(lambda: sum(s.seqs()[-1:] == [log.seq] for s in sockets) >= 199)
        assert freed_by and freed_by[0] < 400  # in the middle of the pass that served it
    finally:
        gc.enable()
        for task in senders.values():
            task.cancel()
        await hub.stop()


async def test_a_client_the_history_no_longer_reaches_gets_the_snapshot() -> None:
    """Five events read at once by a channel that keeps two: the client starts again
    from the snapshot at the newest seq, and is not handed the frames again."""
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_history=2, live_poll_seconds=60))
    channel = await hub.open("t")
    socket = _Socket()
    client = channel.join(socket, None, cast(Any, _Transport(socket)))
    task = asyncio.create_task(client.run())
    try:
        await until(lambda: socket.seqs() == [0])
        log.seq = 5
        hub.notify("t", 5)
        await until(lambda: socket.seqs() == [0, 5])
        assert [m["type"] for m in socket.sent] == ["snapshot", "snapshot"]
        assert client.offered == 5
        log.seq = 6
        hub.notify("t", 6)
        await until(lambda: socket.seqs() == [0, 5, 6])
    finally:
        task.cancel()
        await hub.stop()


@pytest.mark.parametrize("seed", range(6))
async def test_every_client_gets_every_seq_once_in_order_whatever_lands_when(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Results land at random points of the fan-outs while random transports pause and
    resume: every client that never overflowed gets every seq once, in order; one that
    did gets a snapshot covering what it skipped, never a seq twice or backwards."""
    monkeypatch.setattr(hub_module, "FANOUT_SLICE_SECONDS", 0.0)
    chance = random.Random(seed)
    log = _Log()
    hub = Hub(cast(FeedReader, log), Settings(live_queue_size=8, live_poll_seconds=60))
    channel = await hub.open("t")
    last = 40
    transports: list[_Transport] = []

    def wrote(_messages: int) -> None:
        if log.seq < last and chance.random() < 0.02:
            log.seq += 1
            hub.notify("t", log.seq)
        for transport in chance.sample(transports, 3):
            transport.paused = chance.random() < 0.3

    sockets = [_Socket() for _ in range(120)]
    transports.extend(_Transport(s, wrote) for s in sockets)
    clients = [
        channel.join(s, None, cast(Any, t)) for s, t in zip(sockets, transports, strict=True)
    ]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        while log.seq < last:
            log.seq += 1
            hub.notify("t", log.seq)
            await asyncio.sleep(0)
        for transport in transports:
            transport.paused = False
        await until(lambda: all(s.seqs()[-1:] == [last] for s in sockets))
        for socket, client in zip(sockets, clients, strict=True):
            seqs = socket.seqs()
            assert sorted(set(seqs)) == seqs
            if client.overflows == 0:
                assert seqs == list(range(last + 1))
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()


class _Tables:
    """A stand-in reader that serves tables and records the ones it was asked for."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
        self.asked.append((tournament_id, at_least))
        return TableText(at_least, "{}")


async def test_a_peer_table_is_prepared_only_for_a_tournament_read_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hub.follows: a table served within the hour; the memory keeps the most recently
    # read INTEREST_LIMIT tournaments, forgetting the least recently read first.
    tables = _Tables()
    hub = Hub(cast(FeedReader, tables), Settings())
    monkeypatch.setattr(hub_module, "INTEREST_LIMIT", 3)
    clock = [1000.0]
    hub.clock = lambda: clock[0]
    for tournament in ("a", "b", "c"):
        await hub.table(tournament, 1)
    await hub.table("a", 2)  # read again: now the most recent
    await hub.table("d", 1)  # the fourth: "b", the least recently read, is forgotten
    assert [hub.follows(t) for t in "abcd"] == [True, False, True, True]
    hub.warm_for_peer("b", 5)
    hub.warm_for_peer("c", 5)
    await hub.warmed()
    assert tables.asked[-1] == ("c", 5) and ("b", 5) not in tables.asked
    clock[0] += hub_module.INTEREST_SECONDS
    assert not any(hub.follows(t) for t in "abcd")  # an hour without a read


class _AccessLog(_Log):
    """`_Log` whose events at the seqs in `admission` may change who may follow the
    tournament, and those in `narrowing` hide what earlier frames showed."""

    def __init__(self) -> None:
        super().__init__()
        self.admission: set[int] = set()
        self.narrowing: set[int] = set()

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        update = await super().refresh(tournament_id, since)
        seqs = [frame.seq for frame in update.frames]
        return dataclasses.replace(
            update,
            admission_seq=max((s for s in seqs if s in self.admission), default=None),
            narrowed=any(s in self.narrowing for s in seqs),
        )


class _Access:
    """A stand-in for the app's check (`Hub.recheck`): refuses the credentials in
    `refused` as of the log's seq; `gate` holds a check, `failing` fails it."""

    def __init__(self, log: _Log) -> None:
        self.log = log
        self.refused: dict[str | None, Refusal] = {}
        self.asked: list[frozenset[str | None]] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.failing = False

    async def __call__(
        self, _tournament_id: str, credentials: frozenset[str | None]
    ) -> tuple[int | None, dict[str | None, Refusal]]:
        self.asked.append(credentials)
        await self.gate.wait()
        if self.failing:
            raise OSError("database unreachable")
        return self.log.seq, {c: r for c, r in self.refused.items() if c in credentials}


_REVOKED = Refusal(4401, 401, "this token does not belong to the tournament", "token")


async def _followed(
    settings: Settings | None = None, attempts: int = 5
) -> tuple[_AccessLog, _Access, Hub, Channel]:
    log = _AccessLog()
    hub = Hub(cast(FeedReader, log), settings or Settings(live_poll_seconds=60), attempts=attempts)
    access = _Access(log)
    hub.recheck = access
    return log, access, hub, await hub.open("t")


def _joined(channel: Channel, credential: str | None, admitted_at: int | None = None) -> Any:
    """A client joined with `credential` and its sender running: (socket, client, task)."""
    socket = _ClosingSocket()
    client = channel.join(socket, None, credential=credential, admitted_at=admitted_at)
    return socket, client, asyncio.create_task(client.run())


async def test_an_access_change_closes_only_the_clients_it_no_longer_admits() -> None:
    """An event that may change who may follow the tournament: every client is checked
    again in one check, each credential once; the refused one gets an `error` message
    and its close, the others stay, admitted as of the check."""
    log, access, hub, channel = await _followed()
    joined = [_joined(channel, credential) for credential in ("vwr", "ply", "ply", None)]
    try:
        access.refused = {"vwr": _REVOKED}
        log.seq = 1
        log.admission.add(1)
        hub.notify("t", 1)
        revoked = joined[0][0]
        await until(lambda: revoked.closed is not None)
        assert revoked.closed == (4401, _REVOKED.detail)
        assert revoked.sent[-1] == {
            "type": "error",
            "status": 401,
            "detail": _REVOKED.detail,
            "field": "token",
        }
        assert access.asked == [frozenset({"vwr", "ply", None})]
        await until(lambda: channel.rechecks == 1)
        assert [s.closed for s, _, _ in joined[1:]] == [None] * 3
        assert [c.admitted_at for _, c, _ in joined[1:]] == [1] * 3
        log.seq = 2  # an event that changes no access: no check
        hub.notify("t", 2)
        await until(lambda: all(s.sent[-1].get("seq") == 2 for s, _, _ in joined[1:]))
        assert len(access.asked) == 1
    finally:
        for _, _, task in joined:
            task.cancel()
        await hub.stop()


async def test_a_client_admitted_before_a_change_the_channel_read_is_checked_as_it_joins() -> None:
    """A spectator whose access was checked before an access change that the channel
    has already read (it connected while the change was made) is checked again at once;
    one checked after it is not."""
    log, access, hub, channel = await _followed()
    log.seq = 3
    log.admission.add(3)
    hub.notify("t", 3)
    await until(lambda: channel.admission_seq == 3)
    access.refused = {"ply": _REVOKED}
    late, _, late_task = _joined(channel, "ply", admitted_at=2)
    fresh, _, fresh_task = _joined(channel, "org", admitted_at=3)
    try:
        await until(lambda: late.closed is not None)
        assert late.closed == (4401, _REVOKED.detail)
        assert access.asked == [frozenset({"ply"})]
        assert fresh.closed is None
    finally:
        late_task.cancel()
        fresh_task.cancel()
        await hub.stop()


async def test_clients_who_come_during_a_check_are_checked_together_by_the_next() -> None:
    log, access, hub, channel = await _followed()
    log.seq = 1
    log.admission.add(1)
    access.gate.clear()
    joined = [_joined(channel, "a", admitted_at=0)]
    hub.notify("t", 1)
    try:
        await until(lambda: len(access.asked) == 1)  # the first check waits
        joined += [_joined(channel, c, admitted_at=0) for c in ("b", "c")]
        access.refused = {"c": _REVOKED}
        access.gate.set()
        await until(lambda: channel.rechecks == 2)
        assert access.asked == [frozenset({"a"}), frozenset({"b", "c"})]
        assert [s.closed is None for s, _, _ in joined] == [True, True, False]
    finally:
        for _, _, task in joined:
            task.cancel()
        await hub.stop()


async def test_a_check_that_keeps_failing_closes_with_1011() -> None:
    """The database does not answer the check: the sockets it was for are closed as in
    an outage (they reconnect with `?since=` and are checked as they do)."""
    log, access, hub, channel = await _followed(attempts=2)
    socket, _, task = _joined(channel, "vwr")
    access.failing = True
    log.seq = 1
    log.admission.add(1)
    hub.notify("t", 1)
    try:
        await until(lambda: socket.closed is not None)
        assert socket.closed == (1011, "live feed unavailable; reconnect with ?since=1")
        assert len(access.asked) == 2
    finally:
        task.cancel()
        await hub.stop()


async def test_frames_from_before_personal_data_was_hidden_are_not_replayed() -> None:
    """An update that hides what earlier frames showed: a client resuming from before
    it gets the snapshot; from within it, its frames."""
    log, _, hub, channel = await _followed()
    log.seq = 3
    hub.notify("t", 3)
    await until(lambda: [f.seq for f in channel.history] == [1, 2, 3])
    log.seq = 5
    log.narrowing.add(4)
    hub.notify("t", 5)
    await until(lambda: channel.seq == 5)
    assert [f.seq for f in channel.history] == [4, 5]
    sockets = {since: _Socket() for since in (2, 3)}
    tasks = [asyncio.create_task(channel.join(s, since).run()) for since, s in sockets.items()]
    try:
        await until(lambda: all(s.sent for s in sockets.values()))
        assert sockets[2].sent == [{"type": "snapshot", "seq": 5}]
        assert sockets[3].seqs() == [4, 5] and sockets[3].sent[0]["type"] == "event"
    finally:
        for task in tasks:
            task.cancel()
        await hub.stop()
