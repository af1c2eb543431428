"""The suite's data: figures read from the source texts and rule tables, committed here so
that a clone of the repository alone runs every test (tests/data/README.md says where
each file comes from; refresh.py regenerates them)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent
ORACLE_DUTCH = DATA_DIR / "oracle" / "dutch"


@cache
def figures(name: str) -> Any:
    """The JSON file `name` (a path under tests/data, e.g. "seeds/003-bridge.json")."""
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def seed_000() -> Any:
    """Formuła FLAMPARK: pairing chains, FK6, scoring and premium figures."""
    return figures("seeds/000-flampark.json")


def seed_001() -> Any:
    """The JCA Swiss rules (スイス式競技会): the section 5 pairing examples."""
    return figures("seeds/001-jca.json")


def seed_002() -> Any:
    """FIDE C.05 Annexes 1-2 and the tie-break notes: Berger and Varma tables, the
    crosstable, the football group."""
    return figures("seeds/002-round-robin.json")


def seed_003() -> Any:
    """The lecture *Wynik rozdania*: matchpoint, Butler, Cavendish, VP and advice figures."""
    return figures("seeds/003-bridge.json")


def bridge_reference() -> Any:
    """Bridge rule tables: Law 77 vectors, board table, IMP (Law 78B) and VP scales."""
    return figures("reference/bridge-scoring.json")


def spec_bridge() -> Any:
    """The lecture's worked matchpoint board, its Butler datum and IMPs, IMP bands."""
    return figures("spec/bridge.json")
