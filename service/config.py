"""Settings from the environment (prefix ARBITER_), via pydantic-settings."""

from __future__ import annotations

from functools import lru_cache

from limits import parse
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "ADMISSIONS_PER_TURN",
    "REDIS_SCHEMES",
    "SPECTATOR_EVENTS_PER_TURN",
    "Settings",
    "get_settings",
]

ADMISSIONS_PER_TURN = 8
"""WebSocket connections let into the application per turn of the event loop
(`service.live.connection_pacing`). Each costs a few hundred microseconds of the loop's time
over its next few turns (middleware, route, accept, join, snapshot), so eight keep a
turn's share of a connecting crowd to a few milliseconds."""

SPECTATOR_EVENTS_PER_TURN = 16
"""Spectators' socket events taken per turn of the loop (`service.live.loop`). A
departure costs about 0.2 ms of the loop's time over its next turns, so sixteen keep a
turn's share of a leaving crowd to a few milliseconds, and 10,000 spectators still
leave in about 600 turns."""

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
"""The URLs redis-py opens (`service.live.redis_bus`): TCP, TLS, a local socket."""


class Settings(BaseSettings):
    """Service configuration; every field can be set as ARBITER_<NAME>."""

    model_config = SettingsConfigDict(env_prefix="ARBITER_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./arbiter.db"
    """SQLAlchemy async URL: SQLite (embedded default) or postgresql+asyncpg://..."""
    bus_url: str | None = None
    """Where live events cross processes: unset, LISTEN/NOTIFY on PostgreSQL (in-process
    on SQLite); `redis://host:6379/0` (or `rediss://`, `unix://`), Redis pub/sub, for
    replicas LISTEN does not reach (`pip install 'arbiter[redis]'`;
    `service.live.redis_bus`)."""
    bus_namespace: str = Field(default="arbiter", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    """Prefix of the Redis channels (`<namespace>:events`, `<namespace>:tables`): Redis
    pub/sub is shared by every database number of a server, so two deployments on one
    Redis take two namespaces."""
    live_queue_size: int = 256
    """Frames buffered per WebSocket client before it is resynchronised by snapshot."""
    live_history: int = 1024
    """Frames each process keeps per tournament for clients resuming with `?since=`."""
    live_heartbeat_seconds: float = 15.0
    """A `ping` message after this long without traffic on a live socket."""
    live_poll_seconds: float = 5.0
    """Each followed tournament's log is reread this often in case a notification was lost."""
    live_linger_seconds: float = 120.0
    """How long a process keeps following a tournament after its last spectator left."""
    live_admissions_per_turn: int = Field(default=ADMISSIONS_PER_TURN, ge=1)
    """Live connections let into the application per turn of the event loop; the rest
    wait for the next turns, so a crowd connecting at once does not hold up the writers
    (`service.live.connection_pacing`)."""
    live_spectator_events_per_turn: int = Field(default=SPECTATOR_EVENTS_PER_TURN, ge=1)
    """Socket events of connected spectators the event loop of `arbiter serve` takes per
    turn; the rest wait for the next turns, so a crowd leaving at once does not hold up
    the writers (`service.live.loop`)."""
    live_reader: str = "process"
    """Where the live reader runs: "process" (its own process: standings computations
    never take the API's GIL) or "thread" (lighter; shares the GIL)."""
    reader_pool_size: int = 2
    """Connections of the live reader's own pool (spectators never use the writers' pool)."""
    write_pool_size: int | None = None
    """Connections of the writers' pool, with no overflow; unset or 0, SQLAlchemy's default
    (5, and up to 10 more under load). A small pool makes writers queue in the app, first
    come first served, rather than at a tournament's row lock in the database: the same
    throughput with a shorter tail (docs/decisions/connection-pools.md). Each slow write
    (pairing a large round) holds one connection while it runs."""
    read_pool_size: int = 5
    """Connections of the pool that serves reads (GET and HEAD requests, the token check
    before a write's body, `/healthz`), beside the writers' pool: writers queued on a
    tournament's lock hold the writers' connections, and a read never waits behind them."""
    idempotency_ttl_hours: int = 24
    """How long a stored Idempotency-Key response is replayed, on every route alike; it
    is replayed only to a caller the route still admits (a token rotated, revoked or
    expired since, a withdrawn player or an archived tournament get the route's 401,
    403 or 410 instead)."""
    idempotency_purge_minutes: float = 10.0
    """How often expired Idempotency-Key records are deleted in the background."""
    idempotency_min_key_length: int = 32
    """Shortest Idempotency-Key accepted on a route that needs no token (creating a
    tournament or a bridge event, `/v1/compute`), whatever `Authorization` header comes
    with it: an unguessable key is there the only thing that entitles a caller to the
    stored response."""
    max_body_bytes: int = 1_000_000
    """Largest request body read (413 above); uploads (TRF and PBN files, whole tournaments
    for `/v1/compute/standings` and `/pairings`) get `max_upload_bytes`."""
    max_upload_bytes: int = 5_000_000
    """Largest upload: a TRF or PBN file, a whole tournament for a compute endpoint."""
    lock_wait_seconds: float = 10.0
    """Longest a write waits for its tournament: in this process's write queue (`app.write_queue`)
    and, on PostgreSQL, for a lock (`lock_timeout`). A retry waiting in the database for
    the first request with its Idempotency-Key answers 409 after it, any other write 503
    with `Retry-After` (it changed nothing)."""
    retry_after_seconds: int = 5
    """`Retry-After` sent with 503 while the database is unreachable."""
    warm_wait_seconds: float = 3.0
    """Longest a start or a pairing holds its answer, once committed, for the live
    reader's first table of the tournament (`Hub.warm`): the first `GET /standings`
    after it, and every scoreboard that opens then, is served from memory. Past it
    the answer goes out and the table is ready a little later; 0 never waits."""
    sql_echo: bool = False
    """Log SQL statements (debugging)."""
    spectator_loop: bool = True
    """`arbiter serve` runs the event loop of `service.live.loop` (connected spectators'
    socket events a few per turn; closed connections freed without the collector),
    built on asyncio's internals. False: asyncio's own loop, as asyncio ships it."""
    sqlite_one_trip_driver: bool = True
    """SQLite statements reach the driver's thread in one trip each
    (`service.db.sqlite_driver`), built on aiosqlite's internals. False: aiosqlite's own
    connection, as SQLAlchemy opens it (up to four trips a statement)."""
    driver_statements: bool = True
    """A tournament's bulk reads and a reported result's statements run on the database
    driver itself, around SQLAlchemy's execution (`service.db.columns`). False: through
    SQLAlchemy, as every other statement."""
    rate_limits_enabled: bool = True
    """Refuse (429) clients that exceed the limits below."""
    rate_limit_creations: str = "60/hour"
    """Tournaments, bridge events and TRF imports created per client address."""
    rate_limit_writes: str = "100/second"
    """Writes per bearer token."""
    rate_limit_failed_authentications: str = "60/minute"
    """Failed authentications (401/403) per client address before requests bearing a
    token from it are refused; players behind one venue router share an address."""
    compute_workers: int = Field(default=1, ge=1)
    """Processes that run the stateless computations of `/v1/compute/...` (pairings,
    standings, FLAMPARK what-ifs, bridge board scoring), apart from the API process:
    an anonymous computation never takes a thread or the GIL a stored tournament's
    work needs, and each worker uses up to one core (`app.compute_pool`)."""
    compute_per_client: int = Field(default=1, ge=1)
    """Computations one client address may have waiting or running at once; one more
    is 429 `rate-limited` (`Retry-After: 1`). Counted until the worker is free, so a
    caller that hangs up and sends again gains nothing."""
    compute_queue: int = Field(default=8, ge=0)
    """Computations that may wait for a free compute worker, every client together;
    one more is 503 `compute-busy` with `Retry-After` (`retry_after_seconds`)."""
    compute_seconds: float = Field(default=15.0, gt=0)
    """Longest one stateless computation runs: past it, its worker process is killed
    (the computation really stops) and replaced, and the request is 422
    `compute-timeout`."""
    compute_max_players: int = Field(default=1000, ge=2)
    """Largest field `POST /v1/compute/pairings` pairs (422 `compute-too-large` naming
    `players`): a pairing's work grows faster than its field (a 1,000-player first
    round is one bracket of 1,000); a larger field is paired as a stored tournament or
    offline with `arbiter pair`."""
    compute_worker_tasks: int = Field(default=1000, ge=1)
    """Computations a compute worker runs before it is replaced by a fresh one (what a
    large computation left in its heap goes back to the system)."""
    cors_origins: list[str] = []
    """Browser origins allowed to call the API (CORS), e.g. `["https://club.example"]`;
    `["*"]` allows any origin. Empty (the default): no cross-origin access."""

    @field_validator("bus_url")
    @classmethod
    def _is_a_bus(cls, value: str | None) -> str | None:
        """Unset, empty (the database's own bus) or a Redis URL."""
        if not value:
            return None
        if not value.startswith(REDIS_SCHEMES):
            raise ValueError("a Redis URL (redis://, rediss:// or unix://), or unset")
        return value

    @field_validator(
        "rate_limit_creations", "rate_limit_writes", "rate_limit_failed_authentications"
    )
    @classmethod
    def _is_a_limit(cls, value: str) -> str:
        """A limit `limits` can read: "60/hour", "100/second", "5 per minute"."""
        parse(value)
        return value


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests build their own `Settings` instead."""
    return Settings()
