"""Semantic EOS: unchanged off the stop set, log-sum-exp over it, gradient to every stop logit."""

from __future__ import annotations

import pytest
import torch

from memkit.errors import ConfigError
from stores.parametric.objectives import gather_logprobs, semantic_eos_logprobs

EOS = [5, 6]


def _data():
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(3, 4, 7, generator=g, requires_grad=True)
    tokens = torch.tensor([[0, 5, 1, 6], [2, 3, 4, 0], [6, 6, 5, 1]])
    return logits, tokens


def test_tokens_off_the_stop_set_are_scored_as_usual():
    logits, tokens = _data()
    merged = semantic_eos_logprobs(logits, tokens, EOS)
    plain = gather_logprobs(logits, tokens)
    off = ~torch.isin(tokens, torch.tensor(EOS))
    assert torch.equal(merged[off], plain[off])


def test_stop_tokens_get_the_probability_of_stopping_at_all():
    logits, tokens = _data()
    merged = semantic_eos_logprobs(logits, tokens, EOS)
    probs = torch.softmax(logits, -1)
    for b in range(tokens.shape[0]):
        for t in range(tokens.shape[1]):
            if int(tokens[b, t]) in EOS:
                brute = torch.log(sum(probs[b, t, e] for e in EOS))
                assert torch.allclose(merged[b, t], brute, atol=1e-6)


def test_gradient_reaches_every_stop_logit():
    logits, tokens = _data()
    merged = semantic_eos_logprobs(logits, tokens, EOS)
    (grad,) = torch.autograd.grad(merged[0, 1], logits)  # a sampled token 5
    assert grad[0, 1, 5] > 0 and grad[0, 1, 6] > 0  # both stop logits pushed up together
    (grad_plain,) = torch.autograd.grad(gather_logprobs(logits, tokens)[0, 1], logits)
    assert grad_plain[0, 1, 6] < 0  # per-token scoring pushes the other stop token down


def test_single_stop_token_is_the_per_token_logprob():
    logits, tokens = _data()
    assert torch.allclose(semantic_eos_logprobs(logits, tokens, [5]), gather_logprobs(logits, tokens))


@pytest.mark.parametrize("eos", [[], [7], [-1]])
def test_bad_stop_sets_are_config_errors(eos):
    logits, tokens = _data()
    with pytest.raises(ConfigError):
        semantic_eos_logprobs(logits, tokens, eos)
