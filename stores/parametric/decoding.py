"""Beam search over semantic-id codes, constrained to valid item ids by a prefix trie.

At every level the log-probabilities of codes that do not continue a valid
prefix are set to -inf before the beams are ranked, so every finished beam
is an existing item (or -1 when fewer than ``beam`` items are reachable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import Tensor

if TYPE_CHECKING:  # pragma: no cover
    from stores.parametric.recommender import GenerativeRecommender

__all__ = ["constrained_beam_search"]


@torch.no_grad()
def constrained_beam_search(
    model: "GenerativeRecommender", enc: Tensor, pad: Tensor, beam: int, bias: Tensor | None = None
) -> Tensor:
    """enc (B, S, d), pad (B, S) -> item ids (B, beam), best first; -1 marks an empty beam.

    ``bias`` (B, d): added to the decoder's inputs (the model's ``memory_decoder`` read), shared by the beams.
    """
    trie = model.trie
    bsz = enc.shape[0]
    device = enc.device
    offsets = torch.tensor(model.offsets, device=device)
    # beams start as one (the root); widths grow up to ``beam``
    scores = torch.zeros(bsz, 1, device=device)
    nodes = torch.zeros(bsz, 1, dtype=torch.long, device=device)
    tokens = torch.full((bsz, 1), model.bos, dtype=torch.long, device=device)  # the newest token of each beam
    kv = model.memory_kv(enc)  # once per example, shared by its beams
    caches = None  # the decoder's self-attention keys/values of the earlier positions, per beam
    rows = torch.arange(bsz, device=device).unsqueeze(1)
    for level in range(model.depth):
        width = tokens.shape[1]
        logits, caches = model.decode_step(kv, pad, tokens, level, caches, bias)  # (B, w, vocab)
        logp = torch.log_softmax(model.level_logits(logits, level), dim=-1)  # (B, w, size)
        allowed = trie.allowed[level].to(device)[nodes.clamp_min(0)]  # (B, w, size)
        allowed &= (nodes >= 0).unsqueeze(-1)
        total = torch.where(allowed, scores.unsqueeze(-1) + logp, torch.full_like(logp, float("-inf")))
        size = total.shape[-1]
        k = min(beam, width * size)
        scores, idx = total.flatten(1).topk(k, dim=-1)  # (B, k)
        parent = idx // size
        code = idx % size
        parent_nodes = nodes.gather(1, parent)
        nodes = trie.child[level].to(device)[parent_nodes.clamp_min(0), code]
        nodes = torch.where(torch.isfinite(scores) & (parent_nodes >= 0), nodes, torch.full_like(nodes, -1))
        tokens = code + offsets[level]
        if level + 1 < model.depth:  # each new beam continues its parent's cache
            caches = [(ck[rows, parent], cv[rows, parent]) for ck, cv in caches]
    items = trie.leaf_item.to(device)[nodes.clamp_min(0)]
    items = torch.where(nodes >= 0, items, torch.full_like(items, -1))
    if items.shape[1] < beam:
        items = torch.cat([items, torch.full((bsz, beam - items.shape[1]), -1, dtype=torch.long, device=device)], dim=1)
    return items
