"""Two before rules on one update, one setting a status (an issued invoice with days overdue
becomes overdue) and one firing on the change to that status (a late fee): the fee rule reads
the status through ``changes_to``, so it runs after the rule that sets it."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import order_before_rules
from tests.agents.cda.helpers import hand_made_world, state_after


def test_a_rule_on_the_change_to_a_status_runs_after_the_rule_that_sets_it():
    world = hand_made_world("invoices-A")
    model = RuleModel(world.schema, world.name)
    # added first, so that a tie in order would run the fee before the status is set
    fee = model.add({"id": "x", "table": "invoice", "events": ["update"], "when": "before",
                     "condition": "changes_to(status, 'overdue') and current.late_fee < 1",
                     "actions": [{"set": {"late_fee": "10"}}]}, reason="fee")
    status = model.add({"id": "x", "table": "invoice", "events": ["update"], "when": "before",
                        "condition": "changed(days_overdue) and current.status == 'issued'",
                        "actions": [{"set": {"status": "'overdue'"}}]}, reason="status")
    order_before_rules(model, lambda rid: True, lambda text: None)
    assert model.get(fee).rule["order"] > model.get(status).rule.get("order", 100)
    after = state_after(model, world, Action("update", "invoice", "I4", {"days_overdue": 12}))
    assert after.get("invoice", "I4")["late_fee"] == 10

