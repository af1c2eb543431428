"""The large FIDE Dutch reference tournaments (500 and 1,000 players): every round
re-paired from the rounds before it, compared with the endorsed engine's pairing, and
timed. The suite checks the files up to 200 players; these belong to the benchmark and
are read in place from the project's shared reference documents (not part of this
repository: `ARBITER_SHARED_DIR`, else the folder beside the clone; docs/development.md).

    python bench/bench_dutch_oracle.py [min_players]   (default: 201)
"""

from __future__ import annotations

import csv
import os
import sys
import time
from pathlib import Path

from service.engine.model import ByeKind
from service.engine.pairing.dutch import pair_round
from service.engine.trf import parse_trf, rounds_prefix

SHARED = Path(
    os.environ.get("ARBITER_SHARED_DIR", Path(__file__).resolve().parents[1].parent / "shared")
)
ORACLE = SHARED / "oracle" / "dutch"


def main(min_players: int) -> int:
    with (ORACLE / "manifest.tsv").open() as handle:
        rows = [
            r for r in csv.DictReader(handle, delimiter="\t") if int(r["players"]) >= min_players
        ]
    mismatches = 0
    for row in rows:
        doc = parse_trf((ORACLE / row["file"]).read_text())
        times = []
        wrong = []
        for k, expected in enumerate(doc.tournament.rounds):
            before = rounds_prefix(doc, k)
            started = time.perf_counter()
            got = pair_round(before.tournament, byes=before.next_round_byes)
            times.append(time.perf_counter() - started)
            pairs = {(g.white, g.black) for g in got.games}
            byes = {b.player for b in got.byes if b.kind is ByeKind.PAIRING_ALLOCATED}
            want = {(g.white, g.black) for g in expected.games}
            want_byes = {b.player for b in expected.byes if b.kind is ByeKind.PAIRING_ALLOCATED}
            if pairs != want or byes != want_byes:
                wrong.append(k + 1)
        mismatches += len(wrong)
        print(
            f"{row['file']}  {row['players']:>5} players  {len(times):>2} rounds  "
            f"match {len(times) - len(wrong)}/{len(times)}  "
            f"mean {sum(times) / len(times):6.2f} s  max {max(times):6.2f} s  "
            f"total {sum(times):7.1f} s" + (f"  differ: {wrong}" if wrong else "")
        )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 201))
