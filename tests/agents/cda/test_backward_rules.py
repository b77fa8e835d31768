"""A value is never read back from a field the model computes from it: a late fee that no
expression of the bill gives (15 or 40 by how late) fits, read back from the balance due the
model recomputes from the fee, as one rule that predicts no change at all."""

from __future__ import annotations

from memkit.rules import Action

from agents.cda.induction import order_before_rules

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "bill", b, v) for b, v in
          [("B1", {"amount": 250}), ("B2", {"paid": 160}), ("B1", {"paid": 20}), ("B2", {"amount": 600}),
           ("B1", {"days_late": 12}), ("B2", {"days_late": 40}), ("B1", {"days_late": 3}), ("B2", {"days_late": 31}),
           ("B1", {"days_late": 6}), ("B2", {"days_late": 30})]]


def test_a_value_is_not_read_back_from_a_field_computed_from_it():
    world = hand_made_world("overdue-A")
    model = induced(world, WRITES)
    order_before_rules(model, lambda rid: True, lambda note: None)  # as discovery does after induction
    texts = [lr.text for lr in model.active()]
    assert not any("late_fee = " in t and "outstanding" in t.split("late_fee = ", 1)[1] for t in texts), texts
    after = state_after(model, world, Action("update", "bill", "B3", {"days_late": 45})).get("bill", "B3")
    assert (after["late_fee"], after["outstanding"]) == (40, 40), texts
