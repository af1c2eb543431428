"""Benchmark: one Dutch round in process, two source trees side by side.

What the compute endpoint's worker does for a TRF body: read the file
(`service.api.compute_input.from_trf`) and pair the next round
(`service.app.systems.pair_next`), with the collector tuned and the imports frozen as
in a compute worker (`service.heap.settle_after_start`). Each tree runs in a child
process of its own, warmed up, and the two are asked for one run each in turn
(`--repeat` times, the first to go alternating), so that a busy machine shifts both
alike; the medians (wall and CPU time), their ratios (new / old) and whether the two
trees' pairings are identical are printed. Only a ratio from one such run means
anything on a shared machine: two copies of one tree measured so came out within
1-2 % of each other.

    python bench/bench_dutch_inprocess.py OLD_TREE NEW_TREE FILE [--repeat N]
    (OLD_TREE and NEW_TREE hold a `service` package, e.g. a `git archive` of a commit)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# Run in each child: read commands from stdin; "run" times one read and pairing,
# "pairing" prints the round's games and byes.
_WORKER = """
import json, sys, time
from service.api.compute_input import from_trf
from service.app.systems import pair_next
from service.heap import settle_after_start

settle_after_start()  # the collector as a compute worker sets it
text = open(sys.argv[1], encoding="utf-8").read()

def once():
    data = from_trf(text)
    return pair_next(
        "dutch",
        data.tournament,
        byes=data.next_round_byes,
        accelerations=data.accelerations,
        forbidden_pairs=data.forbidden_pairs,
    )

for _ in range(5):
    once()
for line in sys.stdin:
    if line.strip() == "run":
        start, cpu = time.perf_counter(), time.process_time()
        once()
        print(time.perf_counter() - start, time.process_time() - cpu, flush=True)
    else:
        pairing = once()
        games = [[g.white, g.black] for g in pairing.games]
        byes = [[b.player, str(b.kind)] for b in pairing.byes]
        print(json.dumps({"games": games, "byes": byes}), flush=True)
"""


def _start(tree: Path, trf: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.Popen(
        [sys.executable, "-c", _WORKER, str(trf)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tree,
    )


def _ask(worker: subprocess.Popen[str], command: str) -> str:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(command + "\n")
    worker.stdin.flush()
    return worker.stdout.readline()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("trf", type=Path)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    trf = args.trf.resolve()
    workers = [_start(args.old.resolve(), trf), _start(args.new.resolve(), trf)]
    wall: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    for turn in range(args.repeat):
        order = (0, 1) if turn % 2 == 0 else (1, 0)
        for index in order:
            seconds, processor = _ask(workers[index], "run").split()
            wall[index].append(float(seconds))
            cpu[index].append(float(processor))
    same = json.loads(_ask(workers[0], "pairing")) == json.loads(_ask(workers[1], "pairing"))
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    for name, times in (("wall", wall), ("CPU", cpu)):
        old, new = (statistics.median(t) * 1000 for t in times)
        print(f"{name}: old {old:.2f} ms  new {new:.2f} ms  ratio {new / old:.3f}")
    print(f"pairings identical: {same}")


if __name__ == "__main__":
    main()
