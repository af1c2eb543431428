"""Static pages served by the API (the live scoreboard)."""
