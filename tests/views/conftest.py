"""The read side's fixtures: the API's app, client and databases (tests/api/conftest.py),
which write the events the views are brought forward from."""

from __future__ import annotations

from tests.api.conftest import app, client, database_url

__all__ = ["app", "client", "database_url"]
