"""The engine's errors: one root, `EngineError`, for every input the engine cannot use
and every request its rules refuse.

An `EngineError` is a `ValueError` (the input is wrong, not the program) and carries
`field`, the name of the offending input when the raiser knows it. Anything else the
engine raises (a bare `ValueError`, `KeyError`, `AssertionError`, ...) is a bug, and
the API lets it surface as a 500 with a logged traceback. The API maps each class to a
problem type (service/api/errors.py): the input errors to a 422 each, in one table; the
rule refusals (`RuleRefusal`: well-formed, but the rules do not let this caller do this
now) to the 403 or 409 of the service's own problems, in another.

The family, most general first (module, problem type):

    EngineError                         engine/errors.py                  invalid-input
    ├── TrfError                        engine/trf.py                     invalid-trf
    ├── PairingError                    engine/pairing/round_pairing.py          pairing-impossible
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
    ├── RuleRefusal                     engine/errors.py                  conflict (409)
    │   ├── NotOwnGame                  engine/result_reporting.py                 forbidden (403)
    │   └── ResultLocked                engine/result_reporting.py                 conflict (409)
    └── LifecycleError                  engine/lifecycle.py               illegal-transition
                                        (the application layer answers it as a 409 conflict)

`FlamparkScheduleError` (the pairing schedule) and `FlamparkError` (the scoring) were
two classes of one name until they joined this tree; the schedule's took the new name.
"""

from __future__ import annotations

__all__ = ["EngineError", "RuleRefusal"]


class EngineError(ValueError):
    """Input the engine cannot use; `field` names the offending input when known."""

    field: str | None
    """The input at fault ("tricks", "players", "shortened[3,12]", ...), or None."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class RuleRefusal(EngineError):
    """A well-formed request the rules refuse to this caller in this state (a player
    reporting another pair's game, changing a confirmed result): not bad input, so the
    API answers it as the service's own refusals (403, 409), not as a 422."""
