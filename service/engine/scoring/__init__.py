"""Points, tie-breaks and FLAMPARK scores (docs/architecture.md#the-layers)."""
