"""The EnterpriseWorldShift benchmark: discovery over a family of worlds, prediction, scoring.

For each method and seed the family is walked in order (A -> B -> C -> D).
Discovery happens on the live platform within the write budget; prediction
happens afterwards, on the world's initial records, without the platform.

Methods:

- ``none``: predicts no side effects (the floor);
- ``oracle``: the world's true rules through the same predictor (must be 1.0: it proves the pipeline);
- ``rebuild``: a fresh model in every world;
- ``continual``: the model is inherited and never audited (the paper's CDA);
- ``continual+audit``: inherited and audited (ours);
- ``llm``: the LLM policy (needs an OpenAI-compatible endpoint).

Rule recovery is measured by behaviour: a true rule is recovered when, on
every probe aimed at its trigger (the world's tests in which it fires), the
model predicts exactly the effects the rule is responsible for — those that
appear with the rule and not without it — and none of those it removes.
``deleted_rule_retired`` (worlds whose shift deletes a rule, inheriting
methods only) is true when the model no longer predicts any effect of the
deleted rule on the world's tests on that rule's trigger AND the model's
history in that world holds a retire or revise.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memkit.errors import ConfigError
from memkit.rules import Action, Engine, World, effect_key, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda import discover
from evals.worldshift.platform import ACCESS_LEVELS, Platform

__all__ = ["METHODS", "DEFAULT_METHODS", "BenchmarkSettings", "run_benchmark", "rule_recovery", "summarize"]

METHODS = ("none", "oracle", "rebuild", "continual", "continual+audit", "llm")
DEFAULT_METHODS = ("none", "oracle", "rebuild", "continual", "continual+audit")
_LEARNING = ("rebuild", "continual", "continual+audit", "llm")


@dataclass
class BenchmarkSettings:
    """What to run: the world family (names or paths), access level, budget, methods, seeds."""

    worlds: list[str]
    access: str = "blind"
    budget: int = 300
    methods: list[str] = field(default_factory=lambda: list(DEFAULT_METHODS))
    seeds: int = 1
    checkpoint_every: int = 10

    def validate(self) -> None:
        """Raise ConfigError on an unknown method or access level, or a non-positive budget/seeds."""
        unknown = [m for m in self.methods if m not in METHODS]
        if unknown:
            raise ConfigError(f"unknown method(s) {unknown}; methods are {', '.join(METHODS)}")
        if self.access not in ACCESS_LEVELS:
            raise ConfigError(f"access must be one of {', '.join(ACCESS_LEVELS)}, got {self.access!r}")
        if self.budget < 0 or self.seeds < 1:
            raise ConfigError("budget must be >= 0 and seeds >= 1")
        if not self.worlds:
            raise ConfigError("give at least one world")


def _oracle_model(world: World) -> RuleModel:
    model = RuleModel(world.schema, world.name)
    for rule in world.rules:
        model.add(rule, reason="oracle: the world's true rule", rule_id=rule.id)
    return model


def _responsible(world: World, rule_id: str, probes: Sequence[Action]) -> list[tuple[Counter, Counter]]:
    """Per probe: effects the rule adds (present with it, not without) and removes."""
    initial = world.initial_state()
    with_rule = Engine(world.schema, world.rules)
    without = Engine(world.schema, [r for r in world.rules if r.id != rule_id])
    out = []
    for probe in probes:
        a = Counter(effect_key(e) for e in with_rule.run(initial, probe).effects)
        b = Counter(effect_key(e) for e in without.run(initial, probe).effects)
        out.append((a - b, b - a))
    return out


def rule_recovery(world: World, model: RuleModel) -> tuple[int, int, int]:
    """(true rules recovered by behaviour, true rules, true rules with at least one probe).

    A rule that fires in none of the world's tests has no probe and cannot be
    counted as recovered; ``rules_probed`` says how many could be.
    """
    initial = world.initial_state()
    engine = Engine(world.schema, world.rules)
    fired = [set(engine.run(initial, t).fired) for t in world.tests]
    recovered = probed = 0
    for rule in world.rules:
        probes = [t for t, f in zip(world.tests, fired) if rule.id in f]
        if not probes:
            continue
        probed += 1
        ok = True
        for probe, (adds, removes) in zip(probes, _responsible(world, rule.id, probes)):
            pred = Counter(effect_key(e) for e in model.predict(probe, initial))
            if (adds - pred) or (removes & pred):
                ok = False
                break
        recovered += ok
    return recovered, len(world.rules), probed


def _deleted_rule_retired(prev: World | None, world: World, model: RuleModel) -> bool | None:
    deleted = (world.shift or {}).get("delete") or []
    if prev is None or not deleted:
        return None
    initial = world.initial_state()
    prev_engine = Engine(prev.schema, prev.rules)
    for rid in deleted:
        probes = [t for t in world.tests if rid in prev_engine.run(initial, t).fired]
        for probe, (adds, _) in zip(probes, _responsible(prev, rid, probes)):
            pred = Counter(effect_key(e) for e in model.predict(probe, initial))
            if adds & pred:
                return False
    edited = any(h.world == model.world and h.op in ("retire", "revise") for h in model.history)
    return edited


def _iou(world: World, model: RuleModel, truth: list) -> float:
    return score_world(model.predict_many(world.tests, world.initial_state()), truth).iou


def run_benchmark(
    settings: BenchmarkSettings,
    worlds: Sequence[World],
    *,
    progress: Callable[[str, int, int], None] | None = None,
    store: Any = None,
    llm_policy_factory: Callable[[], Any] | None = None,
) -> dict[str, Any]:
    """Run every method over the family for every seed; return the JSON-able results."""
    settings.validate()
    if "llm" in settings.methods and llm_policy_factory is None:
        raise ConfigError("method 'llm' needs an endpoint: set MEMKIT_LLM_BASE_URL and MEMKIT_LLM_MODEL (and MEMKIT_LLM_API_KEY)")
    truths = {w.name: effects_of_tests(w.schema, w.rules, w.initial_state(), w.tests) for w in worlds}
    rows: list[dict[str, Any]] = []
    for method in settings.methods:
        for seed in range(settings.seeds):
            model: RuleModel | None = None
            prev: World | None = None
            for world in worlds:
                t0 = time.perf_counter()
                platform = Platform(world, access=settings.access)
                curve: list[tuple[int, float]] = []
                if method == "none":
                    model_w = RuleModel(world.schema, world.name)
                elif method == "oracle":
                    model_w = _oracle_model(world)
                else:
                    inherit = method in ("continual", "continual+audit", "llm") and model is not None
                    model_w = model.inherit(world.name) if inherit else RuleModel(world.schema, world.name)  # type: ignore[union-attr]
                    audit = method != "continual"
                    policy = llm_policy_factory() if method == "llm" and llm_policy_factory else None

                    def checkpoint(writes: int, m: RuleModel, _w=world, _c=curve) -> None:
                        _c.append((writes, _iou(_w, m, truths[_w.name])))

                    def tick(done: int, total: int, _m=method, _w=world) -> None:
                        if progress is not None:
                            progress(f"{_m} {_w.name} seed {seed}", done, total)

                    discover(platform, model_w, budget=settings.budget, audit=audit, seed=seed, policy=policy,
                             checkpoint=checkpoint, checkpoint_every=settings.checkpoint_every, progress=tick)
                seconds = time.perf_counter() - t0
                predicted = model_w.predict_many(world.tests, world.initial_state())
                score = score_world(predicted, truths[world.name])
                recovered, n_true, n_probed = rule_recovery(world, model_w)
                reach = next((w for w, iou in sorted(curve) if iou >= 0.95), None) if method in _LEARNING else None
                rows.append({
                    "method": method,
                    "world": world.name,
                    "seed": seed,
                    "precision": score.precision,
                    "recall": score.recall,
                    "iou": score.iou,
                    "rules_recovered": recovered,
                    "rules_true": n_true,
                    "rules_probed": n_probed,
                    "deleted_rule_retired": _deleted_rule_retired(prev, world, model_w) if method in ("continual", "continual+audit", "llm") else None,
                    "writes": platform.writes,
                    "reads": platform.reads,
                    "seconds": round(seconds, 3),
                    "writes_to_iou_95": reach,
                    "active_rules": len(model_w.active()),
                    "curve": curve,
                })
                if store is not None and method in _LEARNING:
                    store.save(model_w, f"{method}/{seed}/{world.name}")
                model, prev = model_w, world
    return {"settings": asdict(settings), "results": rows, "summary": summarize(rows)}


def _mean_std(values: list[float]) -> tuple[float, float]:
    if not values:
        return float("nan"), float("nan")
    return statistics.fmean(values), (statistics.stdev(values) if len(values) > 1 else 0.0)


def summarize(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean and spread over seeds, per method and world (in first-seen order)."""
    keys: list[tuple[str, str]] = []
    for r in rows:
        if (r["method"], r["world"]) not in keys:
            keys.append((r["method"], r["world"]))
    out = []
    for method, world in keys:
        group = [r for r in rows if r["method"] == method and r["world"] == world]
        entry: dict[str, Any] = {"method": method, "world": world, "seeds": len(group)}
        for metric in ("precision", "recall", "iou", "rules_recovered", "writes", "reads", "seconds"):
            mean, std = _mean_std([float(r[metric]) for r in group])
            entry[metric] = mean
            entry[f"{metric}_std"] = std
        entry["rules_true"] = group[0]["rules_true"]
        entry["rules_probed"] = group[0]["rules_probed"]
        retired = [r["deleted_rule_retired"] for r in group if r["deleted_rule_retired"] is not None]
        entry["deleted_rule_retired"] = None if not retired else f"{sum(retired)}/{len(retired)}"
        reach = [r["writes_to_iou_95"] for r in group if r["writes_to_iou_95"] is not None]
        entry["writes_to_iou_95"] = statistics.fmean(reach) if reach else None
        entry["reached_95"] = f"{len(reach)}/{len(group)}" if group[0]["method"] in _LEARNING else None
        out.append(entry)
    return out
