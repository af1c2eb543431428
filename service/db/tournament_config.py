"""A tournament's stored settings, read in one place into frozen, typed values.

`tournaments.settings` is JSON written by the API's validated models (creation, PATCH,
TRF import): points, tie-breaks, schedule, time control, personal-data publication and
the options of the tournament's system. Everything that reads a setting reads it from
`config_of(row)`, never by string key from the JSON: a new setting is one field here.

Parsing is a handful of dictionary reads and no I/O; it trusts what the API validated
on write (a stored value that does not fit is a bug and raises).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from service.db.tables import TournamentRow
from service.engine.model import ByeKind, Colour, PointSystem
from service.engine.prizes import PrizeRules

__all__ = [
    "FlamparkOptions",
    "KeptBye",
    "ProgressPremium",
    "SwissOptions",
    "TeamOptions",
    "TimeControl",
    "TournamentConfig",
    "config_of",
]


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Base time and increment (FLAMPARK's shortening is measured against the base)."""

    base_minutes: int
    increment_seconds: int = 0


@dataclass(frozen=True, slots=True)
class ProgressPremium:
    """FLAMPARK's progress premium: the pool and the own-rating weight wB."""

    pool: Decimal
    wb: int


@dataclass(frozen=True, slots=True)
class KeptBye:
    """A bye announced for a round not yet paired: by an imported TRF file's last
    column, or in the Swiss settings."""

    round: int
    player: int
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """The Swiss systems' options (FIDE C.04.3 edition, colour lot, JCA variants)."""

    rules: str = "dutch-2026"
    initial_colour: Colour | None = None
    seed: int | None = None
    reverse_from_middle: bool = False
    handicap_split: int | None = None
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    """Pairs that must not meet (TRF-26 260; docs/rules/swiss.md)."""
    acceleration: str | None = None
    """`baku`: the Baku acceleration (FIDE C.04.5.1)."""
    byes: tuple[KeptBye, ...] = ()
    """Byes announced for coming rounds (TRF-26 240)."""

    def byes_for(self, round_no: int) -> tuple[KeptBye, ...]:
        """The byes announced for one round."""
        return tuple(b for b in self.byes if b.round == round_no)

    def engine_options(self) -> dict[str, Any]:
        """The options as the registry's pairings take them (engine/systems.py)."""
        return {
            "rules": self.rules,
            "seed": self.seed,
            "reverse_from_middle": self.reverse_from_middle,
            "handicap_split": self.handicap_split,
        }


@dataclass(frozen=True, slots=True)
class FlamparkOptions:
    """FLAMPARK's options: round kinds and order, variant, rematch byes, premium."""

    kinds: tuple[str, ...] | None = None
    round_order: tuple[int, ...] | None = None
    variant: str = "individual"
    rematch_byes: bool = False
    progress_premium: ProgressPremium | None = None

    def engine_options(self) -> dict[str, Any]:
        """The schedule's options as the registry takes them (engine/systems.py)."""
        return {
            "kinds": list(self.kinds) if self.kinds is not None else None,
            "round_order": list(self.round_order) if self.round_order is not None else None,
            "variant": self.variant,
            "rematch_byes": self.rematch_byes,
        }


@dataclass(frozen=True, slots=True)
class TeamOptions:
    """A team tournament's settings (docs/teams.md): boards per match, match points,
    the primary score, the colour preferences of the team Swiss (C.04.6 art. 1.7) and,
    for a round-robin, whether it goes twice around."""

    boards: int = 4
    match_win: Fraction = Fraction(2)
    match_draw: Fraction = Fraction(1)
    match_loss: Fraction = Fraction(0)
    ranking: str = "match-points"
    colours: str = "A"
    secondary_for_colours: bool = True
    """False: the competition's rules say not to use the secondary score when choosing
    a match's first-team (C.04.6 4.2.2)."""
    double: bool = False
    pab_match_points: Fraction | None = None
    """None: a win's match points."""
    pab_game_points: Fraction | None = None
    """None: every board won."""
    acceleration: str | None = None
    """`baku`: the team Swiss's Baku acceleration (`engine.teams.baku`)."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Every setting of a tournament, typed."""

    points: PointSystem = field(default_factory=PointSystem)
    points_given: Mapping[str, float] = field(default_factory=dict)
    """The points as the organizer set them (shown back as set)."""
    tiebreaks: tuple[str, ...] | None = None
    """The organizer's tie-break order; None: the system's default."""
    schedule: tuple[str, ...] | None = None
    """Round start times (ISO 8601), as stored."""
    time_control: TimeControl | None = None
    publish_personal_data: bool = False
    swiss: SwissOptions | None = None
    flampark: FlamparkOptions | None = None
    team: TeamOptions | None = None
    """Set for a team tournament only."""
    kept_byes: tuple[KeptBye, ...] = ()
    """Byes an imported TRF file announced for later rounds."""
    kept_headers: tuple[tuple[str, str], ...] = ()
    """The header records of an imported TRF file, verbatim (written back on export)."""
    kept_audit: Sequence[str] = ()
    """The audit lines of an imported TRF file, verbatim (docs/rules/trf.md#audit-trail):
    the stored list itself, not a copy (a file keeps up to 10,000 lines)."""
    prizes: PrizeRules | None = None
    """The prize lists and tie rule (docs/rules/prizes.md); None: no prizes set."""
    city: str | None = None
    """Where the event is played (TRF-26 022); None: not given."""
    federation: str | None = None
    """The federation the event is rated by (TRF-26 032); None: not given."""
    chief_arbiter: str | None = None
    """TRF-26 102; None: not given."""
    deputy_arbiters: tuple[str, ...] = ()
    """TRF-26 112, one record each."""

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> TournamentConfig:
        """Read the stored JSON."""
        points = settings.get("points") or {}
        control = settings.get("time_control")
        tiebreaks = settings.get("tiebreaks")
        schedule = settings.get("schedule")
        return cls(
            points=_point_system(points),
            points_given=dict(points),
            tiebreaks=tuple(tiebreaks) if tiebreaks is not None else None,
            schedule=tuple(schedule) if schedule is not None else None,
            time_control=TimeControl(**control) if control else None,
            publish_personal_data=bool(settings.get("publish_personal_data", False)),
            swiss=_swiss(settings.get("swiss")),
            flampark=_flampark(settings.get("flampark")),
            team=_team(settings.get("team")),
            kept_byes=tuple(
                KeptBye(int(kept["round"]), int(kept["player"]), ByeKind(kept["type"]))
                for kept in (settings.get("trf") or {}).get("next_round_byes", [])
            ),
            kept_headers=tuple(
                (str(code), str(rest))
                for code, rest in (settings.get("trf") or {}).get("headers", [])
            ),
            kept_audit=(settings.get("trf") or {}).get("audit", ()),
            prizes=PrizeRules.from_settings(prizes) if (prizes := settings.get("prizes")) else None,
            city=settings.get("city"),
            federation=settings.get("federation"),
            chief_arbiter=(settings.get("officials") or {}).get("chief_arbiter"),
            deputy_arbiters=tuple((settings.get("officials") or {}).get("deputy_arbiters", ())),
        )

    def options_for(self, key: str | None) -> dict[str, Any]:
        """The options a system's registry entry names by `options_key`."""
        if key == "swiss":
            return (self.swiss or SwissOptions()).engine_options()
        if key == "flampark":
            return (self.flampark or FlamparkOptions()).engine_options()
        return {}


def config_of(row: TournamentRow) -> TournamentConfig:
    """The typed settings of a stored tournament."""
    return TournamentConfig.from_settings(row.settings)


def _point_system(points: Mapping[str, Any]) -> PointSystem:
    """Points per outcome (win, draw, loss, and the pairing-allocated bye when set)."""
    bye = points.get("bye")
    return PointSystem(
        win=Fraction(str(points.get("win", 1))),
        draw=Fraction(str(points.get("draw", 0.5))),
        loss=Fraction(str(points.get("loss", 0))),
        pairing_bye=None if bye is None else Fraction(str(bye)),
    )


def _swiss(stored: Mapping[str, Any] | None) -> SwissOptions | None:
    if stored is None:
        return None
    colour = stored.get("initial_colour")
    initial = {"white": Colour.WHITE, "black": Colour.BLACK}.get(colour) if colour else None
    return SwissOptions(
        rules=stored.get("rules") or "dutch-2026",
        initial_colour=initial,
        seed=stored.get("seed"),
        reverse_from_middle=bool(stored.get("reverse_from_middle", False)),
        handicap_split=stored.get("handicap_split"),
        forbidden_pairs=tuple(frozenset(pair) for pair in stored.get("forbidden_pairs") or ()),
        acceleration=stored.get("acceleration"),
        byes=tuple(
            KeptBye(int(b["round"]), int(b["player"]), ByeKind(b["type"]))
            for b in stored.get("byes") or ()
        ),
    )


def _flampark(stored: Mapping[str, Any] | None) -> FlamparkOptions | None:
    if stored is None:
        return None
    kinds = stored.get("kinds")
    order = stored.get("round_order")
    premium = stored.get("progress_premium")
    return FlamparkOptions(
        kinds=tuple(kinds) if kinds is not None else None,
        round_order=tuple(order) if order is not None else None,
        variant=stored.get("variant", "individual"),
        rematch_byes=bool(stored.get("rematch_byes", False)),
        progress_premium=(
            ProgressPremium(Decimal(str(premium["pool"])), int(premium["wb"])) if premium else None
        ),
    )


def _team(stored: Mapping[str, Any] | None) -> TeamOptions | None:
    if stored is None:
        return None
    points = stored.get("match_points") or {}
    return TeamOptions(
        boards=int(stored.get("boards", 4)),
        match_win=Fraction(str(points.get("win", 2))),
        match_draw=Fraction(str(points.get("draw", 1))),
        match_loss=Fraction(str(points.get("loss", 0))),
        ranking=str(stored.get("ranking", "match-points")),
        colours=str(stored.get("colours", "A")),
        secondary_for_colours=bool(stored.get("secondary_for_colours", True)),
        double=bool(stored.get("double", False)),
        pab_match_points=_fraction(stored.get("pab_match_points")),
        pab_game_points=_fraction(stored.get("pab_game_points")),
        acceleration=stored.get("acceleration"),
    )


def _fraction(value: Any) -> Fraction | None:
    return None if value is None else Fraction(str(value))
