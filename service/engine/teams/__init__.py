"""Team competitions (FIDE C.07 Art. 11-13): the event model, TRF-26 team records,
team scoring, the team tie-breaks and the team ranking (docs/rules/teams.md).

Pure domain, no I/O. `model` holds the event (teams, rounds of matches, boards, byes,
scoring) and `checks` refuses a contradictory one; `results` scores each team's rounds;
`trf` (with `trf_records`, `trf_rounds`) reads a team TRF file and writes it back;
`context`, `base`, `tiebreaks` and `encounter` are the tie-breaks, `registry` parses
their codes, and `ranking` gives each code's values and the ranking by a list.
"""
