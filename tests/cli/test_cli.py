"""The `arbiter` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from tests.conftest import SHARED_DIR

ORACLE = SHARED_DIR / "oracle" / "dutch"


def test_openapi_prints_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openapi"]) == 0
    spec = json.loads(capsys.readouterr().out)
    assert spec["info"]["title"] == "Arbiter"
    assert "/v1/tournaments" in spec["paths"]


def test_standings_of_a_trf_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = ORACLE / "v0004.trf"
    assert main(["standings", str(path), "--tiebreaks", "BH,SB", "--format", "json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["tiebreaks"] == ["BH", "SB"]
    assert table["rows"][0]["start_number"] == 1  # 5.0 points, alone at the top
    assert table["rows"][0]["points"] == 5.0
    assert len(table["rows"]) == 13


def test_standings_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(ORACLE / "v0004.trf"), "--tiebreaks", "SB"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["Rk", "No", "Name", "Pts"]
    assert len(lines) == 14


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(tmp_path / "none.trf")]) == 2
    assert "arbiter:" in capsys.readouterr().err


def test_migrate_creates_the_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.config import get_settings

    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("ARBITER_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        assert main(["migrate"]) == 0
    finally:
        get_settings.cache_clear()
    assert (tmp_path / "cli.db").stat().st_size > 0


def test_flampark_schedule_json(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = "basic,basic,basic,basic,basic,x2,x2,x2,x4,x8"
    argv = ["flampark", "--players", "56", "--rounds", "10", "--kinds", kinds]
    assert main([*argv, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in body["rounds"]] == list(range(1, 11))
    assert body["rounds"][9]["kind"] == "x8" and len(body["rounds"][9]["byes"]) == 8
    first = body["rounds"][0]["games"][0]
    assert set(first) == {"table", "white", "black"}


def test_flampark_from_a_start_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ratings = tmp_path / "list.csv"
    ratings.write_text("# name,rating\n" + "".join(f"P{n},{2000 - n}\n" for n in range(30)))
    assert main(["flampark", "--ratings", str(ratings), "--rounds", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Round 1 (basic)")
    assert out.count("Round ") == 7


def test_flampark_too_few_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flampark", "--players", "10", "--rounds", "9"]) == 2
    assert "18" in capsys.readouterr().err
