"""The service's error hierarchy (rendered as RFC 9457 problem details by the API).

Hierarchy, one stable `type` per kind:

- `Problem` (base; status 400)
  - `InvalidInput` 422 `invalid-input`: a body or query value breaks a rule; `field` names it
  - `Unauthenticated` 401 `unauthenticated`: no or unknown bearer token
  - `Forbidden` 403 `forbidden`: the token may not do this (e.g. someone else's game)
  - `NotFound` 404 `not-found`: unknown tournament, player, round, table
  - `Conflict` 409 `conflict`: the state forbids it (start list closed, result confirmed
    differently, round not finished, idempotent request in flight)
  - `Gone` 410 `gone`: the organizer archived the tournament (its data is kept)
  - `RateLimited` 429 `rate-limited`: too many creations, writes or failed
    authentications; `Retry-After` says when to try again
  - `TooLarge` 413 `too-large`: the request body exceeds the configured limit
  - `ComputeTooLarge` 422 `compute-too-large`: a stateless computation's field is
    larger than the service computes for anonymous callers
  - `ComputeTimeout` 422 `compute-timeout`: a stateless computation ran past its time
    bound and was stopped
  - `ComputeBusy` 503 `compute-busy`: every compute worker is busy and the queue is
    full; sent with `Retry-After`
  - `Unavailable` 503 `unavailable`: the database cannot be reached; sent with
    `Retry-After`, the request changed nothing

Engine errors (the `EngineError` tree of service/engine/errors.py) map to 422 problems
with their own types (`invalid-trf`, `pairing-impossible`, `unknown-tiebreak`, ...: the
table `ENGINE_PROBLEMS` in service/api/errors.py); request validation errors to
`invalid-input` with every field listed. Nothing a client sends may produce a 500; any
other exception is a bug and is a 500 `internal` with its traceback logged.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ComputeBusy",
    "ComputeTimeout",
    "ComputeTooLarge",
    "Conflict",
    "Forbidden",
    "Gone",
    "InvalidInput",
    "NotFound",
    "Problem",
    "RateLimited",
    "TooLarge",
    "Unauthenticated",
    "Unavailable",
]

_TYPE_PREFIX = "urn:arbiter:problem:"


class Problem(Exception):
    """An error with an HTTP status and a stable problem type."""

    status = 400
    slug = "bad-request"
    title = "Bad request"

    def __init__(self, detail: str, *, field: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.extra = extra

    def body(self, instance: str | None = None) -> dict[str, Any]:
        """The problem+json document."""
        document: dict[str, Any] = {
            "type": _TYPE_PREFIX + self.slug,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if instance:
            document["instance"] = instance
        if self.field:
            document["field"] = self.field
        document.update(self.extra)
        return document


class InvalidInput(Problem):
    """A value breaks a rule of the domain; `field` names it."""

    status = 422
    slug = "invalid-input"
    title = "Invalid input"


class Unauthenticated(Problem):
    """No bearer token, or one this tournament does not know."""

    status = 401
    slug = "unauthenticated"
    title = "Authentication required"


class Forbidden(Problem):
    """The token is valid but may not do this."""

    status = 403
    slug = "forbidden"
    title = "Forbidden"


class NotFound(Problem):
    """The resource does not exist."""

    status = 404
    slug = "not-found"
    title = "Not found"


class Conflict(Problem):
    """The current state does not allow the request."""

    status = 409
    slug = "conflict"
    title = "Conflict"


class Gone(Problem):
    """The tournament was archived by its organizer: no longer listed or served."""

    status = 410
    slug = "gone"
    title = "Gone"


class RateLimited(Problem):
    """Too many requests of one kind from one client address or token; `Retry-After`
    says when to try again."""

    status = 429
    slug = "rate-limited"
    title = "Too many requests"


class TooLarge(Problem):
    """The request body is larger than the service reads."""

    status = 413
    slug = "too-large"
    title = "Request body too large"


class ComputeTooLarge(Problem):
    """A stateless computation's input is larger than anonymous compute takes; `field`
    names what is counted, the detail the setting that bounds it."""

    status = 422
    slug = "compute-too-large"
    title = "Too large to compute here"


class ComputeTimeout(Problem):
    """A stateless computation ran past the time bound and was stopped; the detail
    names the setting."""

    status = 422
    slug = "compute-timeout"
    title = "Computation stopped at its time bound"


class ComputeBusy(Problem):
    """Every compute worker is busy and as many computations as the service queues are
    waiting; retry after `Retry-After` seconds."""

    status = 503
    slug = "compute-busy"
    title = "Compute workers busy"


class Unavailable(Problem):
    """The database cannot be reached right now; retry after `Retry-After` seconds."""

    status = 503
    slug = "unavailable"
    title = "Service unavailable"
