"""A rule on a number the model computes from the written fields (severity on the net amount,
derived from the loss) is learned to fire on a change of that number, so it also predicts a
direct write of the number, not only writes of the field it was seen through."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from memkit.rules import Action, Engine, Rule, load_world
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes

LOSS_WRITES = [Action("update", "claim", cid, {"loss_amount": loss}) for cid, loss in
               (("C1", 200), ("C2", 50), ("C3", 300), ("C4", 60), ("C1", 90), ("C2", 180))]
# a claim whose net amount is already large, written elsewhere: severity stays as it is
OTHER_WRITES = [Action("update", "claim", "C5", {"fraud_score": score}) for score in (20, 70)]


@pytest.fixture(scope="module")
def losses() -> World:
    return load_world(Path(__file__).parent / "worlds" / "losses-A.yaml")


def _learned(world: World) -> RuleModel:
    """What induction makes of the writes, given how the net amount is computed (learned from
    these writes alone, that rule has no condition and would recompute a net amount written directly)."""
    model = RuleModel(world.schema, world.name)
    model.add(world.rule("net_from_loss").to_dict(), reason="known")
    Inducer(world.schema).run(model, observe_writes(Platform(world), LOSS_WRITES + OTHER_WRITES), world.name)
    return model


def _severity(world: World, rules: Sequence[Rule], action: Action) -> list[tuple[Any, ...]]:
    effects = Engine(world.schema, rules).run(world.initial_state(), action).effects
    return [tuple(e) for e in effects if e[0] == "set" and e[3] == "severity"]


@pytest.mark.parametrize("action", [
    Action("update", "claim", "C1", {"net_amount": 150}),   # the computed number written directly
    Action("update", "claim", "C3", {"net_amount": 40}),
    Action("update", "claim", "C5", {"fraud_score": 90}),   # another field: nothing
    Action("update", "claim", "C2", {"loss_amount": 400}),  # and through the loss, as observed
])
def test_a_rule_on_a_computed_number_fires_on_its_change(losses, action):
    model = _learned(losses)
    assert _severity(losses, model.active_rules(), action) == _severity(losses, losses.rules, action)
