"""Sampled-token reverse KL: value, exact expected gradient, zero when the teacher sees what the student sees."""

from __future__ import annotations

import torch

from stores.parametric.objectives import gather_logprobs, privileged_self_distill_loss, sampled_token_reverse_kl

V = 6


def test_value_is_the_masked_mean_log_ratio():
    s = torch.tensor([[-1.0, -2.0, -0.5], [-0.1, -3.0, -1.0]])
    t = torch.tensor([[-1.5, -1.0, -0.5], [-2.0, -0.2, -9.0]])
    mask = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    loss = sampled_token_reverse_kl(s, t, mask)
    assert torch.allclose(loss, torch.tensor((0.5 - 1.0 + 1.9) / 3))


def test_expected_gradient_under_student_samples_is_the_full_reverse_kl_gradient():
    g = torch.Generator().manual_seed(1)
    student = torch.randn(V, generator=g, requires_grad=True)
    teacher = torch.randn(V, generator=g)
    p_s = torch.softmax(student, -1).detach()
    expected = torch.zeros(V)
    for y in range(V):  # brute force: enumerate every sampled token, weight by its student probability
        tok = torch.tensor([[y]])
        loss = sampled_token_reverse_kl(
            gather_logprobs(student.view(1, 1, V), tok), gather_logprobs(teacher.view(1, 1, V), tok), torch.ones(1, 1)
        )
        expected += p_s[y] * torch.autograd.grad(loss, student)[0]
    log_s, log_t = torch.log_softmax(student, -1), torch.log_softmax(teacher, -1)
    kl = (log_s.exp() * (log_s - log_t)).sum()
    (grad_kl,) = torch.autograd.grad(kl, student)
    assert torch.allclose(expected, grad_kl, atol=1e-6)


def test_zero_loss_and_gradient_when_teacher_sees_the_same_input():
    g = torch.Generator().manual_seed(2)
    logits = torch.randn(2, 5, V, generator=g, requires_grad=True)
    tokens = torch.randint(0, V, (2, 5), generator=g)
    s = gather_logprobs(logits, tokens)
    loss = privileged_self_distill_loss(s, s.detach().clone(), torch.ones(2, 5))
    (grad,) = torch.autograd.grad(loss, logits)
    assert loss.item() == 0.0
    assert grad.abs().max().item() == 0.0


def test_masked_tokens_do_not_contribute():
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(1, 4, V, generator=g, requires_grad=True)
    tokens = torch.randint(0, V, (1, 4), generator=g)
    teacher = torch.randn(1, 4, V, generator=g)
    mask = torch.tensor([[1.0, 1.0, 0.0, 0.0]])
    loss = sampled_token_reverse_kl(gather_logprobs(logits, tokens), gather_logprobs(teacher, tokens), mask)
    (grad,) = torch.autograd.grad(loss, logits)
    assert grad[0, 2:].abs().max().item() == 0.0
    assert grad[0, :2].abs().max().item() > 0.0
