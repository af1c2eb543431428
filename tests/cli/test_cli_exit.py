"""How the `arbiter` executable ends (service.cli `run`).

An offline command ends the process as soon as its output is flushed, without the
interpreter's teardown; the output must still arrive whole, through a pipe or in a
file, with the command's exit code. `serve`, `migrate` and every error exit the
ordinary way, through the interpreter's exit handlers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli import main

TRF_DATA = Path(__file__).resolve().parents[1] / "data" / "trf"

_EXECUTABLE = """
import atexit, sys
from service.cli import run
atexit.register(lambda: print("exit handlers ran", file=sys.stderr))
sys.argv[0] = "arbiter"
run()
"""
"""The console script's body (pyproject's `arbiter = service.cli:run`), with an exit
handler that says whether the interpreter's ordinary exit ran."""


def _arbiter(*argv: str) -> subprocess.CompletedProcess[str]:
    """The executable through pipes, its output buffered as a user's would be."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(
        [sys.executable, "-c", _EXECUTABLE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture
def field(tmp_path: Path) -> Path:
    path = tmp_path / "field.trf"
    argv = ["generate", "--players", "31", "--rounds", "3", "--seed", "8", "-o", str(path)]
    assert main(argv) == 0
    path.write_text(path.read_text(encoding="utf-8").replace("XXR 3", "XXR 7"), encoding="utf-8")
    return path


def test_an_offline_command_ends_at_once_with_its_whole_output(
    field: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pair", str(field), "--format", "json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    done = _arbiter("pair", str(field), "--format", "json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == expected
    assert done.stderr == ""  # no exit handler ran


def test_a_large_output_arrives_whole_through_a_pipe_and_in_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["generate", "--players", "900", "--rounds", "0", "--seed", "3"]  # a start list
    assert main(args) == 0
    expected = capsys.readouterr().out
    assert len(expected) > 64 * 1024  # more than a pipe holds
    piped = _arbiter(*args)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, expected, "")
    written = tmp_path / "written.trf"
    filed = _arbiter(*args, "-o", str(written))
    assert (filed.returncode, filed.stderr) == (0, "")
    assert written.read_text(encoding="utf-8") == expected


def test_the_exit_code_of_an_offline_command_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    """`check` exits 1 when a round cannot be paired as the file pairs it."""
    path = str(TRF_DATA / "check_unpairable.trf")
    assert main(["check", path]) == 1
    expected = capsys.readouterr().out
    done = _arbiter("check", path)
    assert (done.returncode, done.stdout, done.stderr) == (1, expected, "")


def test_errors_and_the_server_commands_exit_the_ordinary_way(tmp_path: Path) -> None:
    missing = _arbiter("pair", str(tmp_path / "missing.trf"))
    assert missing.returncode == 2
    assert missing.stderr.splitlines() == [
        f"arbiter: [Errno 2] No such file or directory: '{tmp_path / 'missing.trf'}'",
        "exit handlers ran",
    ]
    bad = _arbiter("serve", "--workers", "0")
    assert bad.returncode == 2
    assert bad.stderr.splitlines()[-1] == "exit handlers ran"
