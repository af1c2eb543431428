"""Pairing systems, one module per system (DESIGN: engine/pairing)."""
