"""Runs the streaming protocol for each method on one data set.

``prepare`` loads (or generates) and subsamples the data, builds semantic ids
from P0 only (the item vectors never see an interaction of P1..P4), and
labels users with their groups. ``run_method`` executes a method's
``protocol.schedule`` step by step: train (or fine-tune) and evaluate, and
collects result rows, step times and, for LION variants, slot usage.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import torch
from pydantic import BaseModel, Field, field_validator

from memkit.errors import ConfigError
from memkit.parametric import SlotUsage
from stores.parametric.product_key_memory import PKMConfig
from stores.parametric.recommender import GenerativeRecommender, RecConfig
from stores.parametric.semantic_ids import (
    SemanticIds,
    assign_new_items,
    build_semantic_ids,
    item_vectors,
    items_in,
)

from evals.recsys.data import load_dataset, subsample
from evals.recsys.metrics import GroupedMetrics, hit_rank
from evals.recsys.protocol import (
    Example,
    activity_groups,
    batches,
    period_bounds,
    period_examples,
    schedule,
)
from evals.recsys.synthetic import SyntheticConfig, count_model_recall, generate
from evals.recsys.yardsticks import count_yardsticks

__all__ = [
    "METHODS",
    "RunSettings",
    "Prepared",
    "MethodResult",
    "prepare",
    "build_model",
    "run_method",
    "slot_overlaps",
]

METHODS: tuple[str, ...] = ("tiger", "retrain", "lion", "lion-no-consolidation", "lion-no-long-query")
N_PERIODS = 5


class RunSettings(BaseModel):
    """Everything a run depends on; written to the JSON as ``settings``."""

    data: Literal["games", "toys", "synthetic"]
    methods: list[str] = Field(default_factory=lambda: list(METHODS))
    epochs: int = Field(5, ge=1, description="epochs on P0")
    finetune_epochs: int = Field(2, ge=1, description="epochs on each later period")
    limit_users: int | None = Field(2000, ge=10)
    min_length: int = Field(
        N_PERIODS, ge=N_PERIODS, description="Amazon sets: only users with at least this many interactions"
    )
    eval_limit: int | None = Field(None, ge=1, description="max evaluation samples per period")
    seed: int = 0
    batch_size: int = Field(128, ge=1)
    bucket: int = Field(
        0, ge=0, description="length bucketing of training batches: pools of this many batches sorted by history "
        "length (0: random batches, the default); evaluation batches are always ordered by length (results in example order)"
    )
    beam: int = Field(20, ge=1)
    window: int = Field(10, ge=1)
    long_window: int = Field(50, ge=1)
    d_model: int = 64
    encoder_layers: int = 4
    decoder_layers: int = 2
    n_keys: int = 64  # 4096 slots (tuned on the seed-1 synthetic world, reported on seed 0)
    memory_heads: int = 4
    topk: int = 8
    consolidation_weight: float = 0.5
    consolidation_pool: Literal["last", "mean", "read"] = "last"
    read_positions: Literal["last", "all"] = "last"
    memory_after: int | None = Field(None, ge=1, description="encoder blocks below the memory (None: the middle)")
    memory_dropout: float = Field(0.0, ge=0.0, lt=1.0, description="dropout on the memory read")
    memory_query: Literal["hidden", "item", "item-only"] = Field(
        "hidden", description="memory query from the hidden state after the lower blocks, or from the read item's own embedding"
    )
    memory_token: bool = Field(False, description="also append the memory read as an extra encoder token")
    memory_decoder: bool = Field(False, description="also add the memory read to every decoder input position")
    value_init_std: float | None = Field(None, ge=0.0, description="std of the values' init (None: dim ** -0.5)")
    memory_sparse: bool = Field(
        False, description="sparse value gradients with SparseAdam: only the slots read in a step are updated "
        "(dense Adam keeps moving every slot it has momentum for)"
    )
    finetune_scope: Literal["all", "memory"] = Field(
        "all", description="LION variants, periods 1..: train every parameter, or the memory (+ its query context and head) only"
    )
    lr: float = 1e-3
    value_lr: float = 5e-2
    dropout: float = Field(0.1, ge=0.0, lt=1.0, description="backbone dropout (embeddings, attention, blocks)")
    label_smoothing: float = Field(0.0, ge=0.0, lt=1.0, description="label smoothing of the per-level code losses")
    sid_levels: int = 3
    sid_codebook: int = 32
    item_dim: int = 32
    threads: int = Field(2, ge=1)
    data_dir: str | None = None
    new_item_ids: bool = Field(
        True, description="before each fine-tuning, give items first seen since P0 codes placed by their known neighbours"
    )
    seen_items: Literal["auto", "drop", "keep"] = Field(
        "auto",
        description="items the user already interacted with: drop them from the ranked list, keep them, or "
        "auto = drop where no user repeats an item in P0 (the Amazon sets), keep otherwise (the synthetic set)",
    )

    @field_validator("methods")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        unknown = [m for m in value if m not in METHODS]
        if unknown:
            raise ValueError(f"unknown method(s) {unknown}; known: {list(METHODS)}")
        if not value:
            raise ValueError("no method given")
        return value


@dataclass
class Prepared:
    """The data of one run, shared by all methods."""

    sequences: dict[int, list[int]]
    n_items: int
    groups: dict[int, list[str]]  # user -> every group label the user counts in ("all", "g3", "majority", ...)
    usage_group: dict[int, str]  # user -> the label used for slot usage
    semantic_ids: SemanticIds
    notes: list[str]
    known: np.ndarray  # (n_items + 1,) bool: items that occur in P0 (their codes come from data)
    drop_seen: bool = False  # drop items of the user's history from the ranked lists
    yardsticks: dict[str, list[float]] = field(default_factory=dict)  # count models' Recall@10 per period P1..P4


@dataclass
class MethodResult:
    """What one method produced."""

    method: str
    rows: list[dict[str, Any]]
    train_seconds: float = 0.0
    train_steps: int = 0
    eval_seconds: float = 0.0
    slot_usage: SlotUsage | None = None
    losses: list[dict[str, float]] = field(default_factory=list)
    new_items: list[dict[str, Any]] = field(default_factory=list)  # items placed by assign_new_items per step
    # every evaluated example in evaluation order: (period, user, 0-based rank of the target or -1);
    # the order is the same for every method of a run, so methods can be compared example by example
    hits: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def step_seconds(self) -> float:
        """Mean wall time of one training step."""
        return self.train_seconds / self.train_steps if self.train_steps else 0.0


def prepare(settings: RunSettings) -> Prepared:
    """Load, subsample, label groups, and build semantic ids from P0 interactions only."""
    notes: list[str] = []
    user_group: dict[int, str] = {}
    if settings.data == "synthetic":
        n_users = settings.limit_users or SyntheticConfig().n_users
        synth = generate(SyntheticConfig(n_users=n_users), seed=settings.seed)
        inter = synth.interactions
        user_group = synth.user_group
        notes.append(f"synthetic drift set: {n_users} users, {inter.n_items} items, {inter.n_interactions} interactions")
        # what a first-order count model reaches, as a yardstick for the learned models' per-group numbers
        yard = {k: count_model_recall(synth, k) for k in ("own", "majority", "all")}
        notes.append(
            "count-model Recall@10 (P1-P4 mean; own group's / majority's / pooled transitions): "
            + ", ".join(f"{g} {yard['own'][g]:.3f}/{yard['majority'][g]:.3f}/{yard['all'][g]:.3f}" for g in sorted(yard["own"]))
        )
    else:
        full = load_dataset(settings.data, settings.data_dir)
        inter = subsample(full, settings.limit_users, settings.seed, min_length=settings.min_length)
        eligible = sum(len(s) >= settings.min_length for s in full.sequences.values())
        if len(inter.sequences) < len(full.sequences):
            notes.append(
                f"SUBSAMPLE: {len(inter.sequences)} of {len(full.sequences)} users (random among the {eligible} "
                f"with >= {settings.min_length} interactions, seed {settings.seed}); catalog = their "
                f"{inter.n_items} items (of {full.n_items}); use --full for all users"
            )
        else:
            notes.append(f"all {len(inter.sequences)} users with >= {settings.min_length} interactions, {inter.n_items} items")
    sequences = inter.sequences
    activity = activity_groups(sequences)
    groups = {u: ["all", activity[u]] + ([user_group[u]] if u in user_group else []) for u in sequences}
    usage_group = user_group or activity
    p0 = _prefixes(sequences, 0)
    vectors = item_vectors(p0, inter.n_items, dim=settings.item_dim, seed=settings.seed)
    sids = build_semantic_ids(vectors, settings.sid_levels, settings.sid_codebook, seed=settings.seed)
    notes.append(
        f"semantic ids: {settings.sid_levels} residual k-means codes of {settings.sid_codebook} + collision code "
        f"(up to {sids.sizes[-1]}), from P0 co-occurrence only"
        + ("; items first seen later are placed by their known neighbours before each fine-tuning"
           if settings.new_item_ids else "; items P0 never showed keep random codes (--no-new-item-ids)")
    )
    repeats = sum(len(seq) - len(set(seq)) for seq in p0)
    drop_seen = settings.seen_items == "drop" or (settings.seen_items == "auto" and repeats == 0)
    notes.append(
        f"items already in the user's history are {'dropped from' if drop_seen else 'kept in'} the ranked lists "
        f"({repeats} repeated interactions in P0; --seen-items {settings.seen_items})"
    )
    yardsticks: dict[str, list[float]] = {}
    if settings.data != "synthetic":  # the synthetic run prints its own, per generating group
        yardsticks = count_yardsticks(sequences, k=10, drop_seen=drop_seen, n_periods=N_PERIODS)
        notes.append(
            "count yardsticks, Recall@10 P1-P4 mean (no learning; see evals/recsys/yardsticks.py): "
            + ", ".join(f"{name} {np.mean(values):.4f}" for name, values in yardsticks.items())
        )
    return Prepared(
        sequences, inter.n_items, groups, usage_group, sids, notes, items_in(p0, inter.n_items), drop_seen, yardsticks
    )


def build_model(method: str, settings: RunSettings, sids: SemanticIds) -> GenerativeRecommender:
    """The method's model on the shared backbone (same seed: same backbone initialization)."""
    if method not in METHODS:
        raise ConfigError(f"unknown method {method!r}; known: {list(METHODS)}")
    memory = None
    if method.startswith("lion"):
        memory = PKMConfig(
            dim=settings.d_model,
            n_keys=settings.n_keys,
            heads=settings.memory_heads,
            topk=settings.topk,
            dropout=settings.memory_dropout,
            value_init_std=settings.value_init_std,
            sparse=settings.memory_sparse,
        )
    config = RecConfig(
        d_model=settings.d_model,
        encoder_layers=settings.encoder_layers,
        decoder_layers=settings.decoder_layers,
        ff_dim=2 * settings.d_model,
        window=settings.window,
        long_window=settings.long_window,
        memory=memory,
        long_query=method != "lion-no-long-query",
        consolidation_weight=0.0 if method == "lion-no-consolidation" else settings.consolidation_weight,
        consolidation_pool=settings.consolidation_pool,
        read_positions=settings.read_positions,
        memory_after=settings.memory_after,
        memory_query=settings.memory_query,
        memory_token=settings.memory_token,
        memory_decoder=settings.memory_decoder,
        dropout=settings.dropout,
        label_smoothing=settings.label_smoothing,
        lr=settings.lr,
        value_lr=settings.value_lr,
    )
    torch.manual_seed(settings.seed)
    return GenerativeRecommender(config, sids)


def _steps_of(settings: RunSettings, prepared: Prepared, method: str) -> int:
    """Progress units of a method: training batches times epochs plus evaluation batches."""
    total = 0
    for step in schedule(method, N_PERIODS):
        n = len(_examples(prepared, step.periods, settings if step.kind == "eval" else None))
        n_batches = -(-n // settings.batch_size)
        if step.kind == "train":
            total += n_batches * (settings.epochs if step.periods == (0,) or step.fresh else settings.finetune_epochs)
        else:
            total += -(-n // 256)
    return total


def _examples(prepared: Prepared, periods: tuple[int, ...], eval_settings: RunSettings | None = None) -> list[Example]:
    examples = period_examples(prepared.sequences, periods, N_PERIODS)
    if eval_settings is not None and eval_settings.eval_limit is not None and len(examples) > eval_settings.eval_limit:
        rng = np.random.default_rng(eval_settings.seed + periods[0])
        keep = sorted(rng.choice(len(examples), size=eval_settings.eval_limit, replace=False).tolist())
        examples = [examples[i] for i in keep]
    return examples


def run_method(
    prepared: Prepared,
    method: str,
    settings: RunSettings,
    advance: Callable[[int], None] | None = None,
    trace: list[tuple[str, int, frozenset[tuple[int, int]]]] | None = None,
) -> MethodResult:
    """Run one method through the protocol; ``trace`` (if given) records which (user, pos) each step touched.

    Trace kinds: ``train`` (trained on), ``ids`` (read to place new items' codes), ``eval`` (evaluated).
    """
    torch.set_num_threads(settings.threads)
    result = MethodResult(method, [])
    model: GenerativeRecommender | None = None
    last_eval: list[Example] = []
    sids = prepared.semantic_ids
    known = prepared.known
    for index, step in enumerate(schedule(method, N_PERIODS)):
        if step.kind == "train":
            if settings.new_item_ids and step.periods != (0,):
                # only the periods about to be trained on (and the earlier ones) place the new items
                prefixes = _prefixes(prepared.sequences, step.periods[-1])
                if trace is not None:
                    users = list(prepared.sequences)
                    trace.append(("ids", step.periods[-1], frozenset((u, p) for u, seq in zip(users, prefixes) for p in range(len(seq)))))
                sids, known, moved = assign_new_items(sids, prefixes, known)
                result.new_items.append({"step": index, "periods": list(step.periods), "placed": moved})
                if model is not None and not step.fresh:
                    model.set_semantic_ids(sids)
            if step.fresh or model is None:
                model = build_model(method, settings, sids)
            examples = _examples(prepared, step.periods)
            data = [b for _, b in batches(prepared.sequences, examples, settings.batch_size, settings.window,
                                          settings.long_window, shuffle_seed=settings.seed + index, bucket=settings.bucket)]
            if trace is not None:
                # a training example uses its target and every earlier interaction as input
                touched = frozenset((e.user, p) for e in examples for p in range(e.pos + 1))
                trace.append(("train", step.periods[-1], touched))
            epochs = settings.epochs if step.fresh else settings.finetune_epochs
            torch.manual_seed(settings.seed + 1000 + index)
            scope = "all" if step.fresh or not model.has_memory else settings.finetune_scope
            report = model.consolidate(data, epochs=epochs, on_step=advance, trainable=scope)
            result.train_seconds += report.seconds
            result.train_steps += report.steps
            result.losses.append({"step": index, "periods": list(step.periods), **report.losses})
        else:
            assert model is not None
            period = step.periods[0]
            examples = _examples(prepared, step.periods, settings)
            if trace is not None:
                trace.append(("eval", period, frozenset((e.user, e.pos) for e in examples)))
            start = time.perf_counter()
            metrics = GroupedMetrics()
            # batches ordered by history length (less padding for the encoder); results are kept in example order
            ranked_of: dict[Example, tuple[list[int], int]] = {}
            for chunk, batch in batches(prepared.sequences, examples, 256, settings.window, settings.long_window,
                                        bucket=len(examples)):
                ranked = model.recommend(batch, beam=settings.beam).tolist()
                if prepared.drop_seen:
                    ranked = [_unseen(items, prepared.sequences[e.user][: e.pos]) for e, items in zip(chunk, ranked, strict=True)]
                ranked_of.update(zip(chunk, zip(ranked, batch.target.tolist(), strict=True), strict=True))
                if advance is not None:
                    advance(1)
            for example in examples:
                items, target = ranked_of[example]
                metrics.add(items, target, example.user, prepared.groups[example.user])
                rank = hit_rank(items, target)
                result.hits.append((period, example.user, -1 if rank is None else rank))
            result.eval_seconds += time.perf_counter() - start
            for row in metrics.rows():
                result.rows.append({"data": settings.data, "method": method, "period": period, **row})
            last_eval = examples
    if model is not None and model.has_memory and last_eval:
        chunks = list(batches(prepared.sequences, last_eval, 256, settings.window, settings.long_window))
        result.slot_usage = model.slot_usage(
            (b for _, b in chunks), ([_usage_label(prepared, e) for e in chunk] for chunk, _ in chunks)
        )
    return result


def _prefixes(sequences: dict[int, list[int]], last_period: int) -> list[list[int]]:
    """Every user's interactions of P0..``last_period``, in user order."""
    return [seq[: period_bounds(len(seq), N_PERIODS)[last_period + 1]] for seq in sequences.values()]


def _unseen(items: list[int], history: list[int]) -> list[int]:
    """The ranked items without those in the history, padded with -1 to the same length."""
    seen = set(history)
    kept = [i for i in items if i not in seen]
    return kept + [-1] * (len(items) - len(kept))


def _usage_label(prepared: Prepared, example: Example) -> tuple[str, int]:
    # the user's group, and which half of it (by user id parity) for the within-group control
    return (prepared.usage_group[example.user], example.user % 2)


def slot_overlaps(usage: SlotUsage, top: int = 64) -> list[dict[str, Any]]:
    """Overlap of slot usage between groups, and between two halves of each group (the control).

    ``usage`` is labelled by (group, half). ``overlap`` is the histogram
    intersection (1 = same slots used equally, 0 = disjoint); ``jaccard@top``
    compares each side's ``top`` most used slots. Two halves of one group
    show how much overlap sampling alone leaves.
    """
    merged = SlotUsage(usage.n_slots)
    for (group, _half), counter in usage.counts.items():
        merged.counts.setdefault(group, type(counter)()).update(counter)
    labels = sorted(merged.counts, key=str)
    rows: list[dict[str, Any]] = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            rows.append({"a": a, "b": b, "overlap": merged.overlap(a, b), f"jaccard@{top}": merged.jaccard(a, b, top)})
    for group in labels:
        if (group, 0) in usage.counts and (group, 1) in usage.counts:
            rows.append({
                "a": f"{group} (half 1)",
                "b": f"{group} (half 2)",
                "overlap": usage.overlap((group, 0), (group, 1)),
                f"jaccard@{top}": usage.jaccard((group, 0), (group, 1), top),
            })
    return rows
