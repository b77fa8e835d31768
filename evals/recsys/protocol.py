"""The 5-period streaming protocol.

Each user's history is cut by position into ``n_periods`` consecutive chunks
P0..P4 (the data have no timestamps, so periods are order-based and per user).
The model is trained on P0; then for t = 1..n-1 it is evaluated on P_t
(next-item prediction for every interaction of P_t, from everything before
it) and only then fine-tuned on P_t. ``schedule`` spells the steps out, and a
test checks that no interaction is trained on before it is evaluated.

Users fall in 5 activity groups g1 (least active) .. g5 by quintile of their
interaction count.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from stores.parametric.recommender import RecBatch

__all__ = [
    "period_bounds",
    "Example",
    "period_examples",
    "activity_groups",
    "Step",
    "schedule",
    "make_batch",
    "batches",
]


def period_bounds(length: int, n_periods: int = 5) -> list[int]:
    """Start positions of each period plus the end: chunk p is ``[b[p], b[p+1])``.

    Sizes differ by at most one, the earlier chunks taking the remainder
    (as ``numpy.array_split``).
    """
    base, extra = divmod(length, n_periods)
    bounds = [0]
    for p in range(n_periods):
        bounds.append(bounds[-1] + base + (1 if p < extra else 0))
    return bounds


@dataclass(frozen=True)
class Example:
    """Predict ``sequences[user][pos]`` from ``sequences[user][:pos]``."""

    user: int
    pos: int


def period_examples(sequences: dict[int, list[int]], periods: Iterable[int], n_periods: int = 5) -> list[Example]:
    """Every target position in the given periods (the first interaction of a user has no history: skipped)."""
    wanted = set(periods)
    out: list[Example] = []
    for user, seq in sequences.items():
        bounds = period_bounds(len(seq), n_periods)
        for p in sorted(wanted):
            out.extend(Example(user, pos) for pos in range(max(bounds[p], 1), bounds[p + 1]))
    return out


def activity_groups(sequences: dict[int, list[int]], n_groups: int = 5) -> dict[int, str]:
    """``g1``..``g5`` by quintile of interaction count (ties broken by user id, equal-sized groups)."""
    users = sorted(sequences, key=lambda u: (len(sequences[u]), u))
    chunks = np.array_split(np.asarray(users, dtype=np.int64), n_groups)
    return {int(u): f"g{i + 1}" for i, chunk in enumerate(chunks) for u in chunk}


@dataclass(frozen=True)
class Step:
    """One step of a method's run: ``train`` on periods, or ``eval`` one period; ``fresh`` = new model first."""

    kind: str
    periods: tuple[int, ...]
    fresh: bool = False


def schedule(method: str, n_periods: int = 5) -> list[Step]:
    """The steps of a method: fine-tune methods train on P_t after evaluating it; ``retrain`` starts over each time."""
    steps: list[Step] = [Step("train", (0,), fresh=True)]
    for t in range(1, n_periods):
        steps.append(Step("eval", (t,)))
        if t == n_periods - 1:
            break
        if method == "retrain":
            steps.append(Step("train", tuple(range(t + 1)), fresh=True))
        else:
            steps.append(Step("train", (t,)))
    return steps


def _right_aligned(seq: Sequence[int], end: int, width: int) -> list[int]:
    items = list(seq[max(0, end - width) : end])
    return [0] * (width - len(items)) + items


def make_batch(sequences: dict[int, list[int]], examples: Sequence[Example], window: int, long_window: int) -> RecBatch:
    """Tensors for examples: the last ``window`` / ``long_window`` items before each target."""
    win = [_right_aligned(sequences[e.user], e.pos, window) for e in examples]
    hist = [_right_aligned(sequences[e.user], e.pos, long_window) for e in examples]
    tgt = [sequences[e.user][e.pos] for e in examples]
    return RecBatch(torch.tensor(win), torch.tensor(hist), torch.tensor(tgt))


def batches(
    sequences: dict[int, list[int]],
    examples: Sequence[Example],
    batch_size: int,
    window: int,
    long_window: int,
    shuffle_seed: int | None = None,
    bucket: int = 0,
) -> Iterator[tuple[list[Example], RecBatch]]:
    """Examples in batches (shuffled once when a seed is given).

    ``bucket`` > 0: length bucketing. The (shuffled) examples are taken in
    pools of ``bucket`` batches, each pool is ordered by history length
    (``min(pos, window)``; stable, so ties keep the shuffled order) and cut into
    batches, so a batch holds histories of about one length and the encoder
    (which drops the columns that are padding in every row) reads less padding.
    Every example still lands in exactly one batch; the batches' order is
    then shuffled again when a seed is given (pools do not stay together).
    """
    order = list(range(len(examples)))
    rng = np.random.default_rng(shuffle_seed) if shuffle_seed is not None else None
    if rng is not None:
        rng.shuffle(order)
    cuts = [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
    if bucket > 0:
        pool = bucket * batch_size
        cuts = []
        for start in range(0, len(order), pool):
            part = sorted(order[start : start + pool], key=lambda i: min(examples[i].pos, window))
            cuts.extend(part[s : s + batch_size] for s in range(0, len(part), batch_size))
        if rng is not None:
            cuts = [cuts[i] for i in rng.permutation(len(cuts))]
    for cut in cuts:
        chunk = [examples[i] for i in cut]
        yield chunk, make_batch(sequences, chunk, window, long_window)
