"""A condition is looked for on the record as the write left it when none fits the record as it
ended: a field the write set that its own cascade later overwrote (a balance recomputed once a
scholarship the same write suspended came back to the student) was read as written by the rule
that fired on the write."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "student", "S1", {"balance": 5000}), Action("update", "student", "S1", {"balance": 3000}),
          Action("update", "student", "S1", {"gpa": 0.0, "balance": 4500}), Action("update", "student", "S1", {"balance": 4200}),
          Action("update", "student", "S1", {"balance": 3900}), Action("update", "student", "S2", {"balance": 6000}),
          Action("update", "student", "S1", {"charges_total": 6000}), Action("update", "student", "S1", {"charges_total": 4000}),
          Action("update", "student", "S1", {"balance": 4050}), Action("update", "student", "S1", {"balance": 3980})]


def _hold_after(model, world, action: Action) -> bool:
    return state_after(model, world, action).get("student", action.id)["hold"]


def test_a_threshold_is_read_off_the_balance_as_written():
    world = hand_made_world("holds-A")
    model = induced(world, WRITES)
    # the write of 4500 ends with a balance of 1500 and a hold: read as it ended, no threshold
    # separates it from the 3000, 3900 and 3980 that set none, and no rule for the hold is learned
    texts = [lr.text for lr in model.active()]
    assert _hold_after(model, world, Action("update", "student", "S1", {"balance": 4060})), texts
    assert not _hold_after(model, world, Action("update", "student", "S1", {"balance": 3970})), texts
