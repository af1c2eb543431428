"""Compute-endpoint input (JSON or TRF) -> engine values, and ids back out."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from pydantic import ValidationError

from service.api.errors import validation_problem
from service.api.schemas.compute import ComputeTournament
from service.engine.model import Bye, ByeKind, Colour, Game, GameResult, Player, Round, Tournament
from service.engine.trf import NO_PLAYERS, TrfDocument, decode_trf, parse_trf
from service.errors import ComputeTooLarge, InvalidInput

__all__ = [
    "NO_PLAYERS",
    "EngineInput",
    "from_body",
    "from_json",
    "from_trf",
    "trf_document",
    "within_size",
]


@dataclass(frozen=True, slots=True)
class EngineInput:
    """A tournament for the engine, with the way back to the caller's ids."""

    tournament: Tournament
    ids: dict[int, int | str]
    """Start number -> the caller's id."""
    next_round_byes: tuple[Bye, ...] = ()
    accelerations: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    declared_system: str | None = None
    """A TRF file's record 092 / 192 text (the system it declares), as written."""


def trf_document(text: str, field: str = "body") -> TrfDocument:
    """Parse a TRF-16 file that must hold players (TRF-16 record 001); anything else
    is `InvalidInput` naming `field` (the body for the API, the file for the CLI)."""
    doc = parse_trf(text)
    if not doc.tournament.players:
        raise InvalidInput(NO_PLAYERS, field=field)
    return doc


def from_trf(text: str) -> EngineInput:
    """A TRF-16 file: ids are the TRF start numbers."""
    doc = trf_document(text)
    return EngineInput(
        tournament=doc.tournament,
        ids={p.start_number: p.start_number for p in doc.tournament.players},
        next_round_byes=doc.next_round_byes,
        accelerations=doc.pairing_accelerations,
        forbidden_pairs=doc.forbidden_for(len(doc.tournament.rounds) + 1),
        declared_system=doc.system,
    )


def from_json(body: ComputeTournament) -> EngineInput:
    """A JSON tournament: players numbered by list order; rounds with only byes after the
    last round with games are the next round's announced byes."""
    numbers = {player.id: index for index, player in enumerate(body.players, start=1)}

    def number(value: int | str, where: str) -> int:
        if value not in numbers:
            raise InvalidInput(f"unknown player id {value!r}", field=where)
        return numbers[value]

    games: dict[int, list[Game]] = defaultdict(list)
    for index, entry in enumerate(body.games):
        white = number(entry.white, f"games.{index}.white")
        black = number(entry.black, f"games.{index}.black")
        if white == black:
            raise InvalidInput("a player cannot play themselves", field=f"games.{index}.black")
        result = None if entry.result is None else GameResult(entry.result)
        games[entry.round].append(Game(entry.round, white, black, result))
    byes: dict[int, list[Bye]] = defaultdict(list)
    for index, bye in enumerate(body.byes):
        byes[bye.round].append(
            Bye(bye.round, number(bye.player, f"byes.{index}.player"), ByeKind(bye.type))
        )
    last = max(games, default=0)
    rounds = []
    for n in range(1, last + 1):
        seen: set[int] = set()
        for paired in games.get(n, []):
            for player in (paired.white, paired.black):
                if player in seen:
                    raise InvalidInput(f"player {player} plays twice in round {n}", field="games")
                seen.add(player)
        ordered = tuple(
            Game(g.round, g.white, g.black, g.result, t) for t, g in enumerate(games.get(n, []), 1)
        )
        rounds.append(Round(n, ordered, tuple(byes.get(n, []))))
    announced = tuple(byes.get(last + 1, []))
    if any(r > last + 1 for r in byes):
        raise InvalidInput("byes after the next round cannot be announced yet", field="byes")
    colour = None
    if body.initial_colour is not None:
        colour = Colour.WHITE if body.initial_colour == "white" else Colour.BLACK
    tournament = Tournament(
        players=tuple(Player(numbers[p.id], p.name, p.rating) for p in body.players),
        rounds=tuple(rounds),
        total_rounds=body.rounds,
        points=body.points.to_engine(),
        initial_colour=colour,
    )
    return EngineInput(tournament, {n: pid for pid, n in numbers.items()}, announced)


def from_body(raw: bytes, is_json: bool) -> tuple[EngineInput, ComputeTournament | None]:
    """A compute request's body: a JSON tournament (validated, errors located in "body")
    or TRF text (any other content type; UTF-8, else Windows-1252 / Latin-1, as an
    import's)."""
    if not is_json:
        return from_trf(decode_trf(raw)), None
    try:
        body = ComputeTournament.model_validate_json(raw)
    except ValidationError as exc:
        errors = [{"loc": ("body", *e["loc"]), "msg": e["msg"]} for e in exc.errors()]
        raise validation_problem(errors) from None
    return from_json(body), body


def within_size(data: EngineInput, max_players: int) -> EngineInput:
    """`data`, unless its field is larger than stateless compute takes
    (`compute_max_players`): then `ComputeTooLarge` naming `players`."""
    count = len(data.tournament.players)
    if count > max_players:
        raise ComputeTooLarge(
            f"{count:,} players: stateless compute takes at most {max_players:,} "
            "(ARBITER_COMPUTE_MAX_PLAYERS); pair a larger field as a stored tournament "
            "or with `arbiter pair`",
            field="players",
            max_players=max_players,
        )
    return data
