"""A number over a threshold, none below (``max(hours - 40, 0)``: overtime), is learned where
the first examples lie below the threshold: the threshold is read off an example above it."""

from __future__ import annotations

from memkit.rules import Action, score_world
from memkit.rules.predict import effects_of_tests

from tests.agents.cda.helpers import hand_made_world, induced

# the first write of each kind stays below the threshold: its target is 0
WRITES = [Action("update", "timesheet", t, {"hours": h}) for t, h in [("T1", 30), ("T2", 0), ("T1", 45), ("T2", 81), ("T1", 39)]] + \
         [Action("update", "bag", "G1", {"kilos": k}) for k in (10, 0, 24.5, 47, 23)]


def test_a_floor_at_zero_is_learned_from_first_examples_below_the_threshold():
    world = hand_made_world("overtime-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert any("max(hours - 40, 0)" in t for t in texts), texts
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    predicted = model.predict_many(world.tests, world.initial_state())
    assert score_world(predicted, truth).iou == 1.0, (texts, predicted, truth)
