"""Whole numbers read from people's and programs' text (service/engine/numerals.py)."""

from __future__ import annotations

import pytest

from service.engine.numerals import whole_number


@pytest.mark.parametrize(
    ("text", "value"),
    [("7", 7), ("0001", 1), ("0" * 20 + "5", 5), ("9" * 9, 999_999_999), ("٣", 3)],
)
def test_decimal_digits_read(text: str, value: int) -> None:
    assert whole_number(text) == value


@pytest.mark.parametrize("text", ["", " 7", "-1", "+1", "1.0", "1e3", "²", "½", "9" * 10])
def test_anything_else_is_none(text: str) -> None:
    assert whole_number(text) is None


def test_the_digit_bound_is_the_callers() -> None:
    assert whole_number("9" * 18, most_digits=18) == 10**18 - 1
    assert whole_number("9" * 5000, most_digits=18) is None  # int() stops at 4,300
