"""A number seen several times with one value, where every example reaches the same related record:
a fraction (an hourly rate of 25.72) is read as that record's field, which generalises to other
records; a whole number (30 hours) stays a constant, which business rules are far more often."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, iou_on_tests

TWO_TIMESHEETS_OF_ONE_EMPLOYEE = [
    Action("insert", "timesheet", "T2", {"employee": "E1", "week": "W02"}),
    Action("insert", "timesheet", "T3", {"employee": "E1", "week": "W03"}),
]


def _learned() -> list[str]:
    return [lr.text for lr in induced(hand_made_world("rota-A"), TWO_TIMESHEETS_OF_ONE_EMPLOYEE).active()]


def test_a_fraction_seen_twice_on_one_employee_is_read_as_the_employees_rate():
    texts = _learned()
    assert any("rate = employee.hourly_rate" in t for t in texts) and not any("25.72" in t for t in texts), texts


def test_a_whole_number_seen_twice_stays_a_constant_where_a_field_happens_to_match():
    texts = _learned()
    assert any("hours = 30" in t for t in texts) and not any("contract_hours" in t for t in texts), texts


def test_timesheets_of_other_employees_are_predicted():
    world = hand_made_world("rota-A")
    assert iou_on_tests(induced(world, TWO_TIMESHEETS_OF_ONE_EMPLOYEE), world) == 1.0
