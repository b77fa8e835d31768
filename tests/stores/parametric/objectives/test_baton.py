"""BATON: weight normalisation, trajectory-equal aggregation, reduction to GRPO."""

from __future__ import annotations

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from stores.parametric.objectives import baton_policy_loss, baton_step_weights, masked_mean, trajectory_equal_mean


@settings(max_examples=40, deadline=None)
@given(lengths=st.lists(st.integers(1, 6), min_size=1, max_size=5), seed=st.integers(0, 10_000))
def test_weights_sum_to_the_number_of_steps_in_each_trajectory(lengths, seed):
    g = torch.Generator().manual_seed(seed)
    idx = torch.cat([torch.full((n,), i) for i, n in enumerate(lengths)])
    s = idx.shape[0]
    w = baton_step_weights(
        -10 * torch.rand(s, generator=g), -10 * torch.rand(s, 3, generator=g), torch.randint(1, 9, (s,), generator=g), idx
    )
    assert (w > 0).all()
    for i, n in enumerate(lengths):
        assert abs(float(w[idx == i].sum()) - n) < 1e-4


def test_uniform_evidence_gives_unit_weights_and_plain_grpo():
    idx = torch.tensor([0, 0, 0, 1, 1])
    obs = torch.tensor([-2.0, -4.0, -1.0, -3.0, -3.0])
    alt = obs[:, None].expand(5, 4).clone()  # alternatives explain the feedback just as well
    w = baton_step_weights(obs, alt, torch.tensor([2, 4, 1, 3, 3]), idx)
    assert torch.allclose(w, torch.ones(5))
    g = torch.Generator().manual_seed(0)
    logp = torch.randn(5, 4, generator=g, requires_grad=True)
    mask = (torch.rand(5, 4, generator=g) > 0.3).float()
    adv = torch.tensor([1.0, 1.0, 1.0, -1.0, -1.0])
    for agg in ("token", "trajectory"):
        a = baton_policy_loss(logp, adv, mask, step_weights=w, traj_index=idx, aggregation=agg)
        b = baton_policy_loss(logp, adv, mask, step_weights=None, traj_index=idx, aggregation=agg)
        assert torch.allclose(a, b)
    grpo = masked_mean(-adv[:, None] * logp, mask)
    assert torch.allclose(baton_policy_loss(logp, adv, mask, aggregation="token"), grpo)


def test_the_step_that_explains_the_feedback_gets_the_weight():
    idx = torch.tensor([0, 0, 0])
    obs = torch.tensor([-1.0, -5.0, -5.0])  # step 0's feedback is much likelier after its action ...
    alt = torch.full((3, 2), -5.0)  # ... than after the alternatives
    w = baton_step_weights(obs, alt, torch.ones(3), idx)
    assert w[0] > 1.0 > w[1] and torch.allclose(w[1], w[2])


def test_length_calibration_ignores_feedback_length():
    idx = torch.tensor([0, 0])
    obs = torch.tensor([-2.0, -1.0])
    alt = torch.tensor([[-3.0, -2.5], [-1.5, -1.2]])
    w1 = baton_step_weights(obs, alt, torch.tensor([1, 1]), idx)
    # the same per-token evidence spread over 5 tokens of feedback at step 0
    w2 = baton_step_weights(obs * torch.tensor([5.0, 1.0]), alt * torch.tensor([[5.0], [1.0]]), torch.tensor([5, 1]), idx)
    assert torch.allclose(w1, w2)


def _brute_trajectory_mean(values, mask, idx):
    per_traj = {}
    for row in range(values.shape[0]):
        s, n = per_traj.get(int(idx[row]), (0.0, 0.0))
        per_traj[int(idx[row])] = (s + float((values[row] * mask[row]).sum()), n + float(mask[row].sum()))
    means = [s / n for s, n in per_traj.values() if n > 0]
    return sum(means) / len(means)


def test_every_trajectory_weighs_the_same_whatever_its_length():
    values = torch.zeros(4, 10)
    mask = torch.zeros(4, 10)
    values[0, :2], mask[0, :2] = 1.0, 1.0  # trajectory 0: one short turn, value 1
    mask[1:] = 1.0  # trajectory 1: three long turns, value 0
    idx = torch.tensor([0, 1, 1, 1])
    assert trajectory_equal_mean(values, mask, idx).item() == 0.5
    assert masked_mean(values, mask).item() < 0.1  # a token mean lets the long trajectory dominate


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n_rows=st.integers(1, 8))
def test_trajectory_mean_matches_brute_force(seed, n_rows):
    g = torch.Generator().manual_seed(seed)
    values = torch.randn(n_rows, 5, generator=g)
    mask = (torch.rand(n_rows, 5, generator=g) > 0.4).float()
    mask[0, 0] = 1.0
    idx = torch.randint(0, 3, (n_rows,), generator=g)
    idx = torch.unique(idx, return_inverse=True)[1]
    assert abs(trajectory_equal_mean(values, mask, idx).item() - _brute_trajectory_mean(values, mask, idx)) < 1e-5
