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
from dataclasses import dataclass, replace

from service.engine.model import ByeKind, Colour, Game, GameResult, Round, Tournament
from service.engine.teams.model import EMPTY_SEAT, Board, Match, TeamRound, TeamScoring
from service.engine.teams.trf_records import TeamRecords
from service.engine.trf import TrfDocument, TrfError

__all__ = ["fielded_boards", "team_rounds"]

_WIN_BYES = (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT)


def fielded_boards(players: TrfDocument, read: TeamRecords) -> int:
    """Boards per match: the most players a team fields in one round, counting with its
    games the boards it won by default (a bye worth a win beside the team's games: the
    other team left the board empty)."""
    members = {t.number: t.players for t in read.teams}
    most = 0
    for rnd in players.tournament.rounds:
        in_round = {g.white for g in rnd.games} | {g.black for g in rnd.games}
        won = {b.player for b in rnd.byes if b.kind in _WIN_BYES}
        for lineup in members.values():
            playing = sum(1 for p in lineup if p in in_round)
            if playing:
                most = max(most, playing + sum(1 for p in lineup if p in won))
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
    defaults: dict[int, list[int]] = {}  # team -> players who won a board by default
    for bye in rnd.byes:
        if bye.kind in _WIN_BYES and team_of[bye.player] in playing:
            defaults.setdefault(team_of[bye.player], []).append(bye.player)
    for team, kinds in bye_teams.items():
        # a `0000 - Z` beside a team's match or PAB is a player who sits out, and a
        # `0000 - +` beside the match is a board won by default (the other team left it empty)
        awarded = kinds - {ByeKind.ZERO_POINT}
        if team in playing:
            awarded -= set(_WIN_BYES)
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
        start = 92 + 10 * (round_no - 1)
        where = f"line {doc_lines[bye.player]}, columns {start}-{start + 7}"
        raise TrfError(
            f"{where}: player {bye.player} of team {team} has a "
            f"{bye.kind.value} bye in round {round_no} {what}".replace(" ;", ";")
        )
    # the teams of a match forfeited whole (330) show `0000 - +` / `0000 - -` cells too
    forfeiting = {t for _, r, m in read.forfeits if r == round_no for t in m.teams()}
    pab_teams = sorted(
        t
        for t, kinds in bye_teams.items()
        if kinds & set(_WIN_BYES) and t not in playing and t not in forfeiting
    )
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
        # FIDE's TRF-26 sample writes the PAB team's players `0000 - -`: record 320
        # alone gives the PAB then (a team not playing whose players have no win bye)
        if listed != pab and not (pab is None and listed is not None):
            raise TrfError(
                f"line {read.pab_line}: record 320 gives round {round_no}'s PAB to "
                f"{listed or 'no team'}, the 001 records to {pab or 'no team'}"
            )
        pab = listed
    matches = _matches(playing, defaults, read, doc_lines, round_no, sequence, scoring)
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
    defaults: Mapping[int, list[int]],
    read: TeamRecords,
    doc_lines: Mapping[int, int],
    round_no: int,
    sequence: str,
    scoring: TeamScoring,
) -> list[Match]:
    """The round's matches (docs/rules/teams.md#real-team-files).

    One team's lineup order numbers the boards: its k-th fielded player (games and
    boards won by default) sits on board k, and each opponent takes the board of the
    player it meets. That team is the one fielding more players (the first-named when
    equal). With 310 records the other team may number them instead (FIDE's TRF-26
    sample has matches whose boards follow the second team's order) when the first
    reading contradicts record 352, or, without 352, the first team's order is not met
    in the other's lineup order. A 013 record lists a squad (the ICU lists it by start
    number), so only the first reading is taken. A board won by default has
    `EMPTY_SEAT` on the side that left it empty."""
    ordered = read.format == "310"
    lineup = {t.number: t.players for t in read.teams}
    position = {p: i for players in lineup.values() for i, p in enumerate(players)}
    team_of = {p: t for t, games in playing.items() for p in games}
    ctx = _Context(read, doc_lines, round_no, sequence, scoring, position, ordered)
    matches: list[Match] = []
    done: set[int] = set()
    for team in sorted(playing):
        if team in done:
            continue
        games_of = playing[team]
        first = min(games_of, key=position.__getitem__)
        game = games_of[first]
        other = team_of[game.black if game.white == first else game.white]
        colour_1 = Colour.WHITE if game.white == first else Colour.BLACK
        expected = sequence[:1] or "W"
        home, away = (team, other) if colour_1.value.upper() == expected else (other, team)
        fielded = {
            t: sorted([*playing[t], *defaults.get(t, [])], key=position.__getitem__)
            for t in (home, away)
        }
        sides = (away, home) if len(fielded[away]) > len(fielded[home]) else (home, away)
        errors: list[TrfError] = []
        board_of: dict[int, int] = {}
        for numbering in sides if ordered else sides[:1]:
            try:
                board_of = _seat(numbering, home, away, fielded, playing, defaults, team_of, ctx)
                break
            except TrfError as error:
                errors.append(error)
        else:
            raise errors[0]
        boards: list[Board] = []
        for p in fielded[home]:
            board = board_of[p]
            g_or_none = playing[home].get(p)
            if g_or_none is None:  # won by default: the away team left the board empty
                colour = _sequence_colour(sequence, board)
                boards.append(Board(board, p, EMPTY_SEAT, colour, _default_win(colour, True)))
                continue
            g = g_or_none
            away_player = g.black if g.white == p else g.white
            colour = Colour.WHITE if g.white == p else Colour.BLACK
            boards.append(Board(board, p, away_player, colour, g.result))
        for p in defaults.get(away, []):
            colour = _sequence_colour(sequence, board_of[p])
            boards.append(Board(board_of[p], EMPTY_SEAT, p, colour, _default_win(colour, False)))
        matches.append(Match(home, away, tuple(sorted(boards, key=lambda b: b.board))))
        done.update((home, away))
    return matches


@dataclass(frozen=True, slots=True)
class _Context:
    read: TeamRecords
    doc_lines: Mapping[int, int]
    round_no: int
    sequence: str
    scoring: TeamScoring
    position: Mapping[int, int]
    ordered: bool


def _seat(
    numbering: int,
    home: int,
    away: int,
    fielded: Mapping[int, list[int]],
    playing: Mapping[int, Mapping[int, Game]],
    defaults: Mapping[int, list[int]],
    team_of: Mapping[int, int],
    ctx: _Context,
) -> dict[int, int]:
    """Each fielded player's board when `numbering`'s lineup order numbers the boards;
    refused (TrfError) where the games, record 352 or (310 without 352) the other
    team's own lineup order say otherwise."""
    facing = away if numbering == home else home
    round_no, doc_lines = ctx.round_no, ctx.doc_lines
    if len(fielded[numbering]) > ctx.scoring.boards:
        raise TrfError(f"line {ctx.read.lines[numbering]}: too many boards in round {round_no}")
    board_of = {p: k for k, p in enumerate(fielded[numbering], 1)}
    for p, g in playing[facing].items():
        opponent = g.black if g.white == p else g.white
        if team_of.get(opponent) != numbering:
            raise TrfError(
                f"line {doc_lines[p]}: round {round_no}, player {p} of team {facing} meets "
                f"player {opponent}, who is not in team {numbering}"
            )
        board_of[p] = board_of[opponent]
    if ctx.ordered and not ctx.sequence:
        in_order = sorted(playing[facing], key=ctx.position.__getitem__)
        met = [board_of[p] for p in in_order]
        for i in range(1, len(met)):
            if met[i] < met[i - 1]:
                p = in_order[i]
                raise TrfError(
                    f"line {doc_lines[p]}: round {round_no}, player {p} (team {facing}) meets "
                    f"board {board_of[p]} of team {numbering} out of the 310 lineup order"
                )
    free = iter(k for k in range(1, ctx.scoring.boards + 1) if k not in board_of.values())
    for p in defaults.get(facing, []):
        board_of[p] = next(free, 0)
        if board_of[p] == 0:
            raise TrfError(f"line {ctx.read.lines[facing]}: too many boards in round {round_no}")
    sequence = ctx.sequence
    for p, g in playing[home].items():
        board = board_of[p]
        colour = Colour.WHITE if g.white == p else Colour.BLACK
        if sequence and board <= len(sequence) and colour.value.upper() != sequence[board - 1]:
            column = 92 + 10 * (round_no - 1) + 5
            raise TrfError(
                f"line {doc_lines[p]}, column {column} (player {p}, round {round_no}): board "
                f"{board} of team {home} has {colour.name.lower()}, record 352 says "
                f"{sequence[board - 1]}; neither team's 310 order seats the match"
            )
    return board_of


def _sequence_colour(sequence: str, board: int) -> Colour:
    """The first-named team's colour on `board` (record 352, else alternating from W)."""
    if sequence and board <= len(sequence):
        return Colour.WHITE if sequence[board - 1] == "W" else Colour.BLACK
    return Colour.WHITE if board % 2 else Colour.BLACK


def _default_win(home_colour: Colour, home_wins: bool) -> GameResult:
    """The forfeit result of a board won by default by the home (or away) side."""
    white_wins = (home_colour is Colour.WHITE) == home_wins
    return GameResult.WHITE_WINS_FORFEIT if white_wins else GameResult.BLACK_WINS_FORFEIT
