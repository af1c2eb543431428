"""An imported file's pairing records read into the Swiss settings
(docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes), so that the tournament
pairs its later rounds as `arbiter pair` pairs the file, and its export writes them back:

- 240 records for rounds not yet paired (H, Z, F; players of the file) -> `byes`;
- XXP, and 260 records in force from the next round to the last -> `forbidden_pairs`
  (Dutch);
- XXA and 250 records that are the Baku acceleration (FIDE C.04.5.1) for the file's
  field and rounds -> `acceleration: "baku"` (Dutch).

A record the settings cannot hold (a 260 for some rounds only, another acceleration, a
bye of a paired round) stays verbatim among the kept header records, and the import
warns that the tournament's own pairing does not apply it. Pure: runs with the rest of
the import's reading, off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.engine.model import ByeKind
from service.engine.systems import SystemName
from service.engine.trf import TrfDocument
from service.engine.trf_pairing_records import baku_field, is_baku, parse_240

__all__ = ["MAX_FORBIDDEN_PAIRS", "SwissRecords", "swiss_records"]

MAX_FORBIDDEN_PAIRS = 10_000
"""As the API's `swiss.forbidden_pairs`: more pairs stay as records, with a warning."""

_ANNOUNCED = frozenset({ByeKind.HALF_POINT, ByeKind.ZERO_POINT, ByeKind.FULL_POINT})


@dataclass(frozen=True, slots=True)
class SwissRecords:
    """What the file's records give the Swiss settings, the header records still kept
    verbatim, and warnings for what the tournament's own pairing does not apply."""

    settings: dict[str, Any]
    headers: tuple[tuple[str, str], ...]
    warnings: list[str]


def swiss_records(doc: TrfDocument, system: str) -> SwissRecords:
    """Read the 240, 250/XXA and 260/XXP records of `doc` for a `system` tournament."""
    tournament = doc.tournament
    paired = len(tournament.rounds)
    last = tournament.total_rounds
    known = {p.start_number for p in tournament.players}
    dutch = system == SystemName.SWISS_DUTCH
    settings: dict[str, Any] = {}
    taken: set[int] = set()  # indexes of header records read into the settings
    byes: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for index, (code, rest) in enumerate(doc.headers):
        if code != "240":
            continue
        entries = parse_240(rest)
        if entries and all(
            b.round > paired
            and (last is None or b.round <= last)
            and b.kind in _ANNOUNCED
            and b.player in known
            for b in entries
        ):
            taken.add(index)
            for bye in entries:
                if (bye.player, bye.round) not in seen:
                    seen.add((bye.player, bye.round))
                    byes.append({"player": bye.player, "round": bye.round, "type": bye.kind.value})
    if byes:
        settings["byes"] = byes
    warnings: list[str] = []
    pairs: dict[frozenset[int], None] = dict.fromkeys(doc.forbidden_pairs)
    in_force = [
        i
        for i, rule in enumerate(doc.prohibitions)
        if last is not None and rule.first_round <= paired + 1 and rule.last_round >= last
    ]
    for i in in_force:
        players = doc.prohibitions[i].players
        pairs.update(
            dict.fromkeys(
                frozenset((a, b)) for j, a in enumerate(players) for b in players[j + 1 :]
            )
        )
    fits = dutch and len(pairs) <= MAX_FORBIDDEN_PAIRS and all(pair <= known for pair in pairs)
    if pairs and fits:
        settings["forbidden_pairs"] = [sorted(pair) for pair in pairs]
        positions = [i for i, (code, _) in enumerate(doc.headers) if code == "260"]
        taken.update(positions[i] for i in in_force)
    if (doc.forbidden_pairs or doc.prohibitions) and not (
        fits and len(in_force) == len(doc.prohibitions)
    ):
        warnings.append(
            "prohibited pairings (XXP, record 260) are not applied to the rounds this "
            "tournament pairs; pair with POST /v1/compute/pairings or `arbiter pair` to "
            "apply them"
        )
    accelerated = doc.pairing_accelerations
    if accelerated:
        baku = (
            dutch
            and last is not None
            and is_baku(accelerated, baku_field(tournament), last, tournament.points)
        )
        if baku:
            settings["acceleration"] = "baku"
            taken.update(i for i, (code, _) in enumerate(doc.headers) if code == "250")
        else:
            warnings.append(
                "accelerations (XXA, record 250) are not applied to the rounds this "
                "tournament pairs; pair with POST /v1/compute/pairings or `arbiter pair` "
                "to apply them"
            )
    headers = tuple(h for i, h in enumerate(doc.headers) if i not in taken)
    return SwissRecords(settings, headers, warnings)
