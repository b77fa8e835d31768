"""Parametric memory: experience held in the weights of a model.

A parametric memory is a module that

* **reads** in its forward pass (calling it returns its output),
* is **consolidated** with new data (``consolidate(batches, ...)``: a
  training pass that writes the new experience into the weights),
* can be **snapshotted and restored** (one snapshot per period, so a run can
  go back to the memory as it was), and
* reports **slot usage** (which memory slots which inputs activate), so one
  can see whether different inputs (user groups, tasks) use distinct slots.

memkit defines only the protocol and the framework-free value types here; the
torch modules live in ``stores.parametric`` (memkit imports no torch).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "ParametricMemory",
    "ConsolidationReport",
    "SlotUsage",
    "slot_overlap",
]


@dataclass(frozen=True)
class ConsolidationReport:
    """What one ``consolidate`` call did: optimizer steps, mean losses, time spent."""

    steps: int
    examples: int
    seconds: float
    losses: Mapping[str, float] = field(default_factory=dict)

    @property
    def step_seconds(self) -> float:
        """Mean wall time of one optimizer step (0 when no step was taken)."""
        return self.seconds / self.steps if self.steps else 0.0


@dataclass
class SlotUsage:
    """How often each memory slot was activated, per input group.

    ``counts[group][slot]`` is the summed read weight of ``slot`` over the
    reads made for inputs of ``group`` (a plain count when weights are 1).
    """

    n_slots: int
    counts: dict[Hashable, Counter[int]] = field(default_factory=dict)

    def add(self, group: Hashable, slots: Iterable[int], weights: Iterable[float] | None = None) -> None:
        """Record activations of ``slots`` (with their read weights) for ``group``."""
        counter = self.counts.setdefault(group, Counter())
        if weights is None:
            counter.update(int(s) for s in slots)
            return
        for slot, weight in zip(slots, weights, strict=True):
            counter[int(slot)] += float(weight)

    def distribution(self, group: Hashable) -> dict[int, float]:
        """The group's usage normalized to sum to 1 (empty when it made no read)."""
        counter = self.counts.get(group, Counter())
        total = float(sum(counter.values()))
        if total <= 0:
            return {}
        return {slot: value / total for slot, value in counter.items() if value > 0}

    def active(self, group: Hashable, top: int | None = None) -> frozenset[int]:
        """Slots the group activates; with ``top``, only its ``top`` most used ones."""
        counter = self.counts.get(group, Counter())
        if top is None:
            return frozenset(s for s, v in counter.items() if v > 0)
        return frozenset(s for s, v in counter.most_common(top) if v > 0)

    def overlap(self, a: Hashable, b: Hashable) -> float:
        """Histogram intersection of two groups' usage: 1 = same slots equally used, 0 = disjoint."""
        return slot_overlap(self.distribution(a), self.distribution(b))

    def jaccard(self, a: Hashable, b: Hashable, top: int) -> float:
        """Jaccard overlap of the two groups' ``top`` most used slots."""
        sa, sb = self.active(a, top), self.active(b, top)
        union = sa | sb
        return len(sa & sb) / len(union) if union else 0.0


def slot_overlap(p: Mapping[int, float], q: Mapping[int, float]) -> float:
    """Histogram intersection ``sum_i min(p_i, q_i)`` of two normalized usage distributions."""
    return float(sum(min(weight, q.get(slot, 0.0)) for slot, weight in p.items()))


@runtime_checkable
class ParametricMemory(Protocol):
    """A memory held in weights: read by calling it, written by ``consolidate``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Read: the forward pass (the memory's output for the given inputs)."""
        ...

    def consolidate(self, batches: Iterable[Any], *, epochs: int = 1, **options: Any) -> ConsolidationReport:
        """Write the experience in ``batches`` into the weights; report what was done."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the memory's state, to be given back to ``restore``."""
        ...

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Put the memory back exactly into the state of ``snapshot``."""
        ...

    def slot_usage(self, batches: Iterable[Any], groups: Iterable[Iterable[Hashable]] | None = None) -> SlotUsage:
        """Which slots the inputs of ``batches`` activate, per group (one group list per batch)."""
        ...
