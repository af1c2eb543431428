"""Errors raised by standings and tie-breaks (EngineError, service/engine/errors.py).

* `TieBreakError` - the base: the input cannot be ranked as asked.
* `UnknownTieBreakError` - a tie-break code (or modifier) that is not recognised.
* `UnsupportedEditionError` - an edition of FIDE C.07 that is not implemented.
"""

from __future__ import annotations

from service.engine.errors import EngineError

__all__ = ["TieBreakError", "UnknownTieBreakError", "UnsupportedEditionError"]


class TieBreakError(EngineError):
    """The tournament or the tie-break list cannot be evaluated."""


class UnknownTieBreakError(TieBreakError):
    """A tie-break code is not known; `code` holds the offending text."""

    def __init__(self, code: str, reason: str = "") -> None:
        self.code = code
        detail = f": {reason}" if reason else ""
        super().__init__(f"unknown tie-break code {code!r}{detail}", field="tiebreaks")


class UnsupportedEditionError(TieBreakError):
    """The requested FIDE C.07 edition is not one of "2024" and "2026"."""

    def __init__(self, edition: str) -> None:
        self.edition = edition
        super().__init__(
            f"unsupported tie-break edition {edition!r}; use '2026' or '2024'", field="edition"
        )
