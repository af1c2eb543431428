"""The live hub: one channel per followed tournament per process, fanning encoded frames
out from memory to every spectator of that process (docs/live.md#how-it-is-served).

A channel has one task that asks the reader for the frames after the channel's `seq`
whenever the bus says something happened (and every `live_poll_seconds` in case a
notification was lost); one request at a time, so events that arrive meanwhile are
read together by the next one (single flight, no thundering herd). The channel keeps
the encoded snapshot of its `seq` and the last `live_history` frames for resuming
clients, so a connecting spectator costs no database read and no computation.

Each client owns a bounded queue of frames and one sender task. A client whose queue
is full (its socket does not drain) has its queue dropped and gets the channel's
current snapshot next, then the frames after it: it never slows the others, and the
seqs it receives stay exact (every seq once, in order, or a snapshot covering it).

Each event is kept in both delta forms (`frames.Frame`): a client that asked for the
compact one (`?delta=compact`) is handed that text, queued or written, and the rest the
full one; the messages are framed once per form.

The common case takes a shorter road (`wire.py`): a client that is caught up, with
nothing queued and a transport that is not paused, gets the channel's frame bytes,
built once per update, written straight to its transport during the fan-out; no task
wakes, nothing is framed again. A client that cannot take them so falls back to its
queue and sender, so the order and the rules above hold either way.

A fan-out to thousands of spectators can take longer than the gap between two results,
so it does not hold the next read back: a notification during a fan-out starts the next
read at once, and when it lands the fan-out goes on with the newer frames. The clients
not reached yet get the old and the new frames in one message, and those reached before
get the new ones in one more pass; a client is always handed the frames after the
newest seq it was offered, so nothing is skipped or sent twice, and the busier the
feed, the more events each write carries.

Who may follow a tournament can change while its sockets are open (a token rotated or
revoked, the tournament made private or archived): the reader says when an update
holds such an event (`Update.admission_seq`), and every client admitted before it is
checked again by the app (`Hub.recheck`), one check at a time per channel, each
credential once; a client admitted before a change the channel has already read is
checked as it joins. A client no longer admitted gets an `error` message and its close,
and nothing else meanwhile. An update that hides what earlier frames showed (personal
data no longer published: `Update.narrowed`) ends the replay of the frames kept from
before it: a client resuming from before it gets the snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from service.config import Settings
from service.futures import mark_retrieved
from service.heap import SpectatorHeap
from service.live.connection_pacing import ConnectionPacer
from service.live.frames import Frame, batch_message, error_message, ping_message
from service.live.reader import FeedReader, TableText, Update
from service.live.wire import DirectSocket, close_reason, text_frame

if TYPE_CHECKING:
    from service.db.loading import Schedule

__all__ = [
    "Channel",
    "Client",
    "Hub",
    "LiveUnavailable",
    "Recheck",
    "Refusal",
    "Socket",
    "TournamentGone",
]

_log = logging.getLogger("arbiter.live")

OUTAGE = 1011
"""Close code when the live feed cannot follow the tournament (database unreachable)."""
RESTART = 1012
"""Close code when the server shuts down or restarts."""
GONE = 4404
"""Close code for a tournament that does not exist."""
FANOUT_SLICE_SECONDS = 0.00025
"""The longest run of sends between two yields to the event loop. A request served
meanwhile (a result PUT takes tens of turns of the loop, most of them database round
trips) waits at most this long per turn. A longer slice made PUTs wait longer, a
shorter one gained nothing, and a fixed number of spectators per slice let PUTs queue up
behind a large fan-out (docs/decisions/one-frame-per-event.md)."""
FANOUT_CLOCK_EVERY = 8
"""Sends between two looks at the clock during a fan-out."""
INTEREST_SECONDS = 3600.0
"""How long a table served by this process counts as interest in its tournament: a
peer's start or pairing is then prepared here too (`Hub.warm_for_peer`)."""
INTEREST_LIMIT = 10_000
"""Tournaments remembered as read (the least recently read is forgotten first)."""


class LiveUnavailable(Exception):  # a state, not a programming error
    """The reader could not read the tournament (database unreachable)."""


class TournamentGone(Exception):
    """No such tournament."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an open socket is no longer admitted: its close code, and the `error` message
    sent before the close (`status`, `detail`, `field`), the refusal the client would
    get on connecting again."""

    code: int
    status: int
    detail: str
    field: str


Recheck = Callable[
    [str, frozenset[str | None]], Awaitable[tuple[int | None, dict[str | None, Refusal]]]
]
"""Checks the credentials a tournament's sockets were admitted with (a token's digest;
None: no token) against the tournament as it stands: returns the tournament's seq as
read (None: no such tournament) and the credentials no longer admitted, each with its
refusal (`Hub.recheck`)."""


class Socket(Protocol):
    """What a client needs of a WebSocket (Starlette's, or a test double)."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the connection."""


class Client:
    """One spectator: a bounded queue of (seq, message) and the task that sends them."""

    def __init__(
        self,
        channel: Channel,
        socket: Socket,
        limit: int,
        heartbeat: float,
        direct: DirectSocket | None = None,
        *,
        compact: bool = False,
        credential: str | None = None,
        admitted_at: int | None = None,
    ) -> None:
        self.channel = channel
        self.socket = socket
        self.credential = credential
        """What the client was admitted with: its token's digest (None: no token)."""
        self.admitted_at = channel.seq if admitted_at is None else admitted_at
        """The tournament's seq when the client's admission was last checked."""
        self.direct = direct
        """The socket's transport for frames built once (None: every send is awaited)."""
        self.compact = compact
        """The delta form this client asked for (`?delta=compact`; `frames.Frame`)."""
        self.limit = limit
        self.heartbeat = heartbeat
        self.pending: deque[tuple[int, str]] = deque()
        self.last = -1
        """The newest seq this client was sent (a snapshot counts for its seq)."""
        self.offered = channel.seq
        """The newest seq handed to this client: written, queued, or covered by the
        snapshot or history it starts from (a fan-out hands it the frames after it)."""
        self.needs_snapshot = True
        self.overflows = 0
        self.closing: tuple[int, str, str | None] | None = None
        """The close code, reason and `error` message to send before it, once asked."""
        self.direct_writes = 0
        """Messages written straight to the transport (for tests and figures)."""
        self._sending = False
        self._wrote_directly = False
        self._woken = False
        self._waiter: asyncio.Future[bool] | None = None

    def offer(self, wire: _Wire) -> None:
        """Hand over an update's frames without ever waiting: written at once when the
        client is caught up, has nothing queued or being sent, is not closing, and its
        transport takes them (`DirectSocket.put`, the update's bytes framed once), else
        queued; a full queue means a snapshot instead. The fan-out keeps `offered`."""
        direct = self.direct
        if (
            direct is not None
            and wire.first == self.last + 1
            and not self.needs_snapshot
            and not self.pending
            and not self._sending
            and self.closing is None
            and direct.put(wire.data())
        ):
            self.last = wire.last
            self.direct_writes += 1
            self._wrote_directly = True
            return
        frames = wire.frames
        if self.needs_snapshot:
            pass  # the snapshot this client gets next is at least this new
        elif len(self.pending) + len(frames) > self.limit:
            self.pending.clear()
            self.needs_snapshot = True
            self.overflows += 1
        else:
            self.pending.extend((frame.seq, frame.text(self.compact)) for frame in frames)
        self.wake()

    def resume(self, since: int | None) -> None:
        """Start from `since` if the channel's history covers it, else from a snapshot
        (`since` above the channel's seq too: the client's counter is not ours)."""
        channel = self.channel
        if since is None or since > channel.seq:
            return
        history = channel.history
        if since == channel.seq:
            self.needs_snapshot, self.last = False, since
        elif history and history[0].seq <= since + 1:
            self.needs_snapshot, self.last = False, since
            compact = self.compact
            self.pending.extend((f.seq, f.text(compact)) for f in history if f.seq > since)
            self.wake()

    def close(self, code: int, reason: str, error: str | None = None) -> None:
        """Ask the sender to close the socket with `code` and `reason` (cut to fit a
        close frame), after the message `error` if given; nothing else is sent to it
        meanwhile. The first request wins."""
        if self.closing is None:
            self.closing = (code, close_reason(reason), error)
        self.wake()

    async def run(self) -> None:
        """Send until the socket fails or the hub closes it."""
        while True:
            if self.closing is not None:
                code, reason, error = self.closing
                with contextlib.suppress(Exception):
                    if error is not None:
                        await self.socket.send_text(error)
                    await self.socket.close(code, reason)
                return
            if self.needs_snapshot:
                self.needs_snapshot = False
                seq, text = self.channel.snapshot
                self.last = seq
                self.offered = max(self.offered, seq)
                if self.direct is None or not self.direct.put(self.channel.snapshot_frame()):
                    await self._send(text)
                continue
            if self.pending:
                frames = [f for f in self.pending if f[0] > self.last]
                self.pending.clear()
                if frames:
                    self.last = frames[-1][0]
                    if len(frames) == 1:
                        await self._send(frames[0][1])
                    else:
                        await self._send(batch_message(frames))
                continue
            if not await self._sleep():
                if self._wrote_directly:  # frames went out meanwhile: no heartbeat needed
                    self._wrote_directly = False
                    continue
                await self._send(ping_message(self.channel.seq))

    async def _send(self, text: str) -> None:
        """One awaited send; the direct path stays shut meanwhile, so frames keep
        their order."""
        self._sending = True
        try:
            await self.socket.send_text(text)
        finally:
            self._sending = False

    def restart(self, seq: int) -> None:
        """Start again from the channel's snapshot, which covers `seq`."""
        self.needs_snapshot = True
        self.offered = seq
        self.wake()

    def wake(self) -> None:
        """Have the sender look at the client's state again."""
        self._woken = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)

    async def _sleep(self) -> bool:
        """Wait for a wake-up (True) or the heartbeat interval (False), with one future
        and one timer: no task per wait, as there are thousands of clients."""
        if self._woken:
            self._woken = False
            return True
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(self.heartbeat, _settle, waiter)
        try:
            woken: bool = await waiter
            return woken
        finally:
            timer.cancel()
            self._waiter = None
            self._woken = False


def _settle(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(False)


class _Wire:
    """An update's frames in one delta form, handed to every client that starts after
    the same seq: the frames for queues, and one message's bytes for the transports that
    take them directly (one event: its frame; several: one batch), built on first use
    and shared. No frames: the channel's seq moved without any (a rebuild)."""

    __slots__ = ("_bytes", "_compact", "first", "frames", "last")

    def __init__(self, frames: list[Frame], compact: bool) -> None:
        self.frames = frames
        self.first = frames[0].seq if frames else -1
        self.last = frames[-1].seq if frames else -1
        self._compact = compact
        self._bytes: bytes | None = None

    def data(self) -> bytes:
        """The message's frame bytes (`wire.text_frame`)."""
        if self._bytes is None:
            texts = [(frame.seq, frame.text(self._compact)) for frame in self.frames]
            self._bytes = text_frame(texts[0][1] if len(texts) == 1 else batch_message(texts))
        return self._bytes


class Channel:
    """One tournament followed by this process."""

    def __init__(self, hub: Hub, tournament_id: str) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self.system = ""
        self.seq = -1
        self.snapshot: tuple[int, str] = (-1, "")
        self._snapshot_frame: tuple[int, bytes] | None = None
        self.history: deque[Frame] = deque(maxlen=hub.settings.live_history)
        self.clients: set[Client] = set()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.ready.add_done_callback(mark_retrieved)
        self.refreshes = 0
        """How many times the reader was asked (for tests and figures)."""
        self.admission_seq = -1
        """The newest seq read after which the clients admitted before it must be
        checked again: an event that may change who may follow the tournament, or a
        snapshot read without its events (anything may have changed up to it)."""
        self.rechecks = 0
        """How many checks of the clients' admission were completed (for tests and
        figures)."""
        self._suspects: set[Client] = set()
        """Clients to check again at the next check (`_recheck`)."""
        self._checking: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._idle_since = time.monotonic()
        self._notified: float | None = None
        """When the bus first said this channel moved since the last read began."""
        self._next: asyncio.Task[tuple[Update, float | None]] | None = None
        """The read started during a fan-out (`_read_ahead`)."""
        self._due: list[float] = []
        """When the bus announced what the reads taken since the last pass began found
        (observed once a pass has handed it to every client)."""
        self.task = asyncio.get_running_loop().create_task(self._run())

    def snapshot_frame(self) -> bytes:
        """The snapshot's frame bytes, built once per snapshot (`wire.text_frame`)."""
        seq, text = self.snapshot
        if self._snapshot_frame is None or self._snapshot_frame[0] != seq:
            self._snapshot_frame = (seq, text_frame(text))
        return self._snapshot_frame[1]

    def poke(self, seq: int | None) -> None:
        """Something happened (`seq`), or maybe did (None: resynchronise)."""
        if seq is None or seq > self.seq:
            if seq is not None and self._notified is None:
                self._notified = time.monotonic()
            self._wake.set()

    def join(
        self,
        socket: Socket,
        since: int | None,
        direct: DirectSocket | None = None,
        *,
        compact: bool = False,
        credential: str | None = None,
        admitted_at: int | None = None,
    ) -> Client:
        """A new spectator, resumed from `since` when possible; `direct` is its socket's
        transport when frames built once can be written to it (`wire.direct_socket`);
        `compact`: it asked for the compact delta form (`frames.Frame`). `credential`
        and `admitted_at`: its token's digest (None: no token) and the tournament's seq
        when its access was checked (None: as of the channel's seq); admitted before
        an access change this channel has read, it is checked again at once."""
        settings = self.hub.settings
        client = Client(
            self,
            socket,
            settings.live_queue_size,
            settings.live_heartbeat_seconds,
            direct,
            compact=compact,
            credential=credential,
            admitted_at=admitted_at,
        )
        client.resume(since)
        self.clients.add(client)
        if self.hub.heap is not None:
            self.hub.heap.joined()
        if client.admitted_at < self.admission_seq:
            self._recheck((client,))
        return client

    def leave(self, client: Client) -> None:
        """A spectator went away."""
        if client in self.clients and self.hub.heap is not None:
            self.hub.heap.left()
        self.clients.discard(client)
        if not self.clients:
            self._idle_since = time.monotonic()

    def close_all(self, code: int, reason: str) -> None:
        """Close every spectator's socket with a code and reason."""
        for client in tuple(self.clients):
            client.close(code, reason)

    def _take(self, update: Update, notified: float | None) -> None:
        """Take the reader's new state (`notified`: when the bus first announced what
        the read found). A rebuild (a new snapshot and no frames: the tournament changed
        more than its results) sends every client back to the snapshot; frames are
        handed out by `_fan_out`."""
        if not update.exists:
            raise TournamentGone(self.tournament_id)
        rebuilt = update.snapshot is not None and self.seq >= 0 and update.seq != self.seq
        unseen = update.snapshot is not None and not update.frames and update.seq != self.seq
        self.system = update.system
        if update.snapshot is not None:
            self.snapshot = (update.seq, update.snapshot)
        if unseen or update.narrowed:
            # frames kept from before may show what readers may no longer see, or
            # leave a gap before the new snapshot: resuming clients get the snapshot
            self.history.clear()
        self.history.extend(update.frames)
        self.seq = update.seq
        admission = update.seq if unseen else update.admission_seq
        if admission is not None and admission > self.admission_seq:
            self.admission_seq = admission
            self._recheck(c for c in self.clients if c.admitted_at < admission)
        if notified is not None:
            self._due.append(notified)
        if rebuilt and not update.frames:
            for client in tuple(self.clients):
                client.restart(update.seq)

    def _recheck(self, clients: Iterable[Client]) -> None:
        """Have `clients` checked again (`Hub.recheck`), together with any others
        waiting for a check: one check at a time, the clients who come meanwhile
        checked by the next."""
        if self.hub.recheck is None:
            return
        self._suspects.update(clients)
        if self._suspects and self._checking is None:
            self._checking = asyncio.get_running_loop().create_task(self._check_suspects())

    async def _check_suspects(self) -> None:
        """Check the suspects, one read of the tournament at a time, until none are
        left; close the sockets no longer admitted (their `Refusal`), and those of a
        check that failed on every attempt (`OUTAGE`: they reconnect, and are checked
        as they do)."""
        recheck = self.hub.recheck
        assert recheck is not None
        try:
            while self._suspects:
                target = self.admission_seq
                clients = [c for c in self._suspects if c in self.clients and c.closing is None]
                self._suspects.clear()
                if not clients:
                    continue
                credentials = frozenset(c.credential for c in clients)
                outcome = await self._check(recheck, credentials, target)
                self.rechecks += 1
                if outcome is None:
                    reason = f"live feed unavailable; reconnect with ?since={self.snapshot[0]}"
                    for client in clients:
                        client.close(OUTAGE, reason)
                    continue
                seq, refused = outcome
                for client in clients:
                    refusal = refused.get(client.credential)
                    if refusal is None:
                        client.admitted_at = max(client.admitted_at, seq or 0)
                    else:
                        error = error_message(refusal.status, refusal.detail, refusal.field)
                        client.close(refusal.code, refusal.detail, error)
        finally:
            self._checking = None

    async def _check(
        self, recheck: Recheck, credentials: frozenset[str | None], target: int
    ) -> tuple[int | None, dict[str | None, Refusal]] | None:
        """One check, retried with backoff while it fails or reads the tournament as
        of before `target` (a database copy that lags); None after the last try."""
        delay = 0.25
        for attempt in range(self.hub.attempts):
            try:
                seq, refused = await recheck(self.tournament_id, credentials)
                if seq is None or seq >= target:
                    return seq, refused
                _log.warning("live: %s read at seq %d, before %d", self.tournament_id, seq, target)
            except Exception as exc:  # a database outage, any way it shows
                _log.warning("live: checking the access to %s failed (%s)", self.tournament_id, exc)
            if attempt + 1 < self.hub.attempts:
                await asyncio.sleep(delay)
                delay *= 2
        return None

    def _frames_after(self, offered: int) -> list[Frame] | None:
        """The frames after `offered` up to the channel's seq, or None when the history
        no longer reaches back to it (the client needs the snapshot)."""
        history = self.history
        if not history or history[0].seq > offered + 1:
            return None
        frames: list[Frame] = []
        for frame in reversed(history):
            if frame.seq <= offered:
                break
            frames.append(frame)
        frames.reverse()
        return frames

    async def _fan_out(self) -> None:
        """Hand every client the frames after the newest seq it was offered, in passes,
        yielding to the event loop after every `FANOUT_SLICE_SECONDS` of sends.

        At each yield a read the bus asked for meanwhile starts (`_read_ahead`), and
        one that landed is taken: the rest of the pass hands out the newer frames, and
        one more pass serves the clients reached before. The messages are framed once
        per starting seq and delta form (`_Wire`): in a pass, nearly every client
        starts from the same seq. A pass ends with every client offered at least the
        seq the pass began with: the delays of the notifications read by then are
        observed."""
        clock = time.perf_counter
        while True:
            # taken from the left as the pass goes: a spectator who left meanwhile is
            # freed once passed, not thousands at once when the pass ends
            behind = deque(client for client in self.clients if client.offered < self.seq)
            if not behind and self._next is None:
                break
            due, self._due = self._due, []
            seq = self.seq
            wires: dict[tuple[int, bool], _Wire | None] = {}
            deadline = clock() + FANOUT_SLICE_SECONDS
            position = 0
            key: tuple[int, bool] | None = None  # the last client's, whose wire is `wire`
            wire: _Wire | None = None
            while behind:
                client = behind.popleft()
                position += 1
                offered = client.offered
                if offered < seq:
                    if key is None or key[0] != offered or key[1] != client.compact:
                        key = (offered, client.compact)
                        if key not in wires:
                            frames = self._frames_after(offered)
                            wires[key] = None if frames is None else _Wire(frames, key[1])
                        wire = wires[key]
                    if wire is None:
                        client.restart(seq)
                    else:
                        if wire.frames:
                            client.offer(wire)
                        client.offered = seq  # the frames handed reach seq
                if position % FANOUT_CLOCK_EVERY == 0 and clock() > deadline:
                    await asyncio.sleep(0)
                    self._read_ahead()
                    if self.seq != seq:
                        wires, seq, key = {}, self.seq, None
                    deadline = clock() + FANOUT_SLICE_SECONDS
            self._observe(due)
            if self._next is not None:
                read, self._next = self._next, None
                self._take(*await read)
        self._observe(self._due)
        self._due = []

    def _read_ahead(self) -> None:
        """During a fan-out: take a read that landed; start the next one if the bus
        announced something since the last one began."""
        read = self._next
        if read is not None and read.done():
            self._next = None
            self._take(*read.result())
        if self._next is None and self._wake.is_set():
            self._next = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> tuple[Update, float | None]:
        """One read of the reader, with when the bus first announced what it finds."""
        self._wake.clear()
        notified, self._notified = self._notified, None
        return await self._refresh(), notified

    def _observe(self, due: list[float]) -> None:
        observe = self.hub.observe_lag
        if observe is not None:
            now = time.monotonic()
            for notified in due:
                observe(now - notified)

    async def _refresh(self) -> Update:
        """Ask the reader, retrying with backoff; LiveUnavailable after the last try."""
        delay = 0.25
        for attempt in range(self.hub.attempts):
            try:
                self.refreshes += 1
                return await self.hub.reader.refresh(
                    self.tournament_id, None if self.seq < 0 else self.seq
                )
            except Exception as exc:  # a database outage, any way it shows
                _log.warning("live: reading %s failed (%s)", self.tournament_id, exc)
                if attempt + 1 < self.hub.attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
        raise LiveUnavailable(self.tournament_id)

    async def _run(self) -> None:
        settings = self.hub.settings
        try:
            while True:
                self._take(*await self._read())
                if not self.ready.done():
                    self.ready.set_result(None)
                await self._fan_out()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), settings.live_poll_seconds)
                idle = time.monotonic() - self._idle_since
                if not self.clients and idle > settings.live_linger_seconds:
                    return
        except (LiveUnavailable, TournamentGone) as exc:
            if not self.ready.done():
                self.ready.set_exception(exc)
            if isinstance(exc, LiveUnavailable):
                self.close_all(
                    OUTAGE, f"live feed unavailable; reconnect with ?since={self.snapshot[0]}"
                )
            else:
                self.close_all(GONE, "tournament not found")
        finally:
            for task in (self._next, self._checking):
                if task is not None:
                    task.cancel()
                    task.add_done_callback(mark_retrieved)
            self.hub.drop(self)


class Hub:
    """The process's channels, fed by the bus."""

    def __init__(
        self,
        reader: FeedReader,
        settings: Settings,
        *,
        attempts: int = 5,
        heap: SpectatorHeap | None = None,
        pacer: ConnectionPacer | None = None,
    ) -> None:
        self.observe_lag: Callable[[float], None] | None = None
        """Told each notification-to-fan-out delay (the app's metrics)."""
        self.count_warmup: Callable[[str], None] | None = None
        """Told what asked for each warm-up: `write` (this process's start or pairing)
        or `peer` (another replica's, announced on the bus)."""
        self.reader = reader
        self.settings = settings
        self.attempts = attempts
        self.heap = heap
        """Told of every spectator joining and leaving (`heap.SpectatorHeap`); None in
        tests that leave the collector alone."""
        self.channels: dict[str, Channel] = {}
        self._warming: set[asyncio.Task[None]] = set()
        self._read_at: dict[str, float] = {}
        """When this process last served each tournament's table (`table`)."""
        self.clock: Callable[[], float] = time.monotonic
        """The clock of those reads (a test's own)."""
        self.pacer = pacer or ConnectionPacer(settings.live_admissions_per_turn)
        """The pacer connecting spectators pass again once their access is checked
        (`live.connection_pacing`)."""
        self.recheck: Recheck | None = None
        """Checks the admission of open sockets again after an access change (the
        app's `api.live_access`); None: sockets stay as admitted."""

    def warm(
        self,
        tournament_id: str,
        seq: int,
        schedule: Schedule | None = None,
        *,
        trigger: str = "write",
    ) -> asyncio.Task[None]:
        """Have the reader compute the tournament's table as of `seq` now, in the
        background, so the first `GET /standings` after a start or a pairing is served
        from memory. Those writes change more than results, so the reader's view of
        the tournament is cold afterwards: for a 400-player round-robin, reading its
        79,800 games back took half a second of the first reader's wait (and of every
        other request queued behind it at the reader). A start that paired every round
        hands them over (`schedule`), and the reader builds its view from them instead
        of reading them back. Returns the warm-up, which never fails (a start's answer
        waits for it: `api.publish`)."""
        if self.count_warmup is not None:
            self.count_warmup(trigger)
        task = asyncio.get_running_loop().create_task(self._warm(tournament_id, seq, schedule))
        self._warming.add(task)
        task.add_done_callback(self._warming.discard)
        return task

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
        """The reader's table of the tournament as of `at_least` or later (`GET
        /standings`), the read remembered as interest in the tournament (`follows`)."""
        read_at = self._read_at  # oldest first: a bounded least-recently-read order
        read_at.pop(tournament_id, None)
        read_at[tournament_id] = self.clock()
        if len(read_at) > INTEREST_LIMIT:
            del read_at[next(iter(read_at))]
        return await self.reader.table(tournament_id, at_least)

    def follows(self, tournament_id: str) -> bool:
        """Whether this process has spectators of the tournament, or served its table
        within the last `INTEREST_SECONDS`."""
        if tournament_id in self.channels:
            return True
        read_at = self._read_at.get(tournament_id)
        return read_at is not None and self.clock() - read_at < INTEREST_SECONDS

    def warm_for_peer(self, tournament_id: str, seq: int) -> None:
        """Another replica started or paired `tournament_id` (the bus's table channel):
        if this process follows it, compute the new table here too, so that its next
        reader finds it computed (without the start's rounds, which only the writer
        holds). A tournament nobody reads here costs this process nothing."""
        if self.follows(tournament_id):
            self.warm(tournament_id, seq, trigger="peer")

    async def warmed(self) -> None:
        """Wait for the warm-ups asked so far to end (however they end)."""
        while self._warming:
            await asyncio.gather(*self._warming, return_exceptions=True)

    async def _warm(self, tournament_id: str, seq: int, schedule: Schedule | None) -> None:
        try:
            if schedule is None:
                await self.reader.table(tournament_id, seq)
            else:
                await self.reader.seed(tournament_id, seq, schedule)
        except Exception:  # only a head start is lost: the first read computes it
            _log.debug("warming the table of %s failed", tournament_id, exc_info=True)

    def notify(self, tournament_id: str, seq: int) -> None:
        """The bus says `tournament_id` reached `seq`."""
        channel = self.channels.get(tournament_id)
        if channel is not None:
            channel.poke(seq)

    def resync(self) -> None:
        """Notifications may have been lost: every channel rereads the log."""
        for channel in tuple(self.channels.values()):
            channel.poke(None)

    async def open(self, tournament_id: str) -> Channel:
        """The channel of a tournament, ready (raises TournamentGone, LiveUnavailable)."""
        channel = self.channels.get(tournament_id)
        if channel is None:
            channel = self.channels[tournament_id] = Channel(self, tournament_id)
        await asyncio.shield(channel.ready)
        return channel

    def drop(self, channel: Channel) -> None:
        """Forget a channel that ended."""
        if self.channels.get(channel.tournament_id) is channel:
            del self.channels[channel.tournament_id]
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self.reader.forget(channel.tournament_id))

    async def stop(self) -> None:
        """Close every socket with 1012 (resume with `?since=`) and end the channels.
        Warm-ups still running are not cancelled: a cancelled read in the thread
        reader can leave a database call in flight past the reader's loop; the reader
        finishes them as it stops (or fails them, the process reader)."""
        for channel in tuple(self.channels.values()):
            channel.close_all(
                RESTART, f"server restarting; reconnect with ?since={channel.snapshot[0]}"
            )
        await asyncio.sleep(0)
        if self.heap is not None:
            self.heap.close()
        for channel in tuple(self.channels.values()):
            channel.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await channel.task
