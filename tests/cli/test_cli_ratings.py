"""`arbiter ratings FILE.trf`: the rows of `POST /v1/compute/ratings` as text or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from tests.data import ORACLE_DUTCH

FILE = str(ORACLE_DUTCH / "v0004.trf")


def test_json_with_facts_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Player 1 of v0004: five games played (the round-3 bye is not rated), 4.5 points
    against an expected 3.56: K 20 gives +18.8."""
    assert main(["ratings", FILE, "--k", "1=20", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    one = document["players"][0]
    assert (one["games"], one["score"], one["expected"]) == (5, 4.5, 3.56)
    assert (one["k"], one["k_rule"], one["change"]) == (20, "given", 18.8)
    two = document["players"][1]
    assert (two["k"], two["change"]) == (None, None)
    assert two["missing"] == ["reached_2400", "games_before", "birth_year"]


def test_text_names_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", FILE, "--games-before", "2=50", "--reached-2400", "2=no"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["No", "Name", "Rtg"]
    assert lines[2].rstrip().endswith("missing: birth_year")
    assert len(lines) == 15  # header, 13 players, the rules applied


def test_year_decides_the_junior_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Born 2008: a junior in 2026 (K 40), not in 2027 (K 20 after 30 games)."""
    trf = tmp_path / "junior.trf"
    trf.write_text(
        "042 2026/05/01\n"
        "001    1 m    Young, Y                          2000 ENG             2008/01/01  1.0    1"
        "     2 w 1\n"
        "001    2 m    Old, O                            2000 ENG             1970/01/01  0.0    2"
        "     1 b 0\n"
    )
    facts = ["--reached-2400", "1=no", "--games-before", "1=40", "--format", "json"]
    assert main(["ratings", str(trf), *facts]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["k"] == 40
    assert main(["ratings", str(trf), *facts, "--year", "2027"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["k"] == 20


def test_a_bad_option_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", FILE, "--k", "one=20"]) == 2
    assert "--k 'one=20'" in capsys.readouterr().err
    assert main(["ratings", FILE, "--k", "99=20"]) == 2
    assert "no player with start number 99" in capsys.readouterr().err


def test_the_last_round_forecast(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One round of nine left: the seeker (5.5/8 against eight 2450s, two GMs among
    them) needs a GM in round 9 and a draw against 2671 or more (Ra 2475 + dp 125 for
    6/9) for the GM norm; the IM norm any result keeps (B.01 1.4.8, docs/rules/ratings.md)."""
    from service.engine.model import Game, GameResult, Player, Round, Tournament
    from service.engine.trf import TrfDocument, write_trf

    titles = ["GM", "GM", "IM", "IM", "IM", "FM", None, None]
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED"]
    results = ["1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1", "1-0"]
    players = [Player(1, "Seeker, S", 2400, federation="ENG", sex="m")] + [
        Player(n + 2, f"Opponent, {n}", 2450, federation=fed, title=title)
        for n, (title, fed) in enumerate(zip(titles, feds, strict=True))
    ]
    rounds = tuple(
        Round(n, (Game(n, 1, n + 1, GameResult(r)),)) for n, r in enumerate(results, start=1)
    )
    event = Tournament(players=tuple(players), rounds=rounds, total_rounds=9)
    trf = tmp_path / "last.trf"
    trf.write_text(write_trf(TrfDocument(event)))
    assert main(["ratings", str(trf), "--event-format", "round-robin"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("GM: draw vs >= 2671, GM; IM: secured")
    assert lines[-2] == "# round 9 left: the least result that gives each norm, and against whom"


def test_a_bad_host_federation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", FILE, "--host-federation", "EN"]) != 0
    assert "--host-federation" in capsys.readouterr().err


def test_a_norm_made_leaving_out_wins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """B.01 1.4.1f: nine 2390s (4 GMs, 2 IMs; 7/9) and wins against a 1900 and a 2100
    in rounds 10-11. Over 11 games Ra 2346 < 2380; without rounds 10 and 11 Ra 2390,
    Rp 2610: the GM norm, the rounds named in the text and in the JSON's `excluded`."""
    from service.engine.model import Game, GameResult, Player, Round, Tournament
    from service.engine.trf import TrfDocument, write_trf

    titles = ["GM", "GM", "GM", "GM", "IM", "IM", None, None, None, None, None]
    feds = ["GER", "FRA", "ESP", "ITA", "NED", "POL", "HUN", "SWE", "NOR", "SUI", "AUT"]
    ratings = [2390] * 9 + [1900, 2100]
    players = [Player(1, "Seeker, S", 2400, federation="ENG", sex="m")] + [
        Player(n + 2, f"Opponent, {n}", ratings[n], federation=feds[n], title=titles[n])
        for n in range(11)
    ]
    results = ["1-0"] * 5 + ["1/2-1/2"] * 4 + ["1-0"] * 2
    rounds = tuple(
        Round(n, (Game(n, 1, n + 1, GameResult(r)),)) for n, r in enumerate(results, start=1)
    )
    trf = tmp_path / "eleven.trf"
    trf.write_text(write_trf(TrfDocument(Tournament(players=tuple(players), rounds=rounds))))
    assert main(["ratings", str(trf)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("norm: GM (1.4.1f: without rounds 10, 11), IM")
    assert main(["ratings", str(trf), "--format", "json"]) == 0
    gm = json.loads(capsys.readouterr().out)["players"][0]["norms"][0]
    assert gm["excluded"] == [{"round": 10, "opponent": 11}, {"round": 11, "opponent": 12}]
