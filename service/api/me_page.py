"""A player's result page for a phone (docs/phone.md): the current round's game (table,
colour, opponent), where its result stands, and buttons that report one.

The page is HTML written here with every name escaped; its script (`/v1/web/me.js`)
reports with the token it reads from the page's own address and re-draws the status
from the API's answers. The token is never written into the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from service.api.schemas.rounds import GamePublic
from service.errors import Problem

__all__ = ["MyGame", "error_html", "me_html", "status_text"]

RESULTS = (("1-0", "1-0", "White won"), ("1/2-1/2", "½-½", "Draw"), ("0-1", "0-1", "Black won"))
"""The results a player may report: (API value, shown, what it means)."""
_SHOWN = {value: shown for value, shown, _ in RESULTS}

_STYLE = """
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: #111; background: #fff; }
main { max-width: 32rem; margin: 0 auto; padding: 12px; overflow-wrap: anywhere; }
h1 { font-size: 1.1rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 12px 0 4px; }
p { margin: 6px 0; }
.who { color: #444; }
.colour { font-weight: bold; }
#status { padding: 10px; border-radius: 6px; background: #eee; font-weight: bold; }
#status[data-status=provisional] { background: #fff4cc; }
#status[data-status=confirmed] { background: #d8f5d8; }
#status[data-status=disputed] { background: #ffd9d9; }
.buttons { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 8px;
           margin: 12px 0; }
.buttons[hidden] { display: none; }
.buttons button, #refresh { min-height: 56px; font: inherit; font-size: 1.2rem;
           border: 1px solid #666; border-radius: 8px; background: #f7f7f7; color: #111; }
.buttons button small { display: block; font-size: 0.75rem; color: #444; }
.buttons button[aria-pressed=true] { background: #1b5e20; color: #fff; }
.buttons button[aria-pressed=true] small { color: #fff; }
#refresh { width: 100%; min-height: 44px; font-size: 1rem; }
#message:empty { display: none; }
#message { color: #8a1c1c; }
"""


@dataclass(frozen=True, slots=True)
class MyGame:
    """What the page shows: the player, and their game of the last paired round (None:
    no game, with `bye` naming a bye when there is one)."""

    tournament: str
    start_number: int
    name: str
    round: int
    withdrawn: bool
    game: GamePublic | None = None
    colour: str | None = None
    opponent: str | None = None
    bye: str | None = None


def status_text(game: GamePublic, colour: str) -> str:
    """Where the result stands, said to the player of `colour` (the script says the same)."""
    other = "black" if colour == "white" else "white"
    mine, theirs = game.reports.get(colour), game.reports.get(other)
    if game.status == "confirmed":
        return f"Confirmed: {_shown(game.result)}"
    if game.status == "disputed":
        return (
            f"Disputed: you reported {_shown(mine)}, your opponent {_shown(theirs)}; "
            "the arbiter decides"
        )
    if mine is not None:
        return f"Provisional: you reported {_shown(mine)}; waiting for your opponent to confirm"
    if theirs is not None:
        return (
            f"Your opponent reported {_shown(theirs)}: report the same to confirm it, "
            "or your result to dispute it"
        )
    return "No result reported yet"


def _shown(result: str | None) -> str:
    return "?" if result is None else _SHOWN.get(result, result)


def me_html(page: MyGame, assets: str) -> str:
    """The page; `assets` is the address of the scripts relative to it."""
    heading = (
        f"<h1>{escape(page.tournament)}</h1>"
        f"<p class=who>{page.start_number}. {escape(page.name)}</p>"
    )
    if page.game is None or page.colour is None:
        what = (
            f"Round {page.round}: {escape(page.bye)}"
            if page.bye
            else "No game paired for you yet"
            if page.round == 0
            else f"Round {page.round}: no game for you"
        )
        body = f"<h2>{what}</h2>"
    else:
        game = page.game
        open_ = game.status in ("pending", "provisional") and not page.withdrawn
        pressed = game.reports.get(page.colour)
        buttons = "".join(
            f'<button type=button data-result="{value}" '
            f"aria-pressed={'true' if value == pressed else 'false'}>"
            f"{shown}<small>{meaning}</small></button>"
            for value, shown, meaning in RESULTS
        )
        note = (
            "<p>You have withdrawn: your token no longer reports results.</p>"
            if page.withdrawn
            else ""
        )
        body = (
            f"<section id=game data-round={page.round} data-table={game.table} "
            f"data-colour={page.colour}{' data-withdrawn' if page.withdrawn else ''}>"
            f"<h2>Round {page.round} · Table {game.table}</h2>"
            f"<p>You play <span class=colour>{page.colour.capitalize()}</span> against "
            f"<b id=opponent>{escape(page.opponent or '')}</b></p>"
            f'<p id=status role=status aria-live=polite data-status="{game.status}">'
            f"{escape(status_text(game, page.colour))}</p>{note}"
            f"<div class=buttons{'' if open_ else ' hidden'}>{buttons}</div>"
            "<p id=message role=alert></p>"
            "<button type=button id=refresh>Refresh</button></section>"
            f'<script src="{assets}/me.js" defer></script>'
        )
    return _document(f"{page.name}: my game", heading + body)


def error_html(problem: Problem) -> str:
    """A page saying what went wrong and what to do, for a phone that scanned a card."""
    hint = {
        401: "Scan the QR code on your card again, or ask the arbiter for a new card.",
        403: "This page is for a player's own card.",
        410: "The tournament has been archived.",
    }.get(problem.status, "")
    return _document(
        problem.title,
        f"<h1>{escape(problem.title)}</h1><p id=problem>{escape(problem.detail)}</p>"
        + (f"<p>{hint}</p>" if hint else ""),
    )


def _document(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        '<meta name=referrer content=no-referrer><link rel=icon href="data:,">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main></body></html>"
    )
