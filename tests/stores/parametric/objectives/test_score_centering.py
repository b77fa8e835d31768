"""Score centering against a brute-force full-vocabulary reference, and its zero drift under a constant reward."""

from __future__ import annotations

import pytest
import torch

from memkit.errors import ConfigError
from stores.parametric.objectives import score_centering_loss

B, T, V, K = 2, 3, 7, 3


def _setup(seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(B, T, V, generator=g, requires_grad=True)
    tokens = torch.randint(0, V, (B, T), generator=g)
    adv = torch.randn(B, generator=g)
    mask = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.5, 1.0]])
    ids = torch.stack([torch.randperm(V, generator=g)[:K] for _ in range(B * T)]).view(B, T, K)
    return g, logits, tokens, adv, mask, ids


def _sampler_with_trainer_shaped_tail(logits, ids, g):
    """A full sampler distribution q: arbitrary top-k mass, tail proportional to the trainer's tail."""
    pi = torch.softmax(logits.detach(), -1)
    top_mass = 0.3 + 0.6 * torch.rand(B, T, generator=g)
    raw = torch.rand(B, T, K, generator=g) + 0.1
    q_top = raw / raw.sum(-1, keepdim=True) * top_mass[..., None]
    in_top = torch.zeros(B, T, V, dtype=torch.bool).scatter(-1, ids, True)
    pi_tail = pi.masked_fill(in_top, 0.0)
    q = pi_tail / pi_tail.sum(-1, keepdim=True) * (1 - top_mass)[..., None]
    q = q.scatter(-1, ids, q_top)
    return q, q_top


def _full_reference_loss(logits, tokens, adv, mask, q, tis_cap=None):
    logp = torch.log_softmax(logits, -1)
    logp_y = logp.gather(-1, tokens[..., None]).squeeze(-1)
    if tis_cap is None:
        beta = q
        w = torch.ones_like(logp_y)
    else:
        pi = logp.detach().exp()
        beta = torch.minimum(pi, tis_cap * q)
        q_y = q.gather(-1, tokens[..., None]).squeeze(-1)
        w = torch.clamp(logp_y.detach().exp() / q_y, max=tis_cap)
    center = (beta * logp).sum(-1) / beta.sum(-1)
    per = adv[:, None] * w * (logp_y - center)
    return -(per * mask).sum() / mask.sum()


@pytest.mark.parametrize("tis_cap", [None, 2.0, 0.7])
def test_topk_plus_tail_gradient_equals_full_vocabulary_when_tail_shapes_agree(tis_cap):
    g, logits, tokens, adv, mask, ids = _setup(1)
    q, q_top = _sampler_with_trainer_shaped_tail(logits, ids, g)
    q_y = q.gather(-1, tokens[..., None]).squeeze(-1)
    loss = score_centering_loss(
        logits, tokens, adv, mask, ids, q_top, sampler_logprobs=q_y.log(), tis_cap=tis_cap
    )
    (grad,) = torch.autograd.grad(loss, logits)
    ref = _full_reference_loss(logits, tokens, adv, mask, q, tis_cap)
    (grad_ref,) = torch.autograd.grad(ref, logits)
    # only the gradient is claimed: the tail term's value is q_tail * log pi(tail), not sum_tail q log pi
    assert torch.allclose(grad, grad_ref, atol=1e-6)


def test_topk_gradient_differs_from_full_vocabulary_when_tail_shapes_differ():
    g, logits, tokens, adv, mask, ids = _setup(2)
    q, q_top = _sampler_with_trainer_shaped_tail(logits, ids, g)
    # reshape the sampler's tail: same tail mass, different shape
    in_top = torch.zeros(B, T, V, dtype=torch.bool).scatter(-1, ids, True)
    tail_mass = 1 - q_top.sum(-1, keepdim=True)
    flat = (~in_top).float() / (~in_top).float().sum(-1, keepdim=True) * tail_mass
    q_flat = flat.scatter(-1, ids, q_top)
    loss = score_centering_loss(logits, tokens, adv, mask, ids, q_top)
    (grad,) = torch.autograd.grad(loss, logits)
    (grad_ref,) = torch.autograd.grad(_full_reference_loss(logits, tokens, adv, mask, q_flat), logits)
    assert not torch.allclose(grad, grad_ref, atol=1e-4)


def test_center_false_is_plain_reinforce():
    _, logits, tokens, adv, mask, ids = _setup(3)
    q_top = torch.full((B, T, K), 0.1)
    loss = score_centering_loss(logits, tokens, adv, mask, ids, q_top, center=False)
    logp_y = torch.log_softmax(logits, -1).gather(-1, tokens[..., None]).squeeze(-1)
    assert torch.allclose(loss, -(adv[:, None] * logp_y * mask).sum() / mask.sum())


def _expected_update(logits, q, center, tis_cap=None):
    """Exact E_{y~q}[gradient] for one position with a constant reward of 1, by enumeration."""
    total = torch.zeros_like(logits)
    ids = torch.arange(V).view(1, 1, V)
    for y in range(V):
        lg = logits.detach().clone().requires_grad_(True)
        tok = torch.tensor([[y]])
        loss = score_centering_loss(
            lg, tok, torch.ones(1), torch.ones(1, 1), ids, q.view(1, 1, V), center=center,
            sampler_logprobs=q[y].log().view(1, 1), tis_cap=tis_cap,
        )
        (grad,) = torch.autograd.grad(loss, lg)
        total += q[y] * grad
    return total


def test_constant_reward_moves_nothing_with_centering_but_reinforce_drifts_under_mismatch():
    g = torch.Generator().manual_seed(4)
    logits = torch.randn(1, 1, V, generator=g)
    q = torch.softmax(torch.round(logits[0, 0] * 1.5) / 1.5 * 1.3, -1)  # quantized, sharper sampler
    assert _expected_update(logits, q, center=True).abs().max() < 1e-6
    assert _expected_update(logits, q, center=True, tis_cap=1.5).abs().max() < 1e-6
    assert _expected_update(logits, q, center=False).abs().max() > 1e-2


def test_constant_reward_monte_carlo():
    g = torch.Generator().manual_seed(5)
    n = 20000
    base = torch.randn(V, generator=g)
    q = torch.softmax(base * 1.6, -1)  # the sampler is sharper than the trainer
    logits = base.view(1, 1, V).expand(n, 1, V).clone().requires_grad_(True)
    tokens = torch.multinomial(q, n, replacement=True, generator=g).view(n, 1)
    ids = torch.arange(V).view(1, 1, V).expand(n, 1, V)
    kw = dict(advantages=torch.ones(n), mask=torch.ones(n, 1), sampler_topk_ids=ids,
              sampler_topk_probs=q.view(1, 1, V).expand(n, 1, V))
    plain = torch.autograd.grad(score_centering_loss(logits, tokens, center=False, **kw), logits)[0].sum(0)
    centered = torch.autograd.grad(score_centering_loss(logits, tokens, center=True, **kw), logits)[0].sum(0)
    # summed over the batch, the loss gradient is the batch-mean update; Monte Carlo noise is about 1/sqrt(n)
    assert centered.abs().max() < 0.02
    assert plain.abs().max() > 0.1


def test_tis_without_sampler_logprobs_is_a_config_error():
    _, logits, tokens, adv, mask, ids = _setup(6)
    with pytest.raises(ConfigError):
        score_centering_loss(logits, tokens, adv, mask, ids, torch.full((B, T, K), 0.1), tis_cap=2.0)
