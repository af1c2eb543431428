"""Migrations 0008 and 0009 on stored rows: players numbered 1, 2, 3 in registration order
within each tournament (one way to name a player, docs/api.md#players); bridge events
given their own kind."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from service.db.migrate import upgrade


def test_existing_players_are_numbered_per_tournament_in_registration_order(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0007")
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        for tournament in ("a", "b"):
            connection.execute(
                sa.text(
                    "INSERT INTO tournaments (id, name, system, status, settings, "
                    "current_round, last_seq, created_at, visibility, organizer_token_hash) "
                    "VALUES (:id, 'T', 'round-robin', 'registration', '{}', 0, 0, "
                    "'2026-01-01', 'public', 'x')"
                ),
                {"id": tournament},
            )
        # interleaved registrations: row ids 1..5
        for tournament, name in (("a", "A1"), ("b", "B1"), ("a", "A2"), ("b", "B2"), ("a", "A3")):
            connection.execute(
                sa.text(
                    "INSERT INTO players (tournament_id, name, rating, extra) "
                    "VALUES (:t, :n, 0, '{}')"
                ),
                {"t": tournament, "n": name},
            )
    upgrade(url)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT tournament_id, name, number FROM players ORDER BY id")
        ).all()
    assert [tuple(r) for r in rows] == [
        ("a", "A1", 1),
        ("b", "B1", 1),
        ("a", "A2", 2),
        ("b", "B2", 2),
        ("a", "A3", 3),
    ]


def test_bridge_events_get_their_kind(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0008")
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        for event_id, system in (
            ("c", "swiss-dutch"),
            ("p", "bridge-pairs"),
            ("t", "bridge-teams"),
        ):
            connection.execute(
                sa.text(
                    "INSERT INTO tournaments (id, name, system, status, settings, "
                    "current_round, last_seq, created_at, visibility, organizer_token_hash) "
                    "VALUES (:id, 'E', :system, 'running', '{}', 1, 0, '2026-01-01', "
                    "'public', 'x')"
                ),
                {"id": event_id, "system": system},
            )
    upgrade(url)
    with engine.connect() as connection:
        kinds: dict[str, str] = dict(
            connection.execute(sa.text("SELECT id, kind FROM tournaments")).all()
        )
    assert kinds == {"c": "chess", "p": "bridge", "t": "bridge"}
