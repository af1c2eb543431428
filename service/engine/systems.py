"""The registry of tournament systems: what each one declares, in one place.

Every part of Arbiter that depends on the system reads it here: the API's schemas
(the `system` enumeration, which settings apply), the start and pair-a-round
workflows (paired in advance or round by round, late entries, the initial-colour
lot), the TRF import and export (record 092/192), the standings (C.07 reading and
default tie-breaks) and the CLI's choices.

Adding a system is one module with its pairing (under engine/pairing/) and one
`TournamentSystem` entry in `SYSTEMS` below; tests/engine/test_systems.py lists what
every entry declares and checks that each consumer derives from it.

The pairing engines are imported when a pairing is asked for, not when this module is
imported, so reading the registry (standings, the CLI's parser) stays cheap.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.engine.errors import EngineError
from service.engine.model import Bye, Round, Tournament
from service.engine.pairing.round_pairing import Pairing, PairingError

__all__ = [
    "SYSTEMS",
    "PairingName",
    "PairingRequest",
    "SystemName",
    "TournamentSystem",
    "by_pairing_name",
    "declares_other_swiss",
    "flampark_from_options",
    "pairing_names",
    "spec_of",
    "system_from_trf",
]


class SystemName(enum.StrEnum):
    """The tournament systems' names, as the API, the CLI and stored tournaments use them."""

    SWISS_DUTCH = "swiss-dutch"
    SWISS_JCA = "swiss-jca"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    FLAMPARK = "flampark"


class PairingName(enum.StrEnum):
    """The next-round pairings `arbiter pair --system` and the compute endpoint take."""

    DUTCH = "dutch"
    JCA = "jca"
    FLAMPARK = "flampark"


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """What a next-round pairing takes besides the tournament (one shape for every system)."""

    byes: tuple[Bye, ...] = ()
    """Byes announced for the round (half-point, zero-point, full-point)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The system's settings (`settings[options_key]` of a stored tournament)."""
    accelerations: Mapping[int, Sequence[Fraction]] | None = None
    """Virtual points by start number (FIDE C.04.5; Dutch only)."""
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    """Pairs that must not meet (TRF XXP / 260; Dutch only)."""
    explain: bool = False
    """Ask for explanation notes."""
    progress: Callable[[int, int], None] | None = None
    """Told (players reached, players to pair) as a long pairing goes on (Dutch)."""


PairNext = Callable[[Tournament, PairingRequest], Pairing]
"""Pair round `len(tournament.rounds) + 1`."""

Schedule = Callable[[int, int | None, Mapping[str, Any]], tuple[tuple[Round, ...], tuple[str, ...]]]
"""Every round of a system paired in advance: (player count, total rounds, options) ->
(rounds, warnings for the organizer)."""


@dataclass(frozen=True, slots=True)
class TournamentSystem:
    """What a tournament system declares (one entry of `SYSTEMS`)."""

    name: SystemName
    title: str
    """The name people use ("FIDE Dutch Swiss")."""
    trf_code: str
    """Record 092 (TRF-26 192) written on export; reads back as this system."""
    trf_words: tuple[tuple[str, ...], ...]
    """Record 092/192 texts read as this system: any group whose words all occur in the
    text (upper case, spaces, `_` and `-` removed). Entries are tried in `SYSTEMS` order."""
    pairing_name: PairingName | None
    """The name `arbiter pair --system` and `POST /v1/compute/pairings?system=` take for
    this system's next-round pairing; None when only a stored tournament pairs it."""
    paired_in_advance: bool
    """True: every round is paired when the start list closes (`schedule`); False: round
    by round (`POST /rounds`)."""
    round_robin_reading: bool
    """C.07 (2026) art. 15.2: pairings are pre-determined, so unplayed games count
    against the scheduled opponent (scoring/reading.py)."""
    needs_round_count: bool
    """The organizer sets the number of rounds (a round-robin's follows from the field)."""
    late_entries: bool
    """A player may join a running tournament (FIDE C.04.A); a withdrawn player's later
    games are simply not paired (else they are scored as forfeits)."""
    initial_colour_lot: bool
    """Round 1's colour of the top player is drawn by lot when the organizer sets none
    (FIDE C.04.3 art. 5; JCA Swiss rules 6.4)."""
    options_key: str | None
    """The key of `settings` holding this system's options ("swiss", "flampark")."""
    default_tiebreaks: tuple[str, ...]
    """Tie-breaks used when the organizer names none (C.07 art. 4.1 leaves the list to
    the organizer; these are the project's choices)."""
    pair_next: PairNext
    schedule: Schedule | None = None


def _pair_dutch(tournament: Tournament, request: PairingRequest) -> Pairing:
    """FIDE C.04.3 (2026; 2017 with `rules="dutch-2017"`)."""
    from service.engine.pairing import dutch

    return dutch.pair_round(
        tournament,
        rules=request.options.get("rules") or "dutch-2026",
        byes=request.byes,
        accelerations=request.accelerations,
        forbidden_pairs=request.forbidden_pairs,
        explain=request.explain,
        progress=request.progress,
    )


def _pair_jca(tournament: Tournament, request: PairingRequest) -> Pairing:
    """The JCA Swiss system (docs/rules/swiss.md)."""
    from service.engine.pairing import jca

    options = request.options
    return jca.pair_round(
        tournament,
        byes=request.byes,
        seed=options.get("seed"),
        reverse_from_middle=bool(options.get("reverse_from_middle", False)),
        handicap_split=options.get("handicap_split"),
        explain=request.explain,
    )


def _next_scheduled(schedule: Schedule) -> PairNext:
    """The next round of a system paired in advance: that round of the whole schedule."""

    def pair_next(tournament: Tournament, request: PairingRequest) -> Pairing:
        number = len(tournament.rounds) + 1
        total = tournament.total_rounds or number
        rounds, warnings = schedule(len(tournament.players), total, request.options)
        if number > len(rounds):
            raise PairingError(f"all {len(rounds)} rounds are already paired", field="rounds")
        chosen = rounds[number - 1]
        return Pairing(number, chosen.games, chosen.byes, warnings=warnings)

    return pair_next


def _berger(double: bool) -> Schedule:
    """FIDE C.05 Annex 1 (Berger tables), once or twice around."""

    def schedule(
        player_count: int, _rounds: int | None, _options: Mapping[str, Any]
    ) -> tuple[tuple[Round, ...], tuple[str, ...]]:
        from service.engine.pairing.roundrobin import round_robin_rounds

        return round_robin_rounds(player_count, double=double), ()

    return schedule


def flampark_from_options(player_count: int, rounds: int, options: Mapping[str, Any]) -> Any:
    """The whole FLAMPARK schedule (docs/rules/flampark.md) from a tournament's `flampark`
    settings (or a request's); an error names the field at fault (`players` for too few
    players, else `flampark`). Returns a `FlamparkSchedule`."""
    from service.engine.pairing.flampark import (
        FlamparkScheduleError,
        TooFewPlayersError,
        flampark_schedule,
    )

    try:
        return flampark_schedule(
            player_count,
            rounds,
            kinds=options.get("kinds"),
            round_order=options.get("round_order"),
            variant=options.get("variant", "individual"),
            rematch_byes=bool(options.get("rematch_byes", False)),
        )
    except FlamparkScheduleError as exc:
        exc.field = "players" if isinstance(exc, TooFewPlayersError) else "flampark"
        raise


def _flampark(
    player_count: int, rounds: int | None, options: Mapping[str, Any]
) -> tuple[tuple[Round, ...], tuple[str, ...]]:
    """The FLAMPARK schedule's rounds and warnings (`flampark_from_options`)."""
    if rounds is None:
        raise EngineError("a FLAMPARK tournament needs its number of rounds", field="rounds")
    made = flampark_from_options(player_count, rounds, options)
    return made.rounds, tuple(made.warnings)


_SWISS_TIEBREAKS = ("BH-C1", "BH", "SB", "DE", "WIN")
_ROUND_ROBIN_TIEBREAKS = ("SB", "DE", "WIN", "KS")

SYSTEMS: Mapping[SystemName, TournamentSystem] = {
    spec.name: spec
    for spec in (
        TournamentSystem(
            name=SystemName.DOUBLE_ROUND_ROBIN,
            title="Double round-robin (Berger tables)",
            trf_code="FIDE_DOUBLE_ROUNDROBIN",
            trf_words=(("DOUBLE", "ROUNDROBIN"), ("DOUBLE", "BERGER"), ("DOPPELRUNDEN",)),
            pairing_name=None,
            paired_in_advance=True,
            round_robin_reading=True,
            needs_round_count=False,
            late_entries=False,
            initial_colour_lot=False,
            options_key=None,
            default_tiebreaks=_ROUND_ROBIN_TIEBREAKS,
            pair_next=_next_scheduled(_berger(double=True)),
            schedule=_berger(double=True),
        ),
        TournamentSystem(
            name=SystemName.ROUND_ROBIN,
            title="Round-robin (Berger tables)",
            trf_code="FIDE_ROUNDROBIN",
            trf_words=(("ROUNDROBIN",), ("BERGER",), ("SCHEVENING",), ("RUNDENTURNIER",)),
            pairing_name=None,
            paired_in_advance=True,
            round_robin_reading=True,
            needs_round_count=False,
            late_entries=False,
            initial_colour_lot=False,
            options_key=None,
            # the tie-break notes' Berger coefficient (SB) first
            default_tiebreaks=_ROUND_ROBIN_TIEBREAKS,
            pair_next=_next_scheduled(_berger(double=False)),
            schedule=_berger(double=False),
        ),
        TournamentSystem(
            name=SystemName.FLAMPARK,
            title="FLAMPARK",
            trf_code="FLAMPARK",
            trf_words=(("FLAMPARK",),),
            pairing_name=PairingName.FLAMPARK,
            paired_in_advance=True,
            round_robin_reading=False,
            needs_round_count=True,
            late_entries=False,
            initial_colour_lot=False,
            options_key="flampark",
            default_tiebreaks=(),  # Formuła FLAMPARK ranks by PF alone
            pair_next=_next_scheduled(_flampark),
            schedule=_flampark,
        ),
        TournamentSystem(
            name=SystemName.SWISS_JCA,
            title="JCA Swiss",
            trf_code="JCA_SWISS",
            trf_words=(("JCA",),),
            pairing_name=PairingName.JCA,
            paired_in_advance=False,
            round_robin_reading=False,
            needs_round_count=True,
            late_entries=True,
            initial_colour_lot=True,
            options_key="swiss",
            # JCA Swiss rules: simple performance, Solkoff, median Solkoff, direct encounter
            default_tiebreaks=("PERF-JCA", "BH", "BH-M1", "DE"),
            pair_next=_pair_jca,
        ),
        TournamentSystem(
            name=SystemName.SWISS_DUTCH,
            title="FIDE Dutch Swiss",
            trf_code="FIDE_DUTCH_2025",
            trf_words=(("DUTCH",), ("SWISS",), ("SCHWEIZER",)),
            pairing_name=PairingName.DUTCH,
            paired_in_advance=False,
            round_robin_reading=False,
            needs_round_count=True,
            late_entries=True,
            initial_colour_lot=True,
            options_key="swiss",
            # the list most federations publish (Buchholz cut 1, Buchholz,
            # Sonneborn-Berger, direct encounter, wins)
            default_tiebreaks=_SWISS_TIEBREAKS,
            pair_next=_pair_dutch,
        ),
    )
}
"""Every tournament system, keyed by name. The order is the order in which 092/192 texts
are tried, most specific first ("double round robin" before "round robin", any named
system before the plain word "Swiss"); listings follow `SystemName`."""

_OTHER_SWISS_WORDS = ("BURSTEIN", "DUBOV", "MONRAD", "LIMSWISS", "FIDELIM")
"""Other Swiss systems a 092/192 record may name: read like the Dutch Swiss for the
standings (C.07 counts them the same way), paired by Arbiter as a Dutch Swiss only
with a warning."""


def _squeezed(declared: str | None) -> str:
    text = (declared or "").upper()
    return "".join(ch for ch in text if ch not in " _-")


def system_from_trf(declared: str | None) -> TournamentSystem | None:
    """The system a TRF 092/192 record names (FIDE_DUTCH_2025, "Swiss system", "Round
    robin", "Berger", "Doppelrundenturnier", FLAMPARK, JCA ...), None when it names none
    of Arbiter's."""
    squeezed = _squeezed(declared)
    if not squeezed:
        return None
    for spec in SYSTEMS.values():
        if any(all(word in squeezed for word in group) for group in spec.trf_words):
            return spec
    return None


def declares_other_swiss(declared: str | None) -> bool:
    """True when a 092/192 record names a Swiss system Arbiter does not pair (Burstein,
    Dubov, Monrad, Lim)."""
    squeezed = _squeezed(declared)
    return any(word in squeezed for word in _OTHER_SWISS_WORDS)


def pairing_names() -> tuple[str, ...]:
    """The names the next-round pairing takes (`arbiter pair --system`, the compute
    endpoint's `system`)."""
    return tuple(spec.pairing_name for spec in SYSTEMS.values() if spec.pairing_name)


def by_pairing_name(name: str) -> TournamentSystem:
    """The system whose next-round pairing is called `name`; EngineError(field="system")
    when none is."""
    for spec in SYSTEMS.values():
        if spec.pairing_name == name:
            return spec
    raise EngineError(
        f"unknown system {name!r}; expected one of {', '.join(pairing_names())}",
        field="system",
    )


def spec_of(system: str) -> TournamentSystem | None:
    """The registry entry of a stored or requested system name, None for a name that
    is not a tournament system (a bridge event's method, say)."""
    try:
        return SYSTEMS[SystemName(system)]
    except ValueError:
        return None
