"""Byes requested before a Swiss round is paired: which the rules grant.

A player may ask not to be paired in a round and be given a half-point, zero-point or
full-point bye, as the tournament's regulations allow; FIDE C.07 art. 16.1 counts such
a bye as a voluntary unplayed round of a player taking part. A withdrawn player takes
part no more: FIDE's Swiss rules pair a player who withdraws no longer (the Dutch
rules' F.5: "Players who withdraw from the tournament will no longer be paired"), and
they score nothing in the rounds that follow, so no half- or full-point bye is granted
to them; the zero-point entry they get for each such round may be listed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from service.engine.errors import EngineError
from service.engine.model import ByeKind

__all__ = ["ByeRequestError", "check_requested_byes"]


class ByeRequestError(EngineError):
    """A requested bye the rules do not grant; `field` names it (`byes.2.player`)."""


def check_requested_byes(
    requested: Sequence[tuple[int, ByeKind]],
    *,
    players: Collection[int],
    withdrawn: Collection[int] = (),
) -> None:
    """Check the byes requested for one round, (start number, kind) in request order:
    each names a player of the tournament, once, and a withdrawn player only with a
    zero-point bye. Raise `ByeRequestError` naming the entry at fault."""
    seen: set[int] = set()
    for index, (player, kind) in enumerate(requested):
        field = f"byes.{index}.player"
        if player not in players:
            raise ByeRequestError(f"no player {player}", field=field)
        if player in seen:
            raise ByeRequestError(f"player {player} is listed twice", field=field)
        seen.add(player)
        if player in withdrawn and kind is not ByeKind.ZERO_POINT:
            raise ByeRequestError(
                f"player {player} has withdrawn and is granted no {kind.value} bye (FIDE "
                "Swiss rules: a player who withdraws is no longer paired and scores "
                "nothing in the rounds that follow); reinstate the player first "
                '(PATCH with {"withdrawn": false}), or leave the bye out: the round '
                "gives them a zero-point bye",
                field=field,
            )
