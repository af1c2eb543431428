"""Small helpers for asyncio futures the service starts and may stop awaiting."""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["mark_retrieved"]


def mark_retrieved(future: asyncio.Future[Any]) -> None:
    """A done-callback: mark the outcome of a future nobody may await any more as seen,
    so an exception in it is not logged as never retrieved when it is collected."""
    if not future.cancelled():
        future.exception()
