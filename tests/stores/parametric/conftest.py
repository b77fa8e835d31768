"""Small shared fixtures: semantic ids and a tiny recommender."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from stores.parametric.product_key_memory import PKMConfig
from stores.parametric.recommender import GenerativeRecommender, RecBatch, RecConfig
from stores.parametric.semantic_ids import SemanticIds, build_semantic_ids, item_vectors

N_ITEMS = 60


@pytest.fixture(scope="module")
def sids() -> SemanticIds:
    rng = np.random.default_rng(0)
    seqs = [rng.integers(1, N_ITEMS + 1, size=15).tolist() for _ in range(40)]
    return build_semantic_ids(item_vectors(seqs, N_ITEMS, dim=8, seed=0), levels=2, codebook=4, seed=0)


def tiny_config(memory: bool | PKMConfig = True, **kw: object) -> RecConfig:
    if isinstance(memory, PKMConfig):
        pkm: PKMConfig | None = memory
    else:
        pkm = PKMConfig(dim=16, n_keys=4, heads=2, topk=2, key_dim=8) if memory else None
    base = dict(d_model=16, n_heads=2, encoder_layers=2, decoder_layers=1, ff_dim=32, window=4, long_window=8, memory=pkm, dropout=0.0)
    base.update(kw)
    return RecConfig(**base)  # type: ignore[arg-type]


@pytest.fixture()
def model(sids: SemanticIds) -> GenerativeRecommender:
    torch.manual_seed(0)
    return GenerativeRecommender(tiny_config(), sids)


def make_batch(n: int = 6, seed: int = 0) -> RecBatch:
    g = torch.Generator().manual_seed(seed)
    window = torch.randint(1, N_ITEMS + 1, (n, 4), generator=g)
    window[0, :2] = 0  # a short history, left-padded
    return RecBatch(window, torch.randint(1, N_ITEMS + 1, (n, 8), generator=g), torch.randint(1, N_ITEMS + 1, (n,), generator=g))
