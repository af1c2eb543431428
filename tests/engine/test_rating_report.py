"""The rating report's header records (TRF-26 012-132) and the games it marks as rated
for neither player (docs/rules/trf.md#rating-report)."""

from __future__ import annotations

from datetime import date

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.rating_report import (
    MissingFact,
    ReportFacts,
    encoded_time_control,
    kept_round_dates,
    report_headers,
    unrated_pairs,
)

TOURNAMENT = Tournament(
    players=(Player(1, "A", 2000), Player(2, "B"), Player(3, "C"), Player(4, "D", 1900)),
    rounds=(
        Round(
            1,
            (
                Game(1, 1, 2, GameResult.WHITE_WINS),
                Game(1, 3, 4, GameResult.DRAW),
            ),
        ),
        Round(
            2,
            (
                Game(2, 2, 3, GameResult.BLACK_WINS),  # two unrated players
                Game(2, 4, 1, GameResult.WHITE_WINS_FORFEIT),
            ),
        ),
        Round(3, (Game(3, 3, 2, GameResult.WHITE_WINS_FORFEIT),)),  # unplayed: no mark
    ),
)


def _facts(**changes: object) -> ReportFacts:
    base: dict[str, object] = {
        "name": "Open",
        "city": "Graz",
        "federation": "AUT",
        "system": "FIDE_DUTCH_2025",
        "chief_arbiter": "Ho, Li",
        "deputy_arbiters": (),
        "time_control": (60, 0),
        "round_dates": {1: date(2026, 1, 30), 2: date(2026, 1, 31), 3: date(2026, 2, 1)},
        "rounds": (1, 2, 3),
    }
    base.update(changes)
    return ReportFacts(**base)  # type: ignore[arg-type]


def test_headers_of_a_complete_event() -> None:
    headers, missing = report_headers(_facts(), TOURNAMENT)
    assert missing == []
    records = dict(headers)
    assert (records["042"], records["052"]) == ("2026/01/30", "2026/02/01")
    assert (records["062"], records["072"]) == ("4", "2")
    assert records["122"] == "60'"
    line = "132 " + records["132"]
    assert (line[91:99], line[101:109], line[111:119]) == ("26/01/30", "26/01/31", "26/02/01")
    assert kept_round_dates(records["132"]) == _facts().round_dates


def test_missing_facts_are_named_in_record_order() -> None:
    facts = _facts(city=None, federation="", chief_arbiter=None, round_dates={2: date(2026, 1, 31)})
    headers, missing = report_headers(facts, TOURNAMENT)
    assert missing == [
        MissingFact("city", "022"),
        MissingFact("federation", "032"),
        MissingFact("officials.chief_arbiter", "102"),
        MissingFact("schedule", "132", (1, 3)),
    ]
    records = dict(headers)
    # the one date known is both first and last: written, and the gaps left blank
    assert (records["042"], records["052"]) == ("2026/01/31", "2026/01/31")
    assert "022" not in records and "102" not in records


def test_encoded_time_control() -> None:
    # TRF-26 222: 90 minutes + 30 seconds a move is 5400+30; no increment, the seconds
    assert encoded_time_control(90, 30) == "5400+30"
    assert encoded_time_control(60, 0) == "3600"


def test_games_between_two_unrated_players_are_marked() -> None:
    # round 2, B-C was played over the board between two unrated players: rated for
    # neither; round 3's forfeit between them was not played (its code says so)
    assert unrated_pairs(TOURNAMENT) == [(2, 2, 3)]


def test_imported_round_dates_skip_what_is_not_a_date() -> None:
    rest = " " * 87 + "24/03/09  xx/03/10  24/02/30  24/03/12"
    assert kept_round_dates(rest) == {1: date(2024, 3, 9), 4: date(2024, 3, 12)}
