"""Stateless compute: the engine as a service, nothing stored (docs/api.md#resources).

Pairings, standings and FLAMPARK what-ifs run in the compute workers
(`api.compute_offload`), never in the threads stored tournaments compute in: the
module-level functions below are the workers' jobs, taking plain data (the body's
bytes, the query's values) and returning the response document."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from service.api.compute_input import from_body, within_size
from service.api.compute_offload import compute
from service.api.compute_ratings import NormQuery, ratings_document
from service.api.compute_standings import standings_document
from service.api.compute_teams import is_team_body, team_pairing, team_standings
from service.api.defaults_route import DefaultsRoute
from service.api.flampark_documents import schedule_document
from service.api.observability import observe_pairing
from service.api.schemas.compute import (
    ComputePairing,
    ComputePairingSystem,
    ComputeStandings,
    ComputeTeamPairing,
    PairingOut,
    TournamentSystem,
    VarmaRequest,
    VarmaResponse,
)
from service.api.schemas.flampark import ScheduleRequest, ScheduleResponse
from service.api.schemas.norms import (
    EVENT_FORMAT_FIELD,
    EVENT_KIND_FIELD,
    HOST_FEDERATION_FIELD,
    EventFormat,
    EventKind,
)
from service.api.schemas.ratings import ComputeRatings
from service.app.systems import pair_next, schedule_for
from service.engine.model import Player
from service.engine.pairing.varma import varma_draw, varma_sets
from service.engine.scoring.reading import reading_for
from service.engine.stats import pairing_quality
from service.engine.systems import PairingName
from service.errors import InvalidInput

router = APIRouter(prefix="/v1/compute", tags=["compute"], route_class=DefaultsRoute)
"""`DefaultsRoute`: a request without a query string skips FastAPI's parameter solving
(the defaults of the signature, which it would arrive at)."""


@router.post("/flampark/schedule", response_model=ScheduleResponse)
async def flampark_schedule(request: Request, body: ScheduleRequest) -> Response:
    """The whole FLAMPARK schedule for a start list (or a player count), rounds and kinds,
    with its pairing-quality figures: compare a Swiss open with a FLAMPARK clone of it."""
    return await compute(request, _what_if, body)  # size bounded by the schema


def _what_if(body: ScheduleRequest) -> ScheduleResponse:
    schedule = schedule_for(body.count, body.rounds, body.options())
    document = schedule_document(schedule)
    if body.players is not None:
        ratings = sorted((p.rating for p in body.players), reverse=True)
        field = [Player(n, "", r) for n, r in enumerate(ratings, start=1)]
        document.stats = asdict(pairing_quality(field, schedule.rounds))
    return document


MAX_BODY = 20_000_000
TOURNAMENT_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ComputeTournament"}},
            "text/plain": {
                "schema": {
                    "type": "string",
                    "description": "A TRF-16 file, or a TRF-26 team file (310 records)",
                }
            },
        },
    }
}


async def _body(request: Request) -> tuple[bytes, bool]:
    """The body's bytes, and whether they are a JSON tournament (else TRF text)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise InvalidInput(f"the body exceeds {MAX_BODY} bytes", field="body")
    return raw, request.headers.get("content-type", "").startswith("application/json")


def _codes(text: str | None) -> list[str] | None:
    return [c.strip() for c in text.split(",") if c.strip()] if text else None


@router.post("/standings", response_model=ComputeStandings, openapi_extra=TOURNAMENT_BODY)
async def standings(
    request: Request,
    tiebreaks: Annotated[
        str | None, Query(description="Comma-separated codes for a TRF body, e.g. BH-C1,BH,SB")
    ] = None,
    edition: Annotated[Literal["2026", "2024"] | None, Query()] = None,
    explain: Annotated[int | None, Query(ge=1, description="Start number to explain")] = None,
    system: Annotated[
        TournamentSystem | None,
        Query(description="The tournament system, for a TRF body (else its 092 record)."),
    ] = None,
) -> Response:
    """Standings of a whole tournament sent as JSON (`players`, `games`, `byes`,
    `tiebreaks`, `edition`, `system`) or as TRF text with the tie-breaks as query
    parameters.

    A TRF-26 team file (310 records) is also ranked by team: `teams` holds the teams by
    match points and the team tie-breaks (the query's codes, else its 212 record, else
    PTS, MPVGP, EDE, EMGSB, BH:MP, BC; a round-robin drops BH:MP), `rows` the players
    by their own games (docs/rules/teams.md).

    The tournament system decides how FIDE C.07 counts unplayed rounds (Swiss: art.
    16; round-robins: 2026 art. 15.2) and the default tie-breaks: the request's
    `system` (body or query), else a TRF file's 092 record, else the shape of the
    games; `reading` in the response says which applied."""
    raw, is_json = await _body(request)
    return await compute(request, _standings, raw, is_json, (tiebreaks, edition, explain, system))


def _standings(
    raw: bytes,
    is_json: bool,
    query: tuple[str | None, Literal["2026", "2024"] | None, int | None, TournamentSystem | None],
) -> ComputeStandings:
    """In a compute worker: the standings of the body's tournament (bounded by its span,
    `MAX_PLAYER_ROUNDS`, and by the time bound)."""
    tiebreaks, edition, explain, system = query
    if not is_json and is_team_body(raw):
        return team_standings(raw, _codes(tiebreaks), edition or "2026", explain, system)
    data, body = from_body(raw, is_json)
    named = system or (body.system if body else None)
    reading = reading_for(data.tournament, named, data.declared_system)
    order = _codes(tiebreaks) or (body.tiebreaks if body and body.tiebreaks else None)
    order = order or list(reading.default_tiebreaks())
    chosen = edition or (body.edition if body else "2026")
    return standings_document(
        data.tournament, order, edition=chosen, explain=explain, reading=reading, ids=data.ids
    )


RATINGS_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/RatingsTournament"}},
            "text/plain": {"schema": {"type": "string", "description": "A TRF-16 file"}},
        },
    }
}


@router.post("/ratings", response_model=ComputeRatings, openapi_extra=RATINGS_BODY)
async def ratings(
    request: Request,
    year: Annotated[
        int | None,
        Query(
            ge=1900,
            le=2200,
            description="The event's year for the junior K rule (default: the body's "
            "`year`, a TRF file's 042/052 date).",
        ),
    ] = None,
    event_kind: Annotated[EventKind | None, Query(description=EVENT_KIND_FIELD)] = None,
    event_format: Annotated[EventFormat | None, Query(description=EVENT_FORMAT_FIELD)] = None,
    host_federation: Annotated[
        str | None, Query(pattern=r"^[A-Za-z]{3}$", description=HOST_FEDERATION_FIELD)
    ] = None,
) -> Response:
    """What the event did to each player's FIDE rating (B.02, 2024 rules and the 2025
    amendment of the 400-point rule): rated games, score, expected score, K and the
    change K x (W - We), the TPR, an unrated player's initial rating, and the B.01
    norm conditions with their figures (the exemptions of the event's kind named in
    `exempt`) and, with one round left, each norm's forecast: the result in that round
    that gives it and against whom. A fact a rule needs and the body lacks (K, or the
    games, 2400 and birth year that decide it) is listed in the player's `missing` and
    the change is null: never assumed (docs/rules/ratings.md). The query's norm
    settings override the body's."""
    raw, is_json = await _body(request)
    query = NormQuery(
        event_kind, event_format, host_federation.upper() if host_federation else None
    )
    return await compute(request, ratings_document, raw, is_json, year, query)


@router.post(
    "/pairings",
    response_model=ComputePairing | ComputeTeamPairing,
    openapi_extra=TOURNAMENT_BODY,
)
async def pairings(
    request: Request,
    system: Annotated[
        ComputePairingSystem | None,
        Query(
            description="Omitted: dutch, or for a team file the system its 192/092 record "
            "declares (team-swiss unless it says round-robin)."
        ),
    ] = None,
    rules: Annotated[Literal["dutch-2026", "dutch-2017"], Query()] = "dutch-2026",
    explain: Annotated[bool, Query(description="Say why each bracket was paired so")] = False,
    seed: Annotated[int | None, Query(description="JCA: seed of the colour lots")] = None,
    colour_preferences: Annotated[
        Literal["A", "B", "none"],
        Query(description="Team Swiss: colour preferences of type A or B (C.04.6 art. 1.7)."),
    ] = "A",
    primary_score: Annotated[
        Literal["match", "game"],
        Query(description="Team Swiss: score groups by match or game points (art. 1.2)."),
    ] = "match",
    secondary_for_colours: Annotated[
        bool,
        Query(
            description="Team Swiss: the secondary score decides a match's first-team "
            "when the primary scores are equal (art. 4.2.2); false where the rules say not."
        ),
    ] = True,
) -> Response:
    """The next round's pairing of a tournament sent as TRF text (rounds in the file are
    history; XXR total rounds, XXC first colour, XXA acceleration, XXP forbidden pairs;
    a trailing column of H/F/Z entries announces the round's byes) or as JSON.

    A TRF-26 team file (310 records) is paired by team (`team-swiss`, FIDE C.04.6, or
    `team-round-robin`, the Berger tables): the answer lists the matches, home team
    (White on board 1) first, each board's players from the teams' lineups, and the
    bye (docs/rules/team-swiss.md)."""
    raw, is_json = await _body(request)
    players = request.app.state.arbiter.settings.compute_max_players
    label = system.value if system is not None else "auto"
    team = (colour_preferences, primary_score, secondary_for_colours)
    with observe_pairing(request.app, f"compute-{label}"):
        return await compute(
            request, _pairing, raw, is_json, (system, rules, explain, seed, team), players
        )


def _pairing(
    raw: bytes,
    is_json: bool,
    query: tuple[ComputePairingSystem | None, str, bool, int | None, tuple[str, str, bool]],
    max_players: int,
) -> ComputePairing | ComputeTeamPairing:
    """In a compute worker: the next round's pairing of the body's tournament."""
    chosen, rules, explain, seed, (colours, primary, secondary) = query
    if not is_json and is_team_body(raw):
        return team_pairing(raw, chosen, colours, primary, max_players, secondary)
    if chosen in (ComputePairingSystem.TEAM_SWISS, ComputePairingSystem.TEAM_ROUND_ROBIN):
        raise InvalidInput(
            f"{chosen.value} pairs a TRF-26 team file (310 records) sent as text",
            field="system",
        )
    system = PairingName(chosen.value) if chosen is not None else PairingName.DUTCH
    data, _ = from_body(raw, is_json)
    within_size(data, max_players)
    options: dict[str, Any] = {"rules": rules, "seed": seed}
    pairing = pair_next(
        system,
        data.tournament,
        byes=data.next_round_byes,
        options=options,
        accelerations=data.accelerations,
        forbidden_pairs=data.forbidden_pairs,
        explain=explain,
    )
    return ComputePairing(
        round=pairing.round,
        pairings=[
            PairingOut(table=g.table, white=data.ids[g.white], black=data.ids[g.black])
            for g in pairing.games
        ],
        byes=[{"player": data.ids[b.player], "type": b.kind.value} for b in pairing.byes],
        notes=list(pairing.notes),
        warnings=list(pairing.warnings),
    )


@router.post("/varma", response_model=VarmaResponse)
async def varma(body: VarmaRequest) -> VarmaResponse:
    """Start numbers for a round-robin of 9 to 24 players drawn by the Varma procedure
    (FIDE C.05 Annex 2): federations in order of size (then FIDE code) draw envelopes
    A..D so that players of one federation meet early. Deterministic for a seed."""
    ids = [p.id for p in body.players]
    if len(set(ids)) != len(ids):
        raise InvalidInput("player ids must be unique", field="players")
    drawn = varma_draw([(p.id, p.federation) for p in body.players], seed=body.seed)
    sets = varma_sets(len(body.players))
    return VarmaResponse(
        start_numbers=drawn, sets={name: list(numbers) for name, numbers in sets.items()}
    )
