"""Arbiter: tournament pairing and scoring service."""
