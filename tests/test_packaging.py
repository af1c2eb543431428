"""The installed package (docs/architecture.md): every package under service/ is shipped,
and the Alembic folder (top-level `migrations/`, shipped as `service.migrations`) lets
`arbiter migrate` run from the installed files alone, without the source tree."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_under_service_is_shipped() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "service").rglob("__init__.py")
    }
    assert found <= set(config["packages"])
    assert config["package-dir"] == {"service.migrations": "migrations"}


def test_migrate_runs_from_the_built_package(tmp_path: Path) -> None:
    built = tmp_path / "lib"
    setup = "from setuptools import setup; setup()"
    build = subprocess.run(
        [sys.executable, "-c", setup, "build_py", "--build-lib", str(built)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    shipped = built / "service" / "migrations"
    assert (shipped / "env.py").is_file() and (shipped / "script.py.mako").is_file()
    versions = sorted(p.name for p in (shipped / "versions").glob("0*.py"))
    assert versions == sorted(p.name for p in (ROOT / "migrations" / "versions").glob("0*.py"))

    database = tmp_path / "fresh.db"
    env = {
        **os.environ,
        "PYTHONPATH": str(built),  # the built files, not the source tree
        "ARBITER_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
    }
    script = (
        "import sys, service; assert service.__file__.startswith(sys.argv[1]), service.__file__;"
        "from service.cli import main; sys.exit(main(['migrate']))"
    )
    migrated = subprocess.run(
        [sys.executable, "-c", script, str(built)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr
    with sqlite3.connect(database) as connection:
        head = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        columns = {row[1] for row in connection.execute("PRAGMA table_info(players)")}
    assert head == (max(versions)[:4],)
    assert "number" in columns
