"""EPIG-Tree: where to spend a rollout budget over the branch points of a rollout tree.

Given candidate branch points (states on sampled trajectories that a clonable
environment can restart from), each gets rollouts in proportion to how much
they can reduce the error of the policy-gradient estimate:

    n_i  proportional to  reach_i * ||score_i|| * std_i / sqrt(cost_i)

``reach_i``: probability (or weight) of reaching the point under the policy;
``||score_i||``: size of the decision's score function (large where the
decision is uncertain: new branches pay off there); ``std_i``: spread of the
downstream return (large where repeated continuations pay off); ``cost_i``:
expected cost (e.g. remaining steps) of one rollout from there. This is the
Neyman allocation of stratified sampling. Counts are made integers by the
largest-remainder method so that they sum exactly to the budget.
"""

from __future__ import annotations

import torch

from memkit.errors import ConfigError

__all__ = ["largest_remainder", "epig_scores", "epig_allocation"]


def largest_remainder(weights: torch.Tensor, budget: int) -> torch.Tensor:
    """Integer counts ``(N,)`` summing to ``budget``, proportional to non-negative ``weights``.

    Each point first gets ``floor(budget * w_i / sum w)``; the remaining units go
    to the largest fractional parts (ties to the lower index). Zero weights get
    zero; if every weight is zero the budget is spread uniformly (same rule).
    """
    if budget < 0:
        raise ConfigError(f"budget must be >= 0, got {budget}")
    w = weights.detach().double().flatten()
    if w.numel() == 0:
        if budget:
            raise ConfigError("a positive budget needs at least one branch point")
        return torch.zeros(0, dtype=torch.long)
    if bool((w < 0).any()) or not bool(torch.isfinite(w).all()):
        raise ConfigError("weights must be finite and non-negative")
    if float(w.sum()) == 0.0:
        w = torch.ones_like(w)
    exact = budget * w / w.sum()
    counts = torch.floor(exact).long()
    left = budget - int(counts.sum())
    if left > 0:
        frac = exact - counts.double()
        # a stable sort on -frac keeps ties in index order; zero weights never get a unit
        order = torch.sort(-frac, stable=True).indices
        order = order[w[order] > 0]
        counts[order[:left]] += 1
    return counts


def epig_scores(
    reach: torch.Tensor,
    score_norm: torch.Tensor,
    downstream_std: torch.Tensor,
    cost: torch.Tensor | None = None,
) -> torch.Tensor:
    """The allocation weights ``reach * score_norm * downstream_std / sqrt(cost)`` (cost defaults to 1)."""
    if not (reach.shape == score_norm.shape == downstream_std.shape):
        raise ConfigError("reach, score_norm and downstream_std must have the same shape")
    c = torch.ones_like(reach, dtype=torch.float64) if cost is None else cost.double()
    if bool((c <= 0).any()):
        raise ConfigError("cost must be > 0")
    return reach.double() * score_norm.double() * downstream_std.double() / torch.sqrt(c)


def epig_allocation(
    reach: torch.Tensor,
    score_norm: torch.Tensor,
    downstream_std: torch.Tensor,
    budget: int,
    cost: torch.Tensor | None = None,
) -> torch.Tensor:
    """Rollout counts ``(N,)`` over ``N`` branch points summing to ``budget`` (see the module docstring)."""
    return largest_remainder(epig_scores(reach, score_norm, downstream_std, cost), budget)
