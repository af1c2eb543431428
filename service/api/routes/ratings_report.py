"""The FIDE rating report of a stored tournament (docs/rules/ratings.md#stored-tournaments):
what its confirmed games do to each player's rating, as JSON or CSV."""

from __future__ import annotations

import csv
import io
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, shows_personal_data, without_personal_data
from service.api.compute_input import EngineInput
from service.api.compute_ratings import rows_document
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.schemas.norms import (
    EVENT_FORMAT_FIELD,
    EVENT_KIND_FIELD,
    HOST_FEDERATION_FIELD,
    EventFormat,
    EventKind,
)
from service.api.schemas.ratings import ComputeRatings
from service.api.state import AppState
from service.app.offload import run_cpu
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.engine.ratings.norm_event import NormSettings, format_of_system
from service.views.prizes import event_year
from service.views.rating_changes import stored_facts
from service.views.snapshots import engine_view

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["standings"])

CSV_COLUMNS = (
    "start_number",
    "name",
    "fide_id",
    "rating",
    "k",
    "games",
    "score",
    "expected",
    "change",
    "performance",
    "missing",
)


async def _report(
    tournament: TournamentRow,
    session: AsyncSession,
    state: AppState,
    reader: TokenHolder | None,
    norms: NormSettings | None = None,
) -> tuple[ComputeRatings, dict[int, tuple[str, str]]]:
    """The rating rows and each player's (name, FIDE id) as the reader may see them;
    `norms` (the query's; an empty kind: none given) over the stored `norms` setting,
    the format defaulting to the tournament system's."""
    event = await engine_view(state.views, session, tournament)
    if not shows_personal_data(tournament, reader):
        event = without_personal_data(event)
    data = EngineInput(event, {p.start_number: p.start_number for p in event.players})
    year = event_year(tournament, config_of(tournament))
    stored = tournament.settings.get("norms") or {}
    query = norms or NormSettings(kind="")
    norms = NormSettings(
        kind=query.kind or stored.get("event_kind") or "ordinary",
        format=query.format or stored.get("event_format") or format_of_system(tournament.system),
        host_federation=query.host_federation
        or (stored.get("host_federation") or "").upper()
        or None,
    )
    facts = await stored_facts(state.views, session, tournament)
    document = await run_cpu(rows_document, data, facts, year, norms)
    names = {p.start_number: (p.name, p.fide_id or "") for p in event.players}
    return document, names


@router.get("/ratings", response_model=ComputeRatings)
async def read_ratings(
    tournament: TournamentDep,
    session: SessionDep,
    state: StateDep,
    reader: ReaderDep,
    event_kind: Annotated[EventKind | None, Query(description=EVENT_KIND_FIELD)] = None,
    event_format: Annotated[EventFormat | None, Query(description=EVENT_FORMAT_FIELD)] = None,
    host_federation: Annotated[
        str | None, Query(pattern=r"^[A-Za-z]{3}$", description=HOST_FEDERATION_FIELD)
    ] = None,
) -> ComputeRatings:
    """Each player's FIDE rating figures from the confirmed games (FIDE B.02: rated
    games, score, expected score, K, change; B.01 norm figures), as `POST
    /v1/compute/ratings` answers them, `id` being the start number. K comes from each
    player's stored K-factor facts (`k`, `games_before`, `reached_2400`, birth year:
    docs/rules/ratings.md#k-facts); where a fact it needs is not recorded, K and the
    change are null with that fact under `missing`. Readers
    who may not see personal data get the figures without sex, federation and birth
    year (norm federation conditions then unknown). The query names the event's kind,
    format and host federation for the norm rules (default: the tournament's `norms`
    setting, the format its system's); with one
    round left each norm carries its forecast (docs/rules/ratings.md#last-round-forecast)."""
    host = host_federation.upper() if host_federation else None
    norms = NormSettings(event_kind or "", event_format, host)
    document, _ = await _report(tournament, session, state, reader, norms)
    return document


@router.get(
    "/ratings.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per player."}},
)
async def read_ratings_csv(
    tournament: TournamentDep, session: SessionDep, state: StateDep, reader: ReaderDep
) -> Response:
    """The rating figures as CSV, one line per player in start-number order: columns
    start_number, name, fide_id, rating, k, games, score, expected, change, performance,
    missing (facts named, `;`-separated); empty cells for null values."""
    document, names = await _report(tournament, session, state, reader)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in document.players:
        number = int(row.id)
        name, fide_id = names[number]
        writer.writerow(
            (
                number,
                name,
                fide_id,
                _cell(row.rating),
                _cell(row.k),
                row.games,
                _cell(row.score),
                _cell(row.expected),
                _cell(row.change),
                _cell(row.performance),
                ";".join(row.missing),
            )
        )
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8")


def _cell(value: float | int | None) -> str:
    """A number as written (`7.5`, `-3.2`, `20`); empty for null."""
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)
