"""The engine's errors: one root, `EngineError`, for every input the engine cannot use.

An `EngineError` is a `ValueError` (the input is wrong, not the program) and carries
`field`, the name of the offending input when the raiser knows it. Anything else the
engine raises (a bare `ValueError`, `KeyError`, `AssertionError`, ...) is a bug, and
the API lets it surface as a 500 with a logged traceback. The API maps each class to a
problem type in one table (service/api/errors.py); every one is a 422.

The family, most general first (module, problem type):

    EngineError                         engine/errors.py                  invalid-input
    ├── TrfError                        engine/trf.py                     invalid-trf
    ├── PairingError                    engine/pairing/result.py          pairing-impossible
    │   ├── MatchingError               engine/pairing/matching/          pairing-impossible
    │   ├── VarmaError                  engine/pairing/varma.py           invalid-draw
    │   └── FlamparkScheduleError       engine/pairing/flampark/errors.py invalid-schedule
    │       ├── TooFewPlayersError                                        too-few-players
    │       └── FlamparkOptionError                                       invalid-schedule
    ├── ByeRequestError                 engine/byes.py                    invalid-bye
    ├── TieBreakError                   engine/scoring/tiebreaks/errors.py invalid-tiebreak
    │   ├── UnknownTieBreakError                                          unknown-tiebreak
    │   └── UnsupportedEditionError                                       unsupported-edition
    ├── FlamparkError                   engine/scoring/flampark/rules.py  invalid-flampark-score
    │   ├── ShorteningError                                               invalid-shortening
    │   │   └── ShorteningByArbiterError                                  shortening-by-arbiter
    │   └── PremiumError                engine/scoring/progress_premium.py invalid-premium
    ├── BridgeInputError                engine/bridge/errors.py           invalid-bridge-input
    └── LifecycleError                  engine/lifecycle.py               illegal-transition
                                        (the application layer answers it as a 409 conflict)

`FlamparkScheduleError` (the pairing schedule) and `FlamparkError` (the scoring) were
two classes of one name until they joined this tree; the schedule's took the new name.
"""

from __future__ import annotations

__all__ = ["EngineError"]


class EngineError(ValueError):
    """Input the engine cannot use; `field` names the offending input when known."""

    field: str | None
    """The input at fault ("tricks", "players", "shortened[3,12]", ...), or None."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
