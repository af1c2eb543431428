"""Pairing-quality figures for any pairing system (Formuła FLAMPARK, "Porownanie
systemow": FK6 against the Polanica 2016 open A).

The text compares two tournaments by:

* the share of games whose rating gap is under 100, under 200 and over 400;
* the share of players whose opponents' mean rating lies within 50 / within 100 of
  their own ("Gracze z roznica rankingu wlasnego i sr. rywali < 100");
* the mean deviation ``|opponents' mean rating - own rating|`` ("Przecietne
  odchylenie"), overall, for the top ten, and in percent of the own rating;
* the top ten's mean opponent rating;

and, in its description of the narrowing rounds, by the largest start-number distance
between two opponents.

Readings taken where the text is silent:

* Games that count: every game between two players that was played over the board or
  is paired and not yet played (``result is None``, so a schedule can be judged before
  round 1). Forfeits and double forfeits were never played and do not count; byes have
  no opponent and do not count.
* Unrated players (rating 0) have no rating to compare: a game with an unrated player
  is left out of the rating-gap shares, an unrated opponent is left out of a player's
  opponents' mean, and an unrated player has no deviation of their own. Start-number
  gaps use every counted game.
* Player figures cover the rated players with at least one rated opponent in a counted
  game; a player without games is not counted (the text: a round without an opponent
  "is not taken into account"). The percentage is the mean over those players of
  ``100 x |opponents' mean - own| / own`` (the text's figures, 3 % and 8 %, match this
  and not the ratio of the two means).
* Top ten: the ten best-placed counted players by start number (the start list is by
  rating, so these are the ten highest-rated). Their mean opponent rating is the mean
  of their ten opponents' means.
* Strict inequalities as printed: "< 100", "< 200", "> 400", "< 50".
* Shares are fractions in [0, 1]; a figure with nothing to measure is None.

Complexity: O(players + games).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from service.engine.model import Game, Player, Round

__all__ = ["PairingQuality", "counted_games", "pairing_quality"]


@dataclass(frozen=True, slots=True)
class PairingQuality:
    """The pairing-quality figures of the FLAMPARK text's comparison table."""

    games: int
    """Games counted (played or paired, not forfeited)."""
    rated_games: int
    """Counted games between two rated players (the base of the gap shares)."""
    players: int
    """Players with a deviation (rated, at least one rated opponent)."""
    share_gap_under_100: float | None
    """Share of rated games with a rating gap below 100."""
    share_gap_under_200: float | None
    """Share of rated games with a rating gap below 200."""
    share_gap_over_400: float | None
    """Share of rated games with a rating gap above 400."""
    share_players_within_50: float | None
    """Share of players whose opponents' mean rating is less than 50 from their own."""
    share_players_within_100: float | None
    """Share of players whose opponents' mean rating is less than 100 from their own."""
    mean_deviation: float | None
    """Mean of ``|opponents' mean rating - own rating|`` over the players."""
    mean_deviation_top_ten: float | None
    """The same over the top ten."""
    mean_deviation_percent: float | None
    """Mean of the deviation as a percentage of the player's own rating."""
    top_ten_opponent_rating: float | None
    """Mean of the top ten's opponents' mean ratings."""
    largest_start_gap: int | None
    """Largest start-number distance between two opponents in a counted game."""


def counted_games(rounds: Iterable[Round]) -> list[Game]:
    """The games that count: between two players, played or not yet played."""
    return [
        game for rnd in rounds for game in rnd.games if game.result is None or game.result.played
    ]


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def pairing_quality(players: Sequence[Player], rounds: Sequence[Round]) -> PairingQuality:
    """Compute the figures for ``players`` over the counted games of ``rounds``.

    Raises ``ValueError`` when a game names a start number missing from ``players``.
    """
    rating = {p.start_number: p.rating for p in players}
    games = counted_games(rounds)
    gaps: list[int] = []
    opponents: dict[int, list[int]] = {}
    for game in games:
        for number in (game.white, game.black):
            if number not in rating:
                raise ValueError(
                    f"round {game.round}: start number {number} is not among the players"
                )
        white, black = rating[game.white], rating[game.black]
        if white > 0 and black > 0:
            gaps.append(abs(white - black))
        if black > 0:
            opponents.setdefault(game.white, []).append(black)
        if white > 0:
            opponents.setdefault(game.black, []).append(white)

    deviations: list[tuple[int, float, float, int]] = []  # start, deviation, opp mean, own
    for number in sorted(opponents):
        own = rating[number]
        if own <= 0:
            continue
        mean = sum(opponents[number]) / len(opponents[number])
        deviations.append((number, abs(mean - own), mean, own))
    top = deviations[:10]

    return PairingQuality(
        games=len(games),
        rated_games=len(gaps),
        players=len(deviations),
        share_gap_under_100=_share(sum(g < 100 for g in gaps), len(gaps)),
        share_gap_under_200=_share(sum(g < 200 for g in gaps), len(gaps)),
        share_gap_over_400=_share(sum(g > 400 for g in gaps), len(gaps)),
        share_players_within_50=_share(sum(d < 50 for _, d, _, _ in deviations), len(deviations)),
        share_players_within_100=_share(sum(d < 100 for _, d, _, _ in deviations), len(deviations)),
        mean_deviation=_mean([d for _, d, _, _ in deviations]),
        mean_deviation_top_ten=_mean([d for _, d, _, _ in top]),
        mean_deviation_percent=_mean([100 * d / own for _, d, _, own in deviations]),
        top_ten_opponent_rating=_mean([mean for _, _, mean, _ in top]),
        largest_start_gap=max((abs(g.white - g.black) for g in games), default=None),
    )
