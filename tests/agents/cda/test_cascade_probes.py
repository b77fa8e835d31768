"""A write that sets a state of another record along with a number of it (a payment that adds to
its invoice's paid amount, and the invoice comes out paid): the number is written on that record
directly, so that the state is learned as the rule of the record in the middle, not as a shortcut
of the payment that knows nothing of the invoice's amount."""

from __future__ import annotations

import pytest

from memkit.rules import Action

from tests.agents.cda.helpers import discovery_run, hand_made_world, iou_on_tests, state_after


@pytest.fixture(scope="module")
def settle():
    return hand_made_world("settle-A")


@pytest.fixture(scope="module")
def run(settle):
    return discovery_run(settle, budget=60)


def test_the_number_is_written_on_the_record_in_the_middle(run):
    _, observations = run
    probes = [o for o in observations if o.purpose.startswith("cascade ")]
    assert len(probes) == 1
    assert probes[0].action.table == "invoice" and set(probes[0].action.values) == {"paid"}
    assert ("set", "invoice", probes[0].action.id, "status", "paid") in probes[0].effects


@pytest.mark.parametrize("paid, status", [(80, "paid"), (79, "open"), (200, "paid")])
def test_the_invoice_is_paid_by_its_own_rule(settle, run, paid, status):
    model, _ = run
    assert state_after(model, settle, Action("update", "invoice", "I2", {"paid": paid})).get("invoice", "I2")["status"] == status


def test_the_world_is_learned(settle, run):
    model, _ = run
    assert iou_on_tests(model, settle) == 1.0
