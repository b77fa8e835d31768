"""An inherited model's first writes in a new world: the audit's replays take turns with the
sweep's first phase, so that a rule added on a trigger no inherited evidence writes is found early."""

from __future__ import annotations

from memkit.rules.model import RuleModel

from agents.cda import discover
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, iou_on_tests


def _inherited_from_shop_a() -> RuleModel:
    shop_a = hand_made_world("shop-A")
    model = RuleModel(shop_a.schema, "shop-A")
    discover(Platform(shop_a), model, budget=300)
    return model


def test_added_rule_is_found_while_the_audit_replays():
    # shop-E adds a rule on customer tiers, which no rule of shop-A reads: none of the 11
    # replays of the inherited evidence writes a tier, so before, the first write that showed
    # the new rule came after them all (the 13th)
    shop_e = hand_made_world("shop-E")
    model = _inherited_from_shop_a().inherit("shop-E")
    discover(Platform(shop_e), model, budget=12)
    notes = [e.note for e in model.trajectory]
    assert sum(note.startswith("audit") for note in notes) >= 5, notes  # the audit still runs from the first write
    assert any(lr.rule["table"] == "customer" and "cancelled" in lr.text for lr in model.active())


def test_turns_taken_leave_the_audit_complete():
    shop_e = hand_made_world("shop-E")
    model = _inherited_from_shop_a().inherit("shop-E")
    discover(Platform(shop_e), model, budget=300)
    assert iou_on_tests(model, shop_e) == 1.0
    assert any("changes_to(tier, 'basic')" in lr.text for lr in model.active())
