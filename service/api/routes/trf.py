"""FIDE TRF-16 export and import (docs/rules/trf.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, status
from fastapi.responses import PlainTextResponse
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, shows_personal_data, without_personal_data
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep, WriteContextDep
from service.api.documents import standings_public, tournament_public
from service.api.publish import commit_and_publish
from service.api.schemas.standings import StandingsPublic
from service.api.schemas.teams import TeamStandingRow
from service.api.schemas.tournaments import TournamentImported
from service.api.state import AppState
from service.api.team_documents import trf_rounds
from service.app.import_team_trf import import_team_trf
from service.app.import_trf import (
    PointsChoice,
    export_system,
    import_system,
)
from service.app.import_trf import (
    import_trf as import_trf_workflow,
)
from service.app.offload import run_cpu
from service.app.swiss_records import is_swiss, swiss_trf_records
from service.app.trf_setting_records import colour_records, scoring_records, tiebreak_records
from service.db.audit_reads import audit_entries
from service.db.player_reads import list_players
from service.db.tables import TournamentRow
from service.db.team_reads import (
    is_team_event,
    list_teams,
    load_team_event,
    match_rows,
    team_file_format,
    team_options,
)
from service.db.tournament_config import TournamentConfig, config_of
from service.db.tournament_reads import load_engine_tournament
from service.engine.model import Bye, Colour
from service.engine.teams.baku import event_baku, record_250
from service.engine.teams.draw import board_sequence
from service.engine.teams.model import TeamEvent
from service.engine.teams.trf import TeamTrfDocument, is_team_trf, write_team_trf
from service.engine.teams.trf_awards import record_299
from service.engine.trf import TrfDocument, decode_trf, write_trf
from service.engine.trf_audit import audit_text
from service.errors import InvalidInput

router = APIRouter(tags=["trf"])

PointsQuery = Annotated[
    PointsChoice,
    Query(
        description="When a player's points column (cols 81-84) disagrees with the "
        "results: `results` keeps the results and warns; `file` reads unscored rounds as "
        "the byes that make the file's points true (422 when none can).",
    ),
]

MAX_TRF_BYTES = 5_000_000
TRF_BODY = {
    "requestBody": {
        "required": True,
        "content": {"text/plain": {"schema": {"type": "string"}}},
        "description": "A FIDE TRF-16 or TRF-26 file (XXR, XXC, XXA, XXP understood).",
    }
}


def system_of(doc: TrfDocument) -> str:
    """The Arbiter system for a TRF file's declared pairing system (record 092/192)."""
    return import_system(doc)[0]


@router.get(
    "/v1/tournaments/{tournament_id}/trf",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "TRF-16 text"}},
)
async def export_trf(
    tournament: TournamentDep, session: SessionDep, state: StateDep, reader: ReaderDep
) -> PlainTextResponse:
    """The tournament as a TRF-16 file: the header records an imported file carried
    (012 is the current name; 092 the tournament's system when it was not imported),
    players with title and birth date, rounds, confirmed results, ranks. Readers who may
    not see personal data get the 001 records with sex, federation, FIDE id and birth
    date left blank (name, title, rating, points, rank and the games stay). The file
    closes with the audit trail, TRF-26 comment lines: manual pairings, unpairings,
    changed tie-breaks and pairing settings, drawn lots, with who and when
    (docs/rules/trf.md#audit-trail), a team event's too. The initial colour, points
    other than 1/½/0 and chosen tie-breaks are TRF-26 152 (and XXC), 162 and 202
    (docs/rules/trf.md#settings-records); a Swiss tournament's announced byes,
    acceleration and forbidden pairs its 240, 250 and 260 records (docs/rules/swiss.md)."""
    doc, standings = await export_document(tournament, session, state, reader)
    ranks = {row.start_number: row.rank for row in standings.rows}
    if is_team_event(tournament):
        # TRF-26 team records after the 001 records (docs/teams.md#trf-export-and-import)
        event = await load_team_event(session, tournament)
        team_ranks = {
            line.team: line.rank
            for line in standings.teams or ()
            if isinstance(line, TeamStandingRow)
        }
        doc = _with_team_awards(event, _with_team_baku(tournament, event, doc))
        text = write_team_trf(
            TeamTrfDocument(event, doc, team_format=team_file_format(tournament)),
            ranks=team_ranks,
        )
    else:
        text = write_trf(doc, ranks=ranks)
    trail = audit_text(config_of(tournament).kept_audit, await audit_entries(session, tournament))
    return PlainTextResponse(text + trail, media_type="text/plain")


def _with_team_baku(tournament: TournamentRow, event: TeamEvent, doc: TrfDocument) -> TrfDocument:
    """A team Swiss with the Baku acceleration writes its virtual points as TRF-26 250
    records for teams (match and game points; docs/teams.md#baku-acceleration), unless
    the file it was imported from carried them (kept with its headers)."""
    if team_options(tournament).acceleration != "baku" or tournament.total_rounds is None:
        return doc
    if any(code == "250" for code, _ in doc.headers):
        return doc
    records = tuple(record_250(r) for r in event_baku(event, tournament.total_rounds))
    return replace(doc, headers=(*doc.headers, *records))


def _with_team_awards(event: TeamEvent, doc: TrfDocument) -> TrfDocument:
    """The points the organizer gave teams without a match (an absence, a late team's
    missed round) as TRF-26 299 records, last (docs/teams.md#absent-teams); an imported
    file's own 299 records are replaced by the stored awards they became."""
    records = tuple(
        record_299(rnd.number, award)
        for rnd in event.rounds
        for award in sorted(rnd.awarded, key=lambda a: a.team)
    )
    kept = tuple(h for h in doc.headers if h[0] != "299")
    return replace(doc, headers=(*kept, *records))


async def export_document(
    tournament: TournamentRow, session: AsyncSession, state: AppState, reader: TokenHolder | None
) -> tuple[TrfDocument, StandingsPublic]:
    """The tournament as a TRF document (players, rounds, results, header records) and
    its standings, as `reader` may see them (docs/rules/trf.md#kept-and-written-back)."""
    engine_view = await load_engine_tournament(session, tournament)
    if is_team_event(tournament):
        engine_view = replace(
            engine_view,
            rounds=trf_rounds(
                engine_view.rounds,
                await match_rows(session, tournament.id),
                await list_teams(session, tournament.id),
                {p.number: p.start_number or 0 for p in await list_players(session, tournament.id)},
                team_options(tournament).boards,
            ),
        )
    personal = shows_personal_data(tournament, reader)
    if not personal:
        engine_view = without_personal_data(engine_view)
    standings = await standings_public(state, session, tournament)
    config = config_of(tournament)
    headers = _export_headers(tournament.name, tournament.system, config)
    if tournament.total_rounds is not None and not any(c in ("XXR", "142") for c, _ in headers):
        headers.append(("XXR", str(tournament.total_rounds)))
    if not is_team_event(tournament):  # 152/XXC, 162, 202 (docs/rules/trf.md#settings-records)
        colour = engine_view.initial_colour if is_swiss(tournament.system) else None
        headers.extend(colour_records(headers, colour))
        headers.extend(scoring_records(headers, engine_view.points))
        headers.extend(tiebreak_records(headers, config.tiebreaks))
    if is_swiss(tournament.system):  # TRF-26 240/250/260 (docs/rules/swiss.md)
        listed = await list_players(session, tournament.id)
        withdrawn = {p.start_number for p in listed if p.extra.get("withdrawn") and p.start_number}
        paired = len(engine_view.rounds)
        headers.extend(swiss_trf_records(config.swiss, engine_view, paired, withdrawn))
    if is_team_event(tournament) and not any(c == "362" for c, _ in headers):
        options = team_options(tournament)  # TRF-26 362: the team match points
        points = (options.match_win, options.match_draw, options.match_loss)
        headers.append(
            (
                "362",
                "   ".join(
                    f"{code} {float(value):.1f}"
                    for code, value in zip(("TW", "TD", "TL"), points, strict=True)
                ),
            )
        )
    if (
        is_team_event(tournament)
        and not engine_view.rounds
        and not any(c == "352" for c, _ in headers)
    ):
        # TRF-26 352, one colour per board: before round 1 no match shows the boards
        # (once paired the matches do, some with colours as played: docs/teams.md)
        boards = board_sequence(team_options(tournament).boards)
        headers.append(("352", "".join("W" if c is Colour.WHITE else "B" for c in boards)))
    extras = {
        p.start_number: p.extra.get("trf") or {} for p in await list_players(session, tournament.id)
    }
    players = tuple(
        replace(p, title=p.title or extras.get(p.start_number, {}).get("title"))
        for p in engine_view.players
    )
    doc = TrfDocument(
        tournament=replace(engine_view, players=players),
        headers=tuple(headers),
        next_round_byes=_pending_byes(tournament, config),
        birth_dates={
            n: e["birth_date"]
            for n, e in extras.items()
            if personal and n is not None and "birth_date" in e
        },
        rating_zero=frozenset(n for n, e in extras.items() if n and e.get("rating_zero")),
    )
    return doc, standings


def _team_file_text(raw: bytes) -> str | None:
    """The file's text when it is a team file (310 or 013 records), else None."""
    text = decode_trf(raw)
    return text if is_team_trf(text) else None


def _export_headers(name: str, system: str, config: TournamentConfig) -> list[tuple[str, str]]:
    headers = [(code, name if code == "012" else rest) for code, rest in config.kept_headers]
    if not any(code == "012" for code, _ in headers):
        headers.insert(0, ("012", name))
    if not any(code in ("092", "192") for code, _ in headers):
        headers.insert(1, ("092", export_system(system, config.swiss)))
    return headers


def _pending_byes(tournament: TournamentRow, config: TournamentConfig) -> tuple[Bye, ...]:
    """Byes the imported file announced for the round after the current one."""
    return tuple(
        Bye(kept.round, kept.player, kept.kind)
        for kept in config.kept_byes
        if kept.round == tournament.current_round + 1
    )


@router.post(
    "/v1/tournaments/import",
    status_code=status.HTTP_201_CREATED,
    response_model=TournamentImported,
    openapi_extra=TRF_BODY,
)
async def import_trf(
    request: Request,
    context: WriteContextDep,
    state: StateDep,
    points: PointsQuery = "results",
) -> dict[str, Any]:
    """Create a tournament from a TRF-16 or TRF-26 file with its players, rounds and
    results, in the file's round state (paired rounds, pending games, announced byes).

    Refused with the line and columns, nothing stored: contradictory files, values
    outside the API's limits. A TRF-26 team file (310/013 records) becomes a team
    tournament (docs/teams.md), with its captains' tokens. The organizer token and
    the players' (and captains') tokens in the response are shown only once."""
    raw = await request.body()
    if len(raw) > MAX_TRF_BYTES:
        raise InvalidInput(f"the file exceeds {MAX_TRF_BYTES} bytes", field="body")
    captains = None
    team_text = await run_cpu(_team_file_text, raw)  # off the loop, as every upload
    if team_text is not None:  # a TRF-26 team file: a team tournament (docs/teams.md)
        teams = await import_team_trf(context.session, team_text)
        imported, captains = teams.imported, teams.captain_tokens
    else:
        imported = await import_trf_workflow(context.session, raw, points)
    await commit_and_publish(context, state, imported.tournament)
    return {
        **await tournament_public(context.session, imported.tournament),
        "organizer_token": imported.organizer_token,
        "player_tokens": imported.player_tokens,
        "captain_tokens": captains,
        "warnings": imported.warnings,
    }
