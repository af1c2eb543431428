"""Regenerate the suite's data files (tests/data) from the project's shared reference
documents (not part of this repository; tests/data/README.md names each one).

The tests read only tests/data; this script, run by hand when those documents change, is
the one place that reads them, by their file names in that folder (seeds/, reference/,
SPEC.md, oracle/dutch): it is the only code that names them. It holds the parsing code
the tests used to run at collection time and writes what it finds as figures (JSON) and
the oracle files (TRF, copied as they are).

    python tests/data/refresh.py [--shared DIR] [--check]

DIR defaults to $ARBITER_SHARED_DIR, else ../shared beside the repository. With
--check nothing is written: the exit status says whether the committed files are up to
date. Only the standard library is used, so it runs without the project installed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent
REPO_ROOT = DATA_DIR.parents[1]

# The suite re-pairs every oracle tournament up to this size; the larger ones (500 and
# 1,000 players) belong to bench/bench_dutch_oracle.py, which reads them in place.
ORACLE_MAX_PLAYERS = 200

_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def _frac(value: Fraction) -> str:
    """A fraction as text Fraction() reads back: "5", "1/2"."""
    return str(value)


def _find(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    match = re.search(pattern, text, flags)
    if match is None:
        raise ValueError(f"pattern {pattern!r} no longer found")
    return match


def _ints(match: re.Match[str]) -> list[int]:
    return [int(group) for group in match.groups()]


# --------------------------------------------------------------------------------------
# Seed 000 (FLAMPARK, Polish)
# --------------------------------------------------------------------------------------


def seed_000(text: str) -> dict[str, Any]:
    """The worked figures of the FLAMPARK text: pairing chains, FK6, scoring examples."""
    chains = []
    for match in re.finditer(r"R(\d+)\((\d+)\) = ([^,.]*)", text):
        value = int(match.group(3).rsplit("=", 1)[-1].strip())
        chains.append([int(match.group(1)), int(match.group(2)), value])
    line = next(line for line in text.splitlines() if "Nr 2 gra z nr 1" in line)
    round_one = [[int(a), int(b)] for a, b in re.findall(r"(\d+) (?:gra )?z (?:nr )?(\d+)", line)]
    basic, two, four = _ints(
        _find(r"9-cio rundowym turnieju.*?o (\d+)\..*?spada do (\d+)\..*?co najwyżej (\d+)\.", text)
    )
    fk6_rounds, base_minutes = _ints(_find(r"rozegranie (\d+) rund tempem (\d+)'", text))
    strength = _ints(
        _find(
            r"rankingu (\d+) wynosi (\d+), średni ranking (\d+) odpowiada sile gry (\d+), "
            r"(\d+) to (\d+)",
            text,
        )
    )
    bounds = _ints(
        _find(r"od (\d+) \(ranking rywala (\d+)\) do (\d+) \(rywal o rankingu (\d+)\)", text)
    )
    strength_pairs = [list(pair) for pair in zip(strength[0::2], strength[1::2], strict=True)]
    strength_pairs += [[bounds[1], bounds[0]], [bounds[3], bounds[2]]]
    white_loss = _find(r"Porażka białymi z graczem o rankingu (\d+),.*?= (-?\d+)\.", text)
    pc, rating, pb, pt, pct, total = _ints(
        _find(r"(\d+)\(Rc=(\d+)\) \+(\d+) \+(\d+) \+(\d+)% = (\d+)", text)
    )
    win, draw = _ints(_find(r"(\d+) punktów za każde zwycięstwo \((\d+) pkt\. za remis\)", text))
    ten_nine = _find(r"jednej z dziesięciu to (\d+)% ale jednej z dziewięciu to ([\d.]+)%", text)
    colour = _find(r"Przy (\d+) rundach przewaga jednego koloru to \+/- ([\d.]+) punktu", text)
    short, long = _ints(
        _find(r"dystansie (\d+) rund, podczas gdy pozostali grali (\d+) rund", text)
    )
    gains = _ints(_find(r"(\d+)-cio punktowy przyrost.*?wzrost o (\d+) punktów", text))
    return {
        "pairing": {
            "chain_examples": chains,
            "round_one_pairs": round_one,
            "largest_gap_nine_rounds": {"basic": basic, "two_x2": two, "four_narrowing": four},
            "first_tournament_players": int(_find(r"\((\d+) graczy\)", text).group(1)),
        },
        "fk6": {
            "players": int(_find(r"wystartowało (\d+) graczy", text).group(1)),
            "rounds": int(_find(r"rozegranie (\d+) rund", text).group(1)),
            "x8_sitting_out": int(_find(r"pauzowanie (\d+) zawodników", text).group(1)),
            "base_minutes": base_minutes,
            "rounds_at_that_pace": fk6_rounds,
            "highest_rating": int(_find(r"Najwyższy ranking (\d+)", text).group(1)),
            "lowest_rating": int(_find(r"Najniższy ranking (\d+)", text).group(1)),
            "listed_players": int(_find(r"Liczba graczy (\d+)", text).group(1)),
        },
        "scoring": {
            "strength_by_rating": strength_pairs,
            "white_loss_full_shortening": {
                "opponent_rating": int(white_loss.group(1)),
                "printed_total": int(white_loss.group(2)),
            },
            "black_win_full_shortening": {
                "pc": pc,
                "opponent_rating": rating,
                "pb": pb,
                "pt": pt,
                "percent": pct,
                "total": total,
            },
            "full_shortening_as_rating_gain": int(
                _find(r"wzrost rankingu rywala o (\d+) punktów", text).group(1)
            ),
            "forfeit_as_rating_drop": int(_find(r"o (\d+) punktów ELO", text).group(1)),
            "fk6_one_minute_shortening": {
                "pf": _find(r"dawało (\d+\.\d+) dodatkowego punktu", text).group(1),
                "ru": _find(r"oraz (\d+\.\d+) punktu za każdą minutę", text).group(1),
            },
            "fk6_ru_per_result": {"win": win, "draw": draw},
            "draw_instead_of_win_percent": int(_find(r"straty np\.(\d+) pocent", text).group(1)),
            "one_win_percent": {"of_ten": ten_nine.group(1), "of_nine": ten_nine.group(2)},
            "colour_imbalance": {"rounds": int(colour.group(1)), "points": colour.group(2)},
            "fk2_rounds": {"children": short, "adults": long},
        },
        "progress_premium": {"top_gain": gains[0], "bottom_gain": gains[1]},
    }


# --------------------------------------------------------------------------------------
# Seed 001 (JCA Swiss, Japanese)
# --------------------------------------------------------------------------------------


def seed_001(text: str) -> dict[str, Any]:
    """The parent/child pairing examples of section 5, columns side by side."""
    section = text[text.index("5、順接式") : text.index("6、色決定")]
    examples: list[list[list[int]]] = []
    block: list[list[list[int]]] = []
    for line in [*section.splitlines(), ""]:
        pairs = [[int(a), int(b)] for a, b in re.findall(r"(\d+)―+(\d+)", line)]
        if pairs:
            block.append(pairs)
            continue
        if block:
            columns = len(block[0])
            if any(len(row) != columns for row in block):
                raise ValueError("seed 001: ragged example block")
            examples.extend([row[c] for row in block] for c in range(columns))
            block = []
    return {"pairing_examples": examples}


# --------------------------------------------------------------------------------------
# Seed 002 (Berger and Varma tables, tie-breaks; Russian)
# --------------------------------------------------------------------------------------

_RR_SECTION = re.compile(r"^(\d+) или (\d+) игрок")
# The seed mostly writes U+2010 (hyphen) between numbers, sometimes an ASCII hyphen.
_RR_GAME = re.compile(r"(\d+)\s*[\u2010\u2011\u2012\u2013\u2014\-]\s*(\d+)")
_RESULT = {"1": Fraction(1), "½": Fraction(1, 2), "0": Fraction(0)}


def _berger_tables(text: str) -> dict[str, list[list[list[int]]]]:
    """Appendix 1: size -> rounds -> boards, read from rows = boards."""
    rows_by_size: dict[int, list[list[list[int]]]] = {}
    current: int | None = None
    for line in text.splitlines():
        if line.startswith("Приложение 2"):
            break
        match = _RR_SECTION.match(line)
        if match:
            current = int(match.group(2))
            rows_by_size[current] = []
            continue
        if current is None:
            continue
        games = [[int(a), int(b)] for a, b in _RR_GAME.findall(line)]
        if games:
            rows_by_size[current].append(games)
    tables: dict[str, list[list[list[int]]]] = {}
    for size, rows in rows_by_size.items():
        rounds = len(rows[0])
        if any(len(row) != rounds for row in rows):
            raise ValueError(f"seed 002: ragged Berger table for {size}")
        tables[str(size)] = [[row[r] for row in rows] for r in range(rounds)]
    return tables


def _varma_sets(text: str) -> dict[str, dict[str, list[int]]]:
    """The Varma sets keyed by the even field size.

    The tables sit in columns: a header line "9/10 игроков 11/12 игроков ..." names the
    columns, then one line per set letter holds that set for every column; the first
    line of prose after the tables ends them.
    """
    start = text.index("Таблицы Варма")
    tables: dict[str, dict[str, list[int]]] = {}
    columns: list[int] = []
    for line in text[start:].splitlines():
        headers = re.findall(r"(\d+)/(\d+) игрок", line)
        if headers:
            columns = [int(even) for _, even in headers]
            if any(int(odd) + 1 != int(even) for odd, even in headers):
                raise ValueError(f"seed 002: odd Varma header {line!r}")
            continue
        sets = re.findall(r"\b([ABCD]): \(([\d, ]+)\)", line)
        if not sets:
            if columns and line.strip():
                break  # the first line of prose after the tables ends them
            continue
        if len(sets) != len(columns):
            raise ValueError(f"seed 002: Varma row does not fill its columns: {line!r}")
        for size, (letter, numbers) in zip(columns, sets, strict=True):
            tables.setdefault(str(size), {})[letter] = [int(x) for x in numbers.split(",")]
    return tables


def _crosstable(text: str) -> dict[str, Any]:
    """The 7-player crosstable (rows omit the diagonal; last column is the Berger one).

    `results[i][k]` is the score of player i+1 against the k-th other player, in start
    number order; `berger` is the printed coefficient column.
    """
    block = text.split("Участники 1 2 3 4 5 6 7", 1)[1].split("Обозначения", 1)[0]
    rows = [line.split() for line in block.strip().splitlines() if re.match(r"^\d+ ", line)]
    n = len(rows)
    names: list[str] = []
    results: list[list[str]] = []
    berger: list[str] = []
    for index, row in enumerate(rows, 1):
        if int(row[0]) != index:
            raise ValueError("seed 002: crosstable rows out of order")
        names.append(row[1])
        results.append([_frac(_RESULT[cell]) for cell in row[2 : 2 + n - 1]])
        berger.append(_frac(Fraction(row[-1].replace(",", "."))))
    return {"names": names, "results": results, "berger": berger}


def _football(text: str) -> dict[str, Any]:
    """K = np.matrix([...]), the minor variable names and the `>>>` output line."""
    body = text.split("K = np . matrix (", 1)[1].split(")", 1)[0]
    numbers = [int(n.replace(" ", "")) for n in re.findall(r"-?\s*\d+", body)]
    size = int(len(numbers) ** 0.5)
    matrix = [numbers[i * size : (i + 1) * size] for i in range(size)]
    teams = re.findall(r"^(\w+) = minor \(K , (\d) , \d \)", text, flags=re.M)
    names = [name for name, _ in sorted(teams, key=lambda t: int(t[1]))]
    output = text.split(">>>", 1)[1].splitlines()[0].split()
    printed = [round(float(v)) for v in output]
    return {
        "teams": names,
        "kirchhoff": matrix,
        "potentials": printed[:size],
        "flows": printed[size:],
    }


def _berger_breakdown(text: str) -> dict[str, list[str]]:
    """The per-opponent Berger items for Sidorov (3) and Kuznetsov (4), in start-number
    order of the opponents: "2,5 (половина очков Иванова) + ..."."""
    out: dict[str, list[str]] = {}
    for number, name in ((3, "Сидорова"), (4, "Кузнецова")):
        line = next(
            ln for ln in text.splitlines() if ln.startswith(f"Коэффициент Бергера участника {name}")
        )
        items = re.findall(r"(\d+(?:,\d+)?) \(", line)
        out[str(number)] = [_frac(Fraction(item.replace(",", "."))) for item in items]
    return out


def seed_002(text: str) -> dict[str, Any]:
    return {
        "berger_tables": _berger_tables(text),
        "varma_sets": _varma_sets(text),
        "crosstable": _crosstable(text),
        "berger_breakdown": _berger_breakdown(text),
        "football_group": _football(text),
    }


# --------------------------------------------------------------------------------------
# Seed 003 (bridge scoring slides, Polish OCR)
# --------------------------------------------------------------------------------------


def seed_003(text: str) -> dict[str, Any]:
    percentages = re.findall(r"^-?\d+\s*\|?\s*(\d)\s+(\d+)\s+(\d+),(\d\d)%", text, re.M)
    tables, top, average = _ints(_find(r"(\d+) zapis\w*, maks: (\d+), \S+: (\d+)", text))
    steps = re.findall(r"(\d+) IMP\S*\s*\((\d+)([-+])(\d+)=(\d+)\)", text)
    cavendish = _find(r"\+(\d+),(\d) IMP zamiast (\d+),(\d) \((\d+) sto", text)
    vp_block = text.split("8-board continuous scale", 1)[1].split("Kliknij", 1)[0]
    vp_pairs = re.findall(r"(?<![\d.])([1-9]\d|\d) (\d{2}\.\d{2})(?![\d])", vp_block)
    advice = re.findall(r"^(\d)\+? (IMPy/Maksy|IMPy|Maksy)(.*)$", text, re.M)
    return {
        "matchpoints": {
            "percentage_rows": [
                [int(c), int(mp), f"{whole}.{frac}"] for c, mp, whole, frac in percentages
            ],
            "tables": tables,
            "top": top,
            "average": average,
        },
        "butler": {
            "kept_sum": int(_find(r"Suma: (\d+)", text).group(1)),
            "mean": int(_find(r"rednia: (\d+)", text).group(1)),
            "datum": int(_find(r"rednia (\d+)", text).group(1)),
            "polish_rule_examples": [
                [int(x) for x in example]
                for example in re.findall(r"(\d+) — (\d+)-(\d+)-(\d+)", text)
            ],
            "hamman_steps": [
                [int(won), int(a), op, int(b), int(diff)] for won, a, op, b, diff in steps
            ],
        },
        "cavendish_averaged": {
            "average": f"{cavendish.group(1)}.{cavendish.group(2)}",
            "total": f"{cavendish.group(3)}.{cavendish.group(4)}",
            "tables": int(cavendish.group(5)),
        },
        "vp_ocr_pairs": [[int(margin), value] for margin, value in vp_pairs],
        "club_advice": [[int(t), form, comment.strip()] for t, form, comment in advice],
    }


# --------------------------------------------------------------------------------------
# reference/bridge-scoring.md
# --------------------------------------------------------------------------------------


def _law77_vectors(text: str) -> list[list[Any]]:
    """The Law 77 test vectors of section 1.2: contract, vulnerable, tricks, score."""
    block = text.split("Test vectors (DERIVED from the table", 1)[1].split("\n\n", 1)[1]
    block = block.split("\n\n", 1)[0]
    vectors: list[list[Any]] = []
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        for group in (cells[0:4], cells[5:9]):
            if len(group) < 4 or not group[0] or not group[0][0].isdigit():
                continue
            contract = "".join(_SUITS.get(ch, ch) for ch in group[0])
            score = int(group[3].replace("−", "-"))
            vectors.append([contract, group[1] == "V", int(group[2]), score])
    return vectors


def _board_table(text: str) -> dict[str, list[str]]:
    """Board -> (dealer, vulnerability) from table 1.1."""
    block = text.split("### 1.1", 1)[1].split("Closed forms", 1)[0]
    table: dict[str, list[str]] = {}
    for match in re.finditer(r"\|\s*(\d+)\s*\|\s*:?([NESW])\s*:?\|\s*(None|NS|EW|All)\s*", block):
        table[match.group(1)] = [match.group(2), match.group(3)]
    return dict(sorted(table.items(), key=lambda item: int(item[0])))


def _imp_bands(text: str) -> dict[str, list[int | None]]:
    """IMP -> [low, high] from the Law 78B table (1.3); the top band has no high."""
    block = text.split("### 1.3", 1)[1].split("Lower bounds list", 1)[0]
    bands: dict[str, list[int | None]] = {}
    for match in re.finditer(r"\|\s*(\d+)(?:–(\d+)|\+)\s*\|\s*(\d+)\s*(?=\|)", block):
        high = int(match.group(2)) if match.group(2) else None
        bands[match.group(3)] = [int(match.group(1)), high]
    return dict(sorted(bands.items(), key=lambda item: int(item[0])))


def _imp_vectors(text: str) -> list[list[int]]:
    line = text.split("Test vectors (DERIVED, lower-bound policy):", 1)[1].split("\n", 1)[0]
    pairs = re.findall(r"(−?\d+)→(−?\d+)", line)
    return [[int(a.replace("−", "-")), int(b.replace("−", "-"))] for a, b in pairs]


def _wbf_continuous(text: str) -> dict[str, list[list[Any]]]:
    """N -> [margin, VP, raised by the concavity fix] rows of section 1.4."""
    tables: dict[str, list[list[Any]]] = {}
    for match in re.finditer(r"N = (\d+) \(X = [^)]*\):\n```\n(.*?)```", text, re.S):
        entries = re.findall(r"(\d+):(\d+\.\d\d)(\*?)", match.group(2))
        tables[match.group(1)] = [[int(i), v, s == "*"] for i, v, s in entries]
    return tables


def _band_rows(text: str) -> dict[str, list[list[int]]]:
    """'8 bds: 0:10 1-3:11 ... 39+:20' -> {"8": [[0, 10], [1, 11], ..., [39, 20]]}."""
    rows: dict[str, list[list[int]]] = {}
    for match in re.finditer(r"^\s*(\d+) bds: (.*)$", text, re.M):
        bands = re.findall(r"(\d+)(?:-\d+|\+)?:(\d+)", match.group(2))
        rows[match.group(1)] = [[int(low), int(v)] for low, v in bands]
    return rows


def _acbl(text: str) -> dict[str, Any]:
    """Section 1.6: the band lower edges per board count, and the 6-8 board 20-VP rows."""
    section = text.split("### 1.6", 1)[1].split("### 1.7", 1)[0]
    by_count: dict[str, list[int]] = {}
    for match in re.finditer(r"^  - (\d+–\d+): (.*)$", section, re.M):
        by_count[match.group(1).replace("–", "-")] = [
            int(x) for x in re.findall(r"(\d+)(?:-\d+|\+)?:\d+", match.group(2))
        ]
    basic = re.findall(
        r"(\d+(?:-\d+)?\+?):(\d+)-(\d+)", section.split("20-VP, 6–8 boards:", 1)[1].split("\n")[0]
    )
    return {
        "band_lows_by_boards": by_count,
        "vp20_6_to_8_boards": [[margins, int(w), int(lo)] for margins, w, lo in basic],
    }


def reference_bridge(text: str) -> dict[str, Any]:
    return {
        "board_conditions": _board_table(text),
        "law77_vectors": _law77_vectors(text),
        "imp_bands": _imp_bands(text),
        "imp_vectors": _imp_vectors(text),
        "wbf_continuous": _wbf_continuous(text),
        "wbf_discrete": _band_rows(text.split("### 1.5", 1)[1]),
        "acbl": _acbl(text),
    }


# --------------------------------------------------------------------------------------
# SPEC.md section 7 (bridge scoring)
# --------------------------------------------------------------------------------------


def _numbers(text: str) -> list[str]:
    return re.findall(r"-?\d+(?:\.\d+)?", text.replace("−", "-"))


def spec_bridge(text: str) -> dict[str, Any]:
    """SPEC 7's worked matchpoint board, its Butler datum and IMPs, and IMP bands."""
    section = " ".join(text.split("## 7. Bridge scoring", 1)[1].split("## 8", 1)[0].split())
    board = _find(r"Worked \(text\): ([-\d, ]+) -> ([\d, ]+) \(([\d., ]+) %\)", section)
    datum = _find(r"datum (\d+);", section)
    imps = _find(r"IMPs ((?:-?\d+ -> -?\d+,? )+)", section)
    bands_section = text.split("## 7.", 1)[1].split("- Victory points", 1)[0]
    return {
        "matchpoint_board": {
            "scores": [int(n) for n in _numbers(board.group(1))],
            "matchpoints": [int(n) for n in _numbers(board.group(2))],
            "percent": _numbers(board.group(3)),
        },
        "butler": {
            "datum": int(datum.group(1)),
            "imps": [[int(s), int(i)] for s, i in re.findall(r"(-?\d+) -> (-?\d+)", imps.group(1))],
        },
        "imp_band_examples": [
            [int(low), int(high), int(imp)]
            for low, high, imp in re.findall(r"(\d+)-(\d+) -> (\d+)", bands_section)
        ],
    }


# --------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------


def _is_flat(value: Any) -> bool:
    return not isinstance(value, dict | list) or (
        isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)
    )


def to_json(value: Any, indent: int = 0) -> str:
    """JSON with one line per row: lists of scalars (and short lists of rows) stay on one
    line, so a table reads as a table."""
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(k)}: {to_json(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list):
        one_line = json.dumps(value, ensure_ascii=False)
        scalars = all(not isinstance(v, dict | list) for v in value)
        if scalars or (all(_is_flat(v) for v in value) and len(one_line) + indent <= 96):
            return one_line
        rows = [f"{pad}{to_json(v, indent + 2)}" for v in value]
        return "[\n" + ",\n".join(rows) + "\n" + " " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _seed(shared: Path, prefix: str) -> str:
    (path,) = (shared / "seeds").glob(f"{prefix}_*.txt")
    return path.read_text(encoding="utf-8")


def _oracle(shared: Path) -> dict[str, bytes]:
    """The oracle/dutch files the suite uses, and a manifest listing only them."""
    source = shared / "oracle" / "dutch"
    manifest = (source / "manifest.tsv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(manifest), delimiter="\t"))
    kept = [row for row in rows if int(row["players"]) <= ORACLE_MAX_PLAYERS]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(kept)
    files = {"oracle/dutch/manifest.tsv": out.getvalue().encode()}
    for row in kept:
        files[f"oracle/dutch/{row['file']}"] = (source / row["file"]).read_bytes()
    return files


def build(shared: Path) -> dict[str, bytes]:
    """Every data file, by its path under tests/data."""
    spec = (shared / "SPEC.md").read_text(encoding="utf-8")
    reference = (shared / "reference" / "bridge-scoring.md").read_text(encoding="utf-8")
    figures: dict[str, Callable[[], dict[str, Any]]] = {
        "seeds/000-flampark.json": lambda: seed_000(_seed(shared, "000")),
        "seeds/001-jca.json": lambda: seed_001(_seed(shared, "001")),
        "seeds/002-round-robin.json": lambda: seed_002(_seed(shared, "002")),
        "seeds/003-bridge.json": lambda: seed_003(_seed(shared, "003")),
        "reference/bridge-scoring.json": lambda: reference_bridge(reference),
        "spec/bridge.json": lambda: spec_bridge(spec),
    }
    files = {name: (to_json(make()) + "\n").encode() for name, make in figures.items()}
    files.update(_oracle(shared))
    return files


def _managed(root: Path) -> set[str]:
    """The files under tests/data that this script owns (not README, code)."""
    found = set()
    for pattern in ("seeds/*.json", "reference/*.json", "spec/*.json", "oracle/dutch/*"):
        found |= {path.relative_to(root).as_posix() for path in root.glob(pattern)}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("ARBITER_SHARED_DIR", str(REPO_ROOT.parent / "shared"))
    parser.add_argument("--shared", type=Path, default=Path(default))
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    files = build(args.shared)
    stale = sorted(_managed(DATA_DIR) - set(files))
    changed = sorted(
        name
        for name, content in files.items()
        if not (DATA_DIR / name).is_file() or (DATA_DIR / name).read_bytes() != content
    )
    if args.check:
        for name in changed:
            print(f"out of date: {name}")
        for name in stale:
            print(f"no longer produced: {name}")
        return 1 if changed or stale else 0
    for name in changed:
        path = DATA_DIR / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[name])
        print(f"wrote {name}")
    for name in stale:
        (DATA_DIR / name).unlink()
        print(f"removed {name}")
    print(f"{len(files)} files, {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
