"""The `arbiter` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from tests.data import ORACLE_DUTCH

ORACLE = ORACLE_DUTCH


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
    assert len(lines) == 15  # header, 13 players, the reading applied
    assert lines[-1].startswith("# C.07 2026, swiss reading")


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


def test_pair_next_round_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from service.engine.trf import parse_trf, rounds_prefix, write_trf

    doc = parse_trf((ORACLE / "v0004.trf").read_text())
    prefix = tmp_path / "before-round-4.trf"
    prefix.write_text(write_trf(rounds_prefix(doc, 3)))
    assert main(["pair", str(prefix), "--system", "dutch", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["round"] == 4
    played = doc.tournament.rounds[3]
    assert {(p["white"], p["black"]) for p in body["pairings"]} == {
        (g.white, g.black) for g in played.games
    }
    assert [p["table"] for p in body["pairings"]] == list(range(1, len(body["pairings"]) + 1))


def test_pair_text_and_explain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from service.engine.trf import parse_trf, rounds_prefix, write_trf

    prefix = tmp_path / "r1.trf"
    prefix.write_text(write_trf(rounds_prefix(parse_trf((ORACLE / "v0004.trf").read_text()), 0)))
    assert main(["pair", str(prefix), "--explain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Round 1")
    assert "# " in out


def test_generate_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "random.trf"
    argv = ["generate", "--players", "15", "--rounds", "5", "--seed", "3", "-o", str(target)]
    assert main(argv) == 0
    text = target.read_text()
    assert "XXR 5" in text and text.count("\n001 ") + text.startswith("001 ") == 15
    assert main(["check", str(target)]) == 0
    assert "5 of 5 rounds agree" in capsys.readouterr().out
    again = tmp_path / "again.trf"
    assert main([*argv[:-1], str(again)]) == 0
    assert again.read_text() == text  # the same seed, the same tournament


def test_check_reports_a_wrong_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dataclasses import replace

    from service.engine.trf import parse_trf, write_trf

    doc = parse_trf((ORACLE / "v0004.trf").read_text())
    rounds = list(doc.tournament.rounds)
    first = rounds[0]
    swapped = tuple(replace(g, white=g.black, black=g.white) for g in first.games)
    rounds[0] = replace(first, games=swapped)
    broken = tmp_path / "broken.trf"
    broken.write_text(
        write_trf(replace(doc, tournament=replace(doc.tournament, rounds=tuple(rounds))))
    )
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "round 1: differs" in out


TIEBREAK_DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreaks"


def _every_pair_meets_trf(tmp_path: Path, declared: str | None) -> Path:
    from service.engine.trf import TrfDocument, write_trf
    from tests.engine.scoring.builders import every_pair_meets

    headers = (("012", "Every pair meets"),) + ((("092", declared),) if declared else ())
    doc = TrfDocument(tournament=every_pair_meets(), headers=headers, system=declared)
    path = tmp_path / "event.trf"
    path.write_text(write_trf(doc))
    return path


def _standings_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["standings", *argv, "--format", "json"]) == 0
    body: dict[str, object] = json.loads(capsys.readouterr().out)
    return body


def test_standings_reading_is_said_and_decided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exported round-robin (092 FIDE_ROUNDROBIN) gets the round-robin defaults;
    --system overrides the file; with nothing said the shape decides."""
    from service.engine.scoring.reading import DEFAULT_ROUND_ROBIN, DEFAULT_SWISS

    robin = _every_pair_meets_trf(tmp_path, "FIDE_ROUNDROBIN")
    body = _standings_json(capsys, str(robin))
    assert body["tiebreaks"] == list(DEFAULT_ROUND_ROBIN)
    assert body["reading"] == {
        "reading": "round-robin",
        "system": "round-robin",
        "source": "trf-092",
    }
    told = _standings_json(capsys, str(robin), "--system", "swiss-dutch")
    assert told["tiebreaks"] == list(DEFAULT_SWISS)
    assert told["reading"] == {"reading": "swiss", "system": "swiss-dutch", "source": "request"}
    silent = _standings_json(capsys, str(_every_pair_meets_trf(tmp_path, None)))
    assert silent["reading"] == {"reading": "round-robin", "system": None, "source": "inferred"}


def test_standings_json_agrees_with_the_checker(capsys: pytest.CaptureFixture[str]) -> None:
    """t-f01 (declared Swiss by nothing but its shape) with the checker's values, ARO
    null for the player who never played over the board."""
    expected = json.loads((TIEBREAK_DATA / "expected.json").read_text())["t-f01.trf"]["2024"]
    path = str(TIEBREAK_DATA / "t-f01.trf")
    body = _standings_json(capsys, path, "--tiebreaks", "BH,FB,SB,ARO", "--edition", "2024")
    rows = body["rows"]
    assert isinstance(rows, list)
    got = {str(r["start_number"]): r["tiebreaks"] for r in rows}
    want = {n: {c: v[c] for c in ("BH", "FB", "SB", "ARO")} for n, v in expected.items()}
    assert got == want


@pytest.mark.parametrize("command", ["pair", "standings", "check"])
@pytest.mark.parametrize("content", [b"\x00\x01\xff\xfe garbage\n", b"", b"012 Only a name\n"])
def test_a_file_that_is_not_trf_is_refused_as_the_api_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: bytes
) -> None:
    from service.api.compute_input import NO_PLAYERS

    path = tmp_path / "garbage.trf"
    path.write_bytes(content)
    assert main([command, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"arbiter: {path}: {NO_PLAYERS}\n"


def test_generate_with_too_few_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--players", "1", "--rounds", "3", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "too few players" in captured.err and "at least 2" in captured.err


def test_generate_a_start_list_and_pair_its_first_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--rounds 0`: the players and their ratings alone, no XXR (the arbiter sets the
    number of rounds), which `arbiter pair` pairs as round 1: the top half against the
    bottom half (FIDE C.04.3 in a first round, one score group)."""
    target = tmp_path / "start.trf"
    argv = ["generate", "--players", "12", "--rounds", "0", "--seed", "5", "-o", str(target)]
    assert main(argv) == 0
    text = target.read_text()
    lines = text.splitlines()
    players = [line for line in lines if line.startswith("001 ")]
    assert len(players) == 12
    assert all(len(line.rstrip()) <= 89 for line in players)  # no round columns
    assert not any(line.startswith("XXR") for line in lines)
    capsys.readouterr()
    assert main(["pair", str(target), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["round"] == 1
    pairs = sorted(sorted((g["white"], g["black"])) for g in body["pairings"])
    assert pairs == [[k, k + 6] for k in range(1, 7)]


def test_generate_with_a_negative_number_of_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--players", "4", "--rounds", "-1", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--rounds" in captured.err and "negative" in captured.err


def test_a_reader_that_goes_away_is_no_error() -> None:
    """`arbiter standings f.trf | head -1`: the reader closes the pipe; no traceback,
    no message, exit 0. Here the reader is gone before the first write."""
    import subprocess
    import sys

    path = str(TIEBREAK_DATA / "t-f05.trf")
    script = f"from service.cli import main; raise SystemExit(main(['standings', {path!r}]))"
    producer = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert producer.stdout is not None and producer.stderr is not None
    producer.stdout.close()  # the command is still importing: its writes all fail
    err = producer.stderr.read()
    assert producer.wait(timeout=120) == 0
    assert err == b""


TRF_DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


def _pairs(capsys: pytest.CaptureFixture[str], path: Path) -> set[frozenset[int]]:
    assert main(["pair", str(path), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    return {frozenset((p["white"], p["black"])) for p in body["pairings"]}


def _without(tmp_path: Path, name: str, code: str) -> Path:
    """The same file without its `code` records."""
    lines = (TRF_DATA / name).read_text().splitlines(keepends=True)
    plain = tmp_path / f"without-{code}.trf"
    plain.write_text("".join(line for line in lines if not line.startswith(code)))
    return plain


def test_pair_applies_trf26_accelerations_250(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Player 6 (0 points) plays in the 1-point group with one virtual point.
    accelerated = _pairs(capsys, TRF_DATA / "trf26_acceleration_250.trf")
    assert accelerated == {frozenset({1, 6}), frozenset({2, 3}), frozenset({4, 5})}
    assert _pairs(capsys, _without(tmp_path, "trf26_acceleration_250.trf", "250")) != accelerated


def test_pair_applies_trf26_prohibited_pairings_260(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert frozenset({1, 2}) in _pairs(
        capsys, _without(tmp_path, "trf26_prohibited_260.trf", "260")
    )
    assert frozenset({1, 2}) not in _pairs(capsys, TRF_DATA / "trf26_prohibited_260.trf")


def test_standings_count_the_trf26_scoring_system_162(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(TRF_DATA / "trf26_scoring_162.trf"), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {row["start_number"]: row["points"] for row in rows} == {1: 4, 3: 3, 2: 2, 4: 1}


def test_pair_without_a_round_count_says_it_adds_a_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No XXR or 142 (as many exports write): the next round is paired as one more
    round, and standard error says so; with the count the note is absent."""
    plain = _without(tmp_path, "partial_birth_dates.trf", "XXR")
    assert main(["pair", str(plain), "--format", "json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["round"] == 3
    assert "no number of rounds (XXR or 142): pairing round 3" in out.err
    assert main(["pair", str(TRF_DATA / "partial_birth_dates.trf")]) == 2
    assert "all 2 rounds are already paired" in capsys.readouterr().err
