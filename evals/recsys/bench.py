"""``make bench`` entry: LION's cost against the TIGER-style baseline on the same backbone.

Both models are built from the same settings as ``memkit lion run`` and fed
the same batches; steps alternate between the two models (so load on a shared
machine hits both alike) and the medians are compared as a ratio. Target:
LION's training step at most 1.3x the baseline's.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import torch

from stores.parametric.product_key_memory import make_optimizers
from stores.parametric.recommender import GenerativeRecommender, RecBatch

from evals.recsys.protocol import batches, period_examples
from evals.recsys.runner import RunSettings, build_model, prepare

__all__ = ["run"]


def _train_step(model: GenerativeRecommender, opts: list[torch.optim.Optimizer], batch: RecBatch) -> float:
    start = time.perf_counter()
    for opt in opts:
        opt.zero_grad(set_to_none=True)
    model(batch)["loss"].backward()
    for opt in opts:
        opt.step()
    return time.perf_counter() - start


def _recommend(model: GenerativeRecommender, batch: RecBatch) -> float:
    start = time.perf_counter()
    model.recommend(batch, beam=20)
    return time.perf_counter() - start


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Median step / recommend time of tiger and LION variants, and their ratio to tiger."""
    torch.set_num_threads(1)
    settings = RunSettings(data="synthetic", limit_users=200 if quick else 400, seed=0)
    prepared = prepare(settings)
    examples = period_examples(prepared.sequences, [0])
    data = [b for _, b in batches(prepared.sequences, examples, settings.batch_size, settings.window, settings.long_window, 0,
                                  bucket=settings.bucket)]  # as the run batches them (length buckets)
    data = [b for b in data if len(b) == settings.batch_size] or data
    names = ["tiger", "lion", "lion-no-long-query"]
    models = {m: build_model(m, settings, prepared.semantic_ids) for m in names}
    for m in models.values():
        m.train()
    opts = {m: make_optimizers(models[m], settings.lr, settings.value_lr) for m in names}
    reps = 6 if quick else 20
    train: dict[str, list[float]] = {m: [] for m in names}
    infer: dict[str, list[float]] = {m: [] for m in names}
    for rep in range(reps + 2):  # the first two rounds warm up
        batch = data[rep % len(data)]
        for m in names:
            t = _train_step(models[m], opts[m], batch)
            if rep >= 2:
                train[m].append(t)
        if rep % 2 == 0:
            for m in names:
                t = _recommend(models[m], batch)
                if rep >= 2:
                    infer[m].append(t)
    rows: list[dict[str, Any]] = []
    for case, times in (("train step", train), ("recommend (beam 20)", infer)):
        base = statistics.median(times["tiger"])
        base_min = min(times["tiger"])
        for m in names:
            med = statistics.median(times[m])
            rows.append({
                "case": case,
                "method": m,
                "batch": settings.batch_size,
                "median_ms": med * 1000,
                "ratio_to_tiger": med / base,
                # the fastest step is the least disturbed by other load on a shared machine
                "min_ratio_to_tiger": min(times[m]) / base_min,
                "target": "<= 1.3" if case == "train step" and m == "lion" else "",
            })
    return rows
