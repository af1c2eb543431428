"""How a reader's time grows with its input: the check that a reader of uploaded text is
linear. A linear reader takes about 4 times as long on 4 times the input, a quadratic
one 16 times; `growth` compares the best of a few runs at each size, so that one slow
run on a busy machine does not count."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from service.engine.errors import EngineError

__all__ = ["LINEAR", "growth"]

LINEAR = 8.0
"""Largest time ratio, 4n against n, taken as linear: twice the linear 4, half the
quadratic 16."""

_FLOOR = 0.005
"""Seconds: a run shorter than this counts as this long (timer and scheduler noise)."""


def growth(read: Callable[[str], object], make: Callable[[int], str], size: int) -> float:
    """Best time of `read(make(4 * size))` over best time of `read(make(size))`; an
    `EngineError` raised by `read` ends a run like a return (a refusal is an answer
    too)."""

    def best(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            with contextlib.suppress(EngineError):
                read(text)
            times.append(time.perf_counter() - start)
        return max(min(times), _FLOOR)

    small, large = make(size), make(4 * size)
    return best(large) / best(small)
