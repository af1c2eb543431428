"""Team tournaments (docs/teams.md): register teams, set lineups, report a match's
boards and forfeit a whole match. Pairing a team round and reading it go through
the rounds routes (`POST /rounds`, `GET /rounds/{n}`), the standings through
`GET /standings`."""

from __future__ import annotations

from fastapi import APIRouter, Path, status

from service.api.deps import OrganizerWriteDep, SessionDep, TournamentDep, WriteDep
from service.api.documents import player_public
from service.api.publish import commit_and_publish
from service.api.schemas.players import PlayerRegistered
from service.api.schemas.teams import (
    MAX_TEAM_PLAYERS,
    BoardPublic,
    BoardResultSubmit,
    LineupPublic,
    LineupSet,
    MatchForfeitSubmit,
    MatchPublic,
    TeamAbsencePublic,
    TeamAbsenceSet,
    TeamCreate,
    TeamEdited,
    TeamPublic,
    TeamRegistered,
    TeamUpdate,
)
from service.api.team_documents import team_public, team_round_public
from service.app.team_absences import announce_absence
from service.app.team_awards import points_of
from service.app.team_edits import edit_team
from service.app.team_results import forfeit_match, report_board
from service.app.teams import lineup_of, register_team, require_team_event, set_lineup
from service.db.player_reads import list_players
from service.db.team_layout import seats_of
from service.db.team_reads import find_match, find_team, list_teams, team_options
from service.errors import NotFound

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["teams"])

TeamNumber = Path(
    ge=1, le=10_000, description="The team's number (`id`: 1, 2, 3 in registration order)"
)
RoundNumber = Path(ge=1, le=1000, description="Round number, 1-based")
MatchNumber = Path(ge=1, le=10_000, description="Match number in the round, 1-based")
BoardNumber = Path(ge=1, le=1000, description="Board number, 1-based")


@router.post("/teams", status_code=status.HTTP_201_CREATED, response_model=TeamRegistered)
async def register(body: TeamCreate, write: OrganizerWriteDep) -> TeamRegistered:
    """Register a team (organizer; start list open) with its players in board order,
    reserves after the boards (at least as many players as boards). The players are
    ordinary players (ids, tokens at the start); the captain's token is shown only
    this once. A running team Swiss takes a late team while a round is left to pair:
    it is paired from the next round, its players get their start numbers and tokens
    at once, and the points `missed_rounds` states for each round already paired
    (docs/teams.md#late-entries)."""
    fields = [p.model_dump() for p in body.players]
    missed = body.missed_rounds
    points = None if missed is None else points_of(missed.match_points, missed.game_points)
    made = await register_team(write.session, write.tournament, body.name, fields, points)
    await commit_and_publish(write.context, write.state, write.tournament)
    return TeamRegistered(
        **team_public(made.team).model_dump(),
        captain_token=made.captain_token,
        roster=[
            PlayerRegistered(**player_public(p).model_dump(), token=token)
            for p, token in made.players
        ],
    )


@router.patch("/teams/{team}", response_model=TeamEdited)
async def edit(body: TeamUpdate, write: OrganizerWriteDep, team: int = TeamNumber) -> TeamEdited:
    """Change a team (organizer): a new `name` at any time before the end; a new board
    order of its `players` (one left out leaves the list while the start list is open)
    until the team is first paired; `reserves` added at the end of its list, after the
    start with the next start numbers and their tokens (docs/teams.md#team-edits)."""
    fields = [p.model_dump() for p in body.reserves]
    edited = await edit_team(
        write.session,
        write.tournament,
        team,
        name=body.name,
        players=body.players,
        reserves=fields,
        limit=MAX_TEAM_PLAYERS,
    )
    await commit_and_publish(write.context, write.state, write.tournament)
    return TeamEdited(
        **team_public(edited.team).model_dump(),
        added=[
            PlayerRegistered(**player_public(row).model_dump(), token=token)
            for row, token in edited.added
        ],
    )


@router.get("/teams", response_model=list[TeamPublic])
async def list_all(tournament: TournamentDep, session: SessionDep) -> list[TeamPublic]:
    """Every team, by number."""
    require_team_event(tournament)
    return [team_public(t) for t in await list_teams(session, tournament.id)]


@router.get("/rounds/{round_number}/lineups/{team}", response_model=LineupPublic)
async def read_lineup(
    tournament: TournamentDep,
    session: SessionDep,
    round_number: int = RoundNumber,
    team: int = TeamNumber,
) -> LineupPublic:
    """The players a team fields in a round (the first players of its list unless its
    captain set others)."""
    require_team_event(tournament)
    row = await find_team(session, tournament.id, team)
    if row is None:
        raise NotFound(f"the tournament has no team {team}", field="team")
    boards = team_options(tournament).boards
    withdrawn = {
        p.number for p in await list_players(session, tournament.id) if p.extra.get("withdrawn")
    }
    return LineupPublic(
        round=round_number,
        team=team,
        players=lineup_of(row, round_number, boards, withdrawn),
        set=str(round_number) in row.lineups,
    )


@router.put("/rounds/{round_number}/lineups/{team}", response_model=LineupPublic)
async def put_lineup(
    body: LineupSet,
    write: WriteDep,
    round_number: int = RoundNumber,
    team: int = TeamNumber,
) -> LineupPublic:
    """Set a team's lineup for a round not yet paired (the team's captain or the
    organizer): one player per board from board 1, the team's own players, in the order
    of the team's list (no player above a teammate ranked higher on it); a short lineup
    leaves the last boards empty, each lost by default (docs/teams.md#lineups)."""
    row = await set_lineup(
        write.session, write.tournament, round_number, team, body.players, write.actor
    )
    await commit_and_publish(write.context, write.state, write.tournament)
    return LineupPublic(round=round_number, team=team, players=list(body.players), set=bool(row))


@router.put("/rounds/{round_number}/absences/{team}", response_model=TeamAbsencePublic)
async def put_absence(
    body: TeamAbsenceSet,
    write: WriteDep,
    round_number: int = RoundNumber,
    team: int = TeamNumber,
) -> TeamAbsencePublic:
    """Announce that a team will not play a coming round of a team Swiss (the team's
    captain or the organizer): it is not paired that round and scores nothing there
    (`zero-point`). A round-robin takes none (409 naming `system`); a round already
    paired is 409 naming `round` (docs/teams.md#absent-teams). The organizer may give
    the team match and game points for the round (TRF-26 299); a captain 403s trying."""
    points = points_of(body.match_points, body.game_points)
    await announce_absence(
        write.session, write.tournament, round_number, team, body.type, write.actor, points
    )
    await commit_and_publish(write.context, write.state, write.tournament)
    return TeamAbsencePublic(
        round=round_number,
        type=body.type,
        match_points=body.match_points,
        game_points=body.game_points,
    )


@router.delete("/rounds/{round_number}/absences/{team}", response_model=TeamAbsencePublic)
async def delete_absence(
    write: WriteDep, round_number: int = RoundNumber, team: int = TeamNumber
) -> TeamAbsencePublic:
    """Take back a team's announced absence from a round not yet paired (the team's
    captain or the organizer)."""
    await announce_absence(write.session, write.tournament, round_number, team, None, write.actor)
    await commit_and_publish(write.context, write.state, write.tournament)
    return TeamAbsencePublic(round=round_number, type=None)


@router.put(
    "/rounds/{round_number}/matches/{match}/boards/{board}/result", response_model=BoardPublic
)
async def report_board_result(
    body: BoardResultSubmit,
    write: WriteDep,
    round_number: int = RoundNumber,
    match: int = MatchNumber,
    board: int = BoardNumber,
) -> BoardPublic:
    """Report a board's result (White's score first). Either captain (or the board's
    player) reports; the other side's agreement confirms; disagreement marks the board
    disputed until the organizer decides. The organizer's word confirms. Forfeits:
    `+-`, `-+`, `--`."""
    outcome = await report_board(
        write.session, write.tournament, round_number, match, board, body.result, write.actor
    )
    if outcome.seq is not None:
        await commit_and_publish(write.context, write.state, write.tournament)
    game = outcome.game
    row = await find_match(write.session, write.tournament.id, round_number, match)
    boards = team_options(write.tournament).boards
    (seat,) = (s for s in seats_of(row.layout if row else None, boards) if s.board == board)
    return BoardPublic(
        board=board,
        table=game.table_no,
        white=game.white,
        black=game.black,
        home=seat.home_colour.value,
        result=game.result,
        status=game.status,
        reports={k: str(v) for k, v in game.reports.items()},
    )


@router.put("/rounds/{round_number}/matches/{match}/forfeit", response_model=MatchPublic)
async def forfeit(
    body: MatchForfeitSubmit,
    write: OrganizerWriteDep,
    round_number: int = RoundNumber,
    match: int = MatchNumber,
) -> MatchPublic:
    """Forfeit a whole match (organizer): `+-` the home team wins, `-+` the away team,
    `--` both lose; every board gets the forfeit, confirmed."""
    await forfeit_match(
        write.session, write.tournament, round_number, match, body.forfeit, write.actor
    )
    await commit_and_publish(write.context, write.state, write.tournament)
    document = await team_round_public(write.session, write.tournament, round_number)
    assert document is not None
    return next(m for m in document.matches if m.match == match)
