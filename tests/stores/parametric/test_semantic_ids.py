"""Semantic-id assignment: unique, deterministic, trie consistent with the codes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.errors import ConfigError
from stores.parametric.semantic_ids import (
    CodeTrie,
    assign_new_items,
    build_semantic_ids,
    item_vectors,
    items_in,
    residual_kmeans,
)


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


def _communities() -> tuple[list[list[int]], list[list[int]]]:
    """Items 1-10 and 11-20 form two communities in P0; items 21-24 appear only later."""
    rng = np.random.default_rng(0)
    p0 = [rng.integers(1, 11, size=20).tolist() for _ in range(50)] + [rng.integers(11, 21, size=20).tolist() for _ in range(50)]
    # 21, 22 occur among the first community, 23 among the second, 24 only next to other new items
    later = [[1, 21, 2, 3, 22, 4], [5, 21, 6], [12, 23, 13, 14], [24, 21], [22, 24]]
    return p0, later


def test_new_items_join_the_community_they_occur_in() -> None:
    p0, later = _communities()
    sids = build_semantic_ids(item_vectors(p0, 24, dim=4, seed=0), 1, 2, seed=0)
    known = items_in(p0, 24)
    assert not known[21:].any()
    new, known2, moved = assign_new_items(sids, p0 + later, known)
    first = new.codes[:, 0]
    assert first[21] == first[1] and first[22] == first[1] and first[23] == first[11]
    assert moved == 3  # 24 has no known neighbour: it keeps its path
    assert tuple(new.codes[24]) == tuple(sids.codes[24])
    assert known2[21:].all()
    # codes trained on never change, ids stay unique, the vocabulary stays the same
    assert np.array_equal(new.codes[:21], sids.codes[:21])
    assert len({tuple(r) for r in new.codes[1:]}) == 24
    assert new.sizes == sids.sizes
    assert all((new.codes[1:, lv] < size).all() for lv, size in enumerate(new.sizes))


def test_known_items_are_never_moved_again() -> None:
    p0, later = _communities()
    sids = build_semantic_ids(item_vectors(p0, 24, dim=4, seed=0), 1, 2, seed=0)
    once, known, _ = assign_new_items(sids, p0 + later, items_in(p0, 24))
    twice, _, moved = assign_new_items(once, p0 + later + [[21, 11, 12, 13, 14]], known)
    assert moved == 0 and np.array_equal(once.codes, twice.codes)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 99), n_new=st.integers(1, 30))
def test_placed_ids_stay_unique_when_paths_are_crowded(seed: int, n_new: int) -> None:
    # a tiny codebook: the paths fill up, so items must fall back to other last-level codes or stay put
    rng = np.random.default_rng(seed)
    p0 = [rng.integers(1, 21, size=8).tolist() for _ in range(20)]
    sids = build_semantic_ids(item_vectors(p0, 20 + n_new, dim=4, seed=seed), 2, 2, seed=seed)
    later = [rng.integers(1, 21 + n_new, size=8).tolist() for _ in range(20)]
    new, _, _ = assign_new_items(sids, p0 + later, items_in(p0, 20 + n_new))
    assert len({tuple(r) for r in new.codes[1:]}) == 20 + n_new
    assert all((new.codes[1:, lv] < size).all() for lv, size in enumerate(new.sizes))
    trie = new.trie()
    assert sorted(int(i) for i in trie.leaf_item) == list(range(1, 21 + n_new))
