"""The typed events of the log and their one codec (db/event_types.py)."""

from __future__ import annotations

import pytest

from service.db.event_types import (
    BRIDGE_RESULT_EVENTS,
    EVENT_TYPES,
    GAME_RESULT_EVENTS,
    BridgeEventCreated,
    BridgeResultRemoved,
    Event,
    GameResultEvent,
    Imported,
    PlayerAdded,
    PlayerRemoved,
    PlayerUpdated,
    ResultConfirmed,
    RoundPaired,
    SettingsChanged,
    TokenRevoked,
    TokenRotated,
    TournamentArchived,
    TournamentCreated,
    TournamentStarted,
    decode,
    encode,
    result_event,
)

CONFIRMED = ResultConfirmed(
    round=2,
    table=1,
    white=3,
    black=4,
    result="1-0",
    status="confirmed",
    by="organizer",
    previous={"result": None, "status": "pending", "extra": {}},
    time_shortened_minutes=None,
)

EXAMPLES: list[tuple[Event, str, dict[str, object]]] = [
    (
        TournamentCreated("Open", "swiss-dutch"),
        "tournament_created",
        {"name": "Open", "system": "swiss-dutch"},
    ),
    (
        PlayerAdded(7, None, {"name": "Ann", "rating": 2100}),
        "player_added",
        {"id": 7, "start_number": None, "name": "Ann", "rating": 2100},
    ),
    (PlayerUpdated(7, {"withdrawn": True}), "player_updated", {"id": 7, "withdrawn": True}),
    (PlayerRemoved(7), "player_removed", {"id": 7}),
    (TournamentStarted(10, 9), "tournament_started", {"players": 10, "rounds": 9}),
    (Imported(40, 5), "imported", {"players": 40, "rounds": 5}),
    (
        RoundPaired(3, [[1, 1, 2]], [[5, "pairing-allocated"]]),
        "round_paired",
        {"round": 3, "games": [[1, 1, 2]], "byes": [[5, "pairing-allocated"]]},
    ),
    (
        CONFIRMED,
        "result_confirmed",
        {
            "round": 2,
            "table": 1,
            "white": 3,
            "black": 4,
            "result": "1-0",
            "status": "confirmed",
            "by": "organizer",
            "previous": {"result": None, "status": "pending", "extra": {}},
            "time_shortened_minutes": None,
        },
    ),
    (
        SettingsChanged({"name": "A"}, {"name": "B"}),
        "settings_changed",
        {"before": {"name": "A"}, "after": {"name": "B"}},
    ),
    (TournamentArchived(), "tournament_archived", {}),
    (
        TokenRotated({"role": "player", "start_number": 3}, None),
        "token_rotated",
        {"role": "player", "start_number": 3, "expires_at": None},
    ),
    (TokenRevoked({"role": "viewer"}), "token_revoked", {"role": "viewer"}),
    (
        BridgeEventCreated("Pairs", "bridge-pairs", 4, 12),
        "bridge_event_created",
        {"name": "Pairs", "system": "bridge-pairs", "tables": 4, "boards": 12},
    ),
    (
        BridgeResultRemoved(1, 2, 3, 4, 5, None, "organizer", 2, {"contract": "4S"}),
        "bridge_result_removed",
        {
            "round": 1,
            "table": 2,
            "board": 3,
            "ns": 4,
            "ew": 5,
            "result": None,
            "by": "organizer",
            "version": 2,
            "previous": {"contract": "4S"},
        },
    ),
]


@pytest.mark.parametrize(
    ("event", "kind", "payload"), EXAMPLES, ids=lambda x: getattr(x, "TYPE", "")
)
def test_encode_writes_the_contract_and_decode_reads_it_back(
    event: Event, kind: str, payload: dict[str, object]
) -> None:
    assert encode(event) == (kind, payload)
    assert decode(kind, payload) == event


def test_every_type_has_a_class() -> None:
    assert {kind for _, kind, _ in EXAMPLES} <= EVENT_TYPES
    game = {"result_reported", "result_confirmed", "result_disputed", "result_corrected"}
    bridge = {"bridge_result_entered", "bridge_result_corrected", "bridge_result_removed"}
    assert game == GAME_RESULT_EVENTS
    assert bridge == BRIDGE_RESULT_EVENTS
    with pytest.raises(KeyError):
        decode("note", {})


def test_extra_details_appear_only_when_given() -> None:
    with_extra = result_event("result_reported", **{**_fields(CONFIRMED), "extra": {"x": 1}})
    assert with_extra.TYPE == "result_reported"
    assert encode(with_extra)[1]["extra"] == {"x": 1}
    assert "extra" not in encode(CONFIRMED)[1]


def test_an_older_log_still_reads() -> None:
    """Result events once carried `shortened_minutes`; unknown keys are ignored."""
    _, payload = encode(CONFIRMED)
    old = {k: v for k, v in payload.items() if k != "time_shortened_minutes"}
    event = decode("result_confirmed", {**old, "shortened_minutes": 5, "legacy": True})
    assert isinstance(event, GameResultEvent)
    assert event.time_shortened_minutes == 5


def _fields(event: GameResultEvent) -> dict[str, object]:
    _, payload = encode(event)
    return payload
