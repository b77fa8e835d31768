"""The sweep inserts a clone of a record with its choices and flags left to their defaults and its
numbers large: the tests' inserts leave the status out, and a rule on new records may hold only at
the default status and above a threshold (a pending annual leave request for more days than the
balance is rejected), which no clone of a stored (approved) record shows."""

from __future__ import annotations

import random

from agents.cda.experiments import sweep
from tests.agents.cda.helpers import discovered, hand_made_world, iou_on_tests


def test_the_sweep_inserts_a_clone_at_its_defaults_with_large_numbers():
    world = hand_made_world("requests-A")
    planned = [a for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, a in phase
               if p == "insert leave_request at its defaults with large numbers"]
    assert len(planned) == 1
    values = planned[0].values
    assert "status" not in values and "kind" not in values and values["employee"]
    assert values["days"] > max(r["days"] for r in world.initial_state().rows("leave_request"))


def test_no_such_insert_where_the_clone_is_at_its_defaults_already():
    # the employee table has no choices or flags: a clone is all there is
    world = hand_made_world("requests-A")
    planned = [p for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, _ in phase]
    assert not any(p.startswith("insert employee at its defaults") for p in planned)


def test_a_rejection_on_insert_at_the_default_status_is_learned():
    world = hand_made_world("requests-A")
    model = discovered(world, 60)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]
