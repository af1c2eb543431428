"""Change a tournament's settings that alter no pairing already made
(docs/api.md#settings-and-archival): `name`, `schedule`, `tiebreaks`, `time_control`,
`visibility`, `publish_personal_data`, `prizes` (docs/rules/prizes.md), `norms`
(docs/rules/ratings.md#the-events-kind), `city`, `federation`, `officials`
(docs/rules/trf.md#rating-report), and a Swiss tournament's forbidden pairs,
acceleration and announced byes (`swiss`, merged field by field into the stored
options; `app.swiss_settings` holds the rules a change keeps).

A change appends one `settings_changed` event with the values before and after, so live
clients see it; a request that changes nothing appends none. Making a tournament private
issues its viewer token unless it has one. A FLAMPARK time control cannot drop below a
shortening already recorded (Formuła FLAMPARK: a shortening may not exceed the base
time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.create import check_tiebreaks
from service.app.swiss_settings import check_swiss_change, merged_swiss
from service.app.tokens import issue_viewer_token
from service.db.event_types import SettingsChanged
from service.db.events import append_event, lock_tournament
from service.db.tables import GameRow, TournamentRow
from service.errors import InvalidInput

__all__ = ["SettingsOutcome", "change_settings"]


@dataclass(frozen=True, slots=True)
class SettingsOutcome:
    """What a change did: whether anything changed (then an event was appended), and
    the viewer token issued when the tournament became private (shown once)."""

    changed: bool
    viewer_token: str | None


async def change_settings(
    session: AsyncSession, tournament: TournamentRow, requested: Mapping[str, Any]
) -> SettingsOutcome:
    """The workflow: lock, check the rules a change must keep (each refusal names its
    field), apply the fields whose values differ and record them in one event.
    `requested`: the fields sent, as JSON values."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    if "swiss" in requested:
        current = tournament.settings.get("swiss")
        await check_swiss_change(session, tournament, current, requested["swiss"])
        requested = {**requested, "swiss": merged_swiss(current, requested["swiss"])}
    await _check(session, tournament, requested)
    before = {
        k: _current(tournament, k) for k in requested if _current(tournament, k) != requested[k]
    }
    after = {k: requested[k] for k in before}
    if not before:
        return SettingsOutcome(False, None)
    viewer = None
    settings = dict(tournament.settings)
    for name, value in after.items():
        if name == "name":
            tournament.name = value
        elif name == "visibility":
            tournament.visibility = value
            if value == "private" and tournament.viewer_token_hash is None:
                viewer = issue_viewer_token(tournament)
        else:
            settings[name] = value
    tournament.settings = settings
    session.add(tournament)
    await append_event(session, tournament.id, SettingsChanged(before, after))
    return SettingsOutcome(True, viewer)


async def _check(session: AsyncSession, row: TournamentRow, requested: Mapping[str, Any]) -> None:
    """The rules a change must keep (each refusal names its field)."""
    check_tiebreaks(requested.get("tiebreaks"), row.system)
    schedule: Sequence[Any] | None = requested.get("schedule")
    rounds = row.total_rounds
    if schedule is not None and rounds is not None and len(schedule) > rounds:
        raise InvalidInput(
            f"{len(schedule)} start times for {row.total_rounds} rounds", field="schedule"
        )
    if "time_control" in requested:
        longest = (
            await session.exec(
                select(func.max(col(GameRow.shortened_minutes))).where(
                    GameRow.tournament_id == row.id
                )
            )
        ).one()
        if longest:
            control = requested["time_control"]
            if control is None:
                raise InvalidInput(
                    f"games were shortened by up to {longest:g} minutes against this time "
                    "control; it cannot be removed",
                    field="time_control",
                )
            base = control["base_minutes"]
            if base < longest:
                raise InvalidInput(
                    f"a game was shortened by {longest:g} minutes, more than {base}",
                    field="time_control.base_minutes",
                )


def _current(row: TournamentRow, name: str) -> Any:
    if name == "name":
        return row.name
    if name == "visibility":
        return row.visibility
    if name == "publish_personal_data":
        return bool(row.settings.get(name, False))
    return row.settings.get(name)
