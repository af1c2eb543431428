"""TRF-26 299 (abnormal assignment points) for teams: the match and game points the
organizer gave a team without a match in a round, an announced absence or a late
team's missed round (docs/teams.md#absent-teams).

Columns (1-based): type of assignment 5 (`Z`: a zero-point bye, the known absence
these stand for), match points 8-11 and game points 14-17 (`[-]11.5`), round 20-22
(`000` or blank: every round, not read here), team pairing numbers from column 24,
every 5 columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction

from service.engine.teams.model import Award, TeamRound
from service.engine.trf import TrfError

__all__ = ["awards_of_299", "record_299", "with_awards"]


def record_299(round_no: int, award: Award) -> tuple[str, str]:
    """One 299 record (code, rest) for one team's awarded points in one round."""
    return (
        "299",
        f"Z  {_points(award.match_points):>4}  {_points(award.game_points):>4}  "
        f"{round_no:03d} {award.team:>4}",
    )


def awards_of_299(headers: Iterable[tuple[str, str]], line_no: int = 0) -> dict[int, list[Award]]:
    """Round -> the awards the 299 records give (refused: a malformed field, round 000)."""
    found: dict[int, list[Award]] = {}
    for code, rest in headers:
        if code != "299":
            continue
        line = f"299 {rest}".ljust(27)
        where = f"line {line_no}" if line_no else "record 299"
        mp = _fraction(line[7:11], where, "match points (cols 8-11)")
        gp = _fraction(line[13:17], where, "game points (cols 14-17)")
        round_text = line[19:22].strip()
        if not round_text.isdigit() or int(round_text) == 0:
            raise TrfError(f"{where}: 299 round {round_text!r} (cols 20-22) is not one round")
        teams = line[23:].split()
        if not teams or not all(t.isdigit() for t in teams):
            raise TrfError(f"{where}: 299 teams {line[23:].strip()!r} (cols 24-) not numbers")
        for team in teams:
            found.setdefault(int(round_text), []).append(Award(int(team), mp, gp))
    return found


def with_awards(
    rounds: Sequence[TeamRound], awards: dict[int, list[Award]], line_no: int = 0
) -> tuple[TeamRound, ...]:
    """The rounds with their awards; an award to a team with a match (or the PAB) in that
    round, or to a round the file does not have, is refused."""
    by_number = {r.number: r for r in rounds}
    for number, given in awards.items():
        rnd = by_number.get(number)
        if rnd is None:
            raise TrfError(f"line {line_no}: 299 names round {number}, which has no pairing")
        busy = {t for m in rnd.matches for t in m.teams()} | {rnd.pab}
        for award in given:
            if award.team in busy:
                raise TrfError(
                    f"line {line_no}: 299 gives team {award.team} points in round {number}, "
                    "where it has a match"
                )
    return tuple(
        replace(r, awarded=tuple(awards[r.number])) if r.number in awards else r for r in rounds
    )


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"


def _fraction(text: str, where: str, what: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except ValueError:
        raise TrfError(f"{where}: 299 {what} {text.strip()!r} is not a number") from None
    if (value * 2).denominator != 1:
        raise TrfError(f"{where}: 299 {what} {text.strip()!r} is not a multiple of 0.5")
    return value
