"""What the live feed's frames show of an event, and which events change who may read
a tournament or what readers see (docs/api.md#access-and-privacy).

The feed encodes each frame once for all its readers, so a frame shows an event as a
reader without a token sees it; `api.access` applies the same rule to a given reader.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "PERSONAL_FIELDS",
    "changes_admission",
    "narrows_view",
    "shown_payload",
]

PERSONAL_FIELDS = ("fide_id", "federation", "sex", "birth_year", "identity")
"""A player's fields shown only to the organizer unless published (docs/security.md#privacy)."""

_PLAYER_EVENTS = frozenset({"player_added", "player_updated"})

_ADMISSION_EVENTS = frozenset({"token_rotated", "token_revoked", "tournament_archived"})


def shown_payload(event_type: str, payload: dict[str, Any], *, personal: bool) -> dict[str, Any]:
    """An event's payload as a reader sees it: player registrations and changes lose
    their personal fields unless the reader may see them (`personal`)."""
    if personal or event_type not in _PLAYER_EVENTS:
        return payload
    return {key: value for key, value in payload.items() if key not in PERSONAL_FIELDS}


def changes_admission(event_type: str, payload: dict[str, Any]) -> bool:
    """Whether an event may change who may read the tournament: a token rotated or
    revoked, the visibility changed, the tournament archived. The live feed checks its
    open sockets again after one (`api.live_access`)."""
    if event_type == "settings_changed":
        return "visibility" in payload.get("after", {})
    return event_type in _ADMISSION_EVENTS


def narrows_view(event_type: str, payload: dict[str, Any]) -> bool:
    """Whether an event may hide from readers what they saw before it: personal data
    no longer published. Frames encoded before it are not replayed after it."""
    after = payload.get("after", {}) if event_type == "settings_changed" else {}
    return after.get("publish_personal_data", True) is False
