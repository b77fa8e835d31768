"""Semantic ids for items (TIGER): residual k-means codes plus a collision code.

The recsys data carry no item text, so item vectors come from the interactions
themselves: a PPMI matrix of items that occur near each other in user
sequences, factorized by a randomized SVD (``item_vectors``). Residual k-means
then gives each item ``levels`` codes (level l clusters what levels < l left
unexplained); an extra last code numbers the items that share the same codes,
so every item gets a unique id. The ``CodeTrie`` holds the valid prefixes as
tensors for constrained beam search.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from memkit.errors import ConfigError

__all__ = [
    "item_vectors",
    "residual_kmeans",
    "SemanticIds",
    "CodeTrie",
    "build_semantic_ids",
    "items_in",
    "assign_new_items",
]


def item_vectors(
    sequences: Sequence[Sequence[int]],
    n_items: int,
    dim: int = 32,
    window: int = 3,
    seed: int = 0,
) -> np.ndarray:
    """Item vectors (n_items + 1, dim) from co-occurrence within ``window`` positions.

    Item ids are 1..n_items (row 0 is padding, left zero); rows have unit
    length. Items without any co-occurrence get a random direction, so they
    spread over the clusters instead of piling into one code path.
    """
    rows: list[int] = []
    cols: list[int] = []
    for seq in sequences:
        for i, a in enumerate(seq):
            for b in seq[i + 1 : i + 1 + window]:
                if a != b:
                    rows.extend((a, b))
                    cols.extend((b, a))
    rng = np.random.default_rng(seed)
    n = n_items + 1
    vectors = np.zeros((n, dim), dtype=np.float32)
    seen = np.zeros(n, dtype=bool)
    if rows:
        r = np.asarray(rows, dtype=np.int64)
        c = np.asarray(cols, dtype=np.int64)
        key, counts = np.unique(r * n + c, return_counts=True)
        r, c = key // n, key % n
        counts = counts.astype(np.float64)
        row_sum = np.bincount(r, weights=counts, minlength=n)
        total = counts.sum()
        # positive pointwise mutual information, with context smoothing (power 0.75)
        col_p = row_sum**0.75
        col_p /= col_p.sum()
        pmi = np.log(counts / total) - np.log(row_sum[r] / total) - np.log(np.maximum(col_p[c], 1e-12))
        keep = pmi > 0
        mat = torch.sparse_coo_tensor(
            torch.from_numpy(np.stack([r[keep], c[keep]])),
            torch.from_numpy(pmi[keep].astype(np.float32)),
            (n, n),
            check_invariants=True,
        ).coalesce()
        q = min(dim, n - 1)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            u, s, _ = torch.svd_lowrank(mat, q=q, niter=4)
        vectors[:, :q] = (u * s.sqrt()).numpy()
        seen[r[keep]] = True
    seen[0] = False
    vectors[~seen] = 0.0  # numerical noise of the SVD on rows without any co-occurrence
    unseen = np.flatnonzero(~seen)
    unseen = unseen[unseen > 0]
    if len(unseen):
        vectors[unseen] = rng.standard_normal((len(unseen), dim)).astype(np.float32)
    # unit length: most items of a sparse co-occurrence matrix have tiny projections on the top
    # singular vectors; by norm they would all fall into one cluster, by direction they spread
    vectors[1:] /= np.maximum(np.linalg.norm(vectors[1:], axis=1, keepdims=True), 1e-12)
    return vectors


def _kmeans(x: np.ndarray, k: int, rng: np.random.Generator, iters: int = 25) -> tuple[np.ndarray, np.ndarray]:
    """Lloyd's k-means with k-means++ seeding; returns (centroids (k, d), labels (n,))."""
    n = len(x)
    k = min(k, n)
    centroids = np.empty((k, x.shape[1]), dtype=np.float64)
    centroids[0] = x[rng.integers(n)]
    d2 = ((x - centroids[0]) ** 2).sum(1)
    for j in range(1, k):
        total = d2.sum()
        idx = rng.choice(n, p=d2 / total) if total > 0 else rng.integers(n)
        centroids[j] = x[idx]
        d2 = np.minimum(d2, ((x - centroids[j]) ** 2).sum(1))
    labels = np.zeros(n, dtype=np.int64)
    for _ in range(iters):
        dist = (x**2).sum(1, keepdims=True) - 2 * x @ centroids.T + (centroids**2).sum(1)
        new = dist.argmin(1)
        if _ > 0 and np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                centroids[j] = members.mean(0)
    return centroids, labels


def residual_kmeans(vectors: np.ndarray, levels: int, codebook: int, seed: int = 0) -> np.ndarray:
    """Codes (n, levels): level l is the k-means cluster of the residual left by levels < l."""
    return _residual_kmeans(vectors, levels, codebook, seed)[0]


def _residual_kmeans(
    vectors: np.ndarray, levels: int, codebook: int, seed: int
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Codes (n, levels) and each level's centroids (codebook, d)."""
    if levels < 1 or codebook < 2:
        raise ConfigError(f"residual k-means needs levels >= 1 and codebook >= 2, got {levels}, {codebook}")
    rng = np.random.default_rng(seed)
    residual = vectors.astype(np.float64).copy()
    codes = np.zeros((len(vectors), levels), dtype=np.int64)
    books: list[np.ndarray] = []
    for level in range(levels):
        centroids, labels = _kmeans(residual, codebook, rng)
        codes[:, level] = labels
        books.append(centroids)
        residual = residual - centroids[labels]
    return codes, books


@dataclass
class CodeTrie:
    """Valid code prefixes as tensors, for constrained decoding.

    Nodes of depth l are numbered 0..n_l-1 (the root is node 0 of depth 0).
    ``allowed[l]``: (n_l, size_l) bool, which code may follow node i.
    ``child[l]``: (n_l, size_l) long, the node of depth l+1 reached (or -1).
    ``leaf_item``: (n_leaves,) the item id of each full code path.
    """

    sizes: list[int]
    allowed: list[Tensor]
    child: list[Tensor]
    leaf_item: Tensor

    @classmethod
    def build(cls, codes: np.ndarray, item_ids: np.ndarray, sizes: Sequence[int]) -> "CodeTrie":
        """Build from full code paths (n, depth) and the item id of each path."""
        depth = codes.shape[1]
        node_of: list[dict[tuple[int, ...], int]] = [{(): 0}]
        for level in range(1, depth + 1):
            prefixes = sorted({tuple(int(v) for v in row[:level]) for row in codes})
            node_of.append({p: i for i, p in enumerate(prefixes)})
        allowed, child = [], []
        for level in range(depth):
            n_nodes = len(node_of[level])
            a = torch.zeros(n_nodes, sizes[level], dtype=torch.bool)
            ch = torch.full((n_nodes, sizes[level]), -1, dtype=torch.long)
            for prefix, node in node_of[level + 1].items():
                parent = node_of[level][prefix[:-1]]
                a[parent, prefix[-1]] = True
                ch[parent, prefix[-1]] = node
            allowed.append(a)
            child.append(ch)
        leaf_item = torch.full((len(node_of[depth]),), -1, dtype=torch.long)
        for row, item in zip(codes, item_ids, strict=True):
            leaf_item[node_of[depth][tuple(int(v) for v in row)]] = int(item)
        return cls(list(sizes), allowed, child, leaf_item)


@dataclass
class SemanticIds:
    """Each item's code path: ``codes[item]`` (n_items + 1, depth); row 0 (padding) is all -1."""

    codes: np.ndarray
    sizes: list[int]  # codebook size of each level (the last is the collision code's range)
    # what ``assign_new_items`` needs to place items first seen later: each item's vector and each
    # level's centroids (None for ids built some other way)
    vectors: np.ndarray | None = None
    centroids: list[np.ndarray] | None = None

    @property
    def depth(self) -> int:
        """Codes per item (levels + 1 collision code)."""
        return self.codes.shape[1]

    @property
    def n_items(self) -> int:
        """Number of items (ids 1..n_items)."""
        return len(self.codes) - 1

    def trie(self) -> CodeTrie:
        """The prefix trie over every item's code path."""
        ids = np.arange(1, len(self.codes))
        return CodeTrie.build(self.codes[1:], ids, self.sizes)

    def tensor(self) -> Tensor:
        """Codes as a long tensor (n_items + 1, depth), row 0 = -1 (padding)."""
        return torch.from_numpy(self.codes).long()


def build_semantic_ids(vectors: np.ndarray, levels: int = 3, codebook: int = 32, seed: int = 0) -> SemanticIds:
    """Semantic ids for items 1..n from their vectors (row 0 is padding).

    Residual k-means gives ``levels`` codes; items sharing all of them get an
    extra code 0, 1, 2, ... in item-id order, so every item's id is unique and
    the assignment is a function of (vectors, seed) only.
    """
    base, books = _residual_kmeans(vectors[1:], levels, codebook, seed)
    seen: dict[tuple[int, ...], int] = defaultdict(int)
    extra = np.zeros(len(base), dtype=np.int64)
    for i, row in enumerate(base):
        key = tuple(int(v) for v in row)
        extra[i] = seen[key]
        seen[key] += 1
    n_extra = int(extra.max()) + 1 if len(extra) else 1
    codes = np.concatenate([base, extra[:, None]], axis=1)
    codes = np.concatenate([np.full((1, levels + 1), -1, dtype=np.int64), codes], axis=0)
    sizes = [int(codebook)] * levels + [n_extra]
    return SemanticIds(codes, sizes, vectors.astype(np.float32).copy(), books)


def items_in(sequences: Sequence[Sequence[int]], n_items: int) -> np.ndarray:
    """(n_items + 1,) bool: which items occur in ``sequences``."""
    mask = np.zeros(n_items + 1, dtype=bool)
    for seq in sequences:
        mask[np.asarray(seq, dtype=np.int64)] = True
    mask[0] = False
    return mask


def assign_new_items(
    sids: SemanticIds,
    sequences: Sequence[Sequence[int]],
    known: np.ndarray,
    window: int = 3,
) -> tuple[SemanticIds, np.ndarray, int]:
    """Codes for items first seen in ``sequences``, placed by the known items they occur near.

    Semantic ids built from P0 give every item that P0 never showed a random
    code path: a third to a half of later targets on the Amazon sets. When
    such an item occurs in new training data, its vector becomes the mean of
    the vectors of the ``known`` items within ``window`` positions of it
    (weighted 1/distance), and it takes the code path of that vector through
    the same residual codebooks, with a free collision code (the next-nearest
    last-level code where that path is full, its old path where no free one is
    left). Items with no known neighbour keep their old path. Every item that
    occurs becomes known: codes the model has trained on never change.

    Returns the new ids, the new ``known`` mask and how many items moved.
    Item ids stay unique and the code sizes (the model's vocabulary) stay the same.
    """
    if sids.vectors is None or sids.centroids is None:
        raise ConfigError("these semantic ids carry no vectors/centroids: build them with build_semantic_ids")
    n = sids.n_items + 1
    if known.shape != (n,):
        raise ConfigError(f"known mask has shape {known.shape}, expected ({n},)")
    occurs = items_in(sequences, sids.n_items)
    new = occurs & ~known
    sums = np.zeros_like(sids.vectors, dtype=np.float64)
    weight = np.zeros(n)
    for seq in sequences:
        arr = np.asarray(seq, dtype=np.int64)
        for i, item in enumerate(arr):
            if not new[item]:
                continue
            lo, hi = max(0, i - window), min(len(arr), i + window + 1)
            for j in range(lo, hi):
                other = arr[j]
                if j != i and known[other]:
                    w = 1.0 / abs(j - i)
                    sums[item] += w * sids.vectors[other]
                    weight[item] += w
    movers = np.flatnonzero(new & (weight > 0))
    codes = sids.codes.copy()
    vectors = sids.vectors.copy()
    levels = len(sids.centroids)
    taken: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for item in range(1, n):
        taken[tuple(int(v) for v in codes[item, :levels])].add(int(codes[item, levels]))
    cap = sids.sizes[-1]
    moved = 0
    for item in movers.tolist():
        v = sums[item] / max(np.linalg.norm(sums[item]), 1e-12)
        vectors[item] = v
        prefix: list[int] = []
        residual = v.astype(np.float64)
        for level in range(levels - 1):
            c = int(((sids.centroids[level] - residual) ** 2).sum(1).argmin())
            prefix.append(c)
            residual = residual - sids.centroids[level][c]
        last = sids.centroids[levels - 1]
        old = tuple(int(x) for x in codes[item, :levels])
        taken[old].discard(int(codes[item, levels]))  # its own slot is free for itself
        placed = False
        for c in np.argsort(((last - residual) ** 2).sum(1), kind="stable").tolist():
            path = (*prefix, int(c))
            free = next((x for x in range(cap) if x not in taken[path]), None)
            if free is not None:
                codes[item, :levels] = path
                codes[item, levels] = free
                taken[path].add(free)
                placed = True
                moved += path != old or free != int(sids.codes[item, levels])
                break
        if not placed:  # every path under this prefix is full: the item keeps its old one
            taken[old].add(int(codes[item, levels]))
    return SemanticIds(codes, list(sids.sizes), vectors, sids.centroids), known | occurs, moved
