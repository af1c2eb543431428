"""The offline commands load only the engine (docs/decisions/cli-start-up.md): the CLI
does not import the API layer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli import main

_HEAVY = ("fastapi", "starlette", "pydantic", "sqlalchemy", "sqlmodel", "uvicorn", "alembic")

_PROBE = """
import json, sys
from service.cli import main
code = main(sys.argv[1:])
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.stdin.read())))
print(json.dumps({"code": code, "heavy": heavy}), file=sys.stderr)
"""


def _probe(*argv: str) -> dict[str, object]:
    """Run the command line in a fresh interpreter; its exit code and heavy imports."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        input=json.dumps(_HEAVY),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("system", ["dutch", "jca"])
def test_pair_imports_no_web_or_database_stack(
    system: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    field = tmp_path / "field.trf"
    args = ["--players", "10", "--rounds", "3", "--seed", "15", "--system", system]
    assert main(["generate", *args, "-o", str(field)]) == 0
    text = field.read_text(encoding="utf-8").replace("XXR 3", "XXR 9")
    field.write_text(text, encoding="utf-8")
    assert _probe("pair", str(field), "--system", system) == {"code": 0, "heavy": []}


def test_offline_commands_import_no_web_or_database_stack(tmp_path: Path) -> None:
    field = tmp_path / "field.trf"
    assert (
        main(["generate", "--players", "9", "--rounds", "3", "--seed", "4", "-o", str(field)]) == 0
    )
    for argv in (
        ("standings", str(field), "--format", "json"),
        ("check", str(field)),
        ("flampark", "--players", "12", "--rounds", "4", "--format", "json"),
        ("flampark", "--players", "12", "--rounds", "4"),
        ("generate", "--players", "6", "--rounds", "2", "--seed", "1", "-o", str(field)),
    ):
        assert _probe(*argv)["heavy"] == [], argv


def test_the_probe_sees_heavy_imports() -> None:
    """The probe itself can fail: `openapi` does need the web stack."""
    found = _probe("openapi")
    heavy = found["heavy"]
    assert found["code"] == 0
    assert isinstance(heavy, list)
    assert {"fastapi", "pydantic"} <= set(heavy)
