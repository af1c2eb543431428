"""Standings, classifications and per-player explanations."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse, Response
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, shows_personal_data
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.documents import StandingsFilter, standings_public
from service.api.schemas.players import Sex
from service.api.schemas.standings import StandingsPublic
from service.api.state import AppState
from service.db.player_reads import list_players
from service.db.tables import TournamentRow
from service.errors import Forbidden, NotFound
from service.live.reader import ReaderError
from service.views.rating_changes import rating_rows, with_rating_changes
from service.views.standings_table import standings_document, standings_table

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/standings", tags=["standings"])

Year = Annotated[int | None, Query(ge=1880, le=2100)]
Rating = Annotated[int | None, Query(ge=0, le=4000)]
Rounds = Annotated[int | None, Query(ge=0, le=1000)]


@router.get("", response_model=StandingsPublic)
async def read_standings(
    tournament: TournamentDep,
    session: SessionDep,
    state: StateDep,
    reader: ReaderDep,
    rating_min: Rating = None,
    rating_max: Rating = None,
    sex: Annotated[Sex | None, Query()] = None,
    born_from: Year = None,
    born_to: Year = None,
    rounds_min: Rounds = None,
    rounds_max: Rounds = None,
    explain: Annotated[
        int | None,
        Query(ge=1, description="Start number: show how each tie-break value is made up."),
    ] = None,
    ratings: Annotated[
        bool,
        Query(
            description="Add each player's FIDE rating figures (`rating_change`: K, "
            "expected score, change, performance, missing facts)."
        ),
    ] = False,
    if_none_match: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> StandingsPublic | Response:
    """Points and tie-breaks from confirmed results; ranks shared where every criterion
    ties. FLAMPARK tournaments are ordered by PF and carry PF, Pc, Pt, Pb, P%, Ru, games
    counted and PP. The filters make a classification (FLAMPARK: by rating, sex, age,
    distance), ranked within itself; `rounds_*` count the games that count. The sex and
    birth-year filters reveal personal data: organizer only unless it is published.
    `ratings=true` adds each row's `rating_change` (FIDE B.02 8.3, the field names of
    `GET /ratings`; null for an unrated player)."""
    personal = {"sex": sex, "born_from": born_from, "born_to": born_to}
    if not shows_personal_data(tournament, reader):
        for name, value in personal.items():
            if value is not None:
                raise Forbidden(
                    f"{name}: the organizer has not published players' personal data",
                    field=name,
                )
    filters = StandingsFilter(
        rating_min=rating_min,
        rating_max=rating_max,
        sex=sex,
        born_from=born_from,
        born_to=born_to,
        rounds_min=rounds_min,
        rounds_max=rounds_max,
    )
    if explain is not None:
        numbers = {p.start_number for p in await list_players(session, tournament.id)}
        if explain not in numbers:
            raise NotFound(f"no player with start number {explain}", field="explain")
    if ratings:
        return await _with_ratings(state, session, tournament, reader, filters, explain)
    if not filters.as_dict() and explain is None:
        # the table every scoreboard asks for: computed once per event, then served
        return await _whole_table(state, session, tournament, if_none_match)
    return await standings_public(state, session, tournament, filters=filters, explain=explain)


async def _with_ratings(
    state: AppState,
    session: AsyncSession,
    tournament: TournamentRow,
    reader: TokenHolder | None,
    filters: StandingsFilter,
    explain: int | None,
) -> Response:
    """The table (filtered or explained as asked) with each row's `rating_change`."""
    document = await standings_table(
        state.views,
        session,
        tournament,
        filters=filters if filters.as_dict() else None,
        explain=explain,
    )
    personal = shows_personal_data(tournament, reader)
    rows = await rating_rows(state.views, session, tournament, personal=personal)
    document = with_rating_changes(document, rows)
    StandingsPublic.model_validate(document)  # the documented shape, null changes kept
    return JSONResponse(document)


async def _whole_table(
    state: AppState, session: AsyncSession, tournament: TournamentRow, if_none_match: str | None
) -> Response:
    """The unfiltered table, as of this request's view of the tournament or later.

    The live reader computes it (its own process under `arbiter serve`), once per event
    however many ask, so a large table never holds the GIL the result PUTs need. The
    `ETag` is the event seq the table is as of; `If-None-Match` with it answers 304.
    """
    hub = state.hub
    text = None
    if hub is not None:
        try:
            text = await hub.table(tournament.id, tournament.last_seq)
        except ReaderError:
            text = None  # the reader is restarting: compute here
    response: Response
    if text is None:
        document = await standings_document(state.views, session, tournament)
        seq, response = tournament.last_seq, JSONResponse(document)
    else:
        seq, response = text.seq, Response(text.text, media_type="application/json")
    etag = f'"{seq}"'
    if if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers={"ETag": etag})
    response.headers["ETag"] = etag
    return response
