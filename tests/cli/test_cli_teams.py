"""`arbiter standings` of a team TRF file: one row per team (docs/rules/teams.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "team_tiebreaks"


def _file(tmp_path: Path, name: str) -> tuple[Path, dict[str, object]]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    path = tmp_path / f"{name}.trf"
    path.write_text(str(data["trf"]), encoding="utf-8")
    return path, data


@pytest.mark.parametrize("name", ["v0006.json", "v0010.json"])
def test_team_standings_json_give_the_checkers_ranks(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The list comes from the file's 212 record (the checker's ranking list)."""
    path, data = _file(tmp_path, name)
    assert main(["standings", str(path), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["tiebreaks"] == data["ranking_tiebreaks"]
    assert body["system"] == data["system"]
    assert {str(r["team"]): r["rank"] for r in body["rows"]} == data["rank"]
    first = body["rows"][0]
    team = str(first["team"])
    tiebreaks = data["tiebreaks"]
    assert isinstance(tiebreaks, dict)
    assert first["match_points"] == tiebreaks["MPTS"][team]
    assert first["game_points"] == tiebreaks["GPTS"][team]


def test_team_standings_text_with_a_list_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PTS goes first when the list does not start with a score."""
    path, _ = _file(tmp_path, "v0006.json")
    assert main(["standings", str(path), "--tiebreaks", "BH:MP,BC"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Rk", "No", "Team", "MP", "GP", "PTS", "BH:MP", "BC"]
    # team 2, Baltic Knights: 8 MP, 13 GP, BH:MP 28, BC 34.5
    assert lines[1].split() == ["1", "2", "Baltic", "Knights", "8.0", "13.0", "8.00", "28.00",
                                "34.50"]  # fmt: skip
    assert lines[-1].startswith("# team swiss")


def test_team_standings_round_robin_refuses_buchholz(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _file(tmp_path, "v0006.json")
    assert main(["standings", str(path), "--system", "round-robin", "--tiebreaks", "BH:MP"]) == 2
    assert "not used in a round-robin" in capsys.readouterr().err


def test_a_contradicting_team_file_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, data = _file(tmp_path, "v0006.json")
    text = str(data["trf"]).replace("310   1 Unicorn", "310   2 Unicorn")
    path.write_text(text, encoding="utf-8")
    assert main(["standings", str(path)]) == 2
    assert "team 2 repeated" in capsys.readouterr().err
