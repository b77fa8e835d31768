"""SlotUsage bookkeeping and overlap measures of memkit.parametric."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memkit.parametric import ConsolidationReport, SlotUsage, slot_overlap


def test_identical_usage_overlaps_fully_and_disjoint_not_at_all() -> None:
    usage = SlotUsage(n_slots=16)
    usage.add("a", [1, 2, 3])
    usage.add("b", [3, 2, 1])
    usage.add("c", [7, 8])
    assert usage.overlap("a", "b") == pytest.approx(1.0)
    assert usage.overlap("a", "c") == 0.0
    assert usage.jaccard("a", "c", top=4) == 0.0


def test_weights_shape_the_distribution() -> None:
    usage = SlotUsage(n_slots=4)
    usage.add("g", [0, 1], [0.75, 0.25])
    usage.add("g", [0], [1.0])
    assert usage.distribution("g") == {0: pytest.approx(0.875), 1: pytest.approx(0.125)}
    assert usage.active("g", top=1) == frozenset({0})
    assert usage.distribution("never-read") == {}


def test_mismatched_weights_are_rejected() -> None:
    with pytest.raises(ValueError):
        SlotUsage(4).add("g", [0, 1], [1.0])


def test_step_seconds_is_zero_without_steps() -> None:
    assert ConsolidationReport(steps=0, examples=0, seconds=1.0).step_seconds == 0.0
    assert ConsolidationReport(steps=4, examples=8, seconds=2.0).step_seconds == 0.5


usage_lists = st.lists(st.integers(0, 31), min_size=1, max_size=40)


@given(usage_lists, usage_lists)
def test_overlap_is_symmetric_and_bounded(a: list[int], b: list[int]) -> None:
    usage = SlotUsage(32)
    usage.add("a", a)
    usage.add("b", b)
    forward = slot_overlap(usage.distribution("a"), usage.distribution("b"))
    backward = slot_overlap(usage.distribution("b"), usage.distribution("a"))
    assert forward == pytest.approx(backward)
    assert -1e-9 <= forward <= 1 + 1e-9
