"""The event facts a FIDE rating report needs beyond the pairings (TRF-26 records 022,
032, 102, 112; docs/rules/trf.md#rating-report)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from service.api.schemas.common import ApiModel, Name

__all__ = ["City", "Federation", "Officials"]

City = Annotated[Name, Field(description="Where the event is played (TRF-26 022).")]
Federation = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{3}$",
        description="The FIDE code of the federation the event is rated by (TRF-26 032).",
    ),
]


class Officials(ApiModel):
    """The event's arbiters as the rating report names them."""

    chief_arbiter: Name | None = Field(
        default=None, description="The chief arbiter (TRF-26 102), as FIDE lists them."
    )
    deputy_arbiters: list[Name] = Field(
        default_factory=list,
        max_length=20,
        description="Deputy chief arbiters, one 112 record each.",
    )
