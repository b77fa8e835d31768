"""Recall@k and NDCG@k of ranked lists, aggregated per group (sample-weighted)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

__all__ = ["KS", "hit_rank", "GroupedMetrics"]

KS: tuple[int, ...] = (10, 20)


def hit_rank(ranked: Sequence[int], target: int) -> int | None:
    """0-based rank of ``target`` in ``ranked``, None if absent."""
    for rank, item in enumerate(ranked):
        if item == target:
            return rank
    return None


class GroupedMetrics:
    """Accumulates per-sample Recall@k / NDCG@k for every group a sample belongs to."""

    def __init__(self, ks: Sequence[int] = KS) -> None:
        self.ks = tuple(ks)
        self.sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.samples: dict[str, int] = defaultdict(int)
        self.users: dict[str, set[int]] = defaultdict(set)

    def add(self, ranked: Sequence[int], target: int, user: int, groups: Iterable[str]) -> None:
        """One evaluated sample: its ranked list (best first), the true item, the user's groups."""
        rank = hit_rank(ranked, target)
        for group in groups:
            self.samples[group] += 1
            self.users[group].add(user)
            for k in self.ks:
                if rank is not None and rank < k:
                    self.sums[group][f"recall@{k}"] += 1.0
                    self.sums[group][f"ndcg@{k}"] += 1.0 / math.log2(rank + 2)

    def rows(self) -> list[dict[str, float | int | str]]:
        """One row per group: the metrics (means over samples), samples, users."""
        out: list[dict[str, float | int | str]] = []
        for group in sorted(self.samples, key=_group_order):
            n = self.samples[group]
            row: dict[str, float | int | str] = {"group": group}
            for k in self.ks:
                row[f"recall@{k}"] = self.sums[group][f"recall@{k}"] / n
                row[f"ndcg@{k}"] = self.sums[group][f"ndcg@{k}"] / n
            row["samples"] = n
            row["users"] = len(self.users[group])
            out.append(row)
        return out


def _group_order(group: str) -> tuple[int, str]:
    if group == "all":
        return (0, group)
    if group.startswith("g") and group[1:].isdigit():
        return (1, f"{int(group[1:]):03d}")
    if group == "majority":
        return (2, group)
    return (3, group)
