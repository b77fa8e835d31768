"""A total over the rule's own table joined two references away (a property counts the open and
scheduled repairs of all its units: ``row.unit.property == current.unit.property``) is read off the
data as a total joined one reference away is, and predicts the count of another property."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import discovered, hand_made_world, induced, iou_on_tests, state_after


def test_open_repairs_are_counted_over_the_units_of_the_property():
    world = hand_made_world("repairs-A")
    model = induced(world, [Action("update", "repair_request", "R1", {"status": "done"}),
                            Action("update", "repair_request", "R5", {"status": "done"}),
                            Action("update", "repair_request", "R4", {"status": "open"}),
                            Action("update", "repair_request", "R7", {"status": "open"})])
    assert any("row.unit.property == unit.property" in lr.text for lr in model.active()), [lr.text for lr in model.active()]
    # Ash Row's one request is done: reopened, the property has one open repair
    state = state_after(model, world, Action("update", "repair_request", "R8", {"status": "open"}))
    assert state.get("property", "P3")["open_repairs"] == 1


def test_the_count_is_discovered_and_predicts_every_test():
    world = hand_made_world("repairs-A")
    model = discovered(world, 40)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]
