"""The FIDE rating report as a TRF-26 file (docs/rules/trf.md#rating-report): the
tournament's crosstable with the header records the rating officer needs."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.routes.trf import export_document
from service.app.import_trf import export_system
from service.db.report_reads import recorded_dates
from service.db.tournament_config import TournamentConfig, config_of
from service.engine.model import Tournament
from service.engine.rating_report import (
    REPORT_CODES,
    MissingFact,
    ReportFacts,
    encoded_time_control,
    kept_round_dates,
    report_headers,
    unrated_pairs,
)
from service.engine.trf import write_trf
from service.errors import Conflict

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["trf"])


@router.get(
    "/ratings.trf",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"text/plain": {}}, "description": "TRF-26 text"},
        409: {"description": "Facts the report needs are missing: listed under `missing`."},
    },
)
async def rating_report_trf(
    tournament: TournamentDep, session: SessionDep, state: StateDep, reader: ReaderDep
) -> PlainTextResponse:
    """The FIDE rating report as a TRF-26 file: records 012, 022 (`city`), 032
    (`federation`), 042/052 (first and last round dates), 062/072 (players, rated
    players), 092, 102/112 (`officials`), 122/222 (`time_control`), 132 (each round's
    date: the `schedule`, else the day its first result was recorded, else the day it
    was paired, else an imported 132), the other
    imported records, and the 001 records of the rounds paired so far. Forfeits and byes
    are written with TRF-26's unrated codes; games between two unrated players, rated for
    neither, are listed in `###` comments. 409 when a fact is missing (no city,
    federation, chief arbiter, round date, or a game without a result): the problem
    lists each under `missing` (setting, record, rounds) and no file is written.
    Personal data as in `GET /trf`."""
    doc, standings = await export_document(tournament, session, state, reader)
    config = config_of(tournament)
    played = doc.tournament
    rounds = [rnd.number for rnd in played.rounds if rnd.games or rnd.byes]
    facts = ReportFacts(
        name=tournament.name,
        city=config.city or _kept(config, "022"),
        federation=config.federation or _kept(config, "032"),
        system=_kept(doc.headers, "092") or export_system(tournament.system, config.swiss),
        chief_arbiter=config.chief_arbiter or _kept(config, "102"),
        deputy_arbiters=config.deputy_arbiters
        or tuple(rest.strip() for code, rest in config.kept_headers if code == "112"),
        time_control=None
        if config.time_control is None
        else (config.time_control.base_minutes, config.time_control.increment_seconds),
        round_dates=_round_dates(config, rounds, await recorded_dates(session, tournament.id)),
        rounds=rounds,
    )
    headers, missing = report_headers(facts, played)
    missing.extend(_results_missing(played))
    if missing:
        raise Conflict(
            "the rating report lacks "
            + ", ".join(f"{m.field} ({m.record})" for m in missing)
            + ": set them, or record the results",
            field=missing[0].field,
            missing=[
                {"field": m.field, "record": m.record, "rounds": list(m.rounds)} for m in missing
            ],
        )
    written = {"112", "132"} | ({"122"} if facts.time_control else set())
    headers += [
        (code, rest)
        for code, rest in doc.headers
        if code not in REPORT_CODES and code not in written
    ]
    if facts.time_control is not None and not any(code == "222" for code, _ in headers):
        headers.append(("222", encoded_time_control(*facts.time_control)))
    headers += [
        ("###", f"not rated (both unrated): round {r}, {white} - {black}")
        for r, white, black in unrated_pairs(played)
    ]
    ranks = {row.start_number: row.rank for row in standings.rows}
    report = replace(doc, headers=tuple(headers), next_round_byes=())
    return PlainTextResponse(write_trf(report, ranks=ranks), media_type="text/plain")


def _kept(source: TournamentConfig | tuple[tuple[str, str], ...], code: str) -> str | None:
    """The first header record `code` of an imported file (or of the export's headers)."""
    headers = source.kept_headers if isinstance(source, TournamentConfig) else source
    for found, rest in headers:
        if found == code and rest.strip():
            return rest.strip()
    return None


def _round_dates(
    config: TournamentConfig, rounds: list[int], recorded: dict[int, date]
) -> dict[int, date]:
    """Each round's date: its scheduled start (the date as written), else the day the
    event log records for it, else an imported file's 132 date."""
    kept = next((kept_round_dates(rest) for code, rest in config.kept_headers if code == "132"), {})
    schedule = config.schedule or ()
    dates: dict[int, date] = {}
    for number in rounds:
        if number <= len(schedule) and schedule[number - 1]:
            dates[number] = datetime.fromisoformat(schedule[number - 1]).date()
        elif number in recorded:
            dates[number] = recorded[number]
        elif number in kept:
            dates[number] = kept[number]
    return dates


def _results_missing(played: Tournament) -> list[MissingFact]:
    """The rounds with a game still without a result, or none played at all."""
    pending = tuple(rnd.number for rnd in played.rounds if any(g.result is None for g in rnd.games))
    if pending:
        return [MissingFact("results", "001", pending)]
    if not any(rnd.games for rnd in played.rounds):
        return [MissingFact("results", "001")]
    return []
