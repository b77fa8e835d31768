"""MATCH: a hierarchical, gated reward for tool calls and a model-aware curriculum.

Reward of one predicted call against one gold call, three levels each counting
only when the level before it holds:

1. tool name: 1 if the name is right, else the call earns nothing at all;
2. argument keys: 1 if every required key is there and no unknown key is,
   else partial credit ``|pred & gold| / |pred | required|``;
3. argument values: the share of gold keys whose value is acceptable (an
   optional key left out counts as acceptable), only when the keys hold.

The call's correctness is the mean of the three levels, in [0, 1]. Several
calls are matched one-to-one by the assignment that maximises total
correctness; unmatched calls (extra or missing) earn nothing, and the sum is
divided by ``max(#gold, #predicted)``, so an extra call dilutes the reward.
Output that does not parse as calls gets a separate, small format reward of 0
(and correctness 0); parseable output gets format reward 1.

The curriculum keeps a per-sample difficulty ``1 - mean reward`` of its most
recent rollouts; each round it picks the ``top_k`` hardest samples plus the
samples whose difficulty is nearest the current mean difficulty, and
refreshes the difficulty only of the samples it picked.

Gold calls use the BFCL answer shape ``{name: {arg: [acceptable values]}}``,
where an empty string among the acceptable values marks an optional argument.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memkit.errors import ConfigError

__all__ = [
    "ToolCall",
    "GoldCall",
    "MatchReward",
    "parse_calls",
    "gold_from_bfcl",
    "call_correctness",
    "best_assignment",
    "match_reward",
    "MatchCurriculum",
]


@dataclass(frozen=True)
class ToolCall:
    """One predicted call: a tool name and its arguments."""

    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class GoldCall:
    """One gold call: a tool name and, per argument, its acceptable values (``""`` marks it optional)."""

    name: str
    arguments: Mapping[str, Sequence[Any]]

    @property
    def required(self) -> frozenset[str]:
        """Argument names that must be present."""
        return frozenset(k for k, ok in self.arguments.items() if "" not in ok)


@dataclass(frozen=True)
class MatchReward:
    """The two separate rewards of one output: ``correctness`` in [0, 1] and ``format`` in {0, 1}."""

    correctness: float
    format: float

    def total(self, format_weight: float = 0.1) -> float:
        """``correctness + format_weight * format``."""
        return self.correctness + format_weight * self.format


def gold_from_bfcl(ground_truth: Sequence[Mapping[str, Mapping[str, Sequence[Any]]]]) -> list[GoldCall]:
    """Gold calls from a BFCL ``ground_truth`` list (``[{func_name: {arg: [acceptable...]}}, ...]``)."""
    calls = []
    for entry in ground_truth:
        if not isinstance(entry, Mapping) or len(entry) != 1:
            raise ConfigError(f"a BFCL ground-truth entry must map one function name to its arguments: {entry!r}")
        (name, args), = entry.items()
        calls.append(GoldCall(name, {k: list(v) for k, v in args.items()}))
    return calls


def parse_calls(output: str | Sequence[Mapping[str, Any]]) -> list[ToolCall] | None:
    """Calls from a JSON list of ``{"name": str, "arguments": {...}}`` (text or parsed); ``None`` if malformed."""
    data: Any = output
    if isinstance(output, str):
        try:
            data = json.loads(output)
        except json.JSONDecodeError:
            return None
    if isinstance(data, Mapping):
        data = [data]
    if not isinstance(data, list):
        return None
    calls = []
    for item in data:
        if not isinstance(item, Mapping) or set(item) != {"name", "arguments"}:
            return None
        if not isinstance(item["name"], str) or not isinstance(item["arguments"], Mapping):
            return None
        calls.append(ToolCall(item["name"], dict(item["arguments"])))
    return calls


def _norm(value: Any) -> Any:
    # strings compare case- and space-insensitively, numbers by value (1 == 1.0), containers element-wise
    if isinstance(value, bool):
        return ("bool", value)  # keep True apart from 1 and 1.0
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return tuple(_norm(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _norm(v)) for k, v in value.items()))
    return value


def _value_ok(value: Any, acceptable: Sequence[Any]) -> bool:
    v = _norm(value)
    return any(a != "" and _norm(a) == v for a in acceptable)


def call_correctness(pred: ToolCall, gold: GoldCall) -> float:
    """Gated correctness in [0, 1] of one call: (name + keys + values) / 3, each level gated by the one before."""
    if pred.name != gold.name:
        return 0.0
    pred_keys = set(pred.arguments)
    gold_keys = set(gold.arguments)
    required = gold.required
    keys_hold = required <= pred_keys <= gold_keys
    if keys_hold:
        key_score = 1.0
    else:
        union = pred_keys | required
        key_score = len(pred_keys & gold_keys) / len(union) if union else 1.0
    value_score = 0.0
    if keys_hold:
        if gold_keys:
            good = sum(
                _value_ok(pred.arguments[k], ok) if k in pred.arguments else True  # absent => optional here
                for k, ok in gold.arguments.items()
            )
            value_score = good / len(gold_keys)
        else:
            value_score = 1.0
    return (1.0 + key_score + value_score) / 3.0


def best_assignment(scores: Sequence[Sequence[float]]) -> tuple[float, list[tuple[int, int]]]:
    """Best one-to-one matching of rows (predicted) to columns (gold): total score and the matched pairs.

    Exact dynamic programming over subsets of the smaller side; fine for the
    handful of calls of one answer (up to about 15).
    """
    n_rows = len(scores)
    n_cols = len(scores[0]) if n_rows else 0
    if n_rows == 0 or n_cols == 0:
        return 0.0, []
    transpose = n_cols > n_rows
    mat = [list(r) for r in zip(*scores)] if transpose else [list(r) for r in scores]
    rows, cols = len(mat), len(mat[0])  # cols <= rows: subsets over columns
    if cols > 15:
        raise ConfigError(f"too many calls to match exactly: {cols}")
    best: dict[int, tuple[float, list[tuple[int, int]]]] = {0: (0.0, [])}
    for r in range(rows):
        nxt = dict(best)
        for used, (val, pairs) in best.items():
            for c in range(cols):
                if used >> c & 1:
                    continue
                key = used | (1 << c)
                cand = val + mat[r][c]
                if key not in nxt or cand > nxt[key][0]:
                    nxt[key] = (cand, pairs + [(r, c)])
        best = nxt
    total, pairs = max(best.values(), key=lambda item: item[0])
    if transpose:
        pairs = [(c, r) for r, c in pairs]
    return total, sorted(pairs)


def match_reward(output: str | Sequence[Mapping[str, Any]] | Sequence[ToolCall], gold: Sequence[GoldCall]) -> MatchReward:
    """The MATCH reward of one output (JSON text, parsed dicts or :class:`ToolCall` s) against its gold calls."""
    if isinstance(output, (list, tuple)) and all(isinstance(c, ToolCall) for c in output):
        calls: list[ToolCall] | None = list(output)  # type: ignore[arg-type]
    else:
        calls = parse_calls(output)  # type: ignore[arg-type]
    if calls is None:
        return MatchReward(0.0, 0.0)
    if not gold and not calls:
        return MatchReward(1.0, 1.0)
    scores = [[call_correctness(p, g) for g in gold] for p in calls]
    total, _ = best_assignment(scores)
    return MatchReward(total / max(len(gold), len(calls)), 1.0)


class MatchCurriculum:
    """Model-aware curriculum over ``n_samples`` training samples (see the module docstring).

    Difficulties start at ``initial_difficulty``; :meth:`select` returns the
    next batch of sample indices and :meth:`update` refreshes the difficulty of
    the selected samples from their rewards (in [0, 1]).
    """

    def __init__(
        self,
        n_samples: int,
        batch_size: int,
        top_k_hard: int,
        *,
        initial_difficulty: float | Sequence[float] = 0.5,
        seed: int = 0,
    ) -> None:
        if not 0 <= top_k_hard <= batch_size <= n_samples:
            raise ConfigError(f"need 0 <= top_k_hard ({top_k_hard}) <= batch_size ({batch_size}) <= n_samples ({n_samples})")
        self.batch_size = batch_size
        self.top_k_hard = top_k_hard
        if isinstance(initial_difficulty, (int, float)):
            self.difficulty = [float(initial_difficulty)] * n_samples
        else:
            if len(initial_difficulty) != n_samples:
                raise ConfigError(f"{len(initial_difficulty)} initial difficulties for {n_samples} samples")
            self.difficulty = [float(d) for d in initial_difficulty]
        self._rng = random.Random(seed)

    @property
    def mean_difficulty(self) -> float:
        """The current mean difficulty over all samples."""
        return sum(self.difficulty) / len(self.difficulty)

    def select(self) -> list[int]:
        """Indices of the next batch: the ``top_k_hard`` hardest, then those nearest the mean difficulty."""
        n = len(self.difficulty)
        jitter = [self._rng.random() for _ in range(n)]  # random tie-breaks, reproducible by seed
        hardest = sorted(range(n), key=lambda i: (-self.difficulty[i], jitter[i]))[: self.top_k_hard]
        chosen = set(hardest)
        mu = self.mean_difficulty
        rest = sorted((i for i in range(n) if i not in chosen), key=lambda i: (abs(self.difficulty[i] - mu), jitter[i]))
        return hardest + rest[: self.batch_size - self.top_k_hard]

    def update(self, indices: Sequence[int], rewards: Sequence[Sequence[float]] | Sequence[float]) -> None:
        """Set each selected sample's difficulty to ``1 - mean(rewards)`` of its rollouts this round."""
        if len(indices) != len(rewards):
            raise ConfigError(f"{len(indices)} indices but {len(rewards)} reward entries")
        for i, r in zip(indices, rewards):
            values = [float(x) for x in r] if isinstance(r, (list, tuple)) else [float(r)]
            if not values or any(math.isnan(v) for v in values):
                raise ConfigError(f"sample {i}: rewards must be a non-empty list of numbers")
            self.difficulty[i] = 1.0 - sum(values) / len(values)
