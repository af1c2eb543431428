"""Standings."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.api.schemas.teams import BoardPrizes, TeamStandingRow

__all__ = [
    "FlamparkColumns",
    "RatingChangeOut",
    "StandingRowPublic",
    "StandingsPublic",
    "TeamLine",
]


class RatingChangeOut(BaseModel):
    """A rated player's FIDE rating figures for the event so far (B.02 8.3), under the
    field names of `GET /ratings` rows (docs/rules/ratings.md#where-the-change-is-shown)."""

    k: int | None = Field(description="K applied (after the 700 cap); null if undecided.")
    k_rule: str = Field(
        description="given, reached-2400, junior, new-player or standard; empty if undecided."
    )
    games: int = Field(description="Rated games: played over the board, opponent rated.")
    score: float
    expected: float | None = Field(description="We, the sum of table 8.1.2's PD.")
    change: float | None = Field(description="K x (W - We); null while K is undecided.")
    performance: int | None = Field(description="TPR (FIDE C.07 art. 10.2).")
    missing: list[str] = Field(description="Facts K needs that the start list lacks.")


class FlamparkColumns(BaseModel):
    """A player's FLAMPARK result (Formuła FLAMPARK): means over the counted games.

    Values are exact to float precision; round them only for display."""

    model_config = ConfigDict(populate_by_name=True)

    PF: float | None = Field(description="Tournament result: mean game value.")
    Pc: float | None = Field(description="Mean opponents' strength (Rc - 1000) / 8.")
    Pt: float | None = Field(description="Mean time premium.")
    Pb: float | None = Field(description="Mean colour correction (+5 black, -5 white).")
    P_pct: float | None = Field(alias="P%", description="Mean result percentage.")
    Ru: float | None = Field(description="Result on the rating scale, 8 x PF + 600.")
    games_counted: int = Field(description="Games that count (byes and forfeit wins do not).")
    PP: float | None = Field(default=None, description="Progress premium, to the cent.")


class StandingRowPublic(BaseModel):
    """One line of the standings; `rank` is shared where every criterion ties."""

    rank: int
    start_number: int
    name: str
    rating: int | None = Field(description="Rating at the start; null = unrated.")
    points: float
    tiebreaks: dict[str, float | None] = Field(
        description="Values by code; null where undefined (ARO without a game played)."
    )
    flampark: FlamparkColumns | None = None
    team: int | None = Field(
        default=None, description="FLAMPARK team variant: 1 (odd numbers) or 2 (even)."
    )
    group: int | None = Field(default=None, description="FLAMPARK group variant: the group.")
    rating_change: RatingChangeOut | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the player's rating figures; null for an "
        "unrated player.",
    )


class TeamLine(BaseModel):
    """A team's line in the FLAMPARK team classification (the team variant)."""

    rank: int
    team: int
    players: int
    points: float = Field(description="Game points of the team's players.")
    PF: float | None = Field(description="Mean PF of the team's players with a result.")


class StandingsPublic(BaseModel):
    """The table after the last round with confirmed results."""

    round: int
    tiebreaks: list[str]
    order: Literal["points", "PF"] = "points"
    filters: dict[str, Any] = Field(default_factory=dict)
    rows: list[StandingRowPublic]
    teams: list[TeamLine] | list[TeamStandingRow] | None = Field(
        default=None,
        description="FLAMPARK team variant: its team classification. A team tournament "
        "(docs/teams.md): the teams ranked by `tiebreaks` (the team list).",
    )
    explanation: dict[str, Any] | None = None
    player_tiebreaks: list[str] | None = Field(
        default=None, description="A team tournament: the individual codes of `rows`."
    )
    boards: list[BoardPrizes] | None = Field(
        default=None, description="A team tournament: each board's players by percentage."
    )
