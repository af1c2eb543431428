"""The rules a change of a Swiss tournament's pairing settings keeps
(docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes), at PATCH and when the start
list closes. Every refusal names its field; nothing is stored.

- Forbidden pairs and the acceleration steer the Dutch engine only (422 for another
  system).
- The acceleration changes only before round 1 is paired: the Baku groups and virtual
  points are fixed for the whole tournament from round 1 (FIDE C.04.5.1 art. 2-3).
- Forbidden pairs may change between rounds: they hold from the next round paired.
- An announced bye is for a round not yet paired (TRF-26 240 announces byes ahead);
  those of paired rounds stay as they were (their rounds hold them).
- Start numbers name players of the tournament (422); before the start list closes
  there are none yet, so the numbers are checked when it closes (`check_numbers`).
- Nothing changes once every round is paired (409).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.game_reads import last_paired_round
from service.db.player_reads import list_players
from service.db.tables import PlayerRow, TournamentRow
from service.engine.lifecycle import TournamentStatus
from service.engine.systems import SystemName, spec_of
from service.errors import Conflict, InvalidInput

__all__ = ["check_numbers", "check_swiss_change", "merged_swiss"]

_DUTCH_ONLY = ("forbidden_pairs", "acceleration")


def merged_swiss(current: Mapping[str, Any] | None, patch: Mapping[str, Any]) -> Any:
    """The Swiss settings after the change: the fields sent replace the stored ones; an
    empty change of unset settings leaves them unset (None)."""
    if current is None and all(v in (None, []) for v in patch.values()):
        return None
    return {**(current or {}), **patch}


async def check_swiss_change(
    session: AsyncSession,
    row: TournamentRow,
    current: Mapping[str, Any] | None,
    patch: Mapping[str, Any],
) -> None:
    """Refuse a change the rules do not allow (module docstring)."""
    spec = spec_of(row.system)
    if spec is None or spec.options_key != "swiss":
        raise InvalidInput(f"swiss: settings of a Swiss system, not of {row.system}", field="swiss")
    if row.system != SystemName.SWISS_DUTCH:
        for key in _DUTCH_ONLY:
            if patch.get(key):
                raise InvalidInput(
                    f"only the Dutch system takes {key.replace('_', ' ')}", field=f"swiss.{key}"
                )
    if row.status == TournamentStatus.FINISHED:
        raise Conflict("all rounds are paired: the tournament is finished", field="swiss")
    stored = current or {}
    paired = await last_paired_round(session, row.id)
    if "acceleration" in patch and patch["acceleration"] != stored.get("acceleration") and paired:
        raise Conflict(
            f"round {paired} is paired: the acceleration is set before round 1 (FIDE "
            "C.04.5.1: the groups and virtual points hold from round 1)",
            field="swiss.acceleration",
        )
    byes = patch.get("byes")
    if byes is not None:
        _check_bye_rounds(byes, stored.get("byes") or [], paired, row.total_rounds)
    if row.status == TournamentStatus.REGISTRATION:
        return  # no start numbers yet: checked when the list closes
    players = await list_players(session, row.id)
    numbers = {p.start_number for p in players if p.start_number is not None}
    gone = _withdrawn(players)
    withdrawn = {n for n in numbers if n in gone}
    check_numbers(patch, numbers, withdrawn, paired=paired)


def _withdrawn(players: list[PlayerRow]) -> set[int | None]:
    return {p.start_number for p in players if p.extra.get("withdrawn")}


def _check_bye_rounds(
    byes: list[Mapping[str, Any]],
    stored: list[Mapping[str, Any]],
    paired: int,
    rounds: int | None,
) -> None:
    """Byes for coming rounds of the tournament; those of paired rounds unchanged."""

    def key(bye: Mapping[str, Any]) -> tuple[int, int, str]:
        return int(bye["round"]), int(bye["player"]), str(bye["type"])

    kept = {key(b) for b in stored if int(b["round"]) <= paired}
    for index, bye in enumerate(byes):
        if rounds is not None and bye["round"] > rounds:
            raise InvalidInput(
                f"round {bye['round']} of a {rounds}-round tournament",
                field=f"swiss.byes.{index}.round",
            )
        if bye["round"] <= paired and key(bye) not in kept:
            raise Conflict(
                f"round {bye['round']} is paired: a bye is announced for a round not yet paired",
                field=f"swiss.byes.{index}.round",
            )
    sent = {key(b) for b in byes}
    if kept - sent:
        gone = min(kept - sent)
        raise Conflict(
            f"the bye of player {gone[1]} in round {gone[0]} stays: round {gone[0]} is paired",
            field="swiss.byes",
        )


def check_numbers(
    swiss: Mapping[str, Any],
    numbers: Collection[int],
    withdrawn: Collection[int] = (),
    *,
    paired: int = 0,
) -> None:
    """Every start number of the forbidden pairs and the byes names a player (422); a
    withdrawn player is announced no half- or full-point bye for a round after the
    `paired` ones (FIDE Swiss rules: no longer paired, scoring nothing)."""
    for index, pair in enumerate(swiss.get("forbidden_pairs") or []):
        for number in pair:
            if number not in numbers:
                raise InvalidInput(f"no player {number}", field=f"swiss.forbidden_pairs.{index}")
    for index, bye in enumerate(swiss.get("byes") or []):
        number = bye["player"]
        if number not in numbers:
            raise InvalidInput(f"no player {number}", field=f"swiss.byes.{index}.player")
        if number in withdrawn and bye["type"] != "zero-point" and bye["round"] > paired:
            raise InvalidInput(
                f"player {number} has withdrawn and is granted no {bye['type']} bye",
                field=f"swiss.byes.{index}.player",
            )
