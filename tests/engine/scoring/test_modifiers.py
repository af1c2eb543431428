"""Cut-n / Median-n with the art. 16.5 exception, as properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.engine.scoring.tiebreaks.modifiers import Cut, Item, apply_cut, cut_total

_items = st.lists(st.tuples(st.integers(0, 20), st.integers(0, 2), st.booleans()), max_size=12).map(
    lambda rows: [Item(i, score, score * share, vur) for i, (score, share, vur) in enumerate(rows)]
)
_cuts = st.builds(Cut, st.integers(0, 3), st.integers(0, 3))


@given(_items, _cuts)
def test_cut_partitions_and_counts(items: list[Item], cut: Cut) -> None:
    kept, removed = apply_cut(items, cut)
    assert sorted(kept + removed, key=lambda it: it.index) == items
    low = min(cut.low, len(items))
    assert len(removed) == low + min(cut.high, len(items) - low)


@given(_items, st.integers(0, 3), st.integers(0, 3))
def test_without_vurs_the_extremes_go(items: list[Item], low: int, high: int) -> None:
    plain = [Item(it.index, it.score, it.value, False) for it in items]
    kept, _ = apply_cut(plain, Cut(low, high))
    ordered = sorted((it.score, it.value) for it in plain)
    cut_low = min(low, len(ordered))
    expected = ordered[cut_low : len(ordered) - min(high, len(ordered) - cut_low)]
    assert sorted((it.score, it.value) for it in kept) == expected


@given(_items)
def test_cut_one_takes_a_vur_when_buchholz_has_one(items: list[Item]) -> None:
    bh = [Item(it.index, it.score, it.score, it.vur) for it in items]
    _, removed = apply_cut(bh, Cut(1, 0))
    if any(it.vur for it in bh):
        assert removed[0].vur
        assert removed[0].value == min(it.value for it in bh if it.vur)


def test_suffixes() -> None:
    assert Cut(1, 0).suffix == "-C1"
    assert Cut(2, 2).suffix == "-M2"
    assert Cut().suffix == ""
    assert not Cut()


@given(_items, _cuts)
def test_cut_total_keeps_what_apply_cut_keeps(items: list[Item], cut: Cut) -> None:
    kept, _ = apply_cut(items, cut)
    scores = [it.score for it in items]
    values = [it.value for it in items]
    vurs = [it.index for it in items if it.vur]
    assert cut_total(scores, values, vurs, cut) == sum(it.value for it in kept)


@given(
    st.lists(st.tuples(st.integers(-5, 5), st.integers(-9, 9), st.booleans()), max_size=12),
    _cuts,
)
def test_cut_total_with_negative_values_and_ties(
    rows: list[tuple[int, int, bool]], cut: Cut
) -> None:
    items = [Item(i, score, value, vur) for i, (score, value, vur) in enumerate(rows)]
    kept, _ = apply_cut(items, cut)
    total = cut_total(
        [r[0] for r in rows], [r[1] for r in rows], [i for i, r in enumerate(rows) if r[2]], cut
    )
    assert total == sum(it.value for it in kept)
