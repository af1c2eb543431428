"""Pairing-quality figures (Formuła FLAMPARK: the FK6 versus Swiss-open comparison)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter

from service.api.deps import SessionDep, TournamentDep
from service.db.tournament_reads import load_engine_tournament
from service.engine.stats import pairing_quality

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["stats"])


@router.get("/stats")
async def read_stats(tournament: TournamentDep, session: SessionDep) -> dict[str, Any]:
    """For every paired game so far (any system): the share of games with a rating gap
    under 100, under 200 and over 400; the share of players whose opponents' mean rating
    is within 50 and 100 of their own; the mean absolute deviation overall, for the top
    ten and in per cent; the top ten's mean opponent rating; the largest start-number
    gap between opponents. Shares are fractions (0.81 = 81 %); null when undefined."""
    engine = await load_engine_tournament(session, tournament, confirmed_only=False)
    return asdict(pairing_quality(engine.players, engine.rounds))
