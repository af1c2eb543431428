"""The matches of a team TRF file, derived from its 001 records (docs/rules/teams.md).

Each team fields its available players (those with a round cell) in its lineup order,
so its k-th such player sits on board k, and board k of one team must meet board k of
the other. A team whose players show `0000 - U` has the round's pairing-allocated bye
(record 320 must agree); `0000 - Z` beside a match is a player who sits out; a team
with no cell at all, or only Z cells, is unpaired. The first-named team of a match is
the one whose board 1 has the colour record 352 gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from service.engine.model import ByeKind, Colour, Game, Round, Tournament
from service.engine.teams.model import Board, Match, TeamRound, TeamScoring
from service.engine.teams.trf_records import TeamRecords
from service.engine.trf import TrfDocument, TrfError

__all__ = ["fielded_boards", "team_rounds"]

_WIN_BYES = (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT)


def fielded_boards(players: TrfDocument, read: TeamRecords) -> int:
    """Boards per match: the most players a team fields in one round."""
    members = {t.number: t.players for t in read.teams}
    most = 0
    for rnd in players.tournament.rounds:
        in_round = {g.white for g in rnd.games} | {g.black for g in rnd.games}
        for lineup in members.values():
            most = max(most, sum(1 for p in lineup if p in in_round))
    return max(most, 1)


def team_rounds(
    players: TrfDocument, read: TeamRecords, sequence: str, scoring: TeamScoring
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
    read: TeamRecords,
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
    read: TeamRecords,
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
