"""Every benchmark script under bench/ still imports: the scripts are run by hand, not
by the suite, so a module they use that moves or a function that is renamed would
otherwise break them unseen (bench/README.md)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def bench_on_path() -> Iterator[None]:
    """The scripts import their shared helpers (`http_load`) from their own folder."""
    sys.path.insert(0, str(BENCH))
    try:
        yield
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.parametrize("script", sorted(BENCH.glob("*.py")), ids=lambda p: p.name)
@pytest.mark.usefixtures("bench_on_path")
def test_a_benchmark_script_imports(script: Path) -> None:
    module = importlib.import_module(script.stem)
    assert module.__file__ is not None and Path(module.__file__) == script
