"""Precision, recall and IoU of predicted side effects (multisets), with the spec's empty-set rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memkit.rules.engine import effect_key

__all__ = ["Score", "score_effects", "score_world"]


@dataclass(frozen=True)
class Score:
    """Precision, recall and IoU of one test, or their means over a world."""

    precision: float
    recall: float
    iou: float


def score_effects(predicted: Sequence[Sequence[Any]], truth: Sequence[Sequence[Any]]) -> Score:
    """Score one test. Both empty: 1, 1, 1; only one empty: 0, 0, 0."""
    p = Counter(effect_key(e) for e in predicted)
    g = Counter(effect_key(e) for e in truth)
    np_, ng = sum(p.values()), sum(g.values())
    if np_ == 0 and ng == 0:
        return Score(1.0, 1.0, 1.0)
    if np_ == 0 or ng == 0:
        return Score(0.0, 0.0, 0.0)
    inter = sum((p & g).values())
    union = np_ + ng - inter
    return Score(inter / np_, inter / ng, inter / union)


def score_world(predicted: Sequence[Sequence[Sequence[Any]]], truth: Sequence[Sequence[Sequence[Any]]]) -> Score:
    """Mean precision, recall and IoU over a world's tests; the two lists must be equally long."""
    if len(predicted) != len(truth):
        raise ValueError(f"{len(predicted)} predictions for {len(truth)} tests")
    if not truth:
        return Score(1.0, 1.0, 1.0)
    scores = [score_effects(p, t) for p, t in zip(predicted, truth)]
    n = len(scores)
    return Score(
        sum(s.precision for s in scores) / n,
        sum(s.recall for s in scores) / n,
        sum(s.iou for s in scores) / n,
    )
