"""Classifications of a standings table (Formuła FLAMPARK): the players of a rating
range, a sex, a birth-year range or a number of games played, ranked among themselves."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol

__all__ = ["Classified", "StandingsFilter"]


class Classified(Protocol):
    """What a classification reads of a player (a stored player row, or the engine's
    `Player`): the rating (0 unrated), `m`/`w`, the year of birth."""

    @property
    def rating(self) -> int: ...

    @property
    def sex(self) -> str | None: ...

    @property
    def birth_year(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class StandingsFilter:
    """A classification (Formuła FLAMPARK): rating range, sex, birth-year range, games played."""

    rating_min: int | None = None
    rating_max: int | None = None
    sex: str | None = None
    born_from: int | None = None
    born_to: int | None = None
    rounds_min: int | None = None
    rounds_max: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The filters that are set."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def keeps(self, player: Classified, games: int) -> bool:
        """Whether a player belongs to the classification."""
        born = player.birth_year
        checks = (
            self.rating_min is None or player.rating >= self.rating_min,
            self.rating_max is None or player.rating <= self.rating_max,
            self.sex is None or player.sex == self.sex,
            self.born_from is None or (born is not None and born >= self.born_from),
            self.born_to is None or (born is not None and born <= self.born_to),
            self.rounds_min is None or games >= self.rounds_min,
            self.rounds_max is None or games <= self.rounds_max,
        )
        return all(checks)
