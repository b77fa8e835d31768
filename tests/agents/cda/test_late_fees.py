"""A number another before rule recomputes from this rule's own effect (a charge's outstanding
amount, from the late fee) changed only because the rule fired: a condition on its change fits
every write seen and predicts nothing. And two rules learned on one condition that reads a field
one of them sets (the late fee and the late status, both while the charge is open) read it as
written, so the one that sets it runs last, whatever order each condition lists its terms in."""

from __future__ import annotations

from memkit.rules.model import RuleModel

from agents.cda.induction import order_before_rules
from tests.agents.cda.helpers import discovered, hand_made_world, iou_on_tests


def test_the_late_fee_does_not_wait_for_the_outstanding_amount_it_changes():
    model = discovered(hand_made_world("latefees-A"), 60)
    conditions = [lr.rule.get("condition") or "" for lr in model.active()]
    assert not any("changed(outstanding)" in c for c in conditions), conditions


def test_late_charges_are_predicted_whatever_the_order_the_rules_were_learned_in():
    world = hand_made_world("latefees-A")
    for budget in (30, 60):
        model = discovered(world, budget)
        assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]


def test_one_condition_in_another_order_is_one_guard():
    world = hand_made_world("latefee-A")
    model = RuleModel(world.schema, world.name)
    model.add({"table": "charge", "events": ["update"], "when": "before",
               "condition": "changed(days_late) and current.status == 'open' and current.days_late > 3",
               "actions": [{"set": {"late_fee": "50"}}]}, reason="test", rule_id="L001")
    model.add({"table": "charge", "events": ["update"], "when": "before",
               "condition": "changed(days_late) and current.days_late > 3 and current.status == 'open'",
               "actions": [{"set": {"status": "'late'"}}]}, reason="test", rule_id="L002")
    order_before_rules(model, lambda _: True, lambda _: None)
    # the status rule runs last: the fee rule, after it, would see the charge late and not fire
    assert model.get("L002").rule.get("order", 100) > model.get("L001").rule.get("order", 100)


def test_a_late_charge_bisected_at_the_days_its_record_holds_is_learned():
    world = hand_made_world("latefee-A")
    assert iou_on_tests(discovered(world, 60), world) == 1.0
