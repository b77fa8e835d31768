"""A number another before rule recomputes from this rule's own effect (a charge's outstanding
amount, from the late fee) changed only because the rule fired: a condition on its change fits
every write seen and predicts nothing. And two rules learned on one condition that reads a field
one of them sets (the late fee and the late status, both while the charge is open) read it as
written, so the one that sets it runs last."""

from __future__ import annotations

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
