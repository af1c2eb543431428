"""Players: register, list, change and remove while the start list is open; late
entries (Swiss) and withdrawals (every running tournament)."""

from __future__ import annotations

from fastapi import APIRouter, Path, Response, status

from service.api.access import shows_personal_data
from service.api.deps import OrganizerWriteDep, ReaderDep, SessionDep, TournamentDep
from service.api.documents import player_public
from service.api.publish import commit_and_publish
from service.api.schemas.players import (
    PlayerCreate,
    PlayerPublic,
    PlayerRegistered,
    PlayerUpdate,
)
from service.app.register import register as register_player
from service.app.remove_player import remove_player
from service.app.withdraw import change_player
from service.db.player_reads import list_players

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/players", tags=["players"])

PlayerNumber = Path(
    ge=1,
    description="The player's number in the tournament (`id`, given on registration: 1, 2, "
    "3 in registration order; the same before and after the start)",
)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PlayerRegistered)
async def register(body: PlayerCreate, write: OrganizerWriteDep) -> PlayerRegistered:
    """Register a player (organizer; start list open). A Swiss tournament also takes late
    entries while running: the player gets the next start number and a token."""
    player, token = await register_player(write.session, write.tournament, body.model_dump())
    await commit_and_publish(write.context, write.state, write.tournament)
    return PlayerRegistered(**player_public(player).model_dump(), token=token)


@router.get("", response_model=list[PlayerPublic])
async def list_all(
    tournament: TournamentDep, session: SessionDep, reader: ReaderDep
) -> list[PlayerPublic]:
    """Every player, in start-number order once the list is closed. FIDE id,
    federation, sex, birth year and identity are null except for the organizer, unless
    the organizer publishes them (`publish_personal_data`)."""
    personal = shows_personal_data(tournament, reader)
    return [player_public(p, personal=personal) for p in await list_players(session, tournament.id)]


@router.patch("/{number}", response_model=PlayerPublic)
async def change(
    body: PlayerUpdate, write: OrganizerWriteDep, number: int = PlayerNumber
) -> PlayerPublic:
    """Change a player's details (organizer; start list open), or withdraw a player from a
    running tournament with `{"withdrawn": true}`: not paired again in a Swiss; in a
    schedule paired in advance every game with no result reported is forfeited."""
    fields = body.model_dump(exclude_unset=True)
    player = await change_player(write.session, write.tournament, number, fields)
    await commit_and_publish(write.context, write.state, write.tournament)
    return player_public(player)


@router.delete("/{number}", status_code=status.HTTP_204_NO_CONTENT)
async def remove(write: OrganizerWriteDep, number: int = PlayerNumber) -> Response:
    """Remove a player (organizer; start list open)."""
    await remove_player(write.session, write.tournament, number)
    await commit_and_publish(write.context, write.state, write.tournament)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
