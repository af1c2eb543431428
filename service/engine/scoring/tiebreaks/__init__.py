"""FIDE C.07 tie-breaks and the seed texts' methods, one module per family.

`registry.parse_tiebreak` turns a code into a tie-break; `standings.compute_standings`
applies an ordered list of them.
"""
