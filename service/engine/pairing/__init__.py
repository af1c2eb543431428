"""Pairing systems, one module per system (docs/architecture.md#the-layers)."""
