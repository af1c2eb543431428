"""Benchmark: one Dutch round through the running service against the C++ engine's whole
run on the same file.

The service is started as `arbiter serve` starts it (one worker, a fresh SQLite file,
the rate windows off: the path is measured, not the limits; the compute allowances stay
on), and warmed with a few untimed requests. Then, alternating in one loop (`--repeat K`
rounds, so that a noisy machine shifts both together):

    service     `POST /v1/compute/pairings` with the TRF file as `text/plain`, over one
                kept-alive HTTP/1.1 connection: from the request's first byte written to
                the response's last byte read. The client is a few lines over a socket
                (`_Client`), so that its own parsing is not counted as the service's
                (http.client added about 0.4 ms a request)
    C++ engine  `$BBP --dutch FILE -p OUT`, a whole process, when `BBP` names the binary
                of the FIDE-endorsed C++ engine (bbpPairings)

The script prints both medians (and minimums), their ratio, and whether every pairing
was identical (pairs, colours and bye). The field is bench_dutch.py's: `arbiter generate
--players N --rounds R-1 --seed N` with `XXR 9`, cached in `--fields`.

`--profile` also runs the service's own steps in this process on the same file (reading
the body, the TRF, pairing, the response document, its JSON): where a request's time
goes beside the HTTP exchange.

    python bench/bench_compute_service.py [--players N] [--round R] [--repeat K]
                                          [--fields DIR] [--profile]
    (default: 100 players, round 5 of 9, 51 rounds of runs)
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench_dutch import add_field_options, build_field, fields_folder

ROOT = Path(__file__).resolve().parent.parent
WARM_REQUESTS = 20
"""Untimed requests before the loop: the server's imports done, its caches and the
compute worker warm, as in a server that has been running."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[int]:
    """`arbiter serve` on a free loopback port and a fresh, migrated SQLite file; yields
    the port once `/healthz` answers, stops the server after."""
    url = f"sqlite+aiosqlite:///{folder / 'bench-compute.db'}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ARBITER_DATABASE_URL": url,
        "ARBITER_RATE_LIMITS_ENABLED": "false",  # the path is measured, not the windows
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cli = [sys.executable, "-m", "service.cli"]
    subprocess.run([*cli, "migrate"], check=True, cwd=ROOT, env=env)
    port = _free_port()
    server = subprocess.Popen(
        [*cli, "serve", "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env
    )
    try:
        for _ in range(600):
            if server.poll() is not None:
                raise RuntimeError(f"the server exited with {server.returncode}")
            with contextlib.suppress(OSError):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    connection.close()
                    break
            time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        yield port
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


class _Client:
    """One kept-alive HTTP/1.1 connection that posts a TRF body and reads the answer
    (Content-Length framed, as the service sends it)."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._sock = socket.create_connection(("127.0.0.1", port))
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def post(self, body: bytes) -> tuple[float, bytes]:
        """One pairing request: its wall time and the response body."""
        request = (
            f"POST /v1/compute/pairings HTTP/1.1\r\nHost: 127.0.0.1:{self._port}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        start = time.perf_counter()
        self._sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            data += self._receive()
        head, _, content = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.lower().split(": ", 1) for line in lines[1:])
        length = int(fields["content-length"])
        while len(content) < length:
            content += self._receive()
        elapsed = time.perf_counter() - start
        status = int(lines[0].split()[1])
        if status != 200:
            raise RuntimeError(f"the service answered {status}: {content[:300]!r}")
        return elapsed, content

    def _receive(self) -> bytes:
        chunk = self._sock.recv(65536)
        if not chunk:
            raise RuntimeError("the service closed the connection")
        return chunk

    def close(self) -> None:
        self._sock.close()


def _service_pairs(data: bytes) -> set[tuple[int, int]]:
    body = json.loads(data)
    pairs = {(g["white"], g["black"]) for g in body["pairings"]}
    pairs |= {(b["player"], 0) for b in body["byes"] if b["type"] == "pairing-allocated"}
    return pairs


def _engine_run(bbp: str, field: Path, out: Path) -> tuple[float, set[tuple[int, int]]]:
    """The C++ engine's whole run on `field`: its wall time and pairs (a count line,
    then `white black`, `player 0` for the bye)."""
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    subprocess.run([bbp, "--dutch", str(field), "-p", str(out)], check=True)
    elapsed = time.perf_counter() - start
    pairs = set()
    for line in out.read_text().split("\n")[1:]:
        if line.strip():
            white, black = (int(x) for x in line.split())
            pairs.add((white, black))
    return elapsed, pairs


def _profile(field: Path, runs: int) -> None:
    """The service's own steps for one request, in this process (medians, ms)."""
    from service.api.compute_input import from_trf
    from service.app.systems import pair_next
    from service.engine.systems import PairingName

    raw = field.read_bytes()
    steps: dict[str, list[float]] = {"decode body": [], "read TRF": [], "pair": []}
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        text = raw.decode("utf-8", errors="replace")
        t1 = time.perf_counter()
        data = from_trf(text)
        t2 = time.perf_counter()
        pair_next(
            PairingName.DUTCH,
            data.tournament,
            byes=data.next_round_byes,
            options={"rules": "dutch-2026", "seed": None},
            accelerations=data.accelerations,
            forbidden_pairs=data.forbidden_pairs,
        )
        t3 = time.perf_counter()
        for name, seconds in zip(steps, (t1 - t0, t2 - t1, t3 - t2), strict=True):
            steps[name].append(seconds)
    for name, values in steps.items():
        print(f"  in process: {name:<12} {statistics.median(values[1:]) * 1000:>8.2f} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=51, help="rounds of runs")
    parser.add_argument("--profile", action="store_true", help="time the steps in process")
    add_field_options(parser)
    args = parser.parse_args(argv)
    folder = fields_folder(parser, args)
    field = build_field(args.players, args.round - 1, folder)
    body = field.read_bytes()
    bbp = os.environ.get("BBP")
    ours: list[float] = []
    theirs: list[float] = []
    same = "-"
    with tempfile.TemporaryDirectory() as scratch, serving(Path(scratch)) as port:
        client = _Client(port)
        for _ in range(WARM_REQUESTS):
            client.post(body)
        out = Path(scratch) / "bbp-out.txt"
        if bbp:
            _engine_run(bbp, field, out)  # page cache warm; not timed
        for _ in range(args.repeat):
            seconds, data = client.post(body)
            ours.append(seconds)
            if bbp:
                cpp_seconds, cpp_pairs = _engine_run(bbp, field, out)
                theirs.append(cpp_seconds)
                agrees = _service_pairs(data) == cpp_pairs
                same = "NO" if same == "NO" or not agrees else "yes"
        client.close()
    print(
        f"{args.players} players, round {args.round} of 9, {args.repeat} rounds of runs"
        f" ({len(body):,} bytes of TRF)"
    )
    print(f"{'':<28} {'median ms':>10} {'min ms':>8}")
    print(
        f"{'service POST (warm)':<28} {statistics.median(ours) * 1000:>10.2f}"
        f" {min(ours) * 1000:>8.2f}"
    )
    if theirs:
        print(
            f"{'C++ engine, whole run':<28} {statistics.median(theirs) * 1000:>10.2f}"
            f" {min(theirs) * 1000:>8.2f}"
        )
        print(f"ratio (service / C++): {statistics.median(ours) / statistics.median(theirs):.3f}")
        print(f"pairings identical: {same}")
    if args.profile:
        _profile(field, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
