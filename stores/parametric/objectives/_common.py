"""Shared helpers of the objectives: masked reductions and shape checks."""

from __future__ import annotations

import torch

from memkit.errors import ConfigError

__all__ = ["masked_mean", "check_same_shape", "gather_logprobs"]


def check_same_shape(**tensors: torch.Tensor) -> None:
    """Raise :class:`ConfigError` naming the tensors when their shapes differ."""
    shapes = {name: tuple(t.shape) for name, t in tensors.items()}
    if len(set(shapes.values())) > 1:
        raise ConfigError("shape mismatch: " + ", ".join(f"{k}={v}" for k, v in shapes.items()))


def masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean of ``values`` over entries where ``mask`` > 0 (a float mask weights them); 0 when the mask is empty."""
    check_same_shape(values=values, mask=mask)
    mask = mask.to(values.dtype)
    # clamp keeps an all-padding batch at 0 instead of NaN
    return (values * mask).sum() / mask.sum().clamp_min(1e-12) if mask.sum() > 0 else (values * 0).sum()


def gather_logprobs(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """Log-probabilities ``(B, T)`` of ``tokens`` under ``logits`` ``(B, T, V)``."""
    if logits.shape[:-1] != tokens.shape:
        raise ConfigError(f"logits {tuple(logits.shape)} do not match tokens {tuple(tokens.shape)}")
    return torch.log_softmax(logits, dim=-1).gather(-1, tokens.long().unsqueeze(-1)).squeeze(-1)
