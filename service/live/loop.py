"""The event loop `arbiter serve` runs: spectators' sockets wait their turn behind the
rest, so that no number of subscribers makes a result PUT wait
(docs/decisions/event-loop.md).

asyncio's loop asks its selector which sockets are ready, queues a callback for each,
and runs everything queued as one turn, first come first served. When every spectator
of a venue leaves at once, the selector reports all of their sockets in one turn, and
each departure then takes about ten more callbacks over the next turns (the end of the
stream, the lost connection, the live route's task unwinding through the middleware),
some 0.2 ms of the loop's time per spectator: a crowd of thousands makes turns of
hundreds of milliseconds, and every step of a result report queues behind each of them.

`SpectatorSelector` keeps the sockets of spectators that have joined a channel (`demote`)
in an epoll set of their own, nested in the main one, and takes at most `per_turn` of
their events per turn; every other socket (HTTP requests, the database, the loop's own
wake-up pipe) is reported in full at every turn as before. A departing crowd then starts
leaving a few spectators per turn, a turn carries the work of a few departures, and a
result report's steps wait for no more than that. The spectators' own frames do not go
through the selector: the fan-out writes them to
each transport directly.

The selector is the one public hook asyncio has for this (`SelectorEventLoop(selector)`);
uvicorn takes the loop from `spectator_loop` (its `loop` setting names a factory). Under
any other loop `demote` does nothing.

The same loop ends a reference cycle that every closed connection used to leave behind:
asyncio's socket transport keeps its read callback, a bound method of itself, after the
connection is lost, so the transport, its socket and its extra information were freed
only by a full pass of the collector. `SpectatorLoop`'s transports drop that callback
once the connection is lost, and are freed at once by reference counting
(`service.heap` counts on it: departures then leave nothing for a full pass to free).

Both build on asyncio's internals, and this module is the one place that does: the
epoll object `selectors.EpollSelector` keeps as `_selector`, the loop's
`_make_socket_transport`, and the socket transport class
(`selector_events._SelectorSocketTransport`, its `_call_connection_lost` and
`_read_ready_cb`). `missing_internals` (run by tests/live/test_loop.py) names any that a
Python upgrade took away; ARBITER_SPECTATOR_LOOP=false makes `arbiter serve` run
asyncio's own loop instead (`demote` then does nothing).
"""

from __future__ import annotations

import asyncio
import inspect
import select
import selectors
from asyncio import selector_events
from typing import Any

from service.config import SPECTATOR_EVENTS_PER_TURN, get_settings

__all__ = [
    "SPECTATOR_EVENTS_PER_TURN",
    "SpectatorLoop",
    "SpectatorSelector",
    "demote",
    "missing_internals",
    "spectator_loop",
    "spectator_selector",
]


class _NestedEpoll:
    """Two epoll sets behind the interface `selectors.EpollSelector` drives: the main one,
    polled in full, and the spectators', nested in it (its own descriptor is registered
    for reading in the main set) and polled for at most `per_turn` events."""

    def __init__(self, per_turn: int) -> None:
        self.per_turn = per_turn
        self.main = select.epoll()
        self.spectators = select.epoll()
        self.main.register(self.spectators.fileno(), select.EPOLLIN)
        self.masks: dict[int, int] = {}
        """The event mask of every registered descriptor."""
        self.demoted: set[int] = set()
        """Descriptors in the spectators' set."""

    def fileno(self) -> int:
        return self.main.fileno()

    def _set(self, fd: int) -> Any:
        return self.spectators if fd in self.demoted else self.main

    def register(self, fd: int, mask: int) -> None:
        """A new descriptor: in the main set, whatever one of its number was before."""
        self.main.register(fd, mask)
        self.masks[fd] = mask
        self.demoted.discard(fd)

    def modify(self, fd: int, mask: int) -> None:
        self._set(fd).modify(fd, mask)
        self.masks[fd] = mask

    def unregister(self, fd: int) -> None:
        epoll = self._set(fd)
        self.demoted.discard(fd)
        self.masks.pop(fd, None)
        epoll.unregister(fd)

    def demote(self, fd: int) -> bool:
        """Move a registered descriptor to the spectators' set (False if it is not
        registered, or is there already)."""
        mask = self.masks.get(fd)
        if mask is None or fd in self.demoted:
            return False
        self.main.unregister(fd)
        self.spectators.register(fd, mask)
        self.demoted.add(fd)
        return True

    def poll(self, timeout: float = -1, maxevents: int = -1) -> list[tuple[int, int]]:
        """Every ready event of the main set (waiting up to `timeout`, as epoll does),
        then at most `per_turn` of the spectators' (without waiting)."""
        nested = self.spectators.fileno()
        events = [event for event in self.main.poll(timeout, maxevents) if event[0] != nested]
        if self.demoted:
            events.extend(self.spectators.poll(0, self.per_turn))
        return events

    def close(self) -> None:
        self.spectators.close()
        self.main.close()


class SpectatorSelector(selectors.EpollSelector):
    """`selectors.EpollSelector` whose demoted descriptors (`demote`) are reported at
    most `per_turn` at a time (see the module's docstring)."""

    _selector: Any

    def __init__(self, per_turn: int = SPECTATOR_EVENTS_PER_TURN) -> None:
        if per_turn < 1:
            raise ValueError("per_turn must be at least 1")
        super().__init__()
        # `EpollSelector` drives its epoll object as `_selector`: the nested pair instead
        self._selector.close()
        self._epolls = _NestedEpoll(per_turn)
        self._selector = self._epolls

    @property
    def demoted(self) -> int:
        """Descriptors reported at most `per_turn` at a time now."""
        return len(self._epolls.demoted)

    def demote(self, fd: int) -> bool:
        """Report `fd`'s events among the spectators' from now on (until it is
        unregistered); False if it is not registered here."""
        return self._epolls.demote(fd)


def _acyclic_transport() -> Any:
    """asyncio's transport for stream sockets, minus the cycle it keeps once closed (None
    where asyncio has no such private class)."""
    base: Any = getattr(selector_events, "_SelectorSocketTransport", None)
    if base is None or not hasattr(base, "_call_connection_lost"):
        return None

    class AcyclicTransport(base):  # type: ignore[misc]
        def _call_connection_lost(self, exc: BaseException | None) -> None:
            try:
                super()._call_connection_lost(exc)
            finally:
                # the bound method `_read_ready__data_received` (or `__get_buffer`) the
                # transport holds of itself; nothing reads a lost connection
                self._read_ready_cb = None

    return AcyclicTransport


_ACYCLIC_TRANSPORT = _acyclic_transport()


class SpectatorLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop on a `SpectatorSelector`, whose socket transports leave no
    reference cycle behind (see the module's docstring)."""

    def __init__(self, per_turn: int = SPECTATOR_EVENTS_PER_TURN) -> None:
        self.spectator_selector = SpectatorSelector(per_turn)
        super().__init__(self.spectator_selector)

    def _make_socket_transport(
        self, sock: Any, protocol: Any, waiter: Any = None, *, extra: Any = None, server: Any = None
    ) -> Any:
        if _ACYCLIC_TRANSPORT is None:
            inherited = super()._make_socket_transport  # type: ignore[misc]
            return inherited(sock, protocol, waiter, extra=extra, server=server)
        return _ACYCLIC_TRANSPORT(self, sock, protocol, waiter, extra, server)


def spectator_loop(per_turn: int | None = None) -> SpectatorLoop:
    """A new `SpectatorLoop` (uvicorn's `loop` factory; `per_turn` defaults to the
    `live_spectator_events_per_turn` setting)."""
    if per_turn is None:
        per_turn = get_settings().live_spectator_events_per_turn
    return SpectatorLoop(per_turn)


def spectator_selector(loop: asyncio.AbstractEventLoop) -> SpectatorSelector | None:
    """The selector of a `SpectatorLoop` (None for any other loop)."""
    return loop.spectator_selector if isinstance(loop, SpectatorLoop) else None


def demote(transport: asyncio.BaseTransport) -> bool:
    """Let the loop report `transport`'s socket events at most a few per turn (a
    spectator's); False under any loop but a `SpectatorLoop`, or when the transport has
    no socket registered."""
    selector = spectator_selector(asyncio.get_running_loop())
    sock = transport.get_extra_info("socket")
    if selector is None or sock is None:
        return False
    return selector.demote(sock.fileno())


_TRANSPORT_ARGUMENTS = ["self", "loop", "sock", "protocol", "waiter", "extra", "server"]
"""How `SpectatorLoop` calls asyncio's socket transport."""


def missing_internals() -> list[str]:
    """The asyncio internals `SpectatorLoop` builds on that this Python lacks (empty:
    all are there). A non-empty list means an upgrade changed them: set
    ARBITER_SPECTATOR_LOOP=false until this module follows."""
    missing = []
    probe = selectors.EpollSelector()
    try:
        if not hasattr(probe, "_selector") or not hasattr(probe._selector, "poll"):
            missing.append("selectors.EpollSelector._selector (an epoll object)")
    finally:
        probe.close()
    if not hasattr(asyncio.SelectorEventLoop, "_make_socket_transport"):
        missing.append("asyncio.SelectorEventLoop._make_socket_transport")
    base: Any = getattr(selector_events, "_SelectorSocketTransport", None)
    if base is None:
        missing.append("asyncio.selector_events._SelectorSocketTransport")
        return missing
    if list(inspect.signature(base.__init__).parameters) != _TRANSPORT_ARGUMENTS:
        missing.append("_SelectorSocketTransport(" + ", ".join(_TRANSPORT_ARGUMENTS[1:]) + ")")
    if not callable(getattr(base, "_call_connection_lost", None)):
        missing.append("_SelectorSocketTransport._call_connection_lost")
    if "_read_ready_cb" not in base.__init__.__code__.co_names:
        missing.append("_SelectorSocketTransport._read_ready_cb (set as it is made)")
    return missing
