"""The public names of standings and tie-breaks (what the API layer imports)."""

from __future__ import annotations

import service.engine.scoring.standings as standings
import service.engine.scoring.tiebreaks as tiebreaks


def test_standings_surface() -> None:
    assert sorted(standings.__all__) == sorted(
        [
            "DEFAULT_ROUND_ROBIN",
            "DEFAULT_SWISS",
            "EDITIONS",
            "PlayerExplanation",
            "StandingRow",
            "Standings",
            "compute_standings",
        ]
    )
    for name in standings.__all__:
        assert hasattr(standings, name)


def test_tiebreaks_surface() -> None:
    for name in tiebreaks.__all__:
        assert hasattr(tiebreaks, name)
    assert issubclass(tiebreaks.UnknownTieBreakError, tiebreaks.TieBreakError)
    assert issubclass(tiebreaks.TieBreakError, ValueError)
    assert issubclass(tiebreaks.UnsupportedEditionError, ValueError)
    assert tiebreaks.parse_tiebreak("bh-c1").code == "BH-C1"
