"""Team scoring, tie-breaks and ranking against FIDE's tie-break checker.

tests/data/team_tiebreaks holds 20 team events (TRF-26) with every team tie-break
value the checker gives (tests/data/team_tiebreaks/README.md). Each value is compared
exactly, for every team of every event; the place codes (DE, EDE, ...) are computed
right after the match points, as the files were; the ranking by the file's list
gives its ranks. The EDE chains with Board Count compare with the C.07 12.1 reading
(`rule_12_1`), not with the checker's reversed stage.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from service.engine.teams.model import TeamEvent, TeamSystem
from service.engine.teams.ranking import rank_teams, team_tiebreak_values
from service.engine.teams.trf import parse_team_trf, write_team_trf

DATA = Path(__file__).resolve().parents[2] / "data" / "team_tiebreaks"
FILES = sorted(p.name for p in DATA.glob("v*.json"))
EBC_CODES = ("EDEC", "EDEBT", "EDEBB")


@cache
def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@cache
def _event(name: str) -> TeamEvent:
    data = _load(name)
    return parse_team_trf(data["trf"], system=TeamSystem(data["system"])).event


def _exact(value: float | int) -> Fraction:
    return Fraction(str(value))


def test_the_set_is_complete() -> None:
    assert len(FILES) == 20
    manifest = (DATA / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert sorted(line.split("\t")[0] for line in manifest) == FILES


@pytest.mark.parametrize("name", FILES)
def test_scoring_as_the_file_says(name: str) -> None:
    data = _load(name)
    scoring = _event(name).scoring
    points = data["match_points"]
    assert scoring.boards == data["boards"]
    assert (scoring.match_win, scoring.match_draw, scoring.match_loss) == (
        points["win"],
        points["draw"],
        points["loss"],
    )
    if any(r.pab is not None for r in _event(name).rounds):
        assert (scoring.pab_match, scoring.pab_game) == (
            points["pab"],
            points["pab_game_points"],
        )
    assert len(_event(name).teams) == data["teams"]
    assert len(_event(name).rounds) == data["rounds"]


CASES = [(name, code) for name in FILES for code in _load(name)["tiebreaks"]]


@pytest.mark.parametrize(("name", "code"), CASES, ids=[f"{n[:5]}-{c}" for n, c in CASES])
def test_every_team_value(name: str, code: str) -> None:
    expected = {int(t): _exact(v) for t, v in _load(name)["tiebreaks"][code].items()}
    assert team_tiebreak_values(_event(name), [code])[code] == expected


BC_CASES = [(name, code) for name in FILES for code in EBC_CODES]


@pytest.mark.parametrize(("name", "code"), BC_CASES, ids=[f"{n[:5]}-{c}" for n, c in BC_CASES])
def test_ede_with_board_count_lower_first(name: str, code: str) -> None:
    disputed = _load(name)["disputed"][code]
    expected = {int(t): _exact(v) for t, v in disputed["rule_12_1"].items()}
    assert team_tiebreak_values(_event(name), [code])[code] == expected


def test_the_board_count_reading_matters_somewhere() -> None:
    """The 12.1 reading and the checker's differ on some teams of the set, so the
    test above does tell the two apart."""
    differing = sum(
        1
        for name in FILES
        for code in EBC_CODES
        for team, value in _load(name)["disputed"][code]["checker"].items()
        if value != _load(name)["disputed"][code]["rule_12_1"][team]
    )
    assert differing > 0


@pytest.mark.parametrize("name", FILES)
def test_ranking(name: str) -> None:
    data = _load(name)
    standings = rank_teams(_event(name), data["ranking_tiebreaks"])
    assert [s.team for s in standings] == data["ranking"]
    assert {str(s.team): s.rank for s in standings} == data["rank"]


@pytest.mark.parametrize("name", FILES)
def test_the_310_ranks_are_the_ranking(name: str) -> None:
    data = _load(name)
    doc = parse_team_trf(data["trf"])
    assert {str(t): r for t, r in doc.ranks.items()} == data["rank"]


@pytest.mark.parametrize("name", FILES)
def test_export_reproduces_the_file(name: str) -> None:
    text = _load(name)["trf"]
    written = write_team_trf(parse_team_trf(text))
    assert written.rstrip("\n") == text.rstrip("\n")
    assert write_team_trf(parse_team_trf(written)) == written
