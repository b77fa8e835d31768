"""A field a before rule derives on update is probed on insert with a record written like one the
rule fired on (a student with a low GPA), not a clone of the first record (in good standing, on
which the rule never fires), so the rule is learned for inserts too."""

from __future__ import annotations

from memkit.rules import score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda.graph import discover
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world


def test_a_new_student_with_a_low_gpa_is_put_on_probation():
    world = hand_made_world("standing-A")
    model = RuleModel(world.schema, world.name)
    discover(Platform(world), model, budget=120)
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    predicted = model.predict_many(world.tests, world.initial_state())
    assert ("set", "student", "S9", "standing", "probation") in predicted[0], [lr.text for lr in model.active()]
    assert score_world(predicted, truth).iou == 1.0
