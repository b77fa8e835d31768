"""Shares in percent of two of a record's numbers (a defect rate, a yield of good parts, a margin
on the price), rounded to one or two decimals, are learned as such: read as a rate times one
number, they hold only while the other number keeps its value."""

from __future__ import annotations

from memkit.rules import Action, score_world
from memkit.rules.predict import effects_of_tests

from tests.agents.cda.helpers import hand_made_world, induced

WRITES = [Action("update", "batch", b, v) for b, v in
          [("B1", {"defects": 2}), ("B2", {"defects": 7}), ("B1", {"sample_size": 40}), ("B2", {"sample_size": 64}),
           ("B1", {"defects": 5}), ("B1", {"good_qty": 171}), ("B2", {"scrap_qty": 3}), ("B1", {"scrap_qty": 29}),
           ("B2", {"good_qty": 402})]] + \
         [Action("update", "product", p, v) for p, v in
          [("P1", {"cost": 90}), ("P2", {"price": 80}), ("P1", {"price": 131}), ("P2", {"cost": 70.2})]]


def test_shares_in_percent_are_learned_and_predicted():
    world = hand_made_world("shares-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    predicted = model.predict_many(world.tests, world.initial_state())
    assert score_world(predicted, truth).iou == 1.0, (texts, predicted, truth)


def test_a_share_to_two_decimals_is_found_after_first_examples_with_one_and_at_a_half():
    # the first eight rates have one decimal at most (defects of a sample of 20), and 23 of 160
    # is 14.375 exactly: multiplied first, as the rule is written, it rounds to 14.38
    world = hand_made_world("shares-A")
    writes = [Action("update", "batch", "B1", {"defects": d}) for d in range(2, 10)] + \
             [Action("update", "batch", "B1", {"sample_size": 64}), Action("update", "batch", "B1", {"defects": 23, "sample_size": 160})]
    model = induced(world, writes)
    texts = [lr.text for lr in model.active()]
    tests = [Action("update", "batch", "B1", {"defects": 3, "sample_size": 32}), Action("update", "batch", "B2", {"defects": 23, "sample_size": 160})]
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), tests)
    predicted = model.predict_many(tests, world.initial_state())
    assert score_world(predicted, truth).iou == 1.0, (texts, predicted, truth)
