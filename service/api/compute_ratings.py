"""`POST /v1/compute/ratings` in a compute worker: the body (a TRF-16 file or a JSON
`RatingsTournament`) -> the engine's rating rows -> the response document."""

from __future__ import annotations

import re
from dataclasses import replace

from pydantic import ValidationError

from service.api.compute_input import EngineInput, from_json, trf_document
from service.api.errors import validation_problem
from service.api.schemas.ratings import (
    ComputeRatings,
    InitialRatingOut,
    NormConditionOut,
    NormOut,
    RatingsRow,
    RatingsTournament,
)
from service.engine.ratings.event import PlayerFacts, RatingRow, rate_event
from service.engine.trf import TrfDocument, decode_trf

__all__ = ["ratings_document", "rows_document", "trf_year"]

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")


def trf_year(doc: TrfDocument) -> int | None:
    """The event's year from a TRF file's start date (record 042), else its end date
    (052); None when neither names a year."""
    for code in ("042", "052"):
        for header, text in doc.headers:
            if header == code and (found := _YEAR.search(text)):
                return int(found.group(1))
    return None


def ratings_document(raw: bytes, is_json: bool, year: int | None) -> ComputeRatings:
    """The rows of the body's tournament; `year` (the query's) overrides the body's."""
    if not is_json:
        doc = trf_document(decode_trf(raw))
        players = doc.tournament.players
        data = EngineInput(doc.tournament, {p.start_number: p.start_number for p in players})
        return rows_document(data, {}, year or trf_year(doc))
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
    return rows_document(data, facts, year or body.year)


def rows_document(
    data: EngineInput, facts: dict[int, PlayerFacts], year: int | None
) -> ComputeRatings:
    """The response document of the engine's rows."""
    rows = rate_event(data.tournament, facts, year=year)
    return ComputeRatings(year=year, players=[_row(data.ids[r.start_number], r) for r in rows])


def _row(player_id: int | str, row: RatingRow) -> RatingsRow:
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
                    )
                    for c in norm.conditions
                ],
            )
            for norm in row.norms
        ],
    )
