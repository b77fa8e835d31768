"""Semantic EOS: treat functionally equivalent stop tokens as one event in on-policy distillation.

A student may stop with one end token (``<|im_end|>``) and a teacher with
another (``<|endoftext|>``). Scored token by token, the teacher gives the
student's stop token a tiny probability, so sampled-token distillation
teaches the student not to stop and answers grow to the length budget. With
semantic EOS, whenever the sampled token is in the stop set, both the student's
and the teacher's log-probability of it are replaced by the log-sum-exp over
the whole set (the probability of stopping at all); every other token is
scored as before, and the gradient reaches every stop logit.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from memkit.errors import ConfigError

from ._common import gather_logprobs

__all__ = ["semantic_eos_logprobs"]


def semantic_eos_logprobs(
    logits: torch.Tensor,
    tokens: torch.Tensor,
    eos_ids: Sequence[int] | torch.Tensor,
) -> torch.Tensor:
    """Log-probs ``(B, T)`` of ``tokens`` under ``logits`` ``(B, T, V)``, with the stop set merged.

    Where ``tokens[b, t]`` is in ``eos_ids`` the result is
    ``logsumexp_{e in eos_ids} log p(e)``; elsewhere it is ``log p(tokens[b, t])``.
    Apply it to the student's and to the teacher's logits, then use any
    sampled-token loss (e.g. :func:`~stores.parametric.objectives.sampled_token_reverse_kl`).
    """
    eos = torch.as_tensor(eos_ids, dtype=torch.long, device=logits.device).flatten()
    if eos.numel() == 0:
        raise ConfigError("eos_ids is empty")
    if int(eos.min()) < 0 or int(eos.max()) >= logits.shape[-1]:
        raise ConfigError(f"eos_ids {eos.tolist()} out of range for vocabulary size {logits.shape[-1]}")
    logp_tok = gather_logprobs(logits, tokens)  # (B, T)
    logp_all = torch.log_softmax(logits.float(), dim=-1)
    logp_stop = torch.logsumexp(logp_all.index_select(-1, eos), dim=-1)  # (B, T)
    is_eos = torch.isin(tokens.long(), eos)
    return torch.where(is_eos, logp_stop.to(logp_tok.dtype), logp_tok)
