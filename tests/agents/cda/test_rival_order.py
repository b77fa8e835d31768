"""Two before rules that set one field and read none of each other's: the writes decide which runs last."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer, induce_until_stable
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, observe_writes, state_after

CANCEL_AND_RESIZE = Action("update", "line", "N1", {"state": "cancelled", "quantity": 5})
WRITES = [
    Action("update", "line", "N2", {"quantity": 3}),
    Action("update", "line", "N1", {"state": "cancelled"}),
    Action("insert", "line", "N8", {"quantity": 2}),
]


def _learned_before_the_rival_write() -> RuleModel:
    """What the other writes teach (as a model inherited from an earlier world would hold it): the
    total rule reads the price the list-price rule sets, so it is ordered after both other rules."""
    world = hand_made_world("lines-A")
    model = RuleModel(world.schema, "lines-A")
    model.add({"table": "line", "events": ["insert"], "when": "before", "condition": "is_empty(current.unit_price)",
               "actions": [{"set": {"unit_price": "12"}}]}, reason="test", rule_id="L001")
    model.add({"table": "line", "events": ["insert", "update"], "when": "before", "order": 110,
               "condition": "changed(quantity) or changed(unit_price)",
               "actions": [{"set": {"total": "current.quantity * current.unit_price"}}]}, reason="test", rule_id="L002")
    model.add({"table": "line", "events": ["update"], "when": "before", "condition": "changes_to(state, 'cancelled')",
               "actions": [{"set": {"total": "0"}}]}, reason="test", rule_id="L003")
    return model


def test_a_write_that_fires_both_orders_them():
    world = hand_made_world("lines-A")
    model = _learned_before_the_rival_write()
    assert state_after(model, world, CANCEL_AND_RESIZE).get("line", "N1")["total"] == 150  # the wrong order
    observations = observe_writes(Platform(world), [*WRITES, CANCEL_AND_RESIZE])
    induce_until_stable(Inducer(world.schema), model, observations, world.name, lambda _: None)
    assert state_after(model, world, CANCEL_AND_RESIZE).get("line", "N1")["total"] == 0
    # reordered, not rewritten: both rules keep what they say
    assert model.get("L002").rule["condition"] == "changed(quantity) or changed(unit_price)"
    assert model.get("L002").rule["events"] == ["insert", "update"]  # before, it kept inserts and a new rule took updates
    assert model.get("L003").rule["condition"] == "changes_to(state, 'cancelled')"
    assert model.get("L003").rule.get("order", 100) > model.get("L002").rule.get("order", 100)
    assert model.get("L002").status == model.get("L003").status == "active"


def test_without_such_a_write_the_order_stands():
    world = hand_made_world("lines-A")
    model = _learned_before_the_rival_write()
    induce_until_stable(Inducer(world.schema), model, observe_writes(Platform(world), WRITES), world.name, lambda _: None)
    assert model.get("L002").rule.get("order") == 110
    assert model.get("L003").rule.get("order", 100) == 100
