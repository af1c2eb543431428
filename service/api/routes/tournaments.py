"""Tournaments: create, read, change the safe settings, archive, close the start list
(docs/api.md#settings-and-archival)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from service.api.deps import (
    OrganizerWriteDep,
    SessionDep,
    StateDep,
    TournamentDep,
    WriteContextDep,
)
from service.api.documents import tournament_public
from service.api.observability import observe_pairing
from service.api.publish import commit_and_publish
from service.api.schemas.access import TournamentSettingsChanged, TournamentSettingsPatch
from service.api.schemas.tournaments import (
    TournamentCreate,
    TournamentCreated,
    TournamentPublic,
    TournamentStarted,
)
from service.app.archive import archive as archive_workflow
from service.app.create import create_tournament
from service.app.settings import change_settings as change_settings_workflow
from service.app.start import start as start_workflow

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TournamentCreated)
async def create(
    body: TournamentCreate, context: WriteContextDep, state: StateDep
) -> dict[str, Any]:
    """Create a tournament; the organizer token in the response is shown only once."""
    settings = body.model_dump(mode="json", exclude={"name", "system", "rounds", "visibility"})
    session = context.session
    created = await create_tournament(
        session,
        name=body.name,
        system=body.system,
        settings=settings,
        total_rounds=body.rounds,
        private=body.visibility == "private",
    )
    await commit_and_publish(context, state, created.tournament)
    return {
        **await tournament_public(session, created.tournament),
        "organizer_token": created.organizer_token,
        "viewer_token": created.viewer_token,
    }


@router.get("/{tournament_id}", response_model=TournamentPublic)
async def read(tournament: TournamentDep, session: SessionDep) -> dict[str, Any]:
    """A tournament's settings and state."""
    return await tournament_public(session, tournament)


@router.post("/{tournament_id}/start", response_model=TournamentStarted)
async def start(request: Request, write: OrganizerWriteDep) -> dict[str, Any]:
    """Close the start list: number players by rating (descending, ties by name), issue
    their tokens (shown only this once) and, for round-robins and FLAMPARK, pair every
    round. FLAMPARK needs at least 2 x rounds players (422 naming both numbers) and
    warns below 3 x rounds."""
    session, tournament = write.session, write.tournament
    with observe_pairing(request.app, tournament.system):  # schedules paired in advance
        started = await start_workflow(session, tournament)
    await commit_and_publish(
        write.context, write.state, tournament, warm=True, schedule=started.schedule
    )
    tokens = [
        {"start_number": p.start_number, "name": p.name, "token": token}
        for p, token in started.issued
    ]
    return {
        **await tournament_public(session, tournament),
        "player_tokens": tokens,
        "warnings": started.warnings,
    }


@router.patch("/{tournament_id}", response_model=TournamentSettingsChanged)
async def change_settings(
    body: TournamentSettingsPatch,
    write: OrganizerWriteDep,
) -> dict[str, Any]:
    """Change settings that alter no pairing already made (organizer): `name`,
    `schedule`, `tiebreaks`, `time_control`, `visibility`, `publish_personal_data`,
    `prizes` (docs/rules/prizes.md), `norms` (docs/rules/ratings.md#the-events-kind),
    `city`, `federation`, `officials` (the rating report's facts,
    docs/rules/trf.md#rating-report), and a Swiss tournament's `swiss` forbidden pairs,
    acceleration and announced byes (docs/rules/swiss.md; between rounds, as the rules
    there allow: else 409 naming the field); any other field is 422 naming it. A change appends
    a `settings_changed` event with the `before` and `after` values, so live clients see
    it; a request that changes nothing appends none. Making a tournament private issues
    its viewer token (in the response, once) unless it has one."""
    session, state, tournament = write.session, write.state, write.tournament
    requested = body.model_dump(mode="json", include=set(body.model_fields_set))
    if body.swiss is not None:  # only the Swiss fields sent
        requested["swiss"] = body.swiss.model_dump(mode="json", exclude_unset=True)
    outcome = await change_settings_workflow(session, tournament, requested)
    if outcome.changed:
        await commit_and_publish(write.context, state, tournament)
    return {**await tournament_public(session, tournament), "viewer_token": outcome.viewer_token}


@router.delete("/{tournament_id}", status_code=status.HTTP_204_NO_CONTENT)
async def archive(
    write: OrganizerWriteDep,
) -> Response:
    """Archive a tournament (organizer): it leaves every list and answers 410 Gone to
    everyone but its organizer, who can still read and export it; nothing can be
    written to it any more. Its data is kept. A `tournament_archived` event tells live
    clients. Archiving again is 410."""
    await archive_workflow(write.session, write.tournament)
    await commit_and_publish(write.context, write.state, write.tournament)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
