"""Player cards: JSON per player, and a printable page with every card."""

from __future__ import annotations

from fastapi import APIRouter, Path
from fastapi.responses import HTMLResponse

from service.api.cards import build_cards, cards_html
from service.api.deps import PageTournamentDep, SessionDep, TournamentDep
from service.api.schemas.cards import PlayerCard
from service.app.offload import run_cpu
from service.db.repository import list_players, round_rows, start_number_of
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.errors import NotFound

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["cards"])


@router.get("/players/{number}/card", response_model=PlayerCard)
async def player_card(
    tournament: TournamentDep,
    session: SessionDep,
    number: int = Path(ge=1, le=100_000, description="The player's number in the tournament"),
) -> PlayerCard:
    """A player's card: for every round paired so far, start time (from the tournament's
    schedule), table, colour and opponent (seed 000, "Karta gracza")."""
    start_number = await start_number_of(session, tournament.id, number)
    players = await list_players(session, tournament.id)
    games, byes = await round_rows(session, tournament.id)
    cards = await run_cpu(build_cards, tournament, players, games, byes)
    if start_number not in cards:
        raise NotFound(f"no player with start number {start_number}", field="start_number")
    return cards[start_number]


@router.get(
    "/cards",
    response_class=HTMLResponse,
    responses={200: {"content": {"text/html": {}}, "description": "Printable cards"}},
)
async def all_cards(tournament: PageTournamentDep, session: SessionDep) -> HTMLResponse:
    """Every player's card on a printable page, one per A6 block (four to an A4 sheet);
    a private tournament's page takes its token as `?token=`."""
    players = await list_players(session, tournament.id)
    games, byes = await round_rows(session, tournament.id)
    page = await run_cpu(_page, tournament, players, games, byes)  # off the event loop
    return HTMLResponse(page)


def _page(
    tournament: TournamentRow, players: list[PlayerRow], games: list[GameRow], byes: list[ByeRow]
) -> str:
    return cards_html(tournament, build_cards(tournament, players, games, byes))
