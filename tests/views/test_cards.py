"""Player cards assembled from plain rows (service/views/cards.py): a line per round,
with the round's start time, and the API's model made from them (service/api/cards.py)."""

from __future__ import annotations

from datetime import datetime

from service.api.cards import card_model
from service.db.cards import CardBye, CardGame, CardPlayer
from service.db.tables import TournamentRow
from service.views.cards import CardRound, Opponent, build_cards

ROW = TournamentRow(
    id="t1",
    name="Club",
    system="flampark",
    organizer_token_hash="",
    settings={"schedule": ["2025-05-01T10:00", None]},
)
PLAYERS = [CardPlayer(1, "Ann", 2000), CardPlayer(2, "Ben", 0), CardPlayer(3, "Cy", 1800)]


def test_a_card_has_a_line_for_every_round_asked_for() -> None:
    games = [CardGame(1, 1, 1, 2), CardGame(2, 1, 3, 1)]
    byes = [CardBye(1, 3, "pairing-bye")]
    cards = build_cards(ROW, PLAYERS, games, byes, [1, 2, 3], [1, 3])
    assert sorted(cards) == [1, 3]
    ann = cards[1]
    assert ann.rounds == [
        CardRound(1, datetime(2025, 5, 1, 10), 1, "white", Opponent(2, "Ben", None)),
        CardRound(2, None, 1, "black", Opponent(3, "Cy", 1800)),
        CardRound(3, None, None, None, None),
    ]
    assert cards[3].rounds[0].bye == "pairing-bye"
    model = card_model(ann)
    assert model.model_dump(mode="json")["rounds"][0] == {
        "round": 1,
        "start_time": "2025-05-01T10:00:00",
        "table": 1,
        "colour": "white",
        "opponent": {"start_number": 2, "name": "Ben", "rating": None},
        "bye": None,
    }
