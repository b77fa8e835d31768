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

Rule recovery is measured by behaviour (``rule_probes``, ``rule_recovery``):
a true rule's probes are the world's tests in which it fires plus up to 10
deterministic variants of them (one value perturbed, or the same write on
another record) in which it fires too. The effects it is *responsible* for
on a probe are the multiset difference between the true rules' effects and
the effects of the true rules minus that rule (``adds``), and the reverse
difference (``removes``: effects it suppresses). The rule is recovered when,
on every probe, the model's prediction contains all of ``adds`` and nothing
of ``removes``.

``deleted_rule_retired`` (worlds that lack a rule id the previous world of
the family had; inheriting methods only, null elsewhere) is true when the
model's prediction holds none of the deleted rule's ``adds`` on its probes
(made on this world's tests, under the previous world's rules) AND the
model's history holds a retire or revise made in this world.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memkit.errors import ConfigError, MemkitError
from memkit.rules import Action, Engine, FieldSpec, Rule, World, effect_key, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda import discover
from evals.worldshift.platform import ACCESS_LEVELS, Platform

__all__ = [
    "METHODS",
    "DEFAULT_METHODS",
    "BenchmarkSettings",
    "Probe",
    "deleted_rule_probes",
    "deleted_rule_retired",
    "rule_probes",
    "rule_recovery",
    "run_benchmark",
    "summarize",
]

METHODS = ("none", "oracle", "rebuild", "continual", "continual+audit", "llm")
DEFAULT_METHODS = ("none", "oracle", "rebuild", "continual", "continual+audit")
_LEARNING = ("rebuild", "continual", "continual+audit", "llm")
_INHERITING = ("continual", "continual+audit", "llm")


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
        if self.budget < 0:
            raise ConfigError(f"--budget must be >= 0, got {self.budget}")
        if self.seeds < 1:
            raise ConfigError(f"--seeds must be >= 1, got {self.seeds}")
        if self.checkpoint_every < 0:
            raise ConfigError(f"--checkpoint-every must be >= 0, got {self.checkpoint_every}")
        if not self.worlds:
            raise ConfigError("give at least one world")


def _oracle_model(world: World) -> RuleModel:
    model = RuleModel(world.schema, world.name)
    for rule in world.rules:
        model.add(rule, reason="oracle: the world's true rule", rule_id=rule.id)
    return model


@dataclass
class Probe:
    """One write aimed at a rule's trigger, and the effects that rule is responsible for there.

    ``adds``: effects present when the rule set includes the rule and absent
    without it; ``removes``: effects present only without it (a rule can
    suppress what another one would do, e.g. by changing a field first);
    ``rest``: the effects of the rule set without it.
    """

    action: Action
    adds: Counter
    removes: Counter
    rest: Counter = field(default_factory=Counter)


def _alternatives(world: World, spec: FieldSpec, value: Any, rng: random.Random) -> list[Any]:
    """Other values of the same field type, near ``value`` where that means something."""
    if value is None:
        return []
    if spec.type == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return [value + 1, value - 1, value * 2, round(value / 2, 2), 0, round(value * 1.1, 2)]
    if spec.type == "boolean":
        return [not value]
    if spec.type == "choice":
        return [c for c in spec.choices or () if c != value]
    if spec.type == "reference" and spec.ref:
        ids = [r["id"] for r in world.records.get(spec.ref, []) if r["id"] != value]
        return rng.sample(ids, min(3, len(ids)))
    if spec.type == "string":
        return [f"{value} (probe)", ""]
    return []


def _perturbations(world: World, action: Action, rng: random.Random) -> list[Action]:
    """Variants of ``action``: one value changed at a time, or the same write on another record."""
    table = world.schema.table(action.table)
    out: list[Action] = []
    for name, value in action.values.items():
        spec = table.fields.get(name)
        if spec is None:
            continue
        out += [Action(action.op, action.table, action.id, {**action.values, name: alt})
                for alt in _alternatives(world, spec, value, rng)]
    if action.op in ("update", "delete"):
        ids = [r["id"] for r in world.records.get(action.table, []) if r["id"] != action.id]
        out += [Action(action.op, action.table, rid, dict(action.values)) for rid in rng.sample(ids, min(4, len(ids)))]
    return out


def rule_probes(world: World, rule_id: str, rules: Sequence[Rule] | None = None, *, extra: int = 10) -> list[Probe]:
    """Probes targeted at ``rule_id``'s trigger, with the effects it is responsible for on each.

    The probes are the world's tests in which the rule fires (under ``rules``,
    the world's own rules by default), plus up to ``extra`` variants of those
    tests (one value perturbed, or the same write on another record of the
    table), chosen deterministically, that are valid writes and in which the
    rule fires too. Responsibility is measured against the same rule set
    without the rule, on the world's initial records.
    """
    rules = list(world.rules if rules is None else rules)
    initial = world.initial_state()
    with_rule = Engine(world.schema, rules)
    without = Engine(world.schema, [r for r in rules if r.id != rule_id])
    base = [t for t in world.tests if rule_id in with_rule.run(initial, t).fired]
    rng = random.Random(f"{world.name}/{rule_id}")
    seen = {repr(a) for a in base}
    candidates = [c for t in base for c in _perturbations(world, t, rng)]
    rng.shuffle(candidates)
    extras: list[Action] = []
    for cand in candidates:
        if len(extras) >= extra:
            break
        if repr(cand) in seen:
            continue
        seen.add(repr(cand))
        try:
            with_rule.check_action(initial, cand)
        except MemkitError:
            continue
        if rule_id in with_rule.run(initial, cand).fired:
            extras.append(cand)
    probes = []
    for action in base + extras:
        a = Counter(effect_key(e) for e in with_rule.run(initial, action).effects)
        b = Counter(effect_key(e) for e in without.run(initial, action).effects)
        probes.append(Probe(action, a - b, b - a, b))
    return probes


def _reproduces(model: RuleModel, probes: Sequence[Probe], initial: Any) -> bool:
    """The model's prediction holds every effect the rule adds and none it removes, on every probe."""
    for probe in probes:
        pred = Counter(effect_key(e) for e in model.predict(probe.action, initial))
        if (probe.adds - pred) or (probe.removes & pred):
            return False
    return True


def rule_recovery(world: World, model: RuleModel, probes: Mapping[str, list[Probe]] | None = None) -> tuple[int, int, int]:
    """(true rules recovered by behaviour, true rules, true rules with at least one probe).

    A true rule is recovered when, on every probe targeted at its trigger (see
    ``rule_probes``), the model's predicted effects contain every effect the
    rule is responsible for (``adds``) and none of those it suppresses
    (``removes``). Effects of other rules in the same prediction are not held
    against it: they are scored by IoU. A rule that fires in none of the
    world's tests has no probe and cannot be counted as recovered;
    ``rules_probed`` says how many could be.
    """
    probes = probes if probes is not None else {r.id: rule_probes(world, r.id) for r in world.rules}
    initial = world.initial_state()
    recovered = probed = 0
    for rule in world.rules:
        mine = probes.get(rule.id, [])
        if not mine:
            continue
        probed += 1
        recovered += _reproduces(model, mine, initial)
    return recovered, len(world.rules), probed


def deleted_rule_probes(prev: World | None, world: World) -> dict[str, list[Probe]]:
    """For each rule of ``prev`` that ``world`` no longer has (by id): probes on ``world``'s tests
    and records, with the effects the rule was responsible for under ``prev``'s rules."""
    if prev is None:
        return {}
    kept = {r.id for r in world.rules}
    deleted = [r.id for r in prev.rules if r.id not in kept]
    if not deleted:
        return {}
    # the probes run on this world's tests and records, under the previous world's rules
    shadow = World(world.name, world.schema, world.records, list(prev.rules), world.tests)
    return {rid: rule_probes(shadow, rid) for rid in deleted}


def deleted_rule_retired(world: World, model: RuleModel, probes: Mapping[str, list[Probe]]) -> bool | None:
    """Whether the deleted rule's counterpart is gone from the model (None when no rule was deleted).

    True when BOTH hold: (1) on every probe of every deleted rule, the
    model's prediction holds none of the effects that rule was responsible
    for in the previous world (so no active learned rule still produces
    them), and (2) the model's history has a ``retire`` or ``revise`` made in
    this world (the model acted on the change, rather than never having
    learned the rule).

    Effects are counted as multisets: where the other rules produce the same
    effect on a probe (another notice to the same member), the model may
    predict it as often as they do; only a surplus is the deleted rule's.
    """
    if not probes:
        return None
    initial = world.initial_state()
    for rule_probes_ in probes.values():
        for probe in rule_probes_:
            pred = Counter(effect_key(e) for e in model.predict(probe.action, initial))
            if probe.adds & (pred - probe.rest):
                return False
    return any(h.world == model.world and h.op in ("retire", "revise") for h in model.history)


def _iou(world: World, model: RuleModel, truth: list) -> float:
    return score_world(model.predict_many(world.tests, world.initial_state()), truth).iou


def run_benchmark(
    settings: BenchmarkSettings,
    worlds: Sequence[World],
    *,
    progress: Callable[[str, int, int], None] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    store: Any = None,
    llm_policy_factory: Callable[[], Any] | None = None,
) -> dict[str, Any]:
    """Run every method over the family for every seed; return the JSON-able results.

    ``progress`` hears (label, writes done, budget) during discovery; ``on_result`` gets each
    (method, seed, world) row as soon as it is scored, for a log of a long run as it goes.
    """
    settings.validate()
    if "llm" in settings.methods and llm_policy_factory is None:
        raise ConfigError("method 'llm' needs an endpoint: set MEMKIT_LLM_BASE_URL and MEMKIT_LLM_MODEL (and MEMKIT_LLM_API_KEY)")
    # everything that depends on the world only (truth, probes) is computed once, not per method and seed
    truths = [effects_of_tests(w.schema, w.rules, w.initial_state(), w.tests) for w in worlds]
    probes = [{r.id: rule_probes(w, r.id) for r in w.rules} for w in worlds]
    deleted = [deleted_rule_probes(worlds[i - 1] if i else None, w) for i, w in enumerate(worlds)]
    rows: list[dict[str, Any]] = []
    for method in settings.methods:
        for seed in range(settings.seeds):
            model: RuleModel | None = None
            for index, world in enumerate(worlds):
                t0 = time.perf_counter()
                platform = Platform(world, access=settings.access)
                curve: list[tuple[int, float]] = []
                scoring = [0.0]
                if method == "none":
                    model_w = RuleModel(world.schema, world.name)
                elif method == "oracle":
                    model_w = _oracle_model(world)
                else:
                    inherit = method in ("continual", "continual+audit", "llm") and model is not None
                    model_w = model.inherit(world.name) if inherit else RuleModel(world.schema, world.name)  # type: ignore[union-attr]
                    audit = method != "continual"
                    policy = llm_policy_factory() if method == "llm" and llm_policy_factory else None

                    def checkpoint(writes: int, m: RuleModel, _w=world, _c=curve, _t=truths[index], _s=scoring) -> None:
                        # scoring checkpoints is the benchmark's work, not the method's: kept out of "seconds"
                        s0 = time.perf_counter()
                        _c.append((writes, _iou(_w, m, _t)))
                        _s[0] += time.perf_counter() - s0

                    def tick(done: int, total: int, _m=method, _w=world) -> None:
                        if progress is not None:
                            progress(f"{_m} {_w.name} seed {seed}", done, total)

                    discover(platform, model_w, budget=settings.budget, audit=audit, seed=seed, policy=policy,
                             checkpoint=checkpoint, checkpoint_every=settings.checkpoint_every, progress=tick)
                seconds = time.perf_counter() - t0 - scoring[0]
                predicted = model_w.predict_many(world.tests, world.initial_state())
                score = score_world(predicted, truths[index])
                recovered, n_true, n_probed = rule_recovery(world, model_w, probes[index])
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
                    "deleted_rule_retired": deleted_rule_retired(world, model_w, deleted[index]) if method in _INHERITING else None,
                    "writes": platform.writes,
                    "reads": platform.reads,
                    "seconds": round(seconds, 3),
                    "writes_to_iou_95": reach,
                    "active_rules": len(model_w.active()),
                    "curve": curve,
                })
                if on_result is not None:
                    on_result(rows[-1])
                if store is not None and method in _LEARNING:
                    store.save(model_w, f"{method}/{seed}/{world.name}")
                model = model_w
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
