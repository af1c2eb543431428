"""`arbiter serve --workers`: more than one worker needs the cross-process bus."""

from __future__ import annotations

import pytest

from service.cli import main
from service.config import get_settings


def test_several_workers_on_sqlite_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARBITER_DATABASE_URL", "sqlite+aiosqlite:///./unused.db")
    get_settings.cache_clear()
    try:
        assert main(["serve", "--workers", "2"]) == 2
        assert "needs PostgreSQL" in capsys.readouterr().err
        assert main(["serve", "--workers", "0"]) == 2
    finally:
        get_settings.cache_clear()
