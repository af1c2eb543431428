"""Matching, shared by every pairing system that matches: maximum-weight matching with
cheap re-optimisation (`weighted.py`: the Dutch system's weighted criteria) and
maximum-cardinality matching (`cardinality.py`: can a set of players all be paired,
asked by the JCA system and by completion checks)."""

from service.engine.pairing.matching.cardinality import (
    maximum_matching,
    maximum_matching_size,
    perfectly_matchable,
)
from service.engine.pairing.matching.weighted import MatchingError, WeightedMatcher

__all__ = [
    "MatchingError",
    "WeightedMatcher",
    "maximum_matching",
    "maximum_matching_size",
    "perfectly_matchable",
]
