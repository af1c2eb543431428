"""Benchmark: where a small `arbiter pair` call goes, beside the C++ engine's whole run.

The goal is a 100-player Dutch round in no more time than the FIDE-endorsed C++ engine
takes for its whole run (docs/decisions/cli-start-up.md). This script splits the call
into what any Python program pays and what Arbiter adds, each row a whole process, all
rows alternating in one loop (`--repeat K` rounds), so that a noisy machine shifts them
together:

    python -S            the interpreter without `site`: the floor of any Python program
    python               the interpreter as `arbiter` starts it (with `site`)
    + Python's modules   the standard-library modules the call loads, imported alone
    + Arbiter's modules  those and the call's own modules (CLI, TRF, engine)
    arbiter pair         the whole call (`python -m service.cli pair FILE --format json`)
    C++ engine           `$BBP --dutch FILE -p OUT`, when `BBP` names its binary

The module lists are not written down here: a child process runs the call once and
reports every module it loaded beyond the bare interpreter's. It then times the call
in process, imports done (reading, pairing and writing: the part an algorithm can
change), and that median is printed too.

The development checkout is an editable install, whose `site` loads an import hook
(with pathlib, re and importlib.util) that an installed wheel does not have.
`--no-site` runs every Python row without `site`, the checkout on `PYTHONPATH`: what
an installed wheel pays, less the 2 ms or so that `site` costs a plain environment.

    python bench/bench_dutch_call.py [--players N] [--round R] [--repeat K]
                                     [--fields DIR] [--no-site]
    (default: 100 players, round 5 of 9, 21 rounds of runs; the field is
    bench_dutch.py's, generated with `arbiter generate` and cached in --fields)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_dutch import add_field_options, build_field, fields_folder

ROOT = Path(__file__).resolve().parent.parent

# Run in the child: the modules the call loads beyond the interpreter's own, and the
# call's time in process once they are loaded.
_PROBE = """
import sys
bare = set(sys.modules)
import io, time
from service import cli
argv = ["arbiter", "pair", sys.argv[1], "--format", "json"]
runs = int(sys.argv[2])
terminal = sys.stdout

def call():
    sys.argv = argv
    sys.stdout = io.StringIO()
    try:
        cli.main()
    finally:
        sys.stdout = terminal

call()
loaded = sorted(set(sys.modules) - bare - {"__main__"})
times = []
for _ in range(runs):
    start = time.perf_counter()
    call()
    times.append(time.perf_counter() - start)
import json
print(json.dumps({"modules": loaded, "seconds": times}))
"""


def _env(no_site: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if no_site:
        env["PYTHONPATH"] = str(ROOT)
    return env


def _probe(
    python: list[str], field: Path, runs: int, env: dict[str, str]
) -> tuple[list[str], list[str], list[float]]:
    """Python's modules and Arbiter's modules that the call loads, and its in-process
    times."""
    out = subprocess.run(
        [*python, "-c", _PROBE, str(field), str(runs)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    ).stdout
    report = json.loads(out)
    modules: list[str] = report["modules"]
    ours = [m for m in modules if m == "service" or m.startswith("service.")]
    python = [m for m in modules if m not in ours]
    return python, ours, report["seconds"]


def _whole(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=21, help="rounds of runs")
    parser.add_argument("--no-site", action="store_true", help="Python rows without site")
    add_field_options(parser)
    args = parser.parse_args(argv)
    folder = fields_folder(parser, args)
    field = build_field(args.players, args.round - 1, folder)
    env = _env(args.no_site)
    py = [sys.executable, "-S"] if args.no_site else [sys.executable]
    python_modules, our_modules, in_process = _probe(py, field, args.repeat, env)

    rows: dict[str, list[str]] = {"python -S": [sys.executable, "-S", "-c", "pass"]}
    if not args.no_site:  # the interpreter as `arbiter` starts it
        rows["python"] = [sys.executable, "-c", "pass"]
    rows[f"+ Python's modules ({len(python_modules)})"] = [
        *py,
        "-c",
        "import " + ", ".join(python_modules),
    ]
    rows[f"+ Arbiter's modules ({len(our_modules)})"] = [
        *py,
        "-c",
        "import " + ", ".join(python_modules + our_modules),
    ]
    rows["arbiter pair"] = [*py, "-m", "service.cli", "pair", str(field), "--format", "json"]
    bbp = os.environ.get("BBP")
    if bbp:
        rows["C++ engine"] = [bbp, "--dutch", str(field), "-p", str(folder / "bbp-call.txt")]
    for cmd in rows.values():  # bytecode written, caches warm; not timed
        _whole(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.repeat):
        for name, cmd in rows.items():
            times[name].append(_whole(cmd, env))

    medians = {name: statistics.median(values) for name, values in times.items()}
    cpp = medians.get("C++ engine")
    mode = ", no site" if args.no_site else ""
    print(f"{args.players} players, round {args.round} of 9, {args.repeat} rounds of runs{mode}")
    print(f"{'whole process':<28} {'median ms':>10} {'min ms':>8} {'/ C++':>7}")
    for name, values in times.items():
        ratio = f"{medians[name] / cpp:.2f}" if cpp else "-"
        print(f"{name:<28} {medians[name] * 1000:>10.1f} {min(values) * 1000:>8.1f} {ratio:>7}")
    work = statistics.median(in_process)
    ratio = f"{work / cpp:.2f}" if cpp else "-"
    print(
        f"{'in process: read, pair, write':<28} {work * 1000:>10.1f}"
        f" {min(in_process) * 1000:>8.1f} {ratio:>7}"
    )
    print(f"Python's modules: {' '.join(python_modules)}")
    print(f"Arbiter's modules: {' '.join(our_modules)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
