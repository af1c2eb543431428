"""`POST /v1/compute/ratings` in a compute worker: the body (a TRF-16 file or a JSON
`RatingsTournament`) -> the engine's rating rows -> the response document."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pydantic import ValidationError

from service.api.compute_input import EngineInput, from_json, trf_document
from service.api.errors import validation_problem
from service.api.schemas.ratings import (
    ComputeRatings,
    ExcludedGameOut,
    ForecastOut,
    InitialRatingOut,
    NormConditionOut,
    NormOptionOut,
    NormOut,
    OpponentNeeded,
    RatingsRow,
    RatingsTournament,
)
from service.engine.ratings.event import PlayerFacts, RatingRow, rate_event
from service.engine.ratings.norm_event import NormSettings, format_of_system
from service.engine.ratings.norm_forecast import Forecast, Requirement
from service.engine.systems import declares_other_swiss, system_from_trf
from service.engine.trf import TrfDocument, decode_trf

__all__ = ["NormQuery", "ratings_document", "rows_document", "trf_norm_settings", "trf_year"]

_FEDERATION = re.compile(r"^[A-Za-z]{3}$")


@dataclass(frozen=True, slots=True)
class NormQuery:
    """The norm settings a query (or the command line) gives; None: the body's."""

    kind: str | None = None
    format: str | None = None
    host_federation: str | None = None


_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")


def trf_year(doc: TrfDocument) -> int | None:
    """The event's year from a TRF file's start date (record 042), else its end date
    (052); None when neither names a year."""
    for code in ("042", "052"):
        for header, text in doc.headers:
            if header == code and (found := _YEAR.search(text)):
                return int(found.group(1))
    return None


def trf_norm_settings(doc: TrfDocument, query: NormQuery | None = None) -> NormSettings:
    """The norm settings of a TRF file: the query's, else the format its 092/192 names
    and the host federation its 032 gives."""
    query = query or NormQuery()
    spec = system_from_trf(doc.system)
    declared = format_of_system(spec.name if spec else None)
    if declared is None and declares_other_swiss(doc.system):
        declared = "swiss"
    host = next((text.strip() for code, text in doc.headers if code == "032"), "")
    return NormSettings(
        kind=query.kind or "ordinary",
        format=query.format or declared,
        host_federation=query.host_federation
        or (host.upper() if _FEDERATION.match(host) else None),
    )


def ratings_document(
    raw: bytes, is_json: bool, year: int | None, query: NormQuery | None = None
) -> ComputeRatings:
    """The rows of the body's tournament; `year` and the norm settings of `query`
    override the body's."""
    query = query or NormQuery()
    if not is_json:
        doc = trf_document(decode_trf(raw))
        players = doc.tournament.players
        data = EngineInput(doc.tournament, {p.start_number: p.start_number for p in players})
        return rows_document(data, {}, year or trf_year(doc), trf_norm_settings(doc, query))
    try:
        body = RatingsTournament.model_validate_json(raw)
    except ValidationError as exc:
        errors = [{"loc": ("body", *e["loc"]), "msg": e["msg"]} for e in exc.errors()]
        raise validation_problem(errors) from None
    data = from_json(body)
    by_number = dict(enumerate(body.players, start=1))
    players = tuple(
        replace(
            p,
            birth_year=by_number[p.start_number].birth_year,
            title=by_number[p.start_number].title,
            federation=by_number[p.start_number].federation,
            sex=by_number[p.start_number].sex,
        )
        for p in data.tournament.players
    )
    data = replace(data, tournament=replace(data.tournament, players=players))
    facts = {
        n: PlayerFacts(k=p.k, games_before=p.games_before, reached_2400=p.reached_2400)
        for n, p in by_number.items()
    }
    norms = NormSettings(
        kind=query.kind or body.event_kind,
        format=query.format
        or body.event_format
        or format_of_system(body.system.value if body.system else None),
        host_federation=(query.host_federation or body.host_federation or "").upper() or None,
    )
    return rows_document(data, facts, year or body.year, norms)


def rows_document(
    data: EngineInput,
    facts: dict[int, PlayerFacts],
    year: int | None,
    norms: NormSettings | None = None,
) -> ComputeRatings:
    """The response document of the engine's rows."""
    rows = rate_event(data.tournament, facts, year=year, norm_settings=norms)
    return ComputeRatings(
        year=year, players=[_row(data.ids[r.start_number], r, data.ids) for r in rows]
    )


def _needed(requirement: Requirement | None) -> OpponentNeeded | None:
    if requirement is None:
        return None
    return OpponentNeeded(
        min_rating=requirement.min_rating,
        titles=None if requirement.titles is None else list(requirement.titles),
        new_federation=requirement.new_federation,
        federations_excluded=list(requirement.federations_excluded),
    )


def _forecast(forecast: Forecast | None, ids: dict[int, int | str]) -> ForecastOut | None:
    if forecast is None:
        return None
    first = forecast.options[0].against if forecast.options else None
    return ForecastOut(
        round=forecast.round,
        opponent=None if forecast.opponent is None else ids[forecast.opponent],
        status=forecast.status,
        needs=forecast.needs,
        against=_needed(first),
        options=[
            NormOptionOut(result=o.result, against=_needed(o.against)) for o in forecast.options
        ],
    )


def _row(player_id: int | str, row: RatingRow, ids: dict[int, int | str]) -> RatingsRow:
    initial = row.initial
    return RatingsRow(
        id=player_id,
        rating=row.rating or None,
        k=row.k,
        k_rule=row.k_rule,
        games=row.games,
        score=float(row.score),
        expected=None if row.expected is None else float(row.expected),
        change=None if row.change is None else float(row.change),
        performance=row.performance,
        initial=None
        if initial is None
        else InitialRatingOut(
            status=initial.status,
            rating=initial.rating,
            computed=initial.computed,
            average=None if initial.average is None else float(initial.average),
            percent=initial.percent,
        ),
        missing=list(row.missing),
        norms=[
            NormOut(
                title=norm.title,
                met=norm.met,
                conditions=[
                    NormConditionOut(
                        name=c.name,
                        value=c.value,
                        required=c.required,
                        met=c.met,
                        missing=list(c.missing),
                        exempt=c.exempt or None,
                    )
                    for c in norm.conditions
                ],
                excluded=[
                    ExcludedGameOut(round=g.round, opponent=ids[g.opponent]) for g in norm.excluded
                ],
                forecast=_forecast(row.forecasts.get(norm.title), ids),
            )
            for norm in row.norms
        ],
    )
