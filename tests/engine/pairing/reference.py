"""Re-pairing the reference tournaments (tests/data/oracle/dutch) round by round."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from service.engine.model import Round
from service.engine.pairing.dutch import pair_round
from service.engine.pairing.round_pairing import Pairing
from service.engine.trf import parse_trf, rounds_prefix
from tests.data import ORACLE_DUTCH


def reference_files(max_players: int) -> list[str]:
    """The reference files of at most `max_players` players, by the manifest."""
    with (ORACLE_DUTCH / "manifest.tsv").open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [row["file"] for row in rows if int(row["players"]) <= max_players]


def repaired_rounds(name: str, rules: str = "dutch-2026") -> Iterator[tuple[Round, Pairing]]:
    """Each round of reference file `name` and Arbiter's pairing of it from the rounds
    before (the file's byes, accelerations and forbidden pairs applied)."""
    doc = parse_trf((ORACLE_DUTCH / name).read_text())
    for k, played in enumerate(doc.tournament.rounds):
        before = rounds_prefix(doc, k)
        pairing = pair_round(
            before.tournament,
            rules=rules,
            byes=before.next_round_byes,
            accelerations=before.accelerations,
            forbidden_pairs=before.forbidden_pairs,
        )
        yield played, pairing
