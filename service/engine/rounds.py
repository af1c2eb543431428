"""Where a tournament stands between rounds: its current round, whether it is finished,
and how many rounds are left to pair.

FIDE C.04.1 a: the number of rounds is declared beforehand. A round is complete once
every game in it has a confirmed result, so a round without a game (every player had a
bye, or every player but the one given the pairing-allocated bye) has nothing to wait
for: it is complete as soon as it is paired, and the tournament goes on to the next
round, or is finished when it was the last. Pure: the callers read the numbers from
storage.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RoundProgress", "round_progress", "rounds_left"]


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """The current round and whether the tournament is over."""

    current_round: int
    """The first paired round with a game not confirmed; when there is none, the last
    paired round (0 before round 1)."""
    finished: bool
    """Every declared round is paired and complete."""


def round_progress(
    first_open: int | None, last_paired: int, total_rounds: int | None
) -> RoundProgress:
    """The progress of a tournament whose first round with a game not confirmed is
    `first_open` (None: every paired game is confirmed) and whose last paired round,
    with games or byes only, is `last_paired`. A tournament with no declared number of
    rounds never finishes by itself."""
    if first_open is not None:
        return RoundProgress(first_open, finished=False)
    done = total_rounds is not None and last_paired >= total_rounds
    return RoundProgress(last_paired, finished=done)


def rounds_left(last_paired: int, total_rounds: int | None) -> int | None:
    """How many declared rounds are still to be paired (None: the number is not
    declared). A late entry plays only those (FIDE C.04.A: no game in the rounds
    already paired), so with none left there is nothing to enter."""
    if total_rounds is None:
        return None
    return max(total_rounds - last_paired, 0)
