"""The read side's fixtures: the API's app and client (tests/api/conftest.py), on the
suite's databases (tests/conftest.py), which write the events the views are brought
forward from."""

from __future__ import annotations

from tests.api.conftest import app, client

__all__ = ["app", "client"]
