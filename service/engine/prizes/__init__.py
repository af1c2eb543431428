"""Prize money: the organizer's prize lists shared out over the final standings
(docs/rules/prizes.md). Pure: no I/O."""

from service.engine.prizes.allocate import Award, PrizeOutcome, Standing, award_prizes
from service.engine.prizes.money import cents, exact
from service.engine.prizes.rules import Category, Missing, PrizeRules, eligibility

__all__ = [
    "Award",
    "Category",
    "Missing",
    "PrizeOutcome",
    "PrizeRules",
    "Standing",
    "award_prizes",
    "cents",
    "eligibility",
    "exact",
]
