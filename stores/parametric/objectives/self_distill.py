"""Privileged self-distillation: on-policy reverse-KL distillation from a frozen copy that sees a reference.

The student samples a completion from its own prompt; a frozen copy of the
student (the teacher) scores the same tokens from a prompt that also holds a
reference solution the student does not see. The per-token loss is the
sampled-token reverse KL ``log p_s(y_t) - log p_t(y_t)``, trained as a
REINFORCE surrogate whose gradient is ``(log p_s - log p_t) * grad log p_s``;
its expectation under the student's own samples is exactly
``grad KL(p_s || p_t)`` at each prefix. The matched control runs the same
teacher mode on the student's prompt without the reference: that isolates
what the reference adds from what plain self-distillation adds.
"""

from __future__ import annotations

import torch

from ._common import check_same_shape, masked_mean

__all__ = ["sampled_token_reverse_kl", "privileged_self_distill_loss"]


def sampled_token_reverse_kl(
    student_logprobs: torch.Tensor,
    teacher_logprobs: torch.Tensor,
    mask: torch.Tensor,
) -> torch.Tensor:
    """Sampled-token reverse-KL loss over ``(B, T)`` log-probs of the student's own sampled tokens.

    Its value is the masked mean of ``log p_s - log p_t`` (a one-sample estimate
    of ``KL(p_s || p_t)`` per token); its gradient with respect to the student is
    ``mean_mask((log p_s - log p_t) * grad log p_s)``. The teacher receives no
    gradient. Zero, with zero gradient, when both log-probs are equal.
    """
    check_same_shape(student_logprobs=student_logprobs, teacher_logprobs=teacher_logprobs, mask=mask)
    delta = (student_logprobs - teacher_logprobs).detach()
    # value = delta, gradient = delta * grad log p_s
    surrogate = delta * (1.0 + student_logprobs - student_logprobs.detach())
    return masked_mean(surrogate, mask.float())


def privileged_self_distill_loss(
    student_logprobs: torch.Tensor,
    teacher_logprobs_with_reference: torch.Tensor,
    mask: torch.Tensor,
) -> torch.Tensor:
    """The privileged self-distillation loss: :func:`sampled_token_reverse_kl` against a reference-seeing teacher.

    ``teacher_logprobs_with_reference`` ``(B, T)`` are the frozen copy's
    log-probs of the student's sampled tokens when the reference solution is in
    its prompt; pass the same copy's log-probs without the reference for the
    matched no-reference control.
    """
    return sampled_token_reverse_kl(student_logprobs, teacher_logprobs_with_reference.detach(), mask)
