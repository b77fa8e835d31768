"""A number over a threshold, none below (``max(hours - 40, 0)``: overtime), is learned where
the first examples lie below the threshold: the threshold is read off an example above it."""

from __future__ import annotations

from memkit.rules import Action, score_world
from memkit.rules.predict import effects_of_tests

from agents.cda.hypotheses import value_candidates

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


def test_the_threshold_is_one_a_business_would_set():
    # two examples fit any threshold: 9141.45 from 26547 is not 'hours over 17405.55'
    world = hand_made_world("overtime-A")

    def offered(hours: list[float], targets: list[float]) -> list[str]:
        def first_inputs(src: str) -> list[float | None]:
            return hours if src == "current.hours" else [None] * len(hours)
        return [c for c in value_candidates(world.schema, "timesheet", targets, first_inputs=first_inputs) if c.startswith("max(current.hours - ")]

    assert "max(current.hours - 40, 0)" in offered([30, 45], [0, 5])
    assert not any("17405.55" in c for c in offered([0, 26547], [0, 9141.45]))
