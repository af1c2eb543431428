"""What a tournament's system does when the start list closes, and the next-round
pairing by system name: the application layer's use of the registry (engine/systems.py),
for the start and pair-a-round workflows, the routes and the CLI.

Systems paired in advance (round-robins, FLAMPARK) store every round at the start;
Swiss systems pair round by round later (`POST /rounds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.engine.model import Bye, Round, Tournament
from service.engine.pairing.round_pairing import Pairing, PairingError
from service.engine.systems import (
    PairingRequest,
    by_pairing_name,
    flampark_from_options,
    spec_of,
)
from service.errors import Conflict

__all__ = ["initial_rounds", "options_of", "pair_next", "pair_steered", "schedule_for"]

schedule_for = flampark_from_options
"""A FLAMPARK schedule from stored or requested options (engine/systems.py)."""


def options_of(row: TournamentRow) -> dict[str, Any]:
    """The stored options of a tournament's system (`settings[options_key]`)."""
    spec = spec_of(row.system)
    return config_of(row).options_for(spec.options_key if spec is not None else None)


def initial_rounds(row: TournamentRow, player_count: int) -> tuple[tuple[Round, ...], list[str]]:
    """Rounds to store when the list closes (every round of a system paired in advance,
    none of a Swiss), and warnings for the organizer."""
    spec = spec_of(row.system)
    if spec is None or spec.schedule is None:
        return (), []
    rounds, warnings = spec.schedule(player_count, row.total_rounds, options_of(row))
    return rounds, list(warnings)


def pair_next(
    system: str,
    tournament: Tournament,
    *,
    byes: Iterable[Bye] = (),
    options: Mapping[str, Any] | None = None,
    accelerations: Mapping[int, Sequence[Fraction]] | None = None,
    forbidden_pairs: Iterable[frozenset[int]] = (),
    explain: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Pairing:
    """Pair round `len(tournament.rounds) + 1` by the system whose pairing is called
    `system` ("dutch", "jca", "flampark": `TournamentSystem.pairing_name`)."""
    request = PairingRequest(
        byes=tuple(byes),
        options=options or {},
        accelerations=accelerations,
        forbidden_pairs=tuple(forbidden_pairs),
        explain=explain,
        progress=progress,
    )
    return by_pairing_name(system).pair_next(tournament, request)


def pair_steered(
    system: str,
    tournament: Tournament,
    *,
    byes: Iterable[Bye] = (),
    options: Mapping[str, Any] | None = None,
    accelerations: Mapping[int, Sequence[Fraction]] | None = None,
    forbidden_pairs: Iterable[frozenset[int]] = (),
    explain: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Pairing:
    """`pair_next` for a stored tournament: when no pairing exists with the forbidden
    pairs but one exists without them, the forbidden pairs made the round impossible:
    `Conflict` (409) naming `swiss.forbidden_pairs` and the pairs of players to pair."""
    byes, forbidden = tuple(byes), tuple(forbidden_pairs)
    try:
        return pair_next(
            system,
            tournament,
            byes=byes,
            options=options,
            accelerations=accelerations,
            forbidden_pairs=forbidden,
            explain=explain,
            progress=progress,
        )
    except PairingError:
        if not forbidden:
            raise
        # raises as it is when the round cannot be paired even without them
        pair_next(system, tournament, byes=byes, options=options, accelerations=accelerations)
    absent = {b.player for b in byes}
    named = sorted(sorted(pair) for pair in forbidden if not pair & absent)
    raise Conflict(
        "the forbidden pairs leave no pairing of round "
        f"{len(tournament.rounds) + 1}: " + ", ".join(f"{a}-{b}" for a, b in named),
        field="swiss.forbidden_pairs",
        pairs=named,
    )
