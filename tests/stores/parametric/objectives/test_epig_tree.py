"""EPIG-Tree allocation: budget, proportionality, zero weights."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.errors import ConfigError
from stores.parametric.objectives import epig_allocation, epig_scores, largest_remainder

weights_st = st.lists(st.floats(0, 100, allow_nan=False, allow_infinity=False), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(weights=weights_st, budget=st.integers(0, 200))
def test_counts_sum_to_budget_and_stay_within_one_of_proportional(weights, budget):
    w = torch.tensor(weights, dtype=torch.float64)
    counts = largest_remainder(w, budget)
    assert int(counts.sum()) == budget
    assert (counts >= 0).all()
    base = w if float(w.sum()) > 0 else torch.ones_like(w)
    exact = budget * base / base.sum()
    assert ((counts.double() - exact).abs() < 1.0 + 1e-9).all()
    assert (counts[base == 0] == 0).all()  # zero weight, zero rollouts


def test_largest_remainders_get_the_leftover_units():
    assert largest_remainder(torch.tensor([1.0, 1.0, 1.0]), 4).tolist() == [2, 1, 1]
    assert largest_remainder(torch.tensor([0.5, 0.3, 0.2]), 3).tolist() == [1, 1, 1]
    assert largest_remainder(torch.tensor([0.6, 0.3, 0.1]), 3).tolist() == [2, 1, 0]
    assert largest_remainder(torch.tensor([0.0, 0.0]), 3).tolist() == [2, 1]  # all zero: uniform
    assert largest_remainder(torch.tensor([0.0, 2.0, 0.0]), 5).tolist() == [0, 5, 0]


def test_scores_are_reach_times_score_norm_times_std_over_sqrt_cost():
    reach = torch.tensor([0.5, 0.25, 1.0])
    norm = torch.tensor([0.2, 0.8, 0.0])
    std = torch.tensor([1.0, 2.0, 3.0])
    cost = torch.tensor([4.0, 1.0, 9.0])
    brute = [r * n * s / math.sqrt(c) for r, n, s, c in zip(reach.tolist(), norm.tolist(), std.tolist(), cost.tolist())]
    assert torch.allclose(epig_scores(reach, norm, std, cost), torch.tensor(brute, dtype=torch.float64))
    counts = epig_allocation(reach, norm, std, 10, cost)
    assert counts.tolist() == [1, 9, 0]  # weights 0.05 : 0.4 : 0


@pytest.mark.parametrize(
    "weights,budget", [(torch.tensor([1.0, -1.0]), 3), (torch.tensor([1.0, float("nan")]), 3), (torch.tensor([1.0]), -1)]
)
def test_bad_inputs_are_config_errors(weights, budget):
    with pytest.raises(ConfigError):
        largest_remainder(weights, budget)
