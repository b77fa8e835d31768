"""Values that are a number over a whole divisor with no short decimal (a salary over 2080 hours,
a total over 12 months, a third of a pool) are learned as that division: a rate read to six
decimals (0.000481 for 1 / 2080) misses large inputs by cents."""

from __future__ import annotations

import re

from memkit.rules import Action, score_world
from memkit.rules.predict import effects_of_tests

from agents.cda.hypotheses import value_candidates

from tests.agents.cda.helpers import hand_made_world, induced

WRITES = [Action("update", "employee", e, {"salary": s}) for e, s in
          [("E1", 104001), ("E2", 30750), ("E3", 276001), ("E1", 0), ("E2", 123001)]] + \
         [Action("update", "contract", c, {"total": t}) for c, t in [("C1", 7201), ("C2", 2500), ("C1", 36007)]] + \
         [Action("update", "pool", "P1", {"amount": a}) for a in (1801, 450, 9007)]


def test_divisions_by_a_whole_number_are_learned_and_predicted():
    world = hand_made_world("wages-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert any("salary / 2080" in t for t in texts), texts
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    predicted = model.predict_many(world.tests, world.initial_state())
    assert score_world(predicted, truth).iou == 1.0, (texts, predicted, truth)


def test_a_divisor_no_business_would_use_is_not_offered():
    # 276001 / 132.5 is 2083.03: a whole number within rounding of the target, found by chance
    world = hand_made_world("wages-A")

    def offered(salaries: list[float], targets: list[float]) -> list[str]:
        def first_inputs(src: str) -> list[float | None]:
            return salaries if src == "current.salary" else [None] * len(salaries)
        return [c for c in value_candidates(world.schema, "employee", targets, first_inputs=first_inputs) if re.fullmatch(r"(round\()?current\.salary / \d+(, \d\))?", c)]

    assert "round(current.salary / 2080, 2)" in offered([276001, 30750], [132.69, 14.78])
    assert offered([276001, 30750], [132.5, 14.78]) == []
