"""The norm settings of an event (FIDE B.01 1.4.1b, 1.4.3a-d;
docs/rules/ratings.md#the-events-kind): its kind, format and host federation, as a
compute body, a query or a stored tournament's `norms` setting gives them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from service.api.schemas.common import ApiModel

__all__ = [
    "EVENT_FORMAT_FIELD",
    "EVENT_KIND_FIELD",
    "HOST_FEDERATION_FIELD",
    "EventFormat",
    "EventKind",
    "NormSettingsIn",
]

EventKind = Literal[
    "ordinary",
    "national-championship",
    "national-team-championship",
    "zonal",
    "team-championship",
    "world-cup",
]
EventFormat = Literal["swiss", "round-robin", "double-round-robin"]
EVENT_KIND_FIELD = (
    "What FIDE B.01 distinguishes for norms: ordinary (default), national-championship "
    "(final stage, 1.4.3a), national-team-championship (1.4.3b), zonal (zonal or sub-zonal, "
    "1.4.3c), team-championship (World/Continental Team or Club Championship, 1.4.1b), "
    "world-cup (1.4.1b)."
)
EVENT_FORMAT_FIELD = (
    "swiss, round-robin or double-round-robin, for the norm rules (1.4.1e, 1.4.2b, 1.4.3d, "
    "1.4.5); default: the tournament's system when it names one."
)
HOST_FEDERATION_FIELD = (
    "The federation that registered the event (1.4.3a-b: its players are exempt from the "
    "federation rules; 1.4.3d counts the others); a TRF file's 032 otherwise."
)


class NormSettingsIn(ApiModel):
    """A stored tournament's norm settings (`PATCH /v1/tournaments/{id}` `norms`)."""

    event_kind: EventKind = Field(default="ordinary", description=EVENT_KIND_FIELD)
    event_format: EventFormat | None = Field(default=None, description=EVENT_FORMAT_FIELD)
    host_federation: str | None = Field(
        default=None, pattern=r"^[A-Za-z]{3}$", description=HOST_FEDERATION_FIELD
    )
