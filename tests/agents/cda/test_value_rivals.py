"""A before rule's value that is one constant on every write seen is tried against the values that
fit the same writes through a reference: the writes may all have been on one parent."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda import discover
from evals.worldshift.platform import Platform

from tests.agents.cda.helpers import hand_made_world, state_after


def test_a_constant_value_is_told_apart_from_a_number_read_through_a_reference():
    world = hand_made_world("queues-A")
    model = RuleModel(world.schema, world.name)
    discover(Platform(world), model, budget=40)
    texts = [lr.text for lr in model.active()]
    # every enrollment the sweep starts from is on S1, whose waitlist holds 4: 5 fits what it sees
    after = state_after(model, world, Action("insert", "enrollment", "EN9", {"section": "S3", "student": "Cai"}))
    assert after.get("enrollment", "EN9")["waitlist_pos"] == 10, texts
