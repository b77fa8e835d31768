"""Count-based yardsticks for the learned recommenders on the same protocol.

Neither learns anything: ``popularity`` ranks the items most often seen in
P0..P_{t-1}; ``co-occurrence`` scores every item by how often it followed
the user's last ``window`` items (within ``window`` positions, weighted
1/distance) in P0..P_{t-1} of all users, then fills up with popular items.
Both see exactly what a fine-tuned model has trained on when it predicts
P_t, so a learned model far below them is under-trained, not data-starved.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import islice

from evals.recsys.protocol import period_bounds

__all__ = ["count_yardsticks"]


def count_yardsticks(
    sequences: dict[int, list[int]],
    k: int = 10,
    window: int = 5,
    drop_seen: bool = True,
    n_periods: int = 5,
) -> dict[str, list[float]]:
    """Recall@k of ``popularity`` and ``co-occurrence`` for P1..P_{n-1} (one value per period)."""
    bounds = {u: period_bounds(len(s), n_periods) for u, s in sequences.items()}
    popularity: Counter[int] = Counter()
    follows: defaultdict[int, Counter[int]] = defaultdict(Counter)

    def learn(seq: list[int], lo: int, hi: int) -> None:
        for p in range(lo, hi):
            popularity[seq[p]] += 1
            for q in range(max(0, p - window), p):
                follows[seq[q]][seq[p]] += 1.0 / (p - q)

    for u, seq in sequences.items():
        learn(seq, 0, bounds[u][1])
    out: dict[str, list[float]] = {"popularity": [], "co-occurrence": []}
    for t in range(1, n_periods):
        # the whole ranking: a user may have seen any number of the most popular items
        ranked_popular = [item for item, _ in popularity.most_common()]
        hits = {name: 0 for name in out}
        total = 0
        for u, seq in sequences.items():
            b = bounds[u]
            for p in range(max(b[t], 1), b[t + 1]):
                seen = set(seq[:p]) if drop_seen else set()
                popular = list(islice((i for i in ranked_popular if i not in seen), k))
                scores: Counter[int] = Counter()
                for q in range(max(0, p - window), p):
                    for item, count in follows[seq[q]].items():
                        scores[item] += count / (p - q)
                top = [i for i, _ in scores.most_common(k + len(seen)) if i not in seen][:k]
                top += [i for i in popular if i not in top][: k - len(top)]
                hits["popularity"] += seq[p] in popular
                hits["co-occurrence"] += seq[p] in top
                total += 1
        for name in out:
            out[name].append(hits[name] / max(total, 1))
        for u, seq in sequences.items():
            learn(seq, bounds[u][t], bounds[u][t + 1])
    return out
