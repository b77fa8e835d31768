"""A synthetic drift data set with known user groups: a majority and minorities.

Items belong to topics. Each user group has, per period, its own successor
map (item -> the item that tends to follow it) and its own preferred topics.
At every step a user follows the group's successor of the current item with
probability ``follow``, else jumps to a popular item of one of the group's
preferred topics. Between periods each group's successor map drifts: a
fraction ``drift`` of its entries is redrawn. Since the groups' maps differ
on the same items, a shared model fine-tuned on data that is mostly the
majority's pulls the minorities' patterns toward the majority's: the
evolution conflict exists by construction.

Periods follow the benchmark's protocol exactly: each user's sequence is cut
into ``n_periods`` consecutive chunks by ``period_bounds`` and chunk p is
generated under the period-p regime.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np

from evals.recsys.data import Interactions
from evals.recsys.protocol import period_bounds

__all__ = ["SyntheticConfig", "SyntheticData", "generate", "count_model_recall"]


@dataclass(frozen=True)
class SyntheticConfig:
    """Sizes and dynamics of the synthetic set."""

    n_users: int = 1000
    topics: int = 12
    items_per_topic: int = 20
    groups: tuple[float, ...] = (0.7, 0.15, 0.15)  # majority first
    preferred_topics: int = 6
    min_length: int = 20
    max_length: int = 80
    follow: float = 0.6
    drift: float = 0.3
    n_periods: int = 5


@dataclass
class SyntheticData:
    """The interactions plus each user's group name (``majority``, ``minority-1``, ...)."""

    interactions: Interactions
    user_group: dict[int, str]


def _group_names(n: int) -> list[str]:
    return ["majority"] + [f"minority-{i}" for i in range(1, n)]


def generate(config: SyntheticConfig = SyntheticConfig(), seed: int = 0) -> SyntheticData:
    """Draw users, their groups and their sequences; deterministic for a seed."""
    rng = np.random.default_rng(seed)
    c = config
    n_items = c.topics * c.items_per_topic
    names = _group_names(len(c.groups))
    popularity = 1.0 / np.arange(1, c.items_per_topic + 1)
    popularity /= popularity.sum()

    # per group: preferred topics, and one successor map per period
    prefs = [rng.choice(c.topics, size=c.preferred_topics, replace=False) for _ in names]
    maps: list[list[np.ndarray]] = []
    for _ in names:
        first = rng.integers(1, n_items + 1, size=n_items + 1)
        per_period = [first]
        for _p in range(1, c.n_periods):
            nxt = per_period[-1].copy()
            redraw = rng.random(n_items + 1) < c.drift
            nxt[redraw] = rng.integers(1, n_items + 1, size=int(redraw.sum()))
            per_period.append(nxt)
        maps.append(per_period)

    def jump(g: int) -> int:
        topic = int(rng.choice(prefs[g]))
        return int(topic * c.items_per_topic + rng.choice(c.items_per_topic, p=popularity) + 1)

    sequences: dict[int, list[int]] = {}
    user_group: dict[int, str] = {}
    probs = np.asarray(c.groups) / np.sum(c.groups)
    # lengths skewed toward short histories, like real activity
    for user in range(1, c.n_users + 1):
        g = int(rng.choice(len(names), p=probs))
        length = int(min(c.max_length, c.min_length + rng.exponential((c.max_length - c.min_length) / 3)))
        bounds = period_bounds(length, c.n_periods)
        seq: list[int] = []
        for p in range(c.n_periods):
            for _ in range(bounds[p], bounds[p + 1]):
                if seq and rng.random() < c.follow:
                    seq.append(int(maps[g][p][seq[-1]]))
                else:
                    seq.append(jump(g))
        sequences[user] = seq
        user_group[user] = names[g]
    return SyntheticData(Interactions(sequences, n_items, "synthetic"), user_group)


def _top_k(successors: Counter, popular: list[int], k: int) -> list[int]:
    out = [item for item, _ in successors.most_common(k)]
    for item in popular:
        if len(out) >= k:
            break
        if item not in out:
            out.append(item)
    return out


def count_model_recall(data: SyntheticData, knowledge: str = "own", k: int = 10, n_periods: int = 5) -> dict[str, float]:
    """Recall@k per user group of a first-order count model, mean over P1..P4 (a sanity check of the generator).

    For P_t the model counts transitions (previous item -> item) in P0..P_{t-1}
    (P_{t-1} weighted 3x, for the drift) and ranks the current item's most
    frequent successors, then popular items. ``knowledge`` says whose
    transitions it counts: ``own`` (the user's own group: what a model that
    knows the group can reach), ``majority`` (the majority's only), or
    ``all`` (everyone pooled: a shared model without group knowledge). If
    minorities score far lower with ``majority`` than with ``own``, their
    preferences are distinct; ``all`` shows what pooling costs them.
    """
    if knowledge not in ("own", "majority", "all"):
        raise ValueError(f"knowledge must be 'own', 'majority' or 'all', got {knowledge!r}")
    seqs, group = data.interactions.sequences, data.user_group
    bounds = {u: period_bounds(len(s), n_periods) for u, s in seqs.items()}
    names = sorted(set(group.values()))
    result: dict[str, float] = {}
    for name in names:
        members = [u for u in seqs if group[u] == name]
        source = {"own": members, "majority": [u for u in seqs if group[u] == "majority"], "all": list(seqs)}[knowledge]
        recalls = []
        for t in range(1, n_periods):
            counts: defaultdict[int, Counter] = defaultdict(Counter)
            popularity: Counter = Counter()
            for u in source:
                s, b = seqs[u], bounds[u]
                for q in range(t):
                    w = 3 if q == t - 1 else 1
                    for i in range(max(b[q], 1), b[q + 1]):
                        counts[s[i - 1]][s[i]] += w
                        popularity[s[i]] += w
            popular = [item for item, _ in popularity.most_common(k)]
            hits = total = 0
            for u in members:
                s, b = seqs[u], bounds[u]
                for i in range(max(b[t], 1), b[t + 1]):
                    hits += s[i] in _top_k(counts[s[i - 1]], popular, k)
                    total += 1
            recalls.append(hits / max(total, 1))
        result[name] = float(np.mean(recalls))
    return result
