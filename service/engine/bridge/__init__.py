"""Bridge scoring (SPEC 7, seed 003)."""
