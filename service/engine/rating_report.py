"""The header records of a FIDE rating report (TRF-26 tournament section, records
012-132) and what the report lacks (docs/rules/trf.md#rating-report).

TRF-26 marks the records the rating officer needs (012 name, 022 city, 032 federation,
042/052 first and last dates, 102 chief arbiter, 132 round dates); a fact the event
does not hold is reported missing, never guessed. Dates: 042/052 `YYYY/MM/DD`; 132
`YY/MM/DD` in the round's columns (round 1 at 92-99, round 2 at 102-109, ...).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from service.engine.model import Tournament

__all__ = [
    "MissingFact",
    "ReportFacts",
    "encoded_time_control",
    "kept_round_dates",
    "report_headers",
    "unrated_pairs",
]

REPORT_CODES = frozenset({"012", "022", "032", "042", "052", "062", "072", "092", "102"})
"""Records the report writes itself; 112, 122, 132 are written too, 222 when known."""
_ROUND_COLUMN = 91
"""0-based index of round 1's date in a 132 record (TRF-26: positions 92-99)."""
_ROUND_WIDTH = 10


@dataclass(frozen=True, slots=True)
class MissingFact:
    """A fact the rating report needs and the tournament does not hold: the setting
    that would give it, the TRF record, and the rounds concerned (dates, results)."""

    field: str
    record: str
    rounds: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportFacts:
    """What the report's headers say, as the tournament holds it."""

    name: str
    city: str | None
    federation: str | None
    system: str
    """Record 092's text."""
    chief_arbiter: str | None
    deputy_arbiters: tuple[str, ...]
    time_control: tuple[int, int] | None
    """(base minutes, increment seconds)."""
    round_dates: Mapping[int, date]
    """Each reported round's date, where known."""
    rounds: Sequence[int]
    """The reported rounds, in order."""


def report_headers(
    facts: ReportFacts, tournament: Tournament
) -> tuple[list[tuple[str, str]], list[MissingFact]]:
    """The header records (code, rest of line) and the facts missing. 062 counts the
    players, 072 the rated ones (a rating above 0)."""
    missing: list[MissingFact] = []
    headers: list[tuple[str, str]] = [("012", facts.name)]
    for code, value, setting in (
        ("022", facts.city, "city"),
        ("032", facts.federation, "federation"),
    ):
        if value:
            headers.append((code, value))
        else:
            missing.append(MissingFact(setting, code))
    dates = [facts.round_dates[r] for r in facts.rounds if r in facts.round_dates]
    undated = tuple(r for r in facts.rounds if r not in facts.round_dates)
    if dates:
        headers.append(("042", min(dates).strftime("%Y/%m/%d")))
        headers.append(("052", max(dates).strftime("%Y/%m/%d")))
    players = tournament.players
    headers.append(("062", str(len(players))))
    headers.append(("072", str(sum(1 for p in players if p.rating > 0))))
    headers.append(("092", facts.system))
    if facts.chief_arbiter:
        headers.append(("102", facts.chief_arbiter))
    else:
        missing.append(MissingFact("officials.chief_arbiter", "102"))
    if not facts.rounds:
        missing.append(MissingFact("schedule", "042"))
    elif undated:
        missing.append(MissingFact("schedule", "132", undated))
    headers.extend(("112", deputy) for deputy in facts.deputy_arbiters)
    if facts.time_control is not None:
        base, increment = facts.time_control
        headers.append(("122", f"{base}'" + (f'+{increment}"' if increment else "")))
    if dates:
        headers.append(("132", _round_dates(facts)))
    return headers, missing


def encoded_time_control(base_minutes: int, increment_seconds: int) -> str:
    """TRF-26 222, one period for the whole game: seconds, `+` the increment
    (90 minutes + 30 seconds a move: `5400+30`)."""
    seconds = str(base_minutes * 60)
    return f"{seconds}+{increment_seconds}" if increment_seconds else seconds


def _round_dates(facts: ReportFacts) -> str:
    """The rest of a 132 record: each round's date in its round's columns."""
    line = " " * (_ROUND_COLUMN - 4)
    for index, number in enumerate(facts.rounds):
        day = facts.round_dates.get(number)
        cell = day.strftime("%y/%m/%d") if day is not None else "        "
        line += cell + ("  " if index < len(facts.rounds) - 1 else "")
    return line.rstrip()


def kept_round_dates(rest: str) -> dict[int, date]:
    """The dates of an imported 132 record by round (`YY/MM/DD` read as 20YY); a cell
    that is not a date is left out."""
    found: dict[int, date] = {}
    start = _ROUND_COLUMN - 4
    index = 0
    while start + 8 <= len(rest):
        cell = rest[start : start + 8]
        parts = cell.split("/")
        if len(parts) == 3 and all(p.isdigit() and len(p) == 2 for p in parts):
            with contextlib.suppress(ValueError):
                found[index + 1] = date(2000 + int(parts[0]), int(parts[1]), int(parts[2]))
        start += _ROUND_WIDTH
        index += 1
    return found


def unrated_pairs(tournament: Tournament) -> list[tuple[int, int, int]]:
    """Games played over the board between two unrated players (round, white, black):
    rated for neither, since an unrated player's rating is computed from games against
    rated opponents only (FIDE B.02 8.2.2)."""
    rated = {p.start_number for p in tournament.players if p.rating > 0}
    return [
        (rnd.number, game.white, game.black)
        for rnd in tournament.rounds
        for game in rnd.games
        if game.result is not None
        and game.result.played
        and game.white not in rated
        and game.black not in rated
    ]
