"""TRF-26 team records: reading a team event from a TRF file and writing it back.

Records read (docs/rules/teams.md#trf-team-records; 1-based columns):

* `310` team (TRF-26): pairing number 5-7, name 9-40, nickname 42-46, strength 48-53,
  match points 55-60, game points 62-67, rank 69-71, then the players' start numbers
  in board order, 5-column fields from column 73 (73-77, 78-82, ...). `013` (TRF-16):
  name 5-36, then the players; teams are numbered in the order of their records.
* `320` the pairing-allocated byes: match points 5-8, game points 10-13, then the PAB
  team of each round from column 15, every 4 columns (`000`: none).
* `330` a match forfeited as a whole: result 5-6 (`+-`, `-+`, `--`), round 8-10,
  first-named team 12-14, other team 16-18.
* `352` the colour sequence of the first-named team, board 1 first (`WBWB`).
* `362` team match points: a code (`TW`, `TD`, `TL`, `TP`) at columns 5-6 and points at
  7-10, every 9 columns (the step of record 162).
* `801`/`802` informative lines, kept verbatim. `092`/`192` give the system
  (`FIDE_TEAM_ROUNDROBIN` / `Team Round Robin` / `Team League`,
  else a Swiss).

The matches come from the 001 records: each team fields its available players (those
with a round cell) in its lineup order, so its k-th such player sits on board k, and
board k of one team must meet board k of the other. A contradiction (a player in two
teams, team-mates paired together, a 310 total the games do not give, a 320 PAB team
that also plays) is refused with the line it is on. `trf_records` reads the fields,
`trf_rounds` derives the matches; this module puts them together and writes them back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from service.engine.teams.model import TeamEvent, TeamScoring, TeamSystem
from service.engine.teams.results import team_table
from service.engine.teams.trf_awards import awards_of_299, with_awards
from service.engine.teams.trf_records import TeamRecords, colour_sequence, parse_362
from service.engine.teams.trf_rounds import fielded_boards, team_rounds
from service.engine.text import normalized_text, split_lines
from service.engine.trf import TrfDocument, TrfError, parse_trf, write_trf

__all__ = [
    "MAX_TRF_TEAMS",
    "TEAM_RECORD_CODES",
    "TeamTrfDocument",
    "is_team_trf",
    "parse_team_trf",
    "write_team_trf",
]

TEAM_RECORD_CODES = frozenset({"013", "310", "320", "330", "801", "802"})
"""Records this module reads and writes itself (352 and 362 stay among the headers)."""

MAX_TRF_TEAMS = 999
"""Teams a TRF-26 file can number: records 310, 320 and 330 give a team three columns."""


@dataclass(frozen=True, slots=True)
class TeamTrfDocument:
    """A team TRF file: the team event, the players' file behind it, and what the team
    records carry beside the event (for the round trip)."""

    event: TeamEvent
    players: TrfDocument
    """The 001 records and the header records, read as for an individual event."""
    ranks: Mapping[int, int] = field(default_factory=dict)
    """Rank column of each 310 record, per team."""
    team_format: str = "310"
    """`310` (TRF-26) or `013` (TRF-16): how the teams are written back."""
    pab_record: bool = False
    """The file had a 320 record (written back even when no round has a PAB)."""
    informative: tuple[str, ...] = ()
    """801 and 802 lines, verbatim, in file order."""
    lines: Mapping[int, int] = field(default_factory=dict)
    """Line of each team's 310/013 record."""


def is_team_trf(text: str) -> bool:
    """True when the file holds team records (310 or 013)."""
    return any(line[:3] in ("310", "013") for line in split_lines(normalized_text(text)))


def parse_team_trf(text: str, *, system: TeamSystem | None = None) -> TeamTrfDocument:
    """Read a team TRF-26 (or TRF-16 with 013 records) file into a team event.

    `system` overrides what records 192/092 say (a Swiss when they say nothing).
    """
    lines = list(split_lines(normalized_text(text)))
    team_lines: list[tuple[int, str]] = []
    masked: list[str] = []
    for line_no, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if line[:3] in TEAM_RECORD_CODES:
            team_lines.append((line_no, line))
            masked.append("###")
        else:
            masked.append(raw)
    players = parse_trf("\n".join(masked))
    read = TeamRecords.read(team_lines)
    if not read.teams:
        raise TrfError("the TRF file has no team records (310 or 013)")
    headers = dict(players.headers)
    sequence = colour_sequence(headers.get("352", ""), players.header_lines.get("352", 0))
    scoring = _scoring(players, read, headers, sequence)
    rounds, tournament = team_rounds(players, read, sequence, scoring)
    line_299 = players.header_lines.get("299", 0)
    rounds = with_awards(rounds, awards_of_299(players.headers, line_299), line_299)
    event = TeamEvent(
        teams=tuple(read.teams),
        rounds=rounds,
        scoring=scoring,
        system=system or _system(players),
        total_rounds=players.tournament.total_rounds,
        name=players.tournament.name,
    )
    _check_totals(event, read)
    return TeamTrfDocument(
        event=event,
        players=replace(players, tournament=tournament),
        ranks=read.ranks,
        team_format=read.format,
        pab_record=read.pab_line is not None,
        informative=tuple(read.informative),
        lines=read.lines,
    )


def _scoring(
    players: TrfDocument, read: TeamRecords, headers: Mapping[str, str], sequence: str
) -> TeamScoring:
    """Boards per match: the most a team fields in a round, or the length of record 352
    (one colour per board, TRF-26) when longer: a file with no match yet still has it."""
    values = parse_362(headers.get("362", ""), players.header_lines.get("362", 0))
    pab = values.pop("pab", None)
    pab_mp, pab_gp = read.pab_points
    boards = max(fielded_boards(players, read), len(sequence))
    return TeamScoring(
        boards=boards,
        pab_match_points=pab_mp if pab_mp is not None else pab,
        pab_game_points=pab_gp,
        **values,
    )


def _system(players: TrfDocument) -> TeamSystem:
    declared = (players.system or "").upper().replace(" ", "_")
    # "Team League" (092, as the ICU writes its leagues): every team meets every other
    # team on a fixed schedule, which is a team round-robin
    if "ROUNDROBIN" in declared or "ROUND_ROBIN" in declared or "LEAGUE" in declared:
        return TeamSystem.ROUND_ROBIN
    return TeamSystem.SWISS


def _check_totals(event: TeamEvent, read: TeamRecords) -> None:
    table = team_table(event)
    for number, (mp, gp) in read.file_points.items():
        line_no = read.lines[number]
        if mp is not None and mp != table.match_total(number):
            raise TrfError(
                f"line {line_no}, columns 55-60: team {number} has {mp} match points, the games "
                f"give {table.match_total(number)}"
            )
        if gp is not None and gp != table.game_total(number):
            raise TrfError(
                f"line {line_no}, columns 62-67: team {number} has {gp} game points, the games "
                f"give {table.game_total(number)}"
            )


def _format(points: Fraction) -> str:
    if points.denominator in (1, 2):
        return f"{float(points):.1f}"
    return f"{float(points):.2f}"


def write_team_trf(doc: TeamTrfDocument, *, ranks: Mapping[int, int] | None = None) -> str:
    """Write a team TRF file: the players' file, then the team records after the 001
    records (match and game points recomputed; ranks from `ranks`, else the file's)."""
    event = doc.event
    widest = max((team.number for team in event.teams), default=0)
    if widest > MAX_TRF_TEAMS:
        raise TrfError(
            f"team {widest}: the team records of TRF-26 (310, 320, 330) hold a team's number "
            f"in three columns, so a file holds at most {MAX_TRF_TEAMS} teams"
        )
    table = team_table(event)
    rank_of = dict(doc.ranks) if ranks is None else dict(ranks)
    records: list[str] = []
    for team in event.teams:
        if doc.team_format == "013":
            players = "".join(f" {p:4d}" for p in team.players)
            records.append(f"013 {team.name[:32]:<32}{players}")
            continue
        players = " " + "".join(f"{p:5d}" for p in team.players)
        strength = "" if team.strength is None else str(team.strength)
        rank = rank_of.get(team.number)
        records.append(
            f"310 {team.number:3d} {team.name[:32]:<32} {team.nickname[:5]:<5} {strength:>6} "
            f"{_format(table.match_total(team.number)):>6} "
            f"{_format(table.game_total(team.number)):>6} {'' if rank is None else rank:>3}"
            f"{players}"
        )
    if doc.pab_record or any(r.pab is not None for r in event.rounds):
        scoring = event.scoring
        teams = "".join(f" {r.pab:3d}" if r.pab is not None else " 000" for r in event.rounds)
        records.append(f"320 {_format(scoring.pab_match):>4} {_format(scoring.pab_game):>4}{teams}")
    for rnd in event.rounds:
        for match in rnd.matches:
            if match.forfeit is not None:
                records.append(
                    f"330 {match.forfeit.value} {rnd.number:3d} {match.home:3d} {match.away:3d}"
                )
    records.extend(doc.informative)
    source = doc.players
    codes = {code for code, _ in source.headers}
    if "142" in codes and "XXR" not in codes:  # the rounds are in 142 already
        source = replace(source, tournament=replace(source.tournament, total_rounds=None))
    written = write_trf(source).split("\n")
    last = max(i for i, line in enumerate(written) if line.startswith("001"))
    return "\n".join([*written[: last + 1], *records, *written[last + 1 :]])
