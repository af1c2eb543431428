"""What a live frame shows of an event, and which events make the feed check its sockets
again or stop replaying older frames (service/views/events.py; docs/api.md#access-and-privacy)."""

from __future__ import annotations

from service.views.events import changes_admission, narrows_view, shown_payload

ADDED = {"number": 3, "name": "Ann", "rating": 1900, "fide_id": "1503014", "sex": "w"}


def test_a_registration_shows_its_personal_fields_only_to_who_may_see_them() -> None:
    assert shown_payload("player_added", ADDED, personal=False) == {
        "number": 3,
        "name": "Ann",
        "rating": 1900,
    }
    assert shown_payload("player_added", ADDED, personal=True) is ADDED
    assert shown_payload("game_result", ADDED, personal=False) is ADDED  # not a player's


def test_access_changes_and_narrowing_are_told_apart() -> None:
    assert changes_admission("token_revoked", {})
    assert changes_admission("settings_changed", {"after": {"visibility": "private"}})
    assert not changes_admission("settings_changed", {"after": {"name": "Open"}})
    assert narrows_view("settings_changed", {"after": {"publish_personal_data": False}})
    assert not narrows_view("settings_changed", {"after": {"publish_personal_data": True}})
    assert not narrows_view("player_updated", {"after": {"publish_personal_data": False}})
