"""Semantic-id assignment: unique, deterministic, trie consistent with the codes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.errors import ConfigError
from stores.parametric.semantic_ids import CodeTrie, build_semantic_ids, item_vectors, residual_kmeans


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 80), levels=st.integers(1, 3), codebook=st.integers(2, 6), seed=st.integers(0, 99))
def test_every_item_gets_a_unique_id(n: int, levels: int, codebook: int, seed: int) -> None:
    vectors = np.random.default_rng(seed).standard_normal((n + 1, 4)).astype(np.float32)
    sids = build_semantic_ids(vectors, levels, codebook, seed)
    rows = [tuple(r) for r in sids.codes[1:]]
    assert len(set(rows)) == n
    assert sids.depth == levels + 1
    assert all((sids.codes[1:, lv] < size).all() for lv, size in enumerate(sids.sizes))
    assert (sids.codes[0] == -1).all()


def test_assignment_is_deterministic_for_a_seed() -> None:
    seqs = [list(np.random.default_rng(i).integers(1, 41, size=12)) for i in range(30)]
    a = build_semantic_ids(item_vectors(seqs, 40, dim=8, seed=3), 2, 4, seed=3)
    b = build_semantic_ids(item_vectors(seqs, 40, dim=8, seed=3), 2, 4, seed=3)
    assert np.array_equal(a.codes, b.codes)


def test_items_that_co_occur_share_codes() -> None:
    # two disjoint communities of items: the first code separates them
    rng = np.random.default_rng(0)
    seqs = [rng.integers(1, 11, size=20).tolist() for _ in range(50)] + [rng.integers(11, 21, size=20).tolist() for _ in range(50)]
    sids = build_semantic_ids(item_vectors(seqs, 20, dim=4, seed=0), 1, 2, seed=0)
    first = sids.codes[1:, 0]
    assert len(set(first[:10])) == 1 and len(set(first[10:])) == 1 and first[0] != first[10]


def test_unseen_items_get_nonzero_vectors() -> None:
    vectors = item_vectors([[1, 2, 1, 2, 3]], n_items=6, dim=4, seed=0)
    assert (np.linalg.norm(vectors[1:], axis=1) > 0).all()
    assert not vectors[0].any()


def test_trie_allows_exactly_the_item_paths() -> None:
    codes = np.array([[0, 1, 0], [0, 1, 1], [2, 0, 0]])
    trie = CodeTrie.build(codes, np.array([5, 6, 7]), [3, 2, 2])
    assert trie.allowed[0][0].tolist() == [True, False, True]
    node = int(trie.child[0][0, 0])
    assert trie.allowed[1][node].tolist() == [False, True]
    leaf_parent = int(trie.child[1][node, 1])
    leaves = trie.child[2][leaf_parent]
    assert sorted(int(trie.leaf_item[i]) for i in leaves if i >= 0) == [5, 6]


def test_bad_codebook_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        residual_kmeans(np.zeros((3, 2)), levels=1, codebook=1)
