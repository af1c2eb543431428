"""The live bus's notification payload, `<tournament id>:<seq>` (service/live/bus.py):
anything else is ignored, whoever sent it on the channel."""

from __future__ import annotations

import pytest

from service.live.bus import parse_payload


def test_a_payload_names_the_tournament_and_its_seq() -> None:
    assert parse_payload("t-1:12") == ("t-1", 12)
    assert parse_payload("a:b:7") == ("a:b", 7)  # the seq follows the last colon


@pytest.mark.parametrize(
    "payload",
    ["", "t-1", ":12", "t-1:", "t-1:x", "t-1:-3", "t-1:²", "t-1:" + "9" * 5000],
)
def test_anything_else_is_ignored(payload: str) -> None:
    # `²` passes str.isdigit and not int(); int() refuses over 4,300 digits
    assert parse_payload(payload) is None
