"""Every player's title norms in one event, with the last-round forecast while one
round is left (FIDE B.01, 2024, art. 1.4; docs/rules/ratings.md#norms).

Games played over the board count (1.4.2c), except, in a round-robin, those against
an unrated player who scored zero against rated opponents (1.4.2b). A norm missed for
want of games only, with a forfeit win in the event's last round, is checked again
with that round counted as a game lost to the opponent who forfeited (1.4.2c: the
player had to play to make up the games and could afford to lose). A norm missed
over more games than the minimum is checked again leaving out games won (1.4.1f,
`norm_exclusion`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from service.engine.model import Outcome, Player, PlayerRound, Tournament
from service.engine.ratings.norm_event import (
    NormSettings,
    credited_rounds,
    last_round_forfeit,
    norm_event,
    zero_scoring_unrated,
)
from service.engine.ratings.norm_exclusion import exclude_beaten
from service.engine.ratings.norm_forecast import Forecast, forecast_norm
from service.engine.ratings.norms import (
    Condition,
    ExcludedGame,
    NormCheck,
    NormEvent,
    NormOpponent,
    check_norm,
    norm_titles,
)

__all__ = ["PlayerNorms", "last_round", "player_norms"]

_HALVES = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}
_ROUND_ROBINS = ("round-robin", "double-round-robin")


@dataclass(frozen=True, slots=True)
class PlayerNorms:
    """One player's norm checks and, per title, the last-round forecast."""

    checks: tuple[NormCheck, ...]
    forecasts: Mapping[str, Forecast] = field(default_factory=dict)


def last_round(tournament: Tournament) -> int | None:
    """The event's last round when it is the only one left: announced (TRF XXR or
    142), every earlier round paired with all its results, and the last one unpaired
    or with a result missing; else None."""
    total = tournament.total_rounds
    if not total or total < 2:
        return None
    rounds = {r.number: r for r in tournament.rounds}
    for number in range(1, total):
        earlier = rounds.get(number)
        if earlier is None or any(g.result is None for g in earlier.games):
            return None
    final = rounds.get(total)
    if final is not None and all(g.result is not None for g in final.games):
        return None
    if any(n > total for n in rounds):
        return None
    return total


def player_norms(
    tournament: Tournament, settings: NormSettings | None = None
) -> dict[int, PlayerNorms]:
    """Each player's norms by start number."""
    event = norm_event(tournament, settings)
    players = {p.start_number: p for p in tournament.players}
    left_out = zero_scoring_unrated(tournament) if event.format in _ROUND_ROBINS else frozenset()
    history = tournament.history()
    final = last_round(tournament)
    out = {}
    for player in tournament.players:
        entries = history.get(player.start_number, [])
        games = [
            (e.round, e.opponent, _HALVES[e.outcome])
            for e in entries
            if e.played and e.opponent is not None and e.outcome and e.opponent not in left_out
        ]
        opponents = [_opponent(players[opponent], halves) for _, opponent, halves in games]
        credited = credited_rounds(entries)
        sex = (player.sex or "").lower() or None
        checks = tuple(
            _with_exclusion(
                _with_forfeit(
                    check_norm(title, player.federation, opponents, event=event, credited=credited),
                    player,
                    opponents,
                    event,
                    credited,
                    last_round_forfeit(entries, event.rounds),
                    players,
                ),
                player,
                opponents,
                [ExcludedGame(round_, opponent) for round_, opponent, _ in games],
                event,
                credited,
            )
            for title in norm_titles(sex)
        )
        forecasts = {}
        if final is not None:
            forecasts = _forecasts(player, entries, opponents, event, final, players, sex)
        out[player.start_number] = PlayerNorms(checks, forecasts)
    return out


def _opponent(player: Player, halves: int) -> NormOpponent:
    return NormOpponent(player.rating, player.title, player.federation, halves)


def _with_forfeit(
    check: NormCheck,
    player: Player,
    opponents: list[NormOpponent],
    event: NormEvent,
    credited: int,
    forfeited: int | None,
    players: Mapping[int, Player],
) -> NormCheck:
    """1.4.2c: the last-round forfeit counted as a lost game when games alone fail."""
    games = next(c for c in check.conditions if c.name == "games")
    if forfeited is None or games.met is not False:
        return check
    lost = [*opponents, _opponent(players[forfeited], 0)]
    again = check_norm(check.title, player.federation, lost, event=event, credited=credited - 1)
    if again.met is not True:
        return check
    note = Condition(
        "last_round_forfeit",
        forfeited,
        "1.4.2c: the last round's forfeit win counted as a game lost to that opponent",
        True,
    )
    return replace(again, conditions=(*again.conditions, note))


def _with_exclusion(
    check: NormCheck,
    player: Player,
    opponents: list[NormOpponent],
    games: list[ExcludedGame],
    event: NormEvent,
    credited: int,
) -> NormCheck:
    """1.4.1f: the norm over fewer games, leaving out some won, when all miss it."""
    made = exclude_beaten(check, player.federation, opponents, event=event, credited=credited)
    if made is None:
        return check
    again, positions = made
    excluded = tuple(games[i] for i in positions)
    rounds = ", ".join(str(g.round) for g in excluded)
    note = Condition(
        "excluded_games",
        len(excluded),
        f"1.4.1f: results against beaten opponents left out (round {rounds})",
        True,
    )
    return replace(again, conditions=(*again.conditions, note), excluded=excluded)


def _forecasts(
    player: Player,
    entries: list[PlayerRound],
    opponents: list[NormOpponent],
    event: NormEvent,
    final: int,
    players: Mapping[int, Player],
    sex: str | None,
) -> dict[str, Forecast]:
    """The forecast of every title, from the games before the last round."""
    last = next((e for e in entries if e.round == final), None)
    if last is not None and (last.outcome is not None):
        return {}
    game = last is None or last.opponent is not None
    opponent = None
    if last is not None and last.opponent is not None:
        facts = players[last.opponent]
        opponent = (facts.start_number, _opponent(facts, 0))
    credited = credited_rounds(entries)
    return {
        title: forecast_norm(
            title,
            player.federation,
            opponents,
            event=event,
            credited=credited,
            last_round=final,
            game=game,
            opponent=opponent,
        )
        for title in norm_titles(sex)
    }
