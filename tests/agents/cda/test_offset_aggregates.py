"""A value that is a number of a related record less a total of filtered rows (a leave balance:
the grade's annual leave less the approved annual leave) is found from the data as plain totals
are, and predicts the balance of an employee the writes never touched."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import discovered, hand_made_world, induced, iou_on_tests, state_after


def test_a_leave_balance_is_learned_as_the_grades_leave_less_a_sum():
    world = hand_made_world("allowance-A")
    model = induced(world, [Action("update", "leave_request", "L4", {"status": "approved"}),
                            Action("update", "leave_request", "L5", {"status": "rejected"}),
                            Action("update", "leave_request", "L1", {"days": 8}),
                            Action("update", "leave_request", "L2", {"kind": "annual"})])
    assert any("annual_leave - sum(leave_request, days" in lr.text for lr in model.active()), [lr.text for lr in model.active()]
    # Di (grade G1, 20 days) had only a rejected request of 9 days: approved, it leaves 11
    state = state_after(model, world, Action("update", "leave_request", "L7", {"status": "approved"}))
    assert state.get("employee", "E4")["leave_balance"] == 11


def test_the_balance_rule_is_discovered_and_predicts_every_test():
    world = hand_made_world("allowance-A")
    model = discovered(world, 40)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]
