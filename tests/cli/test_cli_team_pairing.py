"""`arbiter pair`, `check` and `generate --teams` for team files (docs/cli.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from service.cli import main
from service.engine.pairing.team_swiss import (
    PlayedRound,
    TeamMatch,
    TeamSwissSettings,
    generate_team_tournament,
)
from service.engine.teams.generated import generated_team_document
from service.engine.teams.trf import parse_team_trf, write_team_trf

DATA = Path(__file__).resolve().parents[1] / "data" / "team_tiebreaks"


def _played(tmp_path: Path, rounds: int, *, of: int = 5, teams: int = 9) -> tuple[Path, object]:
    """The first `rounds` rounds of a generated `of`-round team Swiss (142 says `of`)."""
    tournament = generate_team_tournament(teams, TeamSwissSettings(rounds=of), seed=7, boards=4)
    text = write_team_trf(
        generated_team_document(replace(tournament, rounds=tournament.rounds[:rounds]))
    )
    path = tmp_path / "teams.trf"
    path.write_text(text, encoding="utf-8")
    return path, tournament


def test_pair_json_is_the_generators_next_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, tournament = _played(tmp_path, 3)
    assert main(["pair", str(path), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    expected = tournament.rounds[3].pairing  # type: ignore[attr-defined]
    assert body["round"] == 4 and body["system"] == "team-swiss"
    assert [(m["home"], m["away"]) for m in body["matches"]] == [
        (m.white, m.black) for m in expected.matches
    ]
    assert body["byes"] == [{"team": expected.bye, "type": "pairing-allocated"}]
    first = body["matches"][0]
    home, away = first["home"], first["away"]
    # team t fields players 4t-3..4t; the first-named team has White on boards 1 and 3
    assert first["boards"] == [
        {"board": 1, "white": 4 * home - 3, "black": 4 * away - 3},
        {"board": 2, "white": 4 * away - 2, "black": 4 * home - 2},
        {"board": 3, "white": 4 * home - 1, "black": 4 * away - 1},
        {"board": 4, "white": 4 * away, "black": 4 * home},
    ]


def test_pair_text_prints_the_match_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _played(tmp_path, 2)
    assert main(["pair", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Round 3 (team-swiss)"
    assert lines[1].split()[0] == "1" and "Team" in lines[1]
    assert lines[2].split()[:3] == ["board", "1:", "W"]
    assert lines[-1].startswith("bye ") and lines[-1].endswith("(pairing-allocated)")


def test_pair_round_robin_from_the_option_and_from_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nine teams, round 3 of the Berger table for 10: the team facing the dummy is free.
    v0004 declares a team round-robin in its 192 record (7 teams, all 7 rounds played)."""
    path, _ = _played(tmp_path, 2)
    assert main(["pair", str(path), "--system", "team-round-robin", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["system"] == "team-round-robin" and body["round"] == 3
    # Berger 10, round 3: 2-10 (10 is the dummy), 3-1, 4-9, 5-8, 6-7
    assert [(m["home"], m["away"]) for m in body["matches"]] == [(3, 1), (4, 9), (5, 8), (6, 7)]
    assert body["byes"] == [{"team": 2, "type": "free"}]
    data = json.loads((DATA / "v0004.json").read_text(encoding="utf-8"))
    robin = tmp_path / "robin.trf"
    robin.write_text(str(data["trf"]), encoding="utf-8")
    assert main(["pair", str(robin)]) == 2
    assert "all 7 rounds are paired" in capsys.readouterr().err


def test_check_a_generated_team_swiss_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gen.trf"
    argv = ["generate", "--teams", "11", "--rounds", "6", "--boards", "6", "--seed", "4"]
    assert main([*argv, "-o", str(path)]) == 0
    doc = parse_team_trf(path.read_text(encoding="utf-8"))
    assert len(doc.event.teams) == 11 and doc.event.scoring.boards == 6
    assert len(doc.event.rounds) == 6
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["6 of 6 rounds agree"]
    # the same seed writes the same file
    assert main([*argv]) == 0
    assert capsys.readouterr().out == path.read_text(encoding="utf-8")


def test_check_reports_a_round_that_breaks_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 2 of a generated event with two matches' second teams swapped."""
    tournament = generate_team_tournament(8, TeamSwissSettings(rounds=4), seed=2, boards=4)
    second = tournament.rounds[1]
    a, b, *rest = second.pairing.matches
    swapped = (TeamMatch(1, a.white, b.black), TeamMatch(2, b.white, a.black), *rest)
    changed = PlayedRound(replace(second.pairing, matches=swapped), second.game_points)
    rounds = (tournament.rounds[0], changed, *tournament.rounds[2:])
    path = tmp_path / "bad.trf"
    path.write_text(write_team_trf(generated_team_document(replace(tournament, rounds=rounds))))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "round 1: " not in "\n".join(out)
    assert out[0] == "round 2: differs from the team-swiss rules"
    assert out[-1].endswith("of 4 rounds agree") and not out[-1].startswith("4 ")


def test_team_systems_are_refused_for_an_individual_file_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    individual = tmp_path / "open.trf"
    assert (
        main(["generate", "--players", "6", "--rounds", "2", "--seed", "1", "-o", str(individual)])
        == 0
    )
    assert main(["pair", str(individual), "--system", "team-swiss"]) == 2
    assert "--system: team-swiss pairs a team file" in capsys.readouterr().err
    path, _ = _played(tmp_path, 1)
    assert main(["check", str(path), "--system", "jca"]) == 2
    assert "--system: jca pairs individuals" in capsys.readouterr().err
    assert main(["generate", "--teams", "1", "--rounds", "2", "--seed", "1"]) == 2
    assert "--teams: too few teams" in capsys.readouterr().err
    assert main(["generate", "--rounds", "2", "--seed", "1"]) == 2
    assert "--players: give --players N" in capsys.readouterr().err


def test_check_of_a_reference_event_runs_every_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """v0006 (11 teams, 5 rounds) was paired by another program: the replay reports on
    each of its rounds and ends with the count."""
    data = json.loads((DATA / "v0006.json").read_text(encoding="utf-8"))
    path = tmp_path / "v0006.trf"
    path.write_text(str(data["trf"]), encoding="utf-8")
    code = main(["check", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("of 5 rounds agree")
    assert code == (0 if out[-1].startswith("5 ") else 1)
