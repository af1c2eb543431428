"""Player cards: JSON per player, and printable pages of cards.

A card lists every round, so the cards of a tournament grow with players × rounds (a
400-player round-robin: 400 cards of 399 lines). The printable cards therefore come in
pages (`?first=` start number, `?count=` cards) of at most `MAX_CARD_LINES` lines,
with a `Link: <...>; rel="next"` header and a link to the next page; only the page's
players' games are read, and the cards are built and rendered off the event loop
(docs/api.md#limits). `POST /cards` prints the cards of the players whose tokens the
organizer sends, each with a QR code of the player's result page (docs/phone.md).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import shows_personal_data
from service.api.cards import card_model, cards_html, rated_card_json
from service.api.deps import (
    OrganizerPostDep,
    PageTournamentDep,
    ReaderDep,
    SessionDep,
    StateDep,
    TournamentDep,
)
from service.api.phone_cards import checked_tokens
from service.api.schemas.cards import PhoneCards, PlayerCard
from service.api.security import NO_STORE
from service.api.state import AppState
from service.app.offload import run_cpu
from service.db.cards import card_rows, numbered_players, paired_rounds
from service.db.player_reads import start_number_of
from service.db.tables import TournamentRow
from service.errors import InvalidInput, NotFound
from service.views.cards import Card, build_cards, with_ratings
from service.views.rating_changes import card_figures

__all__ = ["MAX_CARDS_PAGE", "MAX_CARD_LINES", "router"]

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["cards"])

MAX_CARDS_PAGE = 100
"""Most cards on one printable page (25 A4 sheets)."""
MAX_CARD_LINES = 20_000
"""Most card lines (cards × rounds) on one printable page."""

Ratings = Annotated[
    bool,
    Query(
        description="Add the FIDE rating figures: K, expected score and change so far, and "
        "each game's share (docs/rules/ratings.md#where-the-change-is-shown)."
    ),
]


async def _rated(
    state: AppState,
    session: AsyncSession,
    tournament: TournamentRow,
    cards: dict[int, Card],
    *,
    personal: bool,
) -> dict[int, Card]:
    """The cards with their rating figures (FIDE B.02 8.3)."""
    figures = await card_figures(state.views, session, tournament, list(cards), personal=personal)
    return with_ratings(cards, figures)


@router.get("/players/{number}/card", response_model=PlayerCard)
async def player_card(
    tournament: TournamentDep,
    session: SessionDep,
    state: StateDep,
    reader: ReaderDep,
    number: int = Path(ge=1, le=100_000, description="The player's number in the tournament"),
    ratings: Ratings = False,
) -> PlayerCard | Response:
    """A player's card: for every round paired so far, start time (from the tournament's
    schedule), table, colour and opponent (Formuła FLAMPARK, "Karta gracza"). With
    `ratings=true` (FIDE B.02 8.3): the event's `rating_change` (null for an unrated
    player) and each game's `rating` (its PD and change, or why it is not rated)."""
    start_number = await start_number_of(session, tournament.id, number)
    players = await numbered_players(session, tournament.id)
    if start_number not in {p.start_number for p in players}:
        raise NotFound(f"no player with start number {start_number}", field="start_number")
    rounds = await paired_rounds(session, tournament.id)
    games, byes = await card_rows(session, tournament.id, start_number, start_number)
    cards = await run_cpu(build_cards, tournament, players, games, byes, rounds, [start_number])
    if ratings:
        personal = shows_personal_data(tournament, reader)
        cards = await _rated(state, session, tournament, cards, personal=personal)
        return JSONResponse(rated_card_json(cards[start_number]))
    return card_model(cards[start_number])


@router.get(
    "/cards",
    response_class=HTMLResponse,
    responses={200: {"content": {"text/html": {}}, "description": "Printable cards"}},
)
async def all_cards(
    request: Request,
    tournament: PageTournamentDep,
    session: SessionDep,
    state: StateDep,
    first: Annotated[
        int, Query(ge=1, le=100_000, description="Start number of the page's first card")
    ] = 1,
    count: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_CARDS_PAGE,
            description="Cards on the page (default: as many as fit "
            f"{MAX_CARD_LINES} lines, at most {MAX_CARDS_PAGE})",
        ),
    ] = None,
    ratings: Ratings = False,
) -> HTMLResponse:
    """The players' cards on printable pages, one per A6 block (four to an A4 sheet),
    from start number `first` on; a page holds at most 100 cards and 20,000 lines
    (cards × rounds), and links to the next one (`Link: rel="next"`). A private
    tournament's page takes its token as `?token=`. `ratings=true` prints each card's
    K, expected score and change so far, and each game's change."""
    rounds = await paired_rounds(session, tournament.id)
    fits = max(1, MAX_CARD_LINES // max(1, len(rounds)))
    if count is not None and count > fits:
        raise InvalidInput(
            f"{count} cards of {len(rounds)} rounds exceed {MAX_CARD_LINES} lines: "
            f"ask for at most {fits} cards a page",
            field="count",
            limit=fits,
        )
    size = min(MAX_CARDS_PAGE, fits) if count is None else count
    players = await numbered_players(session, tournament.id)
    following = [p.start_number for p in players if p.start_number >= first]
    page = following[:size]
    games, byes = await card_rows(session, tournament.id, page[0], page[-1]) if page else ([], [])
    next_page = None
    if len(following) > size:
        query = request.url.include_query_params(first=following[size]).query
        next_page = f"{request.url.path}?{query}"
    cards = await run_cpu(build_cards, tournament, players, games, byes, rounds, page)
    if ratings:  # a printed page is for anyone: personal data only once published
        personal = shows_personal_data(tournament, None)
        cards = await _rated(state, session, tournament, cards, personal=personal)
    html = await run_cpu(partial(cards_html, ratings=ratings), tournament, cards, next_page)
    headers = {"Link": f'<{next_page}>; rel="next"'} if next_page else None
    return HTMLResponse(html, headers=headers)


@router.post(
    "/cards",
    response_class=HTMLResponse,
    responses={200: {"content": {"text/html": {}}, "description": "Printable phone cards"}},
)
async def phone_cards(
    body: PhoneCards,
    request: Request,
    tournament: TournamentDep,
    organizer: OrganizerPostDep,
    session: SessionDep,
    state: StateDep,
    ratings: Ratings = False,
) -> HTMLResponse:
    """The organizer's printable cards of the players listed in `player_tokens` (as the
    start or a token rotation returned them), each with a QR code of the player's result
    page `/me?token=...` (docs/phone.md). Each token must be the player's current one
    (422 naming the entry); nothing is stored, and the page is never cached.
    `ratings=true` prints the rating figures as `GET /cards` does."""
    tokens = await checked_tokens(session, tournament.id, body.player_tokens)
    rounds = await paired_rounds(session, tournament.id)
    fits = max(1, MAX_CARD_LINES // max(1, len(rounds)))
    if len(tokens) > fits:
        raise InvalidInput(
            f"{len(tokens)} cards of {len(rounds)} rounds exceed {MAX_CARD_LINES} lines: "
            f"send at most {fits} players a page",
            field="player_tokens",
            limit=fits,
        )
    numbers = list(tokens)
    players = await numbered_players(session, tournament.id)
    games, byes = await card_rows(session, tournament.id, numbers[0], numbers[-1])
    page = str(request.url_for("my_page", tournament_id=tournament.id))
    links = {number: f"{page}?{urlencode({'token': token})}" for number, token in tokens.items()}
    cards = await run_cpu(build_cards, tournament, players, games, byes, rounds, numbers)
    if ratings:
        cards = await _rated(state, session, tournament, cards, personal=True)
    html = await run_cpu(partial(cards_html, ratings=ratings), tournament, cards, None, links)
    return HTMLResponse(html, headers={"Cache-Control": NO_STORE})
