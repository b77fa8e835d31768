"""Precision, recall and IoU over effect multisets, with the spec's conventions."""

from __future__ import annotations

import pytest

from memkit.rules import Score, score_effects, score_world

A = ("set", "order", "O1", "total", 60)
B = ("set", "order_line", "L1", "amount", 60)
C = ("create", "approval", "state", "requested")
D = ("delete", "approval", "A1")


def test_both_empty_is_perfect():
    assert score_effects([], []) == Score(1.0, 1.0, 1.0)


@pytest.mark.parametrize("pred, truth", [([A], []), ([], [A])])
def test_only_one_empty_is_zero(pred, truth):
    assert score_effects(pred, truth) == Score(0.0, 0.0, 0.0)


def test_exact_match():
    assert score_effects([B, A], [A, B]) == Score(1.0, 1.0, 1.0)


def test_partial_overlap():
    s = score_effects([A, C], [A, B, D])
    assert s.precision == pytest.approx(1 / 2)
    assert s.recall == pytest.approx(1 / 3)
    assert s.iou == pytest.approx(1 / 4)


def test_multiset_counts():
    s = score_effects([C, C, C], [C])
    assert (s.precision, s.recall, s.iou) == pytest.approx((1 / 3, 1.0, 1 / 3))
    s = score_effects([C], [C, C])
    assert (s.precision, s.recall, s.iou) == pytest.approx((1.0, 0.5, 0.5))


def test_values_of_different_kinds_do_not_match():
    assert score_effects([("set", "t", "x", "f", 1)], [("set", "t", "x", "f", True)]) == Score(0.0, 0.0, 0.0)
    assert score_effects([("set", "t", "x", "f", "1")], [("set", "t", "x", "f", 1)]) == Score(0.0, 0.0, 0.0)


def test_numbers_match_rounded_to_six_decimals_and_int_equals_float():
    assert score_effects([("set", "t", "x", "f", 60.0)], [("set", "t", "x", "f", 60)]) == Score(1.0, 1.0, 1.0)
    assert score_effects([("set", "t", "x", "f", 0.1 + 0.2)], [("set", "t", "x", "f", 0.3)]) == Score(1.0, 1.0, 1.0)
    assert score_effects([("create", "t", "f", 2.0000001)], [("create", "t", "f", 2)]) == Score(1.0, 1.0, 1.0)


def test_effects_given_as_lists_match_tuples():
    assert score_effects([list(A)], [A]) == Score(1.0, 1.0, 1.0)


def test_world_score_is_the_mean_over_tests():
    s = score_world([[A], [], [A, C]], [[A], [B], [A]])
    assert s.precision == pytest.approx((1 + 0 + 0.5) / 3)
    assert s.recall == pytest.approx((1 + 0 + 1) / 3)
    assert s.iou == pytest.approx((1 + 0 + 0.5) / 3)


def test_world_score_length_mismatch_is_an_error():
    with pytest.raises(ValueError):
        score_world([[A]], [[A], []])
