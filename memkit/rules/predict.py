"""Side effects of many actions under one rule set, each from the same starting state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memkit.rules.engine import Action, Effect, Engine
from memkit.rules.rule import Rule
from memkit.rules.schema import Schema
from memkit.rules.state import State

__all__ = ["effects_of_tests"]


def effects_of_tests(schema: Schema, rules: Iterable[Rule], initial: State, tests: Sequence[Action]) -> list[list[Effect]]:
    """Each test's side effects, run on ``initial`` (never modified), in test order."""
    engine = Engine(schema, rules)
    return [engine.run(initial, test).effects for test in tests]
