"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = Path(os.environ.get("ARBITER_SHARED_DIR", REPO_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's shared documents (rules, seeds, oracle), beside the repository."""
    if not SHARED_DIR.is_dir():
        raise RuntimeError(f"shared documents not found at {SHARED_DIR}")
    return SHARED_DIR
