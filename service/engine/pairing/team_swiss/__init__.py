"""The FIDE Swiss Team Pairing System, C.04.6 (docs/rules/team-swiss.md).

`pair_team_round` pairs one round from immutable `TeamState`s; `check_team_round`
lists the criteria a proposed round breaks; `generate_team_tournament` plays a random
event round by round through the engine.
"""

from service.engine.pairing.team_swiss.checker import Violation, check_team_round
from service.engine.pairing.team_swiss.colours import (
    Preference,
    Strength,
    allocate,
    board_colours,
    colour_difference,
    colour_preference,
    first_team,
)
from service.engine.pairing.team_swiss.engine import pair_team_round, pairing_order
from service.engine.pairing.team_swiss.generator import (
    PlayedRound,
    TeamTournament,
    generate_team_tournament,
    states_before,
)
from service.engine.pairing.team_swiss.model import (
    ColourPreferenceType,
    PrimaryScore,
    TeamMatch,
    TeamPairing,
    TeamState,
    TeamSwissSettings,
)

__all__ = [
    "ColourPreferenceType",
    "PlayedRound",
    "Preference",
    "PrimaryScore",
    "Strength",
    "TeamMatch",
    "TeamPairing",
    "TeamState",
    "TeamSwissSettings",
    "TeamTournament",
    "Violation",
    "allocate",
    "board_colours",
    "check_team_round",
    "colour_difference",
    "colour_preference",
    "first_team",
    "generate_team_tournament",
    "pair_team_round",
    "pairing_order",
    "states_before",
]
