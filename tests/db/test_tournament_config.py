"""A tournament's stored settings read into typed values (db/tournament_config.py)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from service.db.tournament_config import (
    FlamparkOptions,
    KeptBye,
    ProgressPremium,
    SwissOptions,
    TimeControl,
    TournamentConfig,
)
from service.engine.model import ByeKind, Colour, PointSystem

STORED = {
    "points": {"win": 3, "draw": 1, "loss": 0, "bye": 1},
    "tiebreaks": ["BH-C1", "SB"],
    "schedule": ["2026-05-01T10:00:00+00:00", None],
    "time_control": {"base_minutes": 15, "increment_seconds": 5},
    "publish_personal_data": True,
    "swiss": {"rules": "dutch-2017", "initial_colour": "black", "seed": 7},
    "flampark": {
        "kinds": ["basic", "x2"],
        "round_order": [2, 1],
        "variant": "team",
        "progress_premium": {"pool": "1500.50", "wb": 900},
    },
    "trf": {
        "headers": [["012", "Open"], ["022", "Gdansk"]],
        "next_round_byes": [{"round": 4, "player": 9, "type": "half-point"}],
    },
}


def test_every_setting_is_read_into_its_type() -> None:
    config = TournamentConfig.from_settings(STORED)
    assert config.points == PointSystem(
        win=Fraction(3), draw=Fraction(1), loss=Fraction(0), pairing_bye=Fraction(1)
    )
    assert config.points_given == STORED["points"]
    assert config.tiebreaks == ("BH-C1", "SB")
    assert config.schedule == ("2026-05-01T10:00:00+00:00", None)
    assert config.time_control == TimeControl(15, 5)
    assert config.publish_personal_data is True
    assert config.swiss == SwissOptions(rules="dutch-2017", initial_colour=Colour.BLACK, seed=7)
    assert config.flampark == FlamparkOptions(
        kinds=("basic", "x2"),
        round_order=(2, 1),
        variant="team",
        progress_premium=ProgressPremium(Decimal("1500.50"), 900),
    )
    assert config.kept_byes == (KeptBye(4, 9, ByeKind.HALF_POINT),)
    assert config.kept_headers == (("012", "Open"), ("022", "Gdansk"))


def test_empty_settings_are_the_defaults() -> None:
    config = TournamentConfig.from_settings({})
    assert config.points == PointSystem()
    assert (config.tiebreaks, config.schedule, config.time_control) == (None, None, None)
    assert (config.swiss, config.flampark, config.kept_byes) == (None, None, ())
    assert config.publish_personal_data is False


def test_the_registry_gets_each_systems_options() -> None:
    config = TournamentConfig.from_settings(STORED)
    assert config.options_for("swiss") == {
        "rules": "dutch-2017",
        "seed": 7,
        "reverse_from_middle": False,
        "handicap_split": None,
    }
    assert config.options_for("flampark")["kinds"] == ["basic", "x2"]
    assert config.options_for(None) == {}
    assert TournamentConfig.from_settings({}).options_for("swiss")["rules"] == "dutch-2026"
