"""A text that a rule wrote with one value on every example (a payslip's period, seen once) is read
first as a text of the triggering record (its timesheet's week), before a fixed text: text that
rules write is copied far more often than fixed."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, iou_on_tests

ONE_APPROVAL = [Action("update", "timesheet", "T1", {"status": "approved"})]


def test_the_payslip_takes_the_timesheets_week_as_its_period():
    texts = [lr.text for lr in induced(hand_made_world("slips-A"), ONE_APPROVAL).active()]
    assert any("period = week" in t for t in texts), texts
    assert not any("'2027-W05'" in t for t in texts), texts


def test_a_text_that_no_record_holds_stays_fixed():
    texts = [lr.text for lr in induced(hand_made_world("slips-A"), ONE_APPROVAL).active()]
    assert any("note = 'raised on approval'" in t for t in texts), texts


def test_payslips_of_timesheets_of_other_weeks_are_predicted():
    world = hand_made_world("slips-A")
    assert iou_on_tests(induced(world, ONE_APPROVAL), world) == 1.0
