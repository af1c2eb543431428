"""FIDE TRF-16 export and import (reference/chess-rules.md 5)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status
from fastapi.responses import PlainTextResponse

from service.api.access import shows_personal_data, without_personal_data
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.publish import commit_and_publish
from service.api.schemas.tournaments import TournamentImported
from service.api.views import standings_public, tournament_public
from service.db.events import append_event
from service.db.repository import create_tournament, load_engine_tournament, store_round
from service.db.tables import PlayerRow
from service.db.tokens import hash_token, new_token
from service.engine.trf import TrfDocument, parse_trf, write_trf
from service.errors import InvalidInput

router = APIRouter(tags=["trf"])

MAX_TRF_BYTES = 5_000_000
TRF_BODY = {
    "requestBody": {
        "required": True,
        "content": {"text/plain": {"schema": {"type": "string"}}},
        "description": "A FIDE TRF-16 file (XXR, XXC, XXA, XXP understood).",
    }
}


def system_of(doc: TrfDocument) -> str:
    """The Arbiter system for a TRF file's declared pairing system (record 092/192)."""
    declared = (doc.system or "").upper()
    if "ROUND" in declared or "BERGER" in declared:
        return "round-robin"
    return "swiss-dutch"


@router.get(
    "/v1/tournaments/{tournament_id}/trf",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "TRF-16 text"}},
)
async def export_trf(
    tournament: TournamentDep, session: SessionDep, state: StateDep, reader: ReaderDep
) -> PlainTextResponse:
    """The tournament as a TRF-16 file: players, rounds, confirmed results, ranks.
    Readers who may not see personal data get the 001 records with sex, federation,
    FIDE id and birth date left blank (name, rating, points, rank and the games stay)."""
    engine_view = await load_engine_tournament(session, tournament)
    if not shows_personal_data(tournament, reader):
        engine_view = without_personal_data(engine_view)
    standings = await standings_public(state, session, tournament)
    ranks = {row.start_number: row.rank for row in standings.rows}
    system = "FIDE_ROUNDROBIN" if "round-robin" in tournament.system else "FIDE_DUTCH_2025"
    headers: list[tuple[str, str]] = [("012", tournament.name), ("092", system)]
    if tournament.total_rounds is not None:
        headers.append(("XXR", str(tournament.total_rounds)))
    doc = TrfDocument(tournament=engine_view, headers=tuple(headers), system=system)
    return PlainTextResponse(write_trf(doc, ranks=ranks), media_type="text/plain")


@router.post(
    "/v1/tournaments/import",
    status_code=status.HTTP_201_CREATED,
    response_model=TournamentImported,
    openapi_extra=TRF_BODY,
)
async def import_trf(request: Request, session: SessionDep, state: StateDep) -> dict[str, Any]:
    """Create a tournament from a TRF-16 file with its players, rounds and results.

    The organizer token and the players' tokens in the response are shown only once."""
    raw = await request.body()
    if len(raw) > MAX_TRF_BYTES:
        raise InvalidInput(f"the file exceeds {MAX_TRF_BYTES} bytes", field="body")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    doc = parse_trf(text)
    tournament = doc.tournament
    if len(tournament.players) < 2:
        raise InvalidInput("a TRF file needs at least 2 players (001 records)", field="body")
    system = system_of(doc)
    settings: dict[str, Any] = {"source": "trf"}
    if system == "swiss-dutch" and tournament.initial_colour is not None:
        colour = "white" if tournament.initial_colour.value == "w" else "black"
        settings["swiss"] = {"initial_colour": colour}
    row, token = await create_tournament(
        session,
        name=tournament.name or "Imported tournament",
        system=system,
        settings=settings,
        total_rounds=tournament.total_rounds or len(tournament.rounds) or None,
    )
    issued: list[dict[str, Any]] = []
    for player in tournament.players:
        player_token = new_token("ply")
        session.add(
            PlayerRow(
                tournament_id=row.id,
                start_number=player.start_number,
                name=player.name,
                rating=player.rating,
                fide_id=player.fide_id,
                federation=player.federation,
                sex=player.sex,
                birth_year=player.birth_year,
                token_hash=hash_token(player_token),
            )
        )
        issued.append(
            {"start_number": player.start_number, "name": player.name, "token": player_token}
        )
    for rnd in tournament.rounds:
        await store_round(session, row, rnd)
    paired = len(tournament.rounds)
    complete = all(g.result is not None for r in tournament.rounds for g in r.games)
    row.current_round = paired
    row.status = (
        "finished"
        if complete and row.total_rounds is not None and paired >= row.total_rounds
        else "running"
    )
    session.add(row)
    await append_event(
        session, row.id, "imported", {"players": len(tournament.players), "rounds": paired}
    )
    await commit_and_publish(session, state, row)
    return {
        **await tournament_public(session, row),
        "organizer_token": token,
        "player_tokens": issued,
    }
