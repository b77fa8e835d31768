"""``make bench`` for the rule memory: time to predict all 600 ews tests, as a ratio to a baseline.

The baseline is the unavoidable part of any prediction: copying the initial
state once per test. The target (issue 3) is under 2 s for all 600 tests.
"""

from __future__ import annotations

import time

from memkit.rules.model import RuleModel

from evals.worldshift.worlds_index import DEFAULT_FAMILY, load_named_world

__all__ = ["run"]


def _oracle(world) -> RuleModel:
    model = RuleModel(world.schema, world.name)
    for rule in world.rules:
        model.add(rule, reason="bench", rule_id=rule.id)
    return model


def run(quick: bool = False) -> list[dict]:
    """Predict every test of ews-A..D with the true rules through the model's predictor."""
    worlds = [load_named_world(w) for w in DEFAULT_FAMILY]
    repeats = 1 if quick else 3
    rows = []
    total_pred = total_base = 0.0
    n_tests = 0
    for world in worlds:
        model = _oracle(world)
        initial = world.initial_state()
        model.predict_many(world.tests[:1], initial)  # compile once, as a user's first call would
        best_pred = best_base = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            model.predict_many(world.tests, initial)
            best_pred = min(best_pred, time.perf_counter() - t0)
            t0 = time.perf_counter()
            for _ in world.tests:
                initial.copy()
            best_base = min(best_base, time.perf_counter() - t0)
        total_pred += best_pred
        total_base += best_base
        n_tests += len(world.tests)
        rows.append({"world": world.name, "tests": len(world.tests), "predict_s": best_pred,
                     "state_copies_s": best_base, "ratio_to_copies": best_pred / best_base})
    rows.append({"world": "all", "tests": n_tests, "predict_s": total_pred, "state_copies_s": total_base,
                 "ratio_to_copies": total_pred / total_base, "target_s": 2.0, "met": total_pred < 2.0})
    return rows
