"""The bridge package's public surface is pinned (names come and go deliberately)."""

from __future__ import annotations

import service.engine.bridge as bridge

EXPECTED = {
    "AVERAGE", "AVERAGE_MINUS", "AVERAGE_PLUS", "ArtificialScore", "BandScale",
    "BoardAMatchResult", "BoardConditions", "BoardEntry", "BridgeInputError", "ButlerResult",
    "CavendishDivisor", "CavendishResult", "ClubAdvice", "ClubScoring", "Contract", "Datum",
    "DatumMethod", "DatumRounding", "Doubling", "ImpAdjustment", "ImpRange", "ImpRounding",
    "MatchpointResult", "MatchpointUnits", "PattonResult", "PbnResult", "Seat", "Side",
    "Strain", "TeamBoard", "TeamMatchResult", "VpResult", "Vulnerability", "WeightedScore",
    "acbl_scale", "aggregate_margin", "artificial_imps", "board_a_match", "board_conditions",
    "board_imps", "board_points", "butler", "capped_round_total", "cavendish",
    "club_scoring_advice", "datum", "imp_range", "imps", "matchpoints", "neuberg", "ns_score",
    "parse_contract", "patton", "pzbs_kept_count", "read_pbn", "round_half_up",
    "round_imps_for_non_offenders", "score_contract", "session_percentage", "team_match", "vp",
    "wbf_blitz", "wbf_continuous_table", "wbf_discrete_scale",
}  # fmt: skip


def test_public_surface():
    assert set(bridge.__all__) == EXPECTED
    for name in bridge.__all__:
        assert hasattr(bridge, name), name


def test_errors_are_value_errors():
    assert issubclass(bridge.BridgeInputError, ValueError)
