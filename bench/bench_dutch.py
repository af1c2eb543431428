"""Benchmark: FIDE Dutch pairing of one round of 9 (round 5 by default), whole process,
at growing field sizes.

For each size the field comes from the project's own generator, so anyone can repeat
it: `arbiter generate --players N --rounds R-1 --seed N` (ratings 1000-2800, every
round paired by the engine, results drawn by rating; `--rounds 0` for round 1 gives the
start list alone), with `XXR` then set to 9, so that `arbiter pair` pairs round R of 9.
Fields are cached in `--fields DIR`.

Each run is a whole process (`arbiter pair FILE --format json`): start-up, TRF
parsing, pairing, output. When the environment variable `BBP` names the binary of the
FIDE-endorsed C++ engine (bbpPairings), it pairs the same file in the same run
(`--dutch FILE -p OUT`), the two alternating; the script prints both medians, their
ratio, each one's largest peak memory (resident set), and whether the two pairings are
identical (pairs, colours and bye). Python bytecode is written on a first untimed run,
as in any installation.

    python bench/bench_dutch.py [sizes...] [--round R] [--repeat K] [--timeout S]
                                [--fields DIR]
    (default sizes: 100 500 1000 2000 5000; default round 5; a run longer than
    --timeout seconds, default 900, is stopped and reported as "> S")
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

ARBITER = [sys.executable, "-m", "service.cli"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def build_field(size: int, played: int, folder: Path) -> Path:
    """The generated field of `size` players after `played` rounds, with 9 rounds in
    all (cached in `folder`)."""
    path = folder / f"dutch-{size}-r{played}.trf"
    if path.exists():
        return path
    raw = folder / f"dutch-{size}-r{played}.tmp"
    cmd = [*ARBITER, "generate", "--players", str(size), "--rounds", str(played)]
    subprocess.run([*cmd, "--seed", str(size), "-o", str(raw)], check=True, env=_env())
    text = raw.read_text(encoding="utf-8")
    if played:
        text = text.replace(f"\nXXR {played}\n", "\nXXR 9\n")
    else:  # the start list has no XXR record
        text += "XXR 9\n"
    path.write_text(text, encoding="utf-8")
    raw.unlink()
    return path


def add_field_options(parser: argparse.ArgumentParser) -> None:
    """`--round` and `--fields`, shared with the other scripts that pair these fields."""
    parser.add_argument("--round", type=int, default=5, help="the round to pair, 1-9")
    parser.add_argument("--fields", default="", help="folder to cache generated fields")


def fields_folder(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Path:
    """The folder the fields are cached in (a new temporary one unless `--fields`),
    once `--round` is checked."""
    if not 1 <= args.round <= 9:
        parser.error("--round: 1 to 9")
    folder = Path(args.fields or tempfile.mkdtemp(prefix="dutch-fields-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class _Run(NamedTuple):
    seconds: float | None  # None when the run was stopped at the timeout
    stdout: str
    peak_kib: int  # the process's largest resident set


def _timed(cmd: list[str], timeout: float) -> _Run:
    """Wall time, output and peak memory of one whole process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=_env())
        stopped = threading.Event()

        def stop() -> None:
            stopped.set()
            child.kill()

        stopper = threading.Timer(timeout, stop)
        stopper.start()
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        stopper.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8")
    peak = usage.ru_maxrss  # KiB on Linux
    if stopped.is_set():
        return _Run(None, "", peak)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, cmd)
    return _Run(elapsed, text, peak)


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


def _megabytes(kib: list[int]) -> str:
    return f"{max(kib) / 1024:.0f}" if kib else "-"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 500, 1000, 2000, 5000])
    parser.add_argument("--repeat", type=int, default=0, help="runs each (default 5/3/1)")
    parser.add_argument("--timeout", type=float, default=900.0)
    add_field_options(parser)
    args = parser.parse_args(argv)
    folder = fields_folder(parser, args)
    bbp = os.environ.get("BBP")
    print(f"round {args.round} of 9")
    print(
        f"{'players':>8} {'arbiter pair (s)':>17} {'C++ engine (s)':>15} {'ratio':>7}"
        f" {'peak MB':>8} {'C++ MB':>7}  same"
    )
    for size in args.sizes:
        field = build_field(size, args.round - 1, folder)
        repeat = args.repeat or (5 if size <= 100 else 3 if size <= 500 else 1)
        ours_cmd = [*ARBITER, "pair", str(field), "--format", "json"]
        _timed(ours_cmd, args.timeout)  # writes bytecode; not timed
        ours: list[float | None] = []
        theirs: list[float | None] = []
        ours_kib: list[int] = []
        theirs_kib: list[int] = []
        same = "-"
        for _ in range(repeat):
            run = _timed(ours_cmd, args.timeout)
            ours.append(run.seconds)
            ours_kib.append(run.peak_kib)
            if bbp:
                result = folder / f"bbp-{size}.txt"
                result.unlink(missing_ok=True)
                cpp = _timed([bbp, "--dutch", str(field), "-p", str(result)], args.timeout)
                theirs.append(cpp.seconds)
                theirs_kib.append(cpp.peak_kib)
                if run.seconds is not None and cpp.seconds is not None:
                    same = "yes" if _arbiter_pairs(run.stdout) == _bbp_pairs(result) else "NO"
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
            f"{size:>8} {_show(ours_med, args.timeout):>17} {cpp_text:>15} {ratio:>7}"
            f" {_megabytes(ours_kib):>8} {_megabytes(theirs_kib):>7}  {same}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
