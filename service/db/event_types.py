"""The events of the log, one frozen class per event type, and their one codec.

Every change to a tournament is an event (docs/architecture.md): the writer builds one of
these classes and `append_event` stores `encode(event)`; a reader turns a stored row
back into its class with `decode`. The JSON payloads are the live channel's contract
(openapi/asyncapi.json), so `payload()` writes exactly the keys listed on each class,
and a class with open-ended fields (a player's registration, a settings change) keeps
them in one mapping that it spreads into the payload.

Adding an event type: one class here with its `TYPE`, listed in `_CLASSES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

__all__ = [
    "BRIDGE_RESULT_EVENTS",
    "EVENT_TYPES",
    "GAME_RESULT_EVENTS",
    "BridgeEventCreated",
    "BridgeResultCorrected",
    "BridgeResultEntered",
    "BridgeResultEvent",
    "BridgeResultRemoved",
    "Event",
    "GameResultEvent",
    "Imported",
    "LineupSet",
    "PlayerAdded",
    "PlayerRemoved",
    "PlayerUpdated",
    "ResultConfirmed",
    "ResultCorrected",
    "ResultDisputed",
    "ResultReported",
    "RoundPaired",
    "RoundRepaired",
    "RoundUnpaired",
    "SettingsChanged",
    "TeamAbsence",
    "TeamAdded",
    "TeamUpdated",
    "TokenRevoked",
    "TokenRotated",
    "TournamentArchived",
    "TournamentCreated",
    "TournamentStarted",
    "decode",
    "encode",
    "result_event",
]


@dataclass(frozen=True, slots=True)
class Event:
    """An event of the log: `TYPE` names it; `payload()` is what is stored."""

    TYPE: ClassVar[str] = ""

    def payload(self) -> dict[str, Any]:
        """The stored JSON object (the fields, by name)."""
        return asdict(self)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        """The event a stored payload describes (keys it does not know are ignored, so
        an older log still reads)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in payload.items() if k in known})


@dataclass(frozen=True, slots=True)
class TournamentCreated(Event):
    TYPE: ClassVar[str] = "tournament_created"
    name: str
    system: str


@dataclass(frozen=True, slots=True)
class PlayerAdded(Event):
    """A registration (or a late entry: its start number is given at once)."""

    TYPE: ClassVar[str] = "player_added"
    id: int
    start_number: int | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    """The registration's fields (name, rating, ...), spread into the payload."""

    def payload(self) -> dict[str, Any]:
        return {"id": self.id, "start_number": self.start_number, **self.fields}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in payload.items() if k not in ("id", "start_number")}
        return cls(payload["id"], payload.get("start_number"), rest)


@dataclass(frozen=True, slots=True)
class PlayerUpdated(Event):
    """A change of a player's details, or a withdrawal (`withdrawn`)."""

    TYPE: ClassVar[str] = "player_updated"
    id: int
    changes: Mapping[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {"id": self.id, **self.changes}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        return cls(payload["id"], {k: v for k, v in payload.items() if k != "id"})


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    TYPE: ClassVar[str] = "player_removed"
    id: int


@dataclass(frozen=True, slots=True)
class TournamentStarted(Event):
    TYPE: ClassVar[str] = "tournament_started"
    players: int
    rounds: int | None


@dataclass(frozen=True, slots=True)
class Imported(Event):
    """A tournament created from a TRF file."""

    TYPE: ClassVar[str] = "imported"
    players: int
    rounds: int


@dataclass(frozen=True, slots=True)
class RoundPaired(Event):
    TYPE: ClassVar[str] = "round_paired"
    round: int
    games: list[list[int]]
    """[table, white, black] per game."""
    byes: list[list[Any]]
    """[player, bye type] per bye."""


@dataclass(frozen=True, slots=True)
class RoundRepaired(Event):
    """The arbiter replaced a round's pairing by hand before any of its results was
    recorded (docs/api.md#manual-pairings): the round as it now stands, who did it (the
    event's time is when), and the rules the arbiter was warned of."""

    TYPE: ClassVar[str] = "round_repaired"
    round: int
    games: list[list[int]]
    """[table, white, black] per game."""
    byes: list[list[Any]]
    """[player, bye type] per bye."""
    by: str
    """Who replaced it ("organizer")."""
    warnings: list[str] = field(default_factory=list)
    """The rules of the warnings the arbiter was given ("C.04.1 b", ...)."""


@dataclass(frozen=True, slots=True)
class RoundUnpaired(Event):
    """The arbiter took back the last round's pairing before any of its results was
    recorded; `POST /rounds` pairs it again."""

    TYPE: ClassVar[str] = "round_unpaired"
    round: int
    by: str
    """Who took it back ("organizer")."""


@dataclass(frozen=True, slots=True)
class TeamAdded(Event):
    """A team registered (docs/teams.md); its players' own `player_added` come first."""

    TYPE: ClassVar[str] = "team_added"
    team: int
    name: str
    players: list[int]
    """The players' ids in board order."""


@dataclass(frozen=True, slots=True)
class TeamUpdated(Event):
    """A team's name or list changed (docs/teams.md#team-edits): its full list after the
    change, board order; added reserves' own `player_added` come first, removed players'
    `player_removed` too."""

    TYPE: ClassVar[str] = "team_updated"
    team: int
    name: str
    players: list[int]
    """The players' ids in board order, after the change."""


@dataclass(frozen=True, slots=True)
class TeamAbsence(Event):
    """A team announced as not playing a coming team Swiss round, with the points the
    organizer gave it, or the announcement taken back (`type` None)
    (docs/teams.md#absent-teams)."""

    TYPE: ClassVar[str] = "team_absence"
    round: int
    team: int
    type: str | None
    match_points: float = 0.0
    """The points the organizer gave the team for the round (TRF-26 299)."""
    game_points: float = 0.0


@dataclass(frozen=True, slots=True)
class LineupSet(Event):
    """The players a team fields in a coming round, board 1 first (ids)."""

    TYPE: ClassVar[str] = "lineup_set"
    round: int
    team: int
    players: list[int]


@dataclass(frozen=True, slots=True)
class GameResultEvent(Event):
    """A step of the result state machine (engine/result_reporting.py) for one game."""

    round: int
    table: int
    white: int
    black: int
    result: str | None
    status: str
    by: str
    previous: Mapping[str, Any]
    time_shortened_minutes: float | None = None
    extra: Mapping[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        """The fields as they are (no nested dataclass to unfold, so no deep copy as
        `asdict` would make: every result report stores one)."""
        stored = {name: getattr(self, name) for name in _GAME_RESULT_FIELDS}
        if not self.extra:
            stored.pop("extra")
        return stored

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        if "shortened_minutes" in payload and "time_shortened_minutes" not in payload:
            # the name result events carried before it was aligned with the request
            payload = {**payload, "time_shortened_minutes": payload["shortened_minutes"]}
        return super(GameResultEvent, cls).from_payload(payload)


_GAME_RESULT_FIELDS = tuple(f.name for f in fields(GameResultEvent))


@dataclass(frozen=True, slots=True)
class ResultReported(GameResultEvent):
    TYPE: ClassVar[str] = "result_reported"


@dataclass(frozen=True, slots=True)
class ResultConfirmed(GameResultEvent):
    TYPE: ClassVar[str] = "result_confirmed"


@dataclass(frozen=True, slots=True)
class ResultDisputed(GameResultEvent):
    TYPE: ClassVar[str] = "result_disputed"


@dataclass(frozen=True, slots=True)
class ResultCorrected(GameResultEvent):
    TYPE: ClassVar[str] = "result_corrected"


@dataclass(frozen=True, slots=True)
class SettingsChanged(Event):
    TYPE: ClassVar[str] = "settings_changed"
    before: Mapping[str, Any]
    after: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TournamentArchived(Event):
    TYPE: ClassVar[str] = "tournament_archived"


@dataclass(frozen=True, slots=True)
class TokenRotated(Event):
    """A token replaced; `whose` is the role and, for a player or a table, its number."""

    TYPE: ClassVar[str] = "token_rotated"
    whose: Mapping[str, Any]
    expires_at: str | None = None

    def payload(self) -> dict[str, Any]:
        return {**self.whose, "expires_at": self.expires_at}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        whose = {k: v for k, v in payload.items() if k != "expires_at"}
        return cls(whose, payload.get("expires_at"))


@dataclass(frozen=True, slots=True)
class TokenRevoked(Event):
    TYPE: ClassVar[str] = "token_revoked"
    whose: Mapping[str, Any]

    def payload(self) -> dict[str, Any]:
        return dict(self.whose)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        return cls(dict(payload))


@dataclass(frozen=True, slots=True)
class BridgeEventCreated(Event):
    TYPE: ClassVar[str] = "bridge_event_created"
    name: str
    system: str
    tables: int
    boards: int


@dataclass(frozen=True, slots=True)
class BridgeResultEvent(Event):
    """One board's result at one table entered, corrected or removed (`result` None)."""

    round: int
    table: int
    board: int
    ns: int
    ew: int
    result: Mapping[str, Any] | None
    by: str
    version: int
    previous: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class BridgeResultEntered(BridgeResultEvent):
    TYPE: ClassVar[str] = "bridge_result_entered"


@dataclass(frozen=True, slots=True)
class BridgeResultCorrected(BridgeResultEvent):
    TYPE: ClassVar[str] = "bridge_result_corrected"


@dataclass(frozen=True, slots=True)
class BridgeResultRemoved(BridgeResultEvent):
    TYPE: ClassVar[str] = "bridge_result_removed"


_CLASSES: tuple[type[Event], ...] = (
    TournamentCreated,
    PlayerAdded,
    PlayerUpdated,
    PlayerRemoved,
    TournamentStarted,
    Imported,
    RoundPaired,
    RoundRepaired,
    RoundUnpaired,
    TeamAdded,
    TeamUpdated,
    TeamAbsence,
    LineupSet,
    ResultReported,
    ResultConfirmed,
    ResultDisputed,
    ResultCorrected,
    SettingsChanged,
    TournamentArchived,
    TokenRotated,
    TokenRevoked,
    BridgeEventCreated,
    BridgeResultEntered,
    BridgeResultCorrected,
    BridgeResultRemoved,
)
_BY_TYPE: dict[str, type[Event]] = {cls.TYPE: cls for cls in _CLASSES}
EVENT_TYPES = frozenset(_BY_TYPE)
"""Every event type the log holds."""
GAME_RESULT_EVENTS = frozenset(c.TYPE for c in _CLASSES if issubclass(c, GameResultEvent))
"""Events that change one game's result and nothing else."""
BRIDGE_RESULT_EVENTS = frozenset(c.TYPE for c in _CLASSES if issubclass(c, BridgeResultEvent))
"""Events that change one board's result at one table."""


def encode(event: Event) -> tuple[str, dict[str, Any]]:
    """(type, payload) to store."""
    return event.TYPE, event.payload()


def decode(event_type: str, payload: Mapping[str, Any]) -> Event:
    """The event a stored row describes; KeyError for a type this version does not know."""
    return _BY_TYPE[event_type].from_payload(payload)


def result_event(event_type: str, **fields: Any) -> GameResultEvent:
    """The result event the state machine names (`Transition.event`)."""
    cls = _BY_TYPE[event_type]
    assert issubclass(cls, GameResultEvent), event_type
    return cls(**fields)
