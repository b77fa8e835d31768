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

from dataclasses import dataclass

import numpy as np

from evals.recsys.data import Interactions
from evals.recsys.protocol import period_bounds

__all__ = ["SyntheticConfig", "SyntheticData", "generate"]


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
