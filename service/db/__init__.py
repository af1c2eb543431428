"""Persistence: SQLModel tables, async engine and sessions, repositories, event log."""
