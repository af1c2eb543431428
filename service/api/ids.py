"""What an id in a path (or in a list cursor) may look like.

The service issues 32 hex digits (`uuid4().hex`); it accepts 1 to 64 ASCII letters,
digits, `-` and `_`, the unreserved characters of RFC 3986 less `.` and `~`. Anything
else (NUL, controls, spaces, non-ASCII, bidi overrides) cannot name a tournament or a
bridge event: it is a 422 naming the parameter before any query runs (PostgreSQL
refuses to compare text holding NUL), while a well-formed id nobody issued is a 404.
One rule for every route: the path parameters below carry it.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Path

__all__ = ["ID_PATTERN", "EventId", "TournamentId", "is_id"]

ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
_ID = re.compile(ID_PATTERN)

TournamentId = Annotated[
    str, Path(min_length=1, max_length=64, pattern=ID_PATTERN, description="Tournament id")
]
EventId = Annotated[
    str, Path(min_length=1, max_length=64, pattern=ID_PATTERN, description="Bridge event id")
]


def is_id(text: str) -> bool:
    """True when `text` could be an id this service issued (`ID_PATTERN`)."""
    return _ID.fullmatch(text) is not None
