"""The error document every endpoint may answer with: RFC 9457 problem details."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["FieldProblem", "ProblemDetails"]


class FieldProblem(BaseModel):
    """One invalid value of a request (validation errors list every one)."""

    field: str = Field(description="The offending field, dotted (`points.win`, `games.3.white`).")
    in_: str = Field(alias="in", description="Where the value was: body, query, path or header.")
    message: str = Field(description="What is wrong with it.")

    model_config = ConfigDict(populate_by_name=True)


class ProblemDetails(BaseModel):
    """An error (RFC 9457): a stable `type` per kind of error, and the field at fault."""

    type: str = Field(
        description="A stable URN per kind of error, e.g. `urn:arbiter:problem:invalid-input`."
    )
    title: str = Field(description="A short, human-readable summary of the kind of error.")
    status: int = Field(description="The HTTP status code.")
    detail: str = Field(description="What went wrong in this occurrence.")
    instance: str | None = Field(default=None, description="The path of the request.")
    field: str | None = Field(default=None, description="The offending field, when one is.")
    errors: list[FieldProblem] | None = Field(
        default=None, description="Every invalid value (validation errors only)."
    )

    model_config = ConfigDict(extra="allow")
