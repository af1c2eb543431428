"""Team competitions (FIDE C.07 Art. 11-13): the event model, TRF-26 team records,
team scoring, the team tie-breaks and the team ranking.

Pure domain: no I/O. `trf.parse_team_trf` reads a team TRF file into a `TeamEvent`,
`results.team_table` scores it round by round, `tiebreaks.parse_team_tiebreak` turns
a code (MPVGP, EDE, BH:MP/C1, ...) into a tie-break, `ranking.rank_teams` orders the
teams by a list of codes.
"""
