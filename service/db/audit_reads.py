"""A tournament's audit trail for its TRF export (docs/rules/trf.md#audit-trail): the
arbiter's decisions read from the event log, with who made them and when (the event's
time), and the lots the pairing program drew.

- `round_repaired`: a round paired by hand (`pairing-by-hand` when the round had no
  pairing, `pairing-replaced` when it replaced one), its games in board order, its byes
  and the rules the arbiter was warned of (FIDE C.04.1, C.04.3);
- `round_unpaired`: `unpaired`;
- `tournament_created`: `setting` for the tie-breaks (FIDE C.07) and the initial colour
  the organizer chose at creation (TRF-26 202 and 152 carry the values, not when they
  were chosen; no `before`);
  not for an imported tournament, whose file's trail says them;
- `settings_changed`: `setting` per changed setting that steers the pairing or the
  ranking (tie-breaks; a Swiss system's options), values before and after as JSON; the
  name, schedule, time control, visibility and prizes are left out. Only the organizer
  creates a tournament and changes its settings (`PATCH`): the actor is `organizer`;
- the initial colour (FIDE C.04.2: drawn by lot; TRF-26 152) when the pairing program
  drew it by lot (`lot draw=initial-colour colour=...`, seeded with `swiss.seed`, else the
  tournament's id), at the time round 1 was first paired; and, for the JCA Swiss with a
  seed, the colour lots of each round the engine paired (`lot draw=colours round=N`).

An imported tournament keeps the audit lines of its file (`TournamentConfig.kept_audit`)
and adds the entries of its own events after the import; a lot its file settled is not
drawn again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.event_types import (
    Event,
    Imported,
    RoundPaired,
    RoundRepaired,
    RoundUnpaired,
    SettingsChanged,
    TournamentCreated,
    decode,
)
from service.db.loading import initial_colour
from service.db.tables import EventRow, TournamentRow
from service.db.tournament_config import TournamentConfig, config_of
from service.engine.model import ByeKind, Colour
from service.engine.systems import SystemName, spec_of
from service.engine.trf_audit import AuditEntry

__all__ = ["NOT_AUDITED", "audit_entries"]

NOT_AUDITED = frozenset(
    {"name", "schedule", "time_control", "visibility", "publish_personal_data", "prizes"}
)
"""Settings whose change steers neither the pairing nor the ranking."""

_READ = (
    TournamentCreated.TYPE,
    Imported.TYPE,
    RoundRepaired.TYPE,
    RoundUnpaired.TYPE,
    SettingsChanged.TYPE,
)
"""The events read whole (their payloads are a round's games at most)."""


async def audit_entries(session: AsyncSession, tournament: TournamentRow) -> list[AuditEntry]:
    """The tournament's own audit entries, oldest first. Of the engine's pairings only
    the round number is read (not their games: a large event's log holds megabytes of
    them)."""
    whole = (
        select(EventRow.seq, EventRow.type, EventRow.payload, EventRow.created_at)
        .where(EventRow.tournament_id == tournament.id, col(EventRow.type).in_(_READ))
        .order_by(col(EventRow.seq))
    )
    paired = (
        select(EventRow.seq, col(EventRow.payload)["round"].as_integer(), EventRow.created_at)
        .where(EventRow.tournament_id == tournament.id, EventRow.type == RoundPaired.TYPE)
        .order_by(col(EventRow.seq))
    )
    events = [
        (seq, kind, payload, when) for seq, kind, payload, when in await _rows(session, whole)
    ]
    events += [
        (seq, RoundPaired.TYPE, {"round": number, "games": [], "byes": []}, when)
        for seq, number, when in await _rows(session, paired)
    ]
    events.sort(key=lambda event: event[0])
    return entries_of(tournament, ((kind, payload, when) for _, kind, payload, when in events))


async def _rows(session: AsyncSession, statement: Any) -> list[Any]:
    return list((await session.exec(statement)).all())


def entries_of(
    tournament: TournamentRow, events: Iterable[tuple[str, Mapping[str, Any], datetime]]
) -> list[AuditEntry]:
    """The entries of a run of events (type, payload, time), oldest first."""
    decoded = [(decode(kind, payload), when) for kind, payload, when in events]
    config = config_of(tournament)
    swiss = config.swiss
    spec = spec_of(tournament.system)
    drawn = (
        spec is not None
        and spec.initial_colour_lot
        and (swiss is None or swiss.initial_colour is None)
    )
    seed = swiss.seed if swiss is not None else None
    jca_lots = tournament.system == SystemName.SWISS_JCA and seed is not None
    paired: set[int] = set()
    entries: list[AuditEntry] = []
    imported = any(isinstance(event, Imported) for event, _ in decoded)
    for event, when in decoded:
        if isinstance(event, TournamentCreated) and not imported:
            entries.extend(_chosen(when, config, _created_tiebreaks(config, decoded)))
        elif isinstance(event, Imported):
            paired.update(range(1, event.rounds + 1))
        if isinstance(event, RoundPaired | RoundRepaired) and event.round == 1 and drawn:
            drawn = False  # the lot is drawn once, when round 1 is first paired
            colour = initial_colour(tournament)
            if colour is not None:
                entries.append(_initial_lot(when, colour, seed, tournament.id))
        if isinstance(event, RoundPaired):
            paired.add(event.round)
            if jca_lots:
                lots = (("draw", "colours"), ("round", str(event.round)), ("seed", str(seed)))
                entries.append(AuditEntry(when, "engine", "lot", lots))
        elif isinstance(event, RoundRepaired):
            action = "pairing-replaced" if event.round in paired else "pairing-by-hand"
            paired.add(event.round)
            entries.append(AuditEntry(when, event.by, action, _pairing_fields(event)))
        elif isinstance(event, RoundUnpaired):
            paired.discard(event.round)
            fields = (("round", str(event.round)),)
            entries.append(AuditEntry(when, event.by, "unpaired", fields))
        elif isinstance(event, SettingsChanged):
            entries.extend(_setting_entries(when, event))
    return entries


def _created_tiebreaks(
    config: TournamentConfig, events: Sequence[tuple[Event, datetime]]
) -> list[str] | None:
    """The tie-breaks the tournament was created with: before the first change of them,
    else as they stand."""
    for event, _ in events:
        if isinstance(event, SettingsChanged) and "tiebreaks" in event.before:
            before = event.before["tiebreaks"]
            return None if before is None else list(before)
    return None if config.tiebreaks is None else list(config.tiebreaks)


def _chosen(
    when: datetime, config: TournamentConfig, tiebreaks: list[str] | None
) -> list[AuditEntry]:
    """The organizer's choices at creation that steer the pairing or the ranking and no
    record of the export carries: the tie-breaks, the initial colour (a `setting` line
    without `before`)."""
    chosen: list[AuditEntry] = []
    if tiebreaks is not None:
        fields = (("name", "tiebreaks"), ("after", _json(tiebreaks)))
        chosen.append(AuditEntry(when, "organizer", "setting", fields))
    colour = config.swiss.initial_colour if config.swiss is not None else None
    if colour is not None:
        value = "white" if colour is Colour.WHITE else "black"
        fields = (("name", "initial_colour"), ("after", _json(value)))
        chosen.append(AuditEntry(when, "organizer", "setting", fields))
    return chosen


def _initial_lot(when: datetime, colour: Colour, seed: int | None, own: str) -> AuditEntry:
    drawn = "white" if colour is Colour.WHITE else "black"
    seeded = str(seed) if seed is not None else f"id:{own}"
    fields = (("draw", "initial-colour"), ("colour", drawn), ("seed", seeded))
    return AuditEntry(when, "engine", "lot", fields)


def _pairing_fields(event: RoundRepaired) -> tuple[tuple[str, str], ...]:
    """round, games (white-black in board order), byes (player:TRF letter), warnings."""
    games = ",".join(f"{white}-{black}" for _, white, black in sorted(event.games))
    byes = ",".join(f"{player}:{ByeKind(kind).trf_code}" for player, kind in event.byes)
    fields = [("round", str(event.round)), ("games", games), ("byes", byes)]
    if event.warnings:
        fields.append(("warnings", ",".join(event.warnings)))
    return tuple(fields)


def _setting_entries(when: datetime, event: SettingsChanged) -> list[AuditEntry]:
    return [
        AuditEntry(
            when,
            "organizer",
            "setting",
            (
                ("name", name),
                ("before", _json(event.before.get(name))),
                ("after", _json(value)),
            ),
        )
        for name, value in event.after.items()
        if name not in NOT_AUDITED
    ]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
