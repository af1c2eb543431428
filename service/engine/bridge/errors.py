"""The bridge engine's one exception type.

Every invalid input to the bridge modules (an eight-level contract, 14 tricks, a
negative board number, an unknown strain or scale, weights that do not add up to
one) raises `BridgeInputError`, an `EngineError` (service/engine/errors.py) whose
message starts with the name of the offending field, so an API layer can report it as
a 422 with the field named.
"""

from __future__ import annotations

from service.engine.errors import EngineError

__all__ = ["BridgeInputError"]


class BridgeInputError(EngineError):
    """Invalid input to a bridge scoring function; `field` names the culprit."""

    field: str
    """The name of the argument or field that was rejected (e.g. "tricks")."""
    reason: str
    """What is wrong with it, without the field's name."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}", field=field)
        self.reason = message
