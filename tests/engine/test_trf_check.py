"""`arbiter check`, `pair` and `standings` on real files (tests/data/trf/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main
from service.engine.model import Colour
from service.engine.trf import parse_trf
from service.engine.trf_check import infer_initial_colour

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


def test_check_reports_every_round_even_after_an_unpairable_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(DATA / "check_unpairable.trf")]) == 1
    out = capsys.readouterr().out
    assert "round 2: cannot be paired by the dutch rules" in out
    assert "round 3: cannot be paired by the dutch rules" in out
    assert out.rstrip().endswith("1 of 3 rounds agree")


def test_check_treats_blank_cells_as_absent_and_infers_the_first_colour(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = parse_trf((DATA / "check_late_entry.trf").read_text())
    assert doc.tournament.initial_colour is None
    assert infer_initial_colour(doc.tournament) is Colour.BLACK
    main(["check", str(DATA / "check_late_entry.trf")])
    out = capsys.readouterr().out
    # Round 1 without player 5 (blank cell): 1-3 and 2-4 with player 1 on Black.
    assert "round 1:" not in out, out


@pytest.mark.parametrize("name", ["byte_order_mark.trf", "windows_1252.trf"])
def test_cli_reads_names_as_the_api_does(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(DATA / name), "--format", "json"]) == 0
    assert "Ó Briain, Seán" in capsys.readouterr().out.encode().decode("unicode_escape")


def test_cli_refuses_a_contradictory_file_with_the_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pair", str(DATA / "both_white.trf")]) == 2
    assert "line 4, column 97" in capsys.readouterr().err


def test_cli_pair_honours_announced_byes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", str(DATA / "announced_byes.trf"), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"player": 3' in out and '"type": "half-point"' in out
