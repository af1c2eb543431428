"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

# Property tests: no per-example deadline (a shared CI machine is noisy) and, in CI,
# a fixed example sequence so a run is reproducible.
settings.register_profile("arbiter", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "arbiter")

# The live reader runs in a process of its own in production (service.live.reader); an
# app started per test would spawn one each, so the suite runs it on a thread, and the
# live tests with real servers (tests/live) run the process reader.
os.environ.setdefault("ARBITER_LIVE_READER", "thread")

REPO_ROOT = Path(__file__).resolve().parents[1]
