"""The team records of a TRF file, field by field (docs/rules/teams.md#trf-team-records).

`TeamRecords.read` takes the 310/013, 320, 330, 801 and 802 lines with their line
numbers and gives the teams, the PAB record, the forfeited matches and the informative
lines; `colour_sequence` reads record 352 and `parse_362` the team match points. A
field that is not a number, a team repeated, a player in two teams, a 330 pairing a
team with itself are refused with the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from service.engine.teams.model import Match, MatchForfeit, Team
from service.engine.trf import TrfError

__all__ = ["TeamRecords", "colour_sequence", "parse_362"]


@dataclass(slots=True)
class TeamRecords:
    """What the team records say, with the line of each team's record."""

    teams: list[Team] = field(default_factory=list)
    lines: dict[int, int] = field(default_factory=dict)
    ranks: dict[int, int] = field(default_factory=dict)
    file_points: dict[int, tuple[Fraction | None, Fraction | None]] = field(default_factory=dict)
    format: str = "310"
    pab_line: int | None = None
    pab_points: tuple[Fraction | None, Fraction | None] = (None, None)
    pabs: list[int] = field(default_factory=list)
    forfeits: list[tuple[int, int, Match]] = field(default_factory=list)
    """(line, round, match) per 330 record."""
    informative: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, records: list[tuple[int, str]]) -> TeamRecords:
        found = cls()
        team_of: dict[int, tuple[int, int]] = {}  # player -> (team, line)
        codes = {line[:3] for _, line in records}
        both = "310" in codes and "013" in codes
        for line_no, line in records:
            if both and line[:3] == "013":
                continue  # the TRF-16 copy of the teams, checked against 310 below
            code = line[:3]
            if code == "310":
                team = _parse_310(line, line_no, found)
            elif code == "013":
                found.format = "013"
                team = _parse_013(line, line_no, len(found.teams) + 1)
            elif code == "320":
                if found.pab_line is not None:
                    raise TrfError(f"line {line_no}: a second 320 record")
                found.pab_line = line_no
                found.pab_points, found.pabs = _parse_320(line, line_no)
                continue
            elif code == "330":
                found.forfeits.append(_parse_330(line, line_no))
                continue
            else:
                found.informative.append(line)
                continue
            if team.number in found.lines:
                raise TrfError(
                    f"line {line_no}: team {team.number} repeated (line {found.lines[team.number]})"
                )
            for player in team.players:
                if player in team_of:
                    other, other_line = team_of[player]
                    raise TrfError(
                        f"line {line_no}: player {player} is already in team {other} "
                        f"(line {other_line})"
                    )
                team_of[player] = (team.number, line_no)
            found.teams.append(team)
            found.lines[team.number] = line_no
        found.teams.sort(key=lambda t: t.number)
        if both:
            _check_013_copy(records, found)
        return found


def _check_013_copy(records: list[tuple[int, str]], found: TeamRecords) -> None:
    """A file with both team records (FIDE's TRF-26 sample keeps the TRF-16 013 lines
    beside 310): the k-th 013 record must name team k of 310 with the same players."""
    by_number = {team.number: team for team in found.teams}
    copies = [(n, line) for n, line in records if line[:3] == "013"]
    for index, (line_no, line) in enumerate(copies, 1):
        copy = _parse_013(line, line_no, index)
        team = by_number.get(index)
        if team is None:
            raise TrfError(
                f"line {line_no}: record 013 number {index} beside 310 records, which have no "
                f"team {index}"
            )
        if copy.name.strip() != team.name.strip():
            raise TrfError(
                f"line {line_no}, columns 5-36: record 013 names team {index} {copy.name!r}, "
                f"its 310 record (line {found.lines[index]}) {team.name!r}"
            )
        if copy.players != team.players:
            raise TrfError(
                f"line {line_no}, columns 37-: record 013 lists team {index}'s players as "
                f"{' '.join(map(str, copy.players))}, its 310 record (line "
                f"{found.lines[index]}) as {' '.join(map(str, team.players))}"
            )
    if len(copies) != len(found.teams):
        raise TrfError(
            f"line {copies[-1][0]}: {len(copies)} records 013 beside {len(found.teams)} "
            "records 310; the 013 lines repeat the 310 teams"
        )


def _number(text: str, line_no: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TrfError(f"line {line_no}: {what} is not a number: {text!r}") from None


def _points(text: str, line_no: int, what: str) -> Fraction | None:
    text = text.strip()
    if not text:
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise TrfError(f"line {line_no}: {what} is not a number: {text!r}") from None


def _players(text: str, line_no: int) -> tuple[int, ...]:
    players = tuple(_number(tok, line_no, "team player start number") for tok in text.split())
    if not players:
        raise TrfError(f"line {line_no}: the team lists no players")
    return players


def _parse_310(line: str, line_no: int, found: TeamRecords) -> Team:
    padded = line.ljust(71)
    number = _number(padded[4:7].strip(), line_no, "310 team number (cols 5-7)")
    strength_text = padded[47:53].strip()
    strength = (
        _number(strength_text, line_no, "310 strength (cols 48-53)") if strength_text else None
    )
    found.file_points[number] = (
        _points(padded[54:60], line_no, "310 match points (cols 55-60)"),
        _points(padded[61:67], line_no, "310 game points (cols 62-67)"),
    )
    rank_text = padded[68:71].strip()
    if rank_text:
        found.ranks[number] = _number(rank_text, line_no, "310 rank (cols 69-71)")
    return Team(
        number=number,
        name=padded[8:40].strip(),
        players=_players(padded[71:], line_no),
        nickname=padded[41:46].strip(),
        strength=strength,
    )


def _parse_013(line: str, line_no: int, number: int) -> Team:
    padded = line.ljust(36)
    return Team(number=number, name=padded[4:36].strip(), players=_players(padded[36:], line_no))


def _parse_320(
    line: str, line_no: int
) -> tuple[tuple[Fraction | None, Fraction | None], list[int]]:
    padded = line.ljust(13)
    points = (
        _points(padded[4:8], line_no, "320 match points (cols 5-8)"),
        _points(padded[9:13], line_no, "320 game points (cols 10-13)"),
    )
    # one 3-column field per round (columns 15-17, 19-21, ...); a blank field is a round
    # without a PAB, as FIDE's TRF-26 sample writes it (the writer writes `000`)
    body = line.rstrip()
    teams: list[int] = []
    for start in range(14, len(body), 4):
        text = body[start : start + 3].strip()
        where = f"320 PAB team of round {len(teams) + 1} (cols {start + 1}-{start + 3})"
        if body[start - 1 : start].strip():
            raise TrfError(f"line {line_no}: {where}: column {start} must be blank")
        teams.append(_number(text, line_no, where) if text else 0)
    return points, teams


_FORFEITS = {f.value: f for f in MatchForfeit}


def _parse_330(line: str, line_no: int) -> tuple[int, int, Match]:
    padded = line.ljust(18)
    code = padded[4:6]
    if code not in _FORFEITS:
        raise TrfError(f"line {line_no}, columns 5-6: 330 result {code!r} is not +-, -+ or --")
    round_no = _number(padded[7:10].strip(), line_no, "330 round (cols 8-10)")
    home = _number(padded[11:14].strip(), line_no, "330 first team (cols 12-14)")
    away = _number(padded[15:18].strip(), line_no, "330 second team (cols 16-18)")
    if home == away:
        raise TrfError(f"line {line_no}: 330 pairs team {home} with itself")
    return line_no, round_no, Match(home, away, (), _FORFEITS[code])


def colour_sequence(text: str, line_no: int) -> str:
    sequence = text.strip().upper()
    if any(c not in "WB" for c in sequence):
        raise TrfError(f"line {line_no}: 352 colour sequence {text.strip()!r} is not W and B")
    return sequence


_362_LETTERS = {"TW": "match_win", "TD": "match_draw", "TL": "match_loss", "TP": "pab"}


def parse_362(text: str, line_no: int) -> dict[str, Fraction]:
    line = f"362 {text}"
    values: dict[str, Fraction] = {}
    for position in range(4, len(line), 9):
        code = line[position : position + 2].upper()
        if not code.strip():
            continue
        if code not in _362_LETTERS:
            raise TrfError(
                f"line {line_no}, columns {position + 1}-{position + 2}: 362 code {code!r} is "
                "not TW, TD, TL or TP"
            )
        value = _points(line[position + 2 : position + 6], line_no, f"362 points for {code}")
        if value is None:
            raise TrfError(f"line {line_no}: 362 code {code} has no points")
        values[_362_LETTERS[code]] = value
    return values
