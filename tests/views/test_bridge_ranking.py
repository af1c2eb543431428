"""Bridge rankings as documents (service/views/bridge_ranking.py): built without the
API's model, they are what the model makes of them, field for field and in its order,
so the live feed sends what `GET /ranking` answers."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from service.api.schemas.bridge import BridgeRanking
from service.engine.bridge.ranking import EventRanking, MatchScore, RankingLine
from service.views.bridge_ranking import ranking_document

PAIRS = EventRanking(
    kind="pairs",
    scoring="matchpoints",
    results=6,
    rows=(
        RankingLine(1, 3, "Pair 3", 2, 14, top=20, percent=Fraction(700, 10)),
        RankingLine(2, 1, "Pair 1", 2, Fraction(23, 2), top=20, percent=Fraction(1150, 20)),
        RankingLine(3, 2, "Pair 2", 1, Fraction(10, 3), top=10, percent=Fraction(100, 3)),
    ),
)
TEAMS = EventRanking(
    kind="teams",
    scoring="imps-vp",
    results=4,
    rows=(
        RankingLine(
            1,
            1,
            "Home",
            3,
            Fraction(1373, 100),
            matches=1,
            imps_for=Fraction(23),
            imps_against=Fraction(0),
        ),
        RankingLine(
            2,
            2,
            "Away",
            3,
            Fraction(627, 100),
            matches=1,
            imps_for=Fraction(0),
            imps_against=Fraction(23),
        ),
    ),
    matches=(MatchScore(1, 1, 2, 3, (23, 0), (Fraction(1373, 100), Fraction(627, 100))),),
)


def _as_model_sends_it(document: dict[str, Any]) -> str:
    return BridgeRanking.model_validate(document).model_dump_json()


def test_a_ranking_document_is_its_models_dump_key_for_key() -> None:
    for ranking in (PAIRS, TEAMS):
        document = ranking_document(ranking)
        sent = json.dumps(document, separators=(",", ":"))
        assert sent == _as_model_sends_it(document)


def test_figures_are_ints_when_whole_and_two_decimals_otherwise() -> None:
    pairs = ranking_document(PAIRS)["rows"]
    assert [(r["score"], r["percent"]) for r in pairs] == [(14, 70), (11.5, 57.5), (3.33, 33.33)]
    teams = ranking_document(TEAMS)
    assert teams["matches"] == [
        {"round": 1, "home": 1, "away": 2, "boards": 3, "imps": [23, 0], "vp": [13.73, 6.27]}
    ]
    assert ranking_document(PAIRS)["matches"] is None
