"""What the norm rules read of the whole event rather than of one player's games (FIDE
B.01, 2024): the Swiss exemption of 1.4.3d, the unrated zero-scorers of a round-robin
whose games do not count (1.4.2b), the forfeit wins and pairing-allocated byes of
1.4.1c and the last-round forfeit of 1.4.2c (docs/rules/ratings.md#norms)."""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.model import ByeKind, Outcome, PlayerRound, Tournament
from service.engine.ratings.norms import NO_FEDERATION, NormEvent

__all__ = [
    "SWISS_FEDERATIONS",
    "SWISS_FOREIGNERS",
    "SWISS_TITLED",
    "NormSettings",
    "credited_rounds",
    "format_of_system",
    "last_round_forfeit",
    "norm_event",
    "swiss_exemption",
    "zero_scoring_unrated",
]

SWISS_FOREIGNERS = 20
SWISS_FEDERATIONS = 3
SWISS_TITLED = 10
SWISS_TITLES = frozenset({"GM", "IM", "WGM", "WIM"})


@dataclass(frozen=True, slots=True)
class NormSettings:
    """What the organizer says of the event (B.01 1.4.1b, 1.4.3a-d): its kind (one of
    `norms.EVENT_KINDS`), format (`norms.FORMATS`, None: unknown) and the federation
    that registered it; the defaults read the rules strictly."""

    kind: str = "ordinary"
    format: str | None = None
    host_federation: str | None = None


def norm_event(tournament: Tournament, settings: NormSettings | None = None) -> NormEvent:
    """The event as the norm rules see it: its rounds (announced, else paired), field
    and, for a Swiss, whether 1.4.3d exempts it."""
    settings = settings or NormSettings()
    rounds = tournament.total_rounds or (len(tournament.rounds) or None)
    host = settings.host_federation
    exempt = swiss_exemption(tournament, host) if settings.format == "swiss" else None
    return NormEvent(
        kind=settings.kind,
        format=settings.format,
        host_federation=host,
        rounds=rounds,
        players=len(tournament.players),
        swiss_exemption=exempt,
    )


def _present(entry: PlayerRound) -> bool:
    """At the board: a game played, a forfeit win, or a pairing-allocated bye."""
    return (
        entry.played
        or entry.outcome is Outcome.FORFEIT_WIN
        or (entry.bye is ByeKind.PAIRING_ALLOCATED)
    )


def swiss_exemption(tournament: Tournament, host_federation: str | None) -> bool | None:
    """1.4.3d: every round's participants include at least 20 FIDE-rated players not of
    the host federation, from at least 3 federations, at least 10 of them GM, IM, WGM or
    WIM; a player counts only when missing at most one round, pairing-allocated byes
    excepted. Rounds without results do not count; FID is no federation (1.4.2a); None
    when the host federation is unknown, or when players of unknown federation could
    make the difference."""
    if not host_federation:
        return None
    finished = [r for r in tournament.rounds if all(g.result is not None for g in r.games)]
    if not finished:
        return False
    numbers = {r.number for r in finished}
    history = tournament.history()
    host = host_federation.upper()
    counted: list[tuple[set[int], str, bool]] = []
    unknown = False
    for player in tournament.players:
        entries = [e for e in history.get(player.start_number, []) if e.round in numbers]
        if not player.rating or sum(1 for e in entries if not _present(e)) > 1:
            continue
        federation = (player.federation or "").upper()
        if not federation:
            unknown = True
            continue
        if federation in (host, NO_FEDERATION):
            continue
        rounds = {e.round for e in entries if _present(e)}
        counted.append((rounds, federation, (player.title or "").upper() in SWISS_TITLES))
    for number in numbers:
        here = [(fed, titled) for rounds, fed, titled in counted if number in rounds]
        if (
            len(here) < SWISS_FOREIGNERS
            or len({fed for fed, _ in here}) < SWISS_FEDERATIONS
            or sum(1 for _, titled in here if titled) < SWISS_TITLED
        ):
            return None if unknown else False
    return True


def zero_scoring_unrated(tournament: Tournament) -> frozenset[int]:
    """1.4.2b: the unrated players of a round-robin who scored zero against the rated
    opponents they met over the board (at least one): their games are left out of
    everyone's norm."""
    ratings = {p.start_number: p.rating for p in tournament.players}
    out = set()
    for number, entries in tournament.history().items():
        if ratings.get(number):
            continue
        rated = [e for e in entries if e.played and e.opponent and ratings.get(e.opponent)]
        if rated and all(e.outcome is Outcome.LOSS for e in rated):
            out.add(number)
    return frozenset(out)


def credited_rounds(entries: list[PlayerRound]) -> int:
    """Rounds the player won by forfeit or got a pairing-allocated bye for (1.4.1c)."""
    return sum(
        1 for e in entries if e.outcome is Outcome.FORFEIT_WIN or e.bye is ByeKind.PAIRING_ALLOCATED
    )


def last_round_forfeit(entries: list[PlayerRound], last_round: int | None) -> int | None:
    """The opponent who forfeited to the player in the event's last round (1.4.2c)."""
    for entry in entries:
        if entry.round == last_round and entry.outcome is Outcome.FORFEIT_WIN:
            return entry.opponent
    return None


_SYSTEM_FORMATS = {
    "swiss-dutch": "swiss",
    "swiss-jca": "swiss",
    "round-robin": "round-robin",
    "double-round-robin": "double-round-robin",
}


def format_of_system(system: str | None) -> str | None:
    """The norm format of a tournament system's name (docs/rules/ratings.md#norms);
    None for a system that is none of B.01 1.4.2e's formats read here."""
    return _SYSTEM_FORMATS.get(system or "")
