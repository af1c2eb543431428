"""What an event did to FIDE ratings (Handbook B.02, 2024 rules and their 2025
amendment) and to title norms (B.01): pure functions over a `Tournament` and what the
rules need to know of each player (docs/rules/ratings.md).

`k_factor` decides the development coefficient, `games` picks the rated games,
`change` sums K x (score - expected), `initial` rates a new player, `performance`
computes the norm performance rating, `norms` checks the norm conditions and `event`
puts them together per player."""
