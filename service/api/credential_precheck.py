"""Tokens checked before bodies are read, so a 50 MB body with a bad token is refused
before it is parsed (docs/api.md#limits).

`BodyLimitMiddleware` asks `CredentialPrecheck.refusal` before it reads the body of a
write to a tournament's or bridge event's resources, or to any route that declares the
token check it makes (`api.write_access`: a tournament's own PATCH and DELETE). The
precheck looks the tournament up and checks the bearer token the way the routes do
(`access.identify`: the organizer's, the viewer token, a player's or a table's, not
expired); an unknown or expired token is refused with 401 at once, and the body is
never read.

The precheck only keeps work away from strangers: the route still authorizes every
request in full (a viewer token is 403 there, a player writes only their own games). So
a token that passed is remembered for a minute per tournament (a bounded map, keyed by
the token's hash), and the common case, a scoring app sending result after result,
costs no extra query. While the database is unreachable the precheck answers the
route's 503 itself; anything else it cannot decide (no such tournament) is left to the
route.
"""

from __future__ import annotations

import logging
import time

from starlette.types import Scope

from service.api.access import identify
from service.api.errors import is_outage, outage_problem
from service.api.ids import is_id
from service.api.state import AppState
from service.api.write_access import write_routes
from service.db.tables import TournamentRow
from service.db.tokens import hash_token
from service.errors import Problem, Unauthenticated

__all__ = ["CredentialPrecheck", "bearer_token", "owner_of"]

_log = logging.getLogger(__name__)

_REMEMBER_SECONDS = 60.0
_REMEMBERED = 4096


def owner_of(scope: Scope) -> str | None:
    """The tournament (or bridge event) id a write needs a token of, as the app's route
    table names it (`WriteRoutes.owner`: any path below one, and any route whose write
    dependency declares a token check); None when it names none, or names one no id can
    be (`ids.is_id`: the route answers 422 naming it, and no query ever sees it)."""
    owner = write_routes(scope["app"]).owner(scope)
    return owner if owner is not None and is_id(owner) else None


def bearer_token(authorization: bytes) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, None for another scheme
    or an empty token."""
    scheme, _, token = authorization.decode("latin-1").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


class CredentialPrecheck:
    """Checks a write's bearer token against the tournament's stored hashes."""

    def __init__(self) -> None:
        self._passed: dict[tuple[str, str], float] = {}

    async def refusal(self, state: AppState, tournament_id: str, token: str) -> Problem | None:
        """The problem to answer at once (401; 503 while the database is unreachable), or
        None to go on and read the body."""
        key = (tournament_id, hash_token(token))
        now = time.monotonic()
        until = self._passed.get(key)
        if until is not None and until > now:
            return None
        try:
            async with state.read_session() as session:
                row = await session.get(TournamentRow, tournament_id)
                if row is None:
                    return None  # the route answers 404
                await identify(session, row, token)
        except Unauthenticated as exc:
            return exc
        except Exception as exc:
            if is_outage(exc):
                return outage_problem(exc)  # what the route would answer, without the body
            _log.warning("credential precheck: %r; the route decides", exc)
            return None
        if len(self._passed) >= _REMEMBERED:
            self._passed = {k: v for k, v in self._passed.items() if v > now}
            if len(self._passed) >= _REMEMBERED:
                self._passed.clear()
        self._passed[key] = now + _REMEMBER_SECONDS
        return None
