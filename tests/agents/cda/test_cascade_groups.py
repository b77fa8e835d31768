"""Records a write creates about itself and records a cascade creates about another record of
the same kind fall in one slot (an enrolment's own charge, and the charge of the waitlisted
enrolment a drop promotes). No one rule names the other record; the rule for the written record
is still learned from the writes whose records name it, and the cascade is then explained by it."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, iou_on_tests

WRITES = [Action("update", "enrollment", e, {"status": s}) for e, s in
          [("E2", "enrolled"), ("E6", "enrolled"), ("E1", "dropped"), ("E3", "dropped"), ("E7", "waitlisted"), ("E5", "waitlisted")]]


def test_the_rule_for_the_written_record_is_learned_beside_a_cascade_to_another():
    world = hand_made_world("waitlist-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert any("changes_to(status, 'enrolled')" in t and "create charge" in t and "enrollment = id" in t for t in texts), texts
    assert iou_on_tests(model, world) == 1.0, texts
