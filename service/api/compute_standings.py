"""The standings document the compute endpoint answers (`POST /v1/compute/standings`),
for an individual file and, with its teams ranked beside the players, a team file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from service.api.schemas.common import to_number
from service.api.schemas.compute import (
    ComputeStandingRow,
    ComputeStandings,
    ComputeTeamStandingRow,
    StandingsReading,
)
from service.engine.model import Tournament
from service.engine.scoring.reading import Reading
from service.engine.scoring.standings import compute_standings

__all__ = ["TeamRanking", "standings_document"]


@dataclass(frozen=True, slots=True)
class TeamRanking:
    """A team file's teams, ranked by `order` (team codes, FIDE C.07 2026)."""

    rows: list[ComputeTeamStandingRow]
    order: list[str]
    system: str


def standings_document(
    tournament: Tournament,
    order: list[str],
    *,
    edition: str,
    explain: int | None,
    reading: Reading,
    ids: Mapping[int, int | str] | None = None,
    teams: TeamRanking | None = None,
) -> ComputeStandings:
    """The players ranked by `order` (FIDE C.07 codes), each row under the caller's id
    (`ids`: start number -> id; the start number itself when None), and a team file's
    `teams` beside them (its codes are then the document's `tiebreaks`)."""
    table = compute_standings(
        tournament, order, edition=edition, explain=explain, round_robin=reading.round_robin
    )
    rows = [
        ComputeStandingRow(
            rank=row.rank,
            id=row.start_number if ids is None else ids[row.start_number],
            points=float(row.points),
            tiebreaks={code: to_number(v) for code, v in row.tiebreaks.items()},
        )
        for row in table.rows
    ]
    return ComputeStandings(
        tiebreaks=order if teams is None else teams.order,
        edition=edition,
        reading=StandingsReading.model_validate(reading.as_dict()),
        rows=rows,
        explanation=table.explanation.as_dict() if table.explanation is not None else None,
        teams=None if teams is None else teams.rows,
        team_system=None if teams is None else teams.system,
        player_tiebreaks=None if teams is None else order,
    )
