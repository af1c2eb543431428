"""Benchmark: FIDE Dutch pairing of round 5 of 9, whole process, at growing field sizes.

For each size the field comes from the project's own generator, so anyone can repeat
it: `arbiter generate --players N --rounds 4 --seed N` (ratings 1000-2800, every
round paired by the engine, results drawn by rating), with `XXR` then set to 9, so
that `arbiter pair` pairs round 5 of 9. Fields are cached in `--fields DIR`.

Each run is a whole process (`arbiter pair FILE --format json`): start-up, TRF
parsing, pairing, output. When the environment variable `BBP` names the binary of the
FIDE-endorsed C++ engine (bbpPairings), it pairs the same file in the same run
(`--dutch FILE -p OUT`), the two alternating; the script prints both medians, their
ratio and whether the two pairings are identical (pairs, colours and bye). Python
bytecode is written on a first untimed run, as in any installation.

    python bench/bench_dutch.py [sizes...] [--repeat K] [--timeout S] [--fields DIR]
    (default sizes: 100 500 1000 2000 5000; a run longer than --timeout seconds,
    default 900, is stopped and reported as "> S")
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARBITER = [sys.executable, "-m", "service.cli"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def build_field(size: int, folder: Path) -> Path:
    """The generated field of `size` players after 4 rounds (cached in `folder`)."""
    path = folder / f"dutch-{size}-r4.trf"
    if path.exists():
        return path
    raw = folder / f"dutch-{size}-r4.tmp"
    cmd = [*ARBITER, "generate", "--players", str(size), "--rounds", "4"]
    subprocess.run([*cmd, "--seed", str(size), "-o", str(raw)], check=True, env=_env())
    text = raw.read_text(encoding="utf-8").replace("\nXXR 4\n", "\nXXR 9\n")
    path.write_text(text, encoding="utf-8")
    raw.unlink()
    return path


def _timed(cmd: list[str], timeout: float) -> tuple[float | None, str]:
    """Wall time of one whole process (None when it ran out of time) and its stdout."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, check=True, timeout=timeout, env=_env()
        )
    except subprocess.TimeoutExpired:
        return None, ""
    return time.perf_counter() - start, done.stdout


def _arbiter_pairs(stdout: str) -> set[tuple[int, int]]:
    body = json.loads(stdout)
    pairs = {(g["white"], g["black"]) for g in body["pairings"]}
    pairs |= {(b["player"], 0) for b in body["byes"] if b["type"] == "pairing-allocated"}
    return pairs


def _bbp_pairs(path: Path) -> set[tuple[int, int]]:
    """bbpPairings' output: a count line, then `white black` (`player 0` for the bye)."""
    lines = path.read_text().split("\n")[1:]
    pairs: set[tuple[int, int]] = set()
    for line in lines:
        if line.strip():
            white, black = (int(x) for x in line.split())
            pairs.add((white, black))
    return pairs


def _show(value: float | None, timeout: float) -> str:
    return f"> {timeout:.0f}" if value is None else f"{value:.3f}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 500, 1000, 2000, 5000])
    parser.add_argument("--repeat", type=int, default=0, help="runs each (default 5/3/1)")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--fields", default="", help="folder to cache generated fields")
    args = parser.parse_args(argv)
    folder = Path(args.fields or tempfile.mkdtemp(prefix="dutch-fields-"))
    folder.mkdir(parents=True, exist_ok=True)
    bbp = os.environ.get("BBP")
    print(f"{'players':>8} {'arbiter pair (s)':>17} {'C++ engine (s)':>15} {'ratio':>7}  same")
    for size in args.sizes:
        field = build_field(size, folder)
        repeat = args.repeat or (5 if size <= 100 else 3 if size <= 500 else 1)
        ours_cmd = [*ARBITER, "pair", str(field), "--format", "json"]
        _timed(ours_cmd, args.timeout)  # writes bytecode; not timed
        ours: list[float | None] = []
        theirs: list[float | None] = []
        same = "-"
        for _ in range(repeat):
            elapsed, out = _timed(ours_cmd, args.timeout)
            ours.append(elapsed)
            if bbp:
                result = folder / f"bbp-{size}.txt"
                result.unlink(missing_ok=True)
                cpp, _ = _timed([bbp, "--dutch", str(field), "-p", str(result)], args.timeout)
                theirs.append(cpp)
                if elapsed is not None and cpp is not None:
                    same = "yes" if _arbiter_pairs(out) == _bbp_pairs(result) else "NO"
        ours_med = None if None in ours else statistics.median(x for x in ours if x)
        theirs_med = (
            None if not theirs or None in theirs else statistics.median(x for x in theirs if x)
        )
        ratio = "-"
        if ours_med is not None and theirs_med:
            ratio = f"{ours_med / theirs_med:.3f}"
        elif ours_med is not None and theirs and theirs_med is None:
            ratio = f"< {ours_med / args.timeout:.3f}"
        cpp_text = _show(theirs_med, args.timeout) if theirs else "-"
        print(
            f"{size:>8} {_show(ours_med, args.timeout):>17} {cpp_text:>15} {ratio:>7}  {same}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
