"""BATON: Bayesian attribution of trajectory feedback to steps, and trajectory-equal aggregation.

For each executed step ``i`` of a multi-step trajectory, ``M`` alternative
actions are sampled from the old policy but not executed. The old policy then
scores the feedback the environment actually returned after step ``i``,
once following the executed action and once following each alternative. The
length-calibrated (per-token) log-likelihood gap

    e_i = logp(f_i | a_i) / n_i - log mean_j exp(logp(f_i | a'_ij) / n_i)

is the evidence that the executed action, rather than what the policy might
have done instead, produced the feedback. Within a trajectory the weights
``w_i = n_steps * softmax_i(e_i / temperature)`` sum to the number of steps;
they only scale the trajectory's base (GRPO) advantage, so uniform evidence
gives back plain GRPO.

Trajectory-equal aggregation takes the token mean within each trajectory and
then weights every trajectory equally, whatever its length; unlike a token mean
over the batch (long trajectories dominate) or a mean per turn (many-turn
trajectories dominate), it needs to know which rows belong to which trajectory.
"""

from __future__ import annotations

import math

import torch

from memkit.errors import ConfigError

from ._common import check_same_shape, masked_mean

__all__ = ["baton_step_weights", "trajectory_equal_mean", "baton_policy_loss"]


def _check_index(traj_index: torch.Tensor, n: int) -> torch.Tensor:
    if traj_index.dim() != 1 or traj_index.shape[0] != n:
        raise ConfigError(f"traj_index must be (N,) with N={n}, got {tuple(traj_index.shape)}")
    return traj_index.long()


def baton_step_weights(
    logp_observed: torch.Tensor,
    logp_alternatives: torch.Tensor,
    feedback_lengths: torch.Tensor,
    traj_index: torch.Tensor,
    *,
    temperature: float = 1.0,
) -> torch.Tensor:
    """Attribution weights ``(S,)`` for ``S`` steps; within each trajectory they sum to its number of steps.

    ``logp_observed`` ``(S,)``: the old policy's summed log-probability of the
    feedback observed after each step, given the executed action.
    ``logp_alternatives`` ``(S, M)``: the same feedback's log-probability after
    each of ``M`` sampled, unexecuted alternative actions.
    ``feedback_lengths`` ``(S,)``: tokens in each feedback (length calibration).
    ``traj_index`` ``(S,)``: the trajectory each step belongs to.
    The result is detached: weights scale advantages, they are not trained.
    """
    if temperature <= 0:
        raise ConfigError(f"temperature must be > 0, got {temperature}")
    s = logp_observed.shape[0]
    if logp_observed.dim() != 1 or logp_alternatives.dim() != 2 or logp_alternatives.shape[0] != s:
        raise ConfigError(
            f"logp_observed must be (S,) and logp_alternatives (S, M); got {tuple(logp_observed.shape)} "
            f"and {tuple(logp_alternatives.shape)}"
        )
    idx = _check_index(traj_index, s)
    n_tok = feedback_lengths.float().clamp_min(1.0)
    obs = logp_observed.detach().float() / n_tok
    alt = logp_alternatives.detach().float() / n_tok[:, None]
    evidence = obs - (torch.logsumexp(alt, dim=1) - math.log(alt.shape[1]))
    z = evidence / temperature
    # softmax within each trajectory (segment-wise, stabilised by the segment max)
    n_traj = int(idx.max()) + 1 if s else 0
    seg_max = torch.full((n_traj,), float("-inf"), device=z.device).scatter_reduce(0, idx, z, reduce="amax")
    ez = torch.exp(z - seg_max[idx])
    seg_sum = torch.zeros(n_traj, device=z.device).index_add(0, idx, ez)
    seg_count = torch.zeros(n_traj, device=z.device).index_add(0, idx, torch.ones_like(z))
    return (ez / seg_sum[idx] * seg_count[idx]).detach()


def trajectory_equal_mean(values: torch.Tensor, mask: torch.Tensor, traj_index: torch.Tensor) -> torch.Tensor:
    """Token mean within each trajectory, then the plain mean over trajectories.

    ``values`` and ``mask`` are ``(B, T)`` with one row per turn (or segment);
    ``traj_index`` ``(B,)`` names each row's trajectory. Trajectories whose
    mask is empty are left out of the outer mean.
    """
    check_same_shape(values=values, mask=mask)
    idx = _check_index(traj_index, values.shape[0])
    m = mask.to(values.dtype)
    n_traj = int(idx.max()) + 1
    row_sum = (values * m).sum(1)
    row_tok = m.sum(1)
    traj_sum = torch.zeros(n_traj, dtype=values.dtype, device=values.device).index_add(0, idx, row_sum)
    traj_tok = torch.zeros(n_traj, dtype=values.dtype, device=values.device).index_add(0, idx, row_tok)
    present = traj_tok > 0
    if not bool(present.any()):
        return (values * 0).sum()
    return (traj_sum[present] / traj_tok[present]).mean()


def baton_policy_loss(
    logprobs: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    step_weights: torch.Tensor | None = None,
    traj_index: torch.Tensor | None = None,
    aggregation: str = "trajectory",
) -> torch.Tensor:
    """Policy-gradient loss ``-agg(w * A * log pi)`` over ``(B, T)`` log-probs, one row per step (turn).

    ``advantages`` ``(B,)`` is each row's trajectory advantage (e.g. GRPO's
    group-normalised return); ``step_weights`` ``(B,)`` from
    :func:`baton_step_weights` scales it (``None``: all 1, plain GRPO).
    ``aggregation`` is ``"trajectory"`` (:func:`trajectory_equal_mean`, needs
    ``traj_index``) or ``"token"`` (masked token mean over the batch).
    """
    b = logprobs.shape[0]
    if advantages.shape != (b,):
        raise ConfigError(f"advantages must be (B,)=({b},), got {tuple(advantages.shape)}")
    w = torch.ones(b, device=logprobs.device) if step_weights is None else step_weights.detach().float()
    per_token = -(w * advantages.float())[:, None] * logprobs
    if aggregation == "token":
        return masked_mean(per_token, mask.float())
    if aggregation == "trajectory":
        if traj_index is None:
            raise ConfigError("aggregation='trajectory' needs traj_index")
        return trajectory_equal_mean(per_token, mask.float(), traj_index)
    raise ConfigError(f"aggregation must be 'trajectory' or 'token', got {aggregation!r}")
