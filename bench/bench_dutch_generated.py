"""Comparison: random tournaments made and paired by the FIDE-endorsed C++ engine,
re-paired round by round by Arbiter's Dutch engine.

FIDE's endorsement procedure (C.04.A) checks a pairing program on thousands of random
tournaments from another program's random tournament generator (RTG). This script
does that against bbpPairings, whose `-g` mode draws a tournament (players, ratings,
results, forfeits, retirements, half-point byes) and pairs every round itself: each
round k+1 of the file is its pairing of rounds 1..k. Arbiter re-pairs every round from
the rounds before it (`arbiter check`'s comparison: pairs, colours and the
pairing-allocated bye) and the script prints the tournaments, rounds and differences,
listing each differing round. A round the C++ engine could not pair (its generator then
stops) must be one Arbiter cannot pair either.

The binary is named by the `BBP` environment variable (it is not part of the project);
`--rules dutch-2017` goes with a build of the 2017 edition (bbpPairings v5), the
default with one of the 2025 rules (v6). Seed s draws the generator's settings (field
size, rounds, draw share, rates of forfeits, retirements and half-point byes, rating
range) and is passed to the generator, so a run is repeatable.

    BBP=/path/to/bbpPairings.exe python bench/bench_dutch_generated.py
        [--first 1] [--count 200] [--players 5-160] [--rules dutch-2017] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service.engine.model import Bye, Tournament
from service.engine.pairing.dutch import pair_round
from service.engine.pairing.round_pairing import Pairing, PairingError
from service.engine.trf import decode_trf, parse_trf
from service.engine.trf_check import check_file

NEVER = 100_000
"""A generator rate meaning "about never" (a rate N is about one case in N)."""


def settings(seed: int, smallest: int, largest: int) -> tuple[int, int, str]:
    """(players, rounds, the generator's configuration file text) for `seed`."""
    rng = random.Random(seed)
    span = largest - smallest
    players = rng.choice(
        [
            rng.randint(smallest, smallest + span // 5),
            rng.randint(smallest + span // 10, smallest + span // 2),
            rng.randint(smallest + span // 3, largest),
        ]
    )
    rounds = rng.randint(3, 13)
    lines = [
        f"PlayersNumber={players}",
        f"RoundsNumber={rounds}",
        f"DrawPercentage={rng.randint(0, 60)}",
        f"ForfeitRate={rng.choice([NEVER, NEVER, 5, 20, 60])}",
        f"RetiredRate={rng.choice([NEVER, NEVER, 10, 50, 300])}",
        f"HalfPointByeRate={rng.choice([NEVER, NEVER, 10, 40, 200])}",
        "HighestRating=2700",
        f"LowestRating={rng.choice([1000, 1400, 2000])}",
    ]
    return players, rounds, "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1, help="first seed")
    parser.add_argument("--count", type=int, default=200, help="tournaments")
    parser.add_argument("--players", default="5-160", help="field sizes, as LOW-HIGH")
    parser.add_argument("--rules", default="dutch-2026", choices=["dutch-2026", "dutch-2017"])
    parser.add_argument("--keep", default="", help="folder to keep the differing files in")
    args = parser.parse_args(argv)
    bbp = os.environ.get("BBP")
    if not bbp:  # `make bench` runs every script: without the engine there is nothing to do
        print("skipped: set BBP to the C++ engine's binary to compare against it")
        return 0
    smallest, largest = (int(x) for x in args.players.split("-"))
    folder = Path(args.keep or tempfile.mkdtemp(prefix="dutch-generated-"))
    folder.mkdir(parents=True, exist_ok=True)

    def pair(tournament: Tournament, byes: tuple[Bye, ...]) -> Pairing:
        return pair_round(tournament, rules=args.rules, byes=byes)

    rounds_checked = differing = stuck_both = stuck_ours_only = 0
    ours_seconds = 0.0
    for seed in range(args.first, args.first + args.count):
        players, rounds, config = settings(seed, smallest, largest)
        config_path = folder / f"s{seed:05d}.cfg"
        trf_path = folder / f"s{seed:05d}.trf"
        config_path.write_text(config)
        made = subprocess.run(
            [bbp, "--dutch", "-g", str(config_path), "-o", str(trf_path), "-s", str(seed)],
            capture_output=True,
            text=True,
        )
        # the generator writes no XXR record; the last round's rules depend on it
        text = decode_trf(trf_path.read_bytes()) + f"\nXXR {rounds}\n"
        doc = parse_trf(text)
        start = time.process_time()
        if made.returncode != 0:  # it met a round it could not pair: so must we
            try:
                pair(doc.tournament, tuple(doc.next_round_byes))
            except PairingError:
                stuck_both += 1
            else:
                stuck_ours_only += 1
                print(f"seed {seed}: the C++ engine could not pair the next round, Arbiter did")
            ours_seconds += time.process_time() - start
            continue
        reports = check_file(doc.tournament, pair)
        ours_seconds += time.process_time() - start
        rounds_checked += len(reports)
        wrong = [r for r in reports if not r.agrees]
        if wrong:
            differing += 1
            for report in wrong:
                print(
                    f"seed {seed} ({players} players, {rounds} rounds), round {report.round}: "
                    f"file {report.played} bye {report.played_bye}, Arbiter "
                    f"{report.expected} bye {report.expected_bye} {report.error or ''}"
                )
        else:
            trf_path.unlink()
            config_path.unlink()
    print(
        f"{args.rules}: {args.count} generated tournaments ({smallest}-{largest} players), "
        f"{rounds_checked} rounds re-paired, {differing} tournaments with a differing round; "
        f"{stuck_both} stopped where neither engine can pair, {stuck_ours_only} where only "
        f"the C++ engine could not; Arbiter's CPU time {ours_seconds:.1f} s"
    )
    return 1 if differing or stuck_ours_only else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
