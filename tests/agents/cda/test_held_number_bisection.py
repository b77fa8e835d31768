"""A boundary at the number the bisected record holds (an open charge more than 3 days late is
late, bisected on a charge 4 days late): writing 4 there changes nothing and would read as a
negative, so 4 is written on another charge in the same state, and the boundary is learned."""

from __future__ import annotations

import pytest

from memkit.rules import Action

from tests.agents.cda.helpers import discovery_run, hand_made_world, state_after


@pytest.fixture(scope="module")
def latedays():
    return hand_made_world("latedays-A")


@pytest.fixture(scope="module")
def run(latedays):
    return discovery_run(latedays, budget=60)


def test_no_bisection_writes_the_number_its_record_holds(latedays, run):
    _, observations = run
    initial = latedays.initial_state()
    probes = [o.action for o in observations if o.purpose.startswith("bisect charge.days_late")]
    assert probes
    assert all(initial.get("charge", a.id)["days_late"] != a.values["days_late"] for a in probes)
    assert Action("update", "charge", "C2", {"days_late": 4}) in probes  # C2 is open too, at 0 days


@pytest.mark.parametrize("days, status", [(3, "open"), (4, "late"), (5, "late"), (12, "late")])
def test_the_boundary_is_learned(latedays, run, days, status):
    model, _ = run
    assert state_after(model, latedays, Action("update", "charge", "C2", {"days_late": days})).get("charge", "C2")["status"] == status
