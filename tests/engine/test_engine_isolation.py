"""The engine stays pure (docs/architecture.md#the-layers: the engine knows nothing of the
service): importing service.engine and every module under it loads no web, database or
validation library.

Checked in a fresh interpreter, because the test process itself has imported the API.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("fastapi", "starlette", "sqlalchemy", "sqlmodel", "pydantic", "pydantic_core")

_PROBE = """
import importlib, json, pkgutil, sys
import service.engine as engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "service.engine.")]
for name in names:
    importlib.import_module(name)
forbidden = set(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
print(json.dumps({"modules": names, "loaded": loaded}))
"""


def test_engine_imports_no_service_library() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, *FORBIDDEN],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(run.stdout)
    # The walk really imported the engine's subpackages, not only its top.
    assert {"service.engine.trf", "service.engine.pairing.dutch", "service.engine.bridge"} <= set(
        report["modules"]
    )
    assert report["loaded"] == []


def test_the_probe_sees_a_forbidden_import() -> None:
    """The same probe reports a library the engine does not load when asked for it: the
    check above can fail."""
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, "fractions"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "fractions" in json.loads(run.stdout)["loaded"]
