"""The EPIG experiment's reference: exact tree gradients agree with finite differences of the root value."""

from __future__ import annotations

import numpy as np
import pytest

from evals.objectives.epig_tree_exp import Tree


def _recompute(tree: Tree) -> float:
    v = np.zeros(tree.A**tree.D)
    for d in reversed(range(tree.D)):
        q = tree.rewards[d] + v.reshape(tree.A**d, tree.A)
        v = (tree.probs[d] * q).sum(1)
    return float(v[0])


@pytest.mark.parametrize("actions,depth,dense", [(3, 3, True), (2, 4, False)])
def test_exact_gradient_matches_finite_differences(actions, depth, dense):
    rng = np.random.default_rng(0)
    tree = Tree(actions, depth, dense, rng)
    d, i = 1, 1
    reach = tree.probs[0][0][1]
    logits = np.log(tree.probs[d][i])
    eps = 1e-6
    numeric = []
    for a in range(actions):
        vals = []
        for sign in (1, -1):
            z = logits.copy()
            z[a] += sign * eps
            tree.probs[d][i] = np.exp(z) / np.exp(z).sum()
            vals.append(_recompute(tree))
        numeric.append((vals[0] - vals[1]) / (2 * eps))
    tree.probs[d][i] = np.exp(logits) / np.exp(logits).sum()
    assert np.allclose(tree.exact_grad(d, i, reach), numeric, atol=1e-6)
    assert _recompute(tree) == pytest.approx(tree.V[0][0])


def test_rollout_returns_average_to_the_value():
    rng = np.random.default_rng(1)
    tree = Tree(3, 3, True, rng)
    _, ret = tree.rollouts(0, 0, 20000, rng)
    assert ret.mean() == pytest.approx(tree.V[0][0], abs=0.05)
