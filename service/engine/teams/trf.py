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
  (`FIDE_TEAM_ROUNDROBIN` / `Team Round Robin`, else a Swiss).

The matches come from the 001 records: each team fields its available players (those
with a round cell) in its lineup order, so its k-th such player sits on board k, and
board k of one team must meet board k of the other. A contradiction (a player in two
teams, team-mates paired together, a 310 total the games do not give, a 320 PAB team
that also plays) is refused with the line it is on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from service.engine.model import ByeKind, Colour, Game, Round, Tournament
from service.engine.teams.model import (
    Board,
    Match,
    MatchForfeit,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
    TeamSystem,
)
from service.engine.teams.results import team_table
from service.engine.text import normalized_text, split_lines
from service.engine.trf import TrfDocument, TrfError, parse_trf, write_trf

__all__ = [
    "TEAM_RECORD_CODES",
    "TeamTrfDocument",
    "is_team_trf",
    "parse_team_trf",
    "write_team_trf",
]

TEAM_RECORD_CODES = frozenset({"013", "310", "320", "330", "801", "802"})
"""Records this module reads and writes itself (352 and 362 stay among the headers)."""

_WIN_BYES = (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT)


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
    read = _TeamRecords.read(team_lines)
    if not read.teams:
        raise TrfError("the TRF file has no team records (310 or 013)")
    headers = dict(players.headers)
    sequence = _colour_sequence(headers.get("352", ""), players.header_lines.get("352", 0))
    scoring = _scoring(players, read, headers)
    rounds, tournament = _rounds(players, read, sequence, scoring)
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


@dataclass(slots=True)
class _TeamRecords:
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
    def read(cls, records: list[tuple[int, str]]) -> _TeamRecords:
        found = cls()
        team_of: dict[int, tuple[int, int]] = {}  # player -> (team, line)
        codes = {line[:3] for _, line in records}
        if "310" in codes and "013" in codes:
            line_no = next(n for n, line in records if line[:3] == "013")
            raise TrfError(f"line {line_no}: record 013 beside 310 records; use one of them")
        for line_no, line in records:
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
        return found


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


def _parse_310(line: str, line_no: int, found: _TeamRecords) -> Team:
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
    teams = [_number(tok, line_no, "320 team number") for tok in padded[13:].split()]
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


def _colour_sequence(text: str, line_no: int) -> str:
    sequence = text.strip().upper()
    if any(c not in "WB" for c in sequence):
        raise TrfError(f"line {line_no}: 352 colour sequence {text.strip()!r} is not W and B")
    return sequence


_362_LETTERS = {"TW": "match_win", "TD": "match_draw", "TL": "match_loss", "TP": "pab"}


def _parse_362(text: str, line_no: int) -> dict[str, Fraction]:
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


def _scoring(players: TrfDocument, read: _TeamRecords, headers: Mapping[str, str]) -> TeamScoring:
    values = _parse_362(headers.get("362", ""), players.header_lines.get("362", 0))
    pab = values.pop("pab", None)
    pab_mp, pab_gp = read.pab_points
    boards = _boards(players, read)
    return TeamScoring(
        boards=boards,
        pab_match_points=pab_mp if pab_mp is not None else pab,
        pab_game_points=pab_gp,
        **values,
    )


def _boards(players: TrfDocument, read: _TeamRecords) -> int:
    """Boards per match: the most players a team fields in one round."""
    members = {t.number: t.players for t in read.teams}
    most = 0
    for rnd in players.tournament.rounds:
        in_round = {g.white for g in rnd.games} | {g.black for g in rnd.games}
        for lineup in members.values():
            most = max(most, sum(1 for p in lineup if p in in_round))
    return max(most, 1)


def _system(players: TrfDocument) -> TeamSystem:
    declared = (players.system or "").upper().replace(" ", "_")
    if "ROUNDROBIN" in declared or "ROUND_ROBIN" in declared:
        return TeamSystem.ROUND_ROBIN
    return TeamSystem.SWISS


def _rounds(
    players: TrfDocument, read: _TeamRecords, sequence: str, scoring: TeamScoring
) -> tuple[tuple[TeamRound, ...], Tournament]:
    doc_lines = players.lines
    team_of: dict[int, int] = {p: t.number for t in read.teams for p in t.players}
    for number in doc_lines:
        if number not in team_of:
            raise TrfError(f"line {doc_lines[number]}: player {number} is in no team (310/013)")
    for team in read.teams:
        for p in team.players:
            if p not in doc_lines:
                raise TrfError(
                    f"line {read.lines[team.number]}: team {team.number} lists player {p}, "
                    "who has no 001 record"
                )
    tournament = players.tournament
    rounds: list[TeamRound] = []
    fixed_rounds: list[Round] = []
    round_count = max(len(tournament.rounds), len(read.pabs), *(r for _, r, _ in read.forfeits), 0)
    for index in range(round_count):
        rnd = (
            tournament.rounds[index] if index < len(tournament.rounds) else Round(index + 1, (), ())
        )
        team_round, fixed = _team_round(rnd, read, team_of, doc_lines, sequence, scoring)
        rounds.append(team_round)
        fixed_rounds.append(fixed)
    return tuple(rounds), replace(tournament, rounds=tuple(fixed_rounds))


def _team_round(
    rnd: Round,
    read: _TeamRecords,
    team_of: Mapping[int, int],
    doc_lines: Mapping[int, int],
    sequence: str,
    scoring: TeamScoring,
) -> tuple[TeamRound, Round]:
    round_no = rnd.number
    playing: dict[int, dict[int, Game]] = {}  # team -> player -> game
    bye_teams: dict[int, set[ByeKind]] = {}
    for game in rnd.games:
        for player in (game.white, game.black):
            playing.setdefault(team_of[player], {})[player] = game
        if team_of[game.white] == team_of[game.black]:
            raise TrfError(
                f"line {doc_lines[game.white]}: players {game.white} and {game.black} of team "
                f"{team_of[game.white]} are paired together in round {round_no}"
            )
    for bye in rnd.byes:
        bye_teams.setdefault(team_of[bye.player], set()).add(bye.kind)
    for team, kinds in bye_teams.items():
        # a `0000 - Z` beside a team's match or PAB is a player who sits out
        awarded = kinds - {ByeKind.ZERO_POINT}
        if not awarded or (team not in playing and awarded <= set(_WIN_BYES)):
            continue
        wrong = awarded if team in playing else awarded - set(_WIN_BYES)
        bye = next(b for b in rnd.byes if team_of[b.player] == team and b.kind in wrong)
        if team in playing:
            what = "while the team plays a match"
        elif awarded & set(_WIN_BYES):
            what = "beside the team's pairing-allocated bye"
        else:
            what = "; a team round is a match, a pairing-allocated bye or none"
        raise TrfError(
            f"line {doc_lines[bye.player]}: player {bye.player} of team {team} has a "
            f"{bye.kind.value} bye in round {round_no} {what}".replace(" ;", ";")
        )
    pab_teams = sorted(t for t, kinds in bye_teams.items() if kinds & set(_WIN_BYES))
    if len(pab_teams) > 1:
        player = next(b.player for b in rnd.byes if team_of[b.player] == pab_teams[1])
        raise TrfError(
            f"line {doc_lines[player]}: teams {', '.join(map(str, pab_teams))} all have a bye "
            f"worth a win in round {round_no}; a round has one pairing-allocated bye"
        )
    pab = pab_teams[0] if pab_teams else None
    if read.pab_line is not None and round_no <= len(read.pabs):
        listed = read.pabs[round_no - 1] or None
        if listed is not None and listed in playing:
            raise TrfError(
                f"line {read.pab_line}: team {listed} has the PAB of round {round_no} but plays "
                "a match in that round"
            )
        if listed != pab:
            raise TrfError(
                f"line {read.pab_line}: record 320 gives round {round_no}'s PAB to "
                f"{listed or 'no team'}, the 001 records to {pab or 'no team'}"
            )
        pab = listed
    matches = _matches(playing, read, doc_lines, round_no, sequence, scoring)
    forfeited = [(n, m) for n, r, m in read.forfeits if r == round_no]
    for line_no, match in forfeited:
        for team in match.teams():
            if team not in read.lines:
                raise TrfError(f"line {line_no}: 330 names team {team}, which has no 310 record")
            if team in playing or team == pab:
                raise TrfError(
                    f"line {line_no}: team {team}'s match of round {round_no} is forfeited but "
                    "the team plays in that round"
                )
        matches.append(match)
    in_match = {t for m in matches for t in m.teams()}
    unpaired = tuple(
        sorted(t.number for t in read.teams if t.number not in in_match and t.number != pab)
    )
    # Members of the PAB team show `0000 - U` each; keep them as PAB cells for the export.
    byes = tuple(
        replace(b, kind=ByeKind.PAIRING_ALLOCATED)
        if team_of[b.player] == pab and b.kind is ByeKind.FULL_POINT
        else b
        for b in rnd.byes
    )
    return TeamRound(round_no, tuple(matches), pab, unpaired), replace(rnd, byes=byes)


def _matches(
    playing: Mapping[int, Mapping[int, Game]],
    read: _TeamRecords,
    doc_lines: Mapping[int, int],
    round_no: int,
    sequence: str,
    scoring: TeamScoring,
) -> list[Match]:
    lineup = {t.number: t.players for t in read.teams}
    boards_of: dict[int, list[int]] = {
        team: [p for p in lineup[team] if p in games] for team, games in playing.items()
    }
    board_no = {p: i + 1 for players in boards_of.values() for i, p in enumerate(players)}
    team_of = {p: t for t, players in boards_of.items() for p in players}
    matches: list[Match] = []
    done: set[int] = set()
    for team in sorted(boards_of):
        if team in done:
            continue
        first = boards_of[team][0]
        game = playing[team][first]
        other = team_of[game.black if game.white == first else game.white]
        if len(boards_of[team]) != len(boards_of[other]):
            raise TrfError(
                f"line {read.lines[team]}: in round {round_no} team {team} fields "
                f"{len(boards_of[team])} players and team {other} {len(boards_of[other])}"
            )
        if len(boards_of[team]) > scoring.boards:
            raise TrfError(f"line {read.lines[team]}: too many boards in round {round_no}")
        colour_1 = Colour.WHITE if game.white == first else Colour.BLACK
        expected = sequence[:1] or "W"
        home, away = (team, other) if colour_1.value.upper() == expected else (other, team)
        boards: list[Board] = []
        for home_player in boards_of[home]:
            board = board_no[home_player]
            g = playing[home][home_player]
            away_player = g.black if g.white == home_player else g.white
            if team_of.get(away_player) != away or board_no[away_player] != board:
                raise TrfError(
                    f"line {doc_lines[home_player]}: round {round_no}, player {home_player} "
                    f"(team {home}, board {board}) meets player {away_player}, who is not "
                    f"board {board} of team {away}"
                )
            colour = Colour.WHITE if g.white == home_player else Colour.BLACK
            if sequence and board <= len(sequence) and colour.value.upper() != sequence[board - 1]:
                raise TrfError(
                    f"line {doc_lines[home_player]}: round {round_no}, board {board} of team "
                    f"{home} has {colour.name.lower()}, record 352 says {sequence[board - 1]}"
                )
            boards.append(Board(board, home_player, away_player, colour, g.result))
        matches.append(Match(home, away, tuple(boards)))
        done.update((home, away))
    return matches


def _check_totals(event: TeamEvent, read: _TeamRecords) -> None:
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
