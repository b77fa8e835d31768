"""A rate with a floor: ``max(5, round(amount * 0.02, 2))``, a late fee of 2% of the amount but at
least 5, read off examples of which some are at the floor and some above it."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "bill", b, {"days_overdue": d}) for b, d in
          [("B1", 30), ("B3", 15), ("B2", 20), ("B4", 14), ("B1", 5), ("B3", 13)]]


def test_a_rate_with_a_floor_is_learned():
    world = hand_made_world("minimums-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert any("max(5, round(amount * 0.02, 2))" in t for t in texts), texts
    # a bill none of the writes touched, far above the floor
    assert state_after(model, world, Action("update", "bill", "B5", {"days_overdue": 20})).get("bill", "B5")["late_fee"] == 49, texts


def test_one_example_above_the_floor_is_not_read_as_a_floored_rate():
    # with one example above the floor, the rate read off it fits it by construction and nothing
    # checks it: the floored form waits for a second example (ews had learned a budget's
    # committed amount as max(2965, round(committed * 1.048947, 2)) from one)
    world = hand_made_world("minimums-A")
    model = induced(world, [Action("update", "bill", "B1", {"days_overdue": 30}), Action("update", "bill", "B3", {"days_overdue": 15})])
    texts = [lr.text for lr in model.active()]
    assert not any("max(5," in t for t in texts), texts


def test_an_example_whose_amount_at_the_rate_is_the_floor_itself_fits_the_floored_rate():
    # 250 x 2% is 5, the floor: the example is at the floor either way
    world = hand_made_world("minimums-A")
    writes = [Action("update", "bill", b, {"days_overdue": 20}) for b in ("B6", "B3", "B4", "B1")] + [Action("update", "bill", "B2", {"days_overdue": 3})]
    model = induced(world, writes)
    texts = [lr.text for lr in model.active()]
    assert any("max(5, round(amount * 0.02, 2))" in t for t in texts), texts
