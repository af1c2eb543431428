"""Points, tie-breaks and FLAMPARK scores (DESIGN: engine/scoring)."""
