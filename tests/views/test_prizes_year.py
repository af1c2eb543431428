"""The event's year for age categories (service/views/prizes.py, docs/rules/prizes.md)."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.views.prizes import event_year


def _row(settings: dict[str, Any]) -> TournamentRow:
    return TournamentRow(
        id="t1",
        name="Open",
        system="swiss-dutch",
        organizer_token_hash="",
        settings=settings,
        created_at=datetime(2031, 3, 1),
    )


def _year(settings: dict[str, Any]) -> int:
    row = _row(settings)
    return event_year(row, config_of(row))


def test_the_organizers_year_comes_first() -> None:
    schedule = ["2029-07-01T10:00:00Z"]
    assert _year({"prizes": {"places": ["100"], "year": 2027}, "schedule": schedule}) == 2027


def test_then_the_first_scheduled_round() -> None:
    assert _year({"prizes": {"places": ["100"]}, "schedule": ["2029-07-01T10:00:00Z"]}) == 2029


def test_a_round_without_a_start_time_is_passed_over() -> None:
    assert _year({"schedule": [None, "2030-01-02T10:00:00Z"]}) == 2030


def test_then_an_imported_files_start_date() -> None:
    assert _year({"trf": {"headers": [["042", "2028/12/30"]]}}) == 2028


def test_then_the_year_of_creation() -> None:
    assert _year({}) == 2031


def test_the_stored_setting_reads_into_exact_rules() -> None:
    rules = config_of(
        _row(
            {
                "prizes": {
                    "places": ["100.50", "50"],
                    "categories": [{"name": "U18", "max_age": 18, "amounts": ["20"]}],
                    "ties": "hort",
                    "one_prize": "place-first",
                    "year": None,
                }
            }
        )
    ).prizes
    assert rules is not None
    assert rules.places == (Fraction(201, 2), Fraction(50))
    assert (rules.ties, rules.one_prize, rules.year) == ("hort", "place-first", None)
    assert rules.categories[0].max_age == 18
    assert config_of(_row({"prizes": None})).prizes is None
