"""Score centering: a policy-gradient loss that stays unbiased when the sampler is not the trainer.

When rollouts come from a sampler ``q`` (a quantized, stale or differently
implemented copy) while gradients are taken through the trainer ``pi``, plain
REINFORCE ``A * grad log pi(y)`` with ``y ~ q`` has expectation
``A * sum_a q(a) grad log pi(a)``, which is not zero even when the reward is
constant: the policy drifts. Score centering subtracts, at every prefix, the
expected score under the sampler's next-token distribution::

    grad = A * w(y) * (grad log pi(y) - c),
    c    = sum_a beta(a) grad log pi(a) / sum_a beta(a)

with ``beta(a) = q(a)`` (no importance weights, ``w = 1``) or
``beta(a) = min(pi(a), C q(a))`` with truncated importance sampling
``w(y) = min(pi(y) / q(y), C)``. Either way ``E_{y~q}[w(y) (score(y) - c)] = 0``,
so a constant reward moves nothing.

Only the sampler's top-k probabilities are needed: the mass outside the top-k
enters as one tail term ``beta_tail * grad log pi(tail)`` with
``pi(tail) = sum_{a not in top-k} pi(a)``. That term is exact whenever the
sampler's tail has the trainer's shape (``q`` proportional to ``pi`` outside the
top-k), because ``sum_{a in tail} pi(a) grad log pi(a) = pi(tail) grad log pi(tail)``.
"""

from __future__ import annotations

import torch

from memkit.errors import ConfigError

from ._common import check_same_shape, gather_logprobs, masked_mean

__all__ = ["centered_token_terms", "score_centering_loss"]


def _broadcast_advantages(advantages: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    if advantages.dim() == 1:
        if advantages.shape[0] != tokens.shape[0]:
            raise ConfigError(f"advantages {tuple(advantages.shape)} do not match batch {tokens.shape[0]}")
        return advantages[:, None].expand_as(tokens).to(torch.float32)
    check_same_shape(advantages=advantages, tokens=tokens)
    return advantages.to(torch.float32)


def centered_token_terms(
    logits: torch.Tensor,
    tokens: torch.Tensor,
    sampler_topk_ids: torch.Tensor,
    sampler_topk_probs: torch.Tensor,
    *,
    center: bool = True,
    sampler_logprobs: torch.Tensor | None = None,
    tis_cap: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token surrogate ``(B, T)`` whose gradient is ``score(y_t) - c_t``, and the detached TIS weights ``(B, T)``.

    ``logits`` ``(B, T, V)`` are the trainer's; ``tokens`` ``(B, T)`` were sampled
    by the sampler, whose top-k next-token ids and probabilities at each prefix
    are ``sampler_topk_ids`` / ``sampler_topk_probs`` ``(B, T, K)`` (ids distinct
    within a position). With ``tis_cap`` set, ``sampler_logprobs`` ``(B, T)``
    (the sampler's log-probability of each sampled token) gives the truncated
    importance weights ``min(pi/q, tis_cap)``; otherwise the weights are 1.
    With ``center=False`` the surrogate is plain ``log pi(y_t)``.
    """
    if sampler_topk_ids.shape != sampler_topk_probs.shape or sampler_topk_ids.shape[:-1] != tokens.shape:
        raise ConfigError(
            f"sampler top-k ids {tuple(sampler_topk_ids.shape)} / probs {tuple(sampler_topk_probs.shape)} "
            f"must be (B, T, K) with (B, T) = {tuple(tokens.shape)}"
        )
    logp_all = torch.log_softmax(logits.float(), dim=-1)  # (B, T, V)
    logp_tok = gather_logprobs(logits.float(), tokens)  # (B, T)
    ids = sampler_topk_ids.long()
    q_top = sampler_topk_probs.float().detach()  # (B, T, K)
    q_tail = (1.0 - q_top.sum(-1)).clamp_min(0.0)  # (B, T)

    if tis_cap is not None:
        if sampler_logprobs is None:
            raise ConfigError("tis_cap needs sampler_logprobs (the sampler's log-probability of each sampled token)")
        check_same_shape(sampler_logprobs=sampler_logprobs, tokens=tokens)
        weights = torch.exp(logp_tok.detach() - sampler_logprobs.float()).clamp(max=tis_cap)
    else:
        weights = torch.ones_like(logp_tok)

    if not center:
        return logp_tok, weights.detach()

    logp_top = logp_all.gather(-1, ids)  # (B, T, K)
    # log pi(tail): log-sum-exp of the trainer's log-probs outside the sampler's top-k
    outside = torch.ones_like(logp_all, dtype=torch.bool).scatter(-1, ids, False)
    logp_tail = torch.logsumexp(logp_all.masked_fill(~outside, float("-inf")), dim=-1)  # (B, T)
    pi_top = logp_top.detach().exp()
    pi_tail = logp_tail.detach().exp()
    if tis_cap is not None:
        # beta = q * min(pi/q, C): the importance-weighted sampler mass, so that E_q[w (score - c)] = 0
        beta_top = torch.minimum(pi_top, tis_cap * q_top)
        beta_tail = torch.minimum(pi_tail, tis_cap * q_tail)
    else:
        beta_top, beta_tail = q_top, q_tail
    norm = (beta_top.sum(-1) + beta_tail).clamp_min(1e-30)
    # an empty tail has log pi(tail) = -inf and zero weight: drop it instead of making 0 * inf
    tail_term = torch.where(beta_tail > 0, beta_tail * logp_tail, torch.zeros_like(logp_tail))
    center_term = ((beta_top * logp_top).sum(-1) + tail_term) / norm
    return logp_tok - center_term, weights.detach()


def score_centering_loss(
    logits: torch.Tensor,
    tokens: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    sampler_topk_ids: torch.Tensor,
    sampler_topk_probs: torch.Tensor,
    *,
    center: bool = True,
    sampler_logprobs: torch.Tensor | None = None,
    tis_cap: float | None = None,
) -> torch.Tensor:
    """Policy-gradient loss ``-mean_mask(A * w * (log pi(y) - c))`` with score centering (and optional TIS).

    ``advantages`` is ``(B,)`` (one per sequence) or ``(B, T)``; ``mask`` is a
    float ``(B, T)`` mask of the trained tokens. ``center=False, tis_cap=None``
    is plain REINFORCE; ``center=False`` with ``tis_cap`` is REINFORCE + TIS.
    Minimise the returned scalar.
    """
    check_same_shape(tokens=tokens, mask=mask)
    adv = _broadcast_advantages(advantages, tokens)
    terms, weights = centered_token_terms(
        logits,
        tokens,
        sampler_topk_ids,
        sampler_topk_probs,
        center=center,
        sampler_logprobs=sampler_logprobs,
        tis_cap=tis_cap,
    )
    return -masked_mean(adv * weights * terms, mask.float())
