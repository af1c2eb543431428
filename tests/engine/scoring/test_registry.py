"""Tie-break code parsing: names, modifiers, aliases, editions, errors."""

from __future__ import annotations

import pytest

from service.engine.scoring.tiebreaks.base import GroupTieBreak, TieBreak
from service.engine.scoring.tiebreaks.errors import UnknownTieBreakError
from service.engine.scoring.tiebreaks.registry import KNOWN_CODES, TIEBREAK_NAMES, parse_tiebreak


@pytest.mark.parametrize("code", KNOWN_CODES)
def test_every_known_code_parses_to_itself(code: str) -> None:
    tb = parse_tiebreak(code)
    assert isinstance(tb, TieBreak | GroupTieBreak)
    assert tb.code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bh-c1", "BH-C1"),
        (" BH-C2 ", "BH-C2"),
        ("BH-M1", "BH-M1"),
        ("bh-m2/p", "BH-M2/P"),
        ("FB-C1", "FB-C1"),
        ("SB/P", "SB/P"),
        ("SB-C1", "SB-C1"),
        ("DE/P", "DE/P"),
        ("AOB/F", "AOB/F"),
        ("KS/L+1", "KS/L+1"),
        ("KS/L-2", "KS/L-2"),
        ("KS/L+1.5", "KS/L+3"),
        ("KS/L60", "KS/L60"),
        ("PS-C1", "PS-C1"),
        ("ARO-C1/U1000", "ARO-C1/U1000"),
        ("TPR/U1200", "TPR/U1200"),
        ("RTNG/R", "RTNG/R"),
        ("TPN/R", "TPN/R"),
        ("SOLKOFF", "BH"),
        ("Solkoff-M", "BH-M1"),
        ("berger", "SB"),
        ("KOYA", "KS"),
        ("sb-s", "SB-S"),
        ("perf-jca", "PERF-JCA"),
    ],
)
def test_normalised_codes(text: str, code: str) -> None:
    assert parse_tiebreak(text).code == code


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XYZ", ""),
        ("", "empty"),
        ("BH-X1", "unknown modifier -X1"),
        ("BH-C1-C2", "more than one"),
        ("SB-M1", "Cut-n but not Median-n"),
        ("WIN-C1", "no cut"),
        ("WIN/P", "does not apply"),
        ("TPR/P", "does not apply"),
        ("ARO/U", "needs a rating"),
        ("ARO/U²", "needs a rating"),  # a digit to str.isdigit, not to int()
        ("ARO/U" + "9" * 5000, "needs a rating"),  # int() refuses over 4,300 digits
        ("KS/L+x", "Koya limit"),
        ("KS/Lx", "Koya limit"),
        ("KS/L²", "Koya limit"),
        ("KS/L+1e9", "Koya limit"),
        (
            "BH-C" + "9" * 5000,
            "not a number of rounds",
        ),  # no exponent: /L+1e99999999 would build a huge number
        ("SB/", "empty modifier"),
        ("DE/P1", "takes no value"),
    ],
)
def test_bad_codes_name_the_code(text: str, reason: str) -> None:
    with pytest.raises(UnknownTieBreakError) as info:
        parse_tiebreak(text)
    assert info.value.code == text
    assert repr(text) in str(info.value)
    assert reason in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("code", ["STD", "TPN", "RTNG"])
def test_2026_codes_are_not_in_the_2024_edition(code: str) -> None:
    assert parse_tiebreak(code, "2026").code == code
    with pytest.raises(UnknownTieBreakError, match="2026 edition"):
        parse_tiebreak(code, "2024")


def test_every_code_has_a_description() -> None:
    assert sorted(TIEBREAK_NAMES) == sorted(KNOWN_CODES)
