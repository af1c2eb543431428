"""Event notification across processes through Redis pub/sub (docs/live.md#the-redis-bus-optional).

Optional (`pip install 'arbiter[redis]'`), chosen with `ARBITER_BUS_URL=redis://...`.
It is for deployments where PostgreSQL's LISTEN does not reach every replica: behind a
transaction-pooling PgBouncer (LISTEN needs a session of its own), on a managed database
that does not offer it, or past one database node, where replicas on several hosts read
copies of the event log.

The payloads are the PostgreSQL bus's (`service.live.bus`): `<tournament id>:<seq>` on
the channel `<namespace>:events`, and `<origin>:<tournament id>:<seq>` on
`<namespace>:tables` (a start or a pairing, `Hub.warm_for_peer`). Redis pub/sub channels
are shared by every database number of a server, so two deployments on one Redis take
two namespaces (`ARBITER_BUS_NAMESPACE`).

Writers announce after their commit (`announces_after_commit`): a process that dies
between the two loses the announcement, and the other replicas find the event at their
next periodic read of the log (`live_poll_seconds`). Redis delivers at most once and keeps
nothing for a subscriber that is away, so the subscriber, on any error of its
connection, drops it, subscribes again with exponential backoff, and then has the hub
reread every followed tournament's log, as the PostgreSQL listener does. The subscribed
client is made with no retries, so that redis-py never reconnects it by itself: a gap it
papered over would never be resynchronised.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from service.live.listener import LISTENER_NAME, Watcher, parse_payload

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = ["RedisBus"]

_log = logging.getLogger("arbiter.live")

PUBLISH_WAIT = 0.5
"""Seconds a writer's announcement may take: past them (a Redis that does not answer),
the write's own process is told directly and the others catch up by their periodic read,
so an unwell Redis never holds a write's response back for longer."""
SUBSCRIBE_WAIT = 5.0
"""Seconds one attempt to subscribe may take (connecting and the subscription's answer)."""


async def _close_quietly(resource: Any) -> None:
    """Close a subscription or a client, whatever state its connection is in (2 s at most)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(resource.aclose(), 2)


class RedisBus(Watcher):
    """Pub/sub across replicas on one Redis server, the subscription kept forever."""

    announces_after_commit = True

    def __init__(
        self,
        url: str,
        *,
        namespace: str = "arbiter",
        first_delay: float = 0.1,
        max_delay: float = 5.0,
        watch: float = 2.0,
    ) -> None:
        super().__init__(first_delay=first_delay, max_delay=max_delay, watch=watch)
        self._url = url
        self.events_channel = f"{namespace}:events"
        self.tables_channel = f"{namespace}:tables"
        self._publisher: Redis | None = None
        self._subscriber: Redis | None = None
        self._pubsub: PubSub | None = None
        self.client_name = f"{LISTENER_NAME}-{self.origin}"
        """The subscribed connection's name (`CLIENT LIST`)."""

    @property
    def listening(self) -> bool:
        """Whether the subscription is up."""
        return self._pubsub is not None

    async def start(self) -> None:
        """Subscribe (retrying in the background if Redis is not reachable yet: the app
        still starts, and resynchronises once it is)."""
        try:
            from redis.asyncio import Redis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff
        except ImportError as exc:  # pragma: no cover - the extra is part of dev installs
            raise RuntimeError(
                "ARBITER_BUS_URL names Redis, but the redis package is missing: "
                "pip install 'arbiter[redis]'"
            ) from exc
        common: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": SUBSCRIBE_WAIT,
            "socket_keepalive": True,
        }
        self._publisher = Redis.from_url(  # one retry: a pooled connection Redis dropped
            self._url, retry=Retry(NoBackoff(), 1), socket_timeout=PUBLISH_WAIT, **common
        )
        self._subscriber = Redis.from_url(
            self._url,
            retry=Retry(NoBackoff(), 0),
            health_check_interval=self._watch,
            client_name=self.client_name,
            **common,
        )
        try:
            await self._subscribe()
        except Exception as exc:  # any failure is retried with backoff
            _log.warning("live bus: cannot subscribe to Redis yet (%s); retrying", exc)
        self._task = asyncio.get_running_loop().create_task(self._keep_listening())

    async def _subscribe(self) -> None:
        assert self._subscriber is not None
        pubsub = self._subscriber.pubsub(ignore_subscribe_messages=True)
        try:
            await asyncio.wait_for(
                pubsub.subscribe(self.events_channel, self.tables_channel), SUBSCRIBE_WAIT
            )
        except BaseException:
            await _close_quietly(pubsub)
            raise
        self._pubsub = pubsub

    async def _keep_listening(self) -> None:
        """Hand every message to the hub; on an error, subscribe again and resync. An
        idle subscription is checked every `watch` seconds (redis-py's health check: a
        PING on the subscribed connection)."""
        while True:
            pubsub = self._pubsub
            if pubsub is None:
                await self._connect_again(self._subscribe, "subscribing")  # refused, ...
                continue
            try:
                message = await pubsub.get_message(timeout=self._watch)
            except Exception as exc:  # a lost connection, any way it shows
                _log.warning("live bus: Redis subscription lost (%s)", exc)
                self._pubsub = None
                await _close_quietly(pubsub)
                continue
            if message is not None and message.get("type") == "message":
                self._dispatch(str(message["channel"]), str(message["data"]))

    def _dispatch(self, channel: str, payload: str) -> None:
        if channel == self.events_channel:
            parsed = parse_payload(payload)
            if parsed is not None:
                self._on_event(*parsed)
            return
        origin, _, rest = payload.partition(":")
        parsed = parse_payload(rest)
        if parsed is not None and origin != self.origin:  # this process has its own
            self._on_new_table(*parsed)

    async def stop(self) -> None:
        """Unsubscribe and close both connections."""
        await self._stop_watching()
        pubsub, self._pubsub = self._pubsub, None
        for resource in (pubsub, self._subscriber, self._publisher):
            if resource is not None:
                await _close_quietly(resource)

    async def publish(self, tournament_id: str, seq: int) -> None:
        """PUBLISH to every replica, this one included (through its own subscription);
        if Redis cannot be told, the local hub is told directly and the others catch up
        by their periodic read."""
        sent = await self._send(self.events_channel, f"{tournament_id}:{seq}")
        if not sent or not self.listening:
            self._on_event(tournament_id, seq)

    async def publish_table(self, tournament_id: str, seq: int) -> None:
        """Tell the other replicas that a start or a pairing made a new table."""
        await self._send(self.tables_channel, f"{self.origin}:{tournament_id}:{seq}")

    async def _send(self, channel: str, payload: str) -> bool:
        if self._publisher is None:
            return False
        try:
            await asyncio.wait_for(self._publisher.publish(channel, payload), PUBLISH_WAIT)
        except Exception as exc:  # the write is committed: never fail it (nor hold it)
            _log.warning("live bus: Redis publish failed (%s)", exc)
            return False
        return True
