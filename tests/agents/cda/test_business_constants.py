"""Values made with a constant a business would set, read off the examples: a number over a
whole divisor whose reciprocal has no short decimal (a salary over 2080 hours, a total over 12
months, a third of a pool), and a number over a threshold, none below (overtime: hours over
40), where the first examples lie below the threshold. A rate read to six decimals (0.000481
for 1 / 2080) misses large inputs by cents, and the first example at the floor says nothing of
the threshold. Constants no business would set, which two examples fit by chance, are not
offered."""

from __future__ import annotations

import re

import pytest

from memkit.rules import Action

from tests.agents.cda.helpers import candidates_from, hand_made_world, induced, iou_on_tests

WAGES = [Action("update", "employee", e, {"salary": s}) for e, s in
         [("E1", 104001), ("E2", 30750), ("E3", 276001), ("E1", 0), ("E2", 123001)]] + \
        [Action("update", "contract", c, {"total": t}) for c, t in [("C1", 7201), ("C2", 2500), ("C1", 36007)]] + \
        [Action("update", "pool", "P1", {"amount": a}) for a in (1801, 450, 9007)]
# the first write of each kind stays below the threshold: its target is 0
OVERTIME = [Action("update", "timesheet", t, {"hours": h}) for t, h in [("T1", 30), ("T2", 0), ("T1", 45), ("T2", 81), ("T1", 39)]] + \
           [Action("update", "bag", "G1", {"kilos": k}) for k in (10, 0, 24.5, 47, 23)]


@pytest.mark.parametrize(("world_name", "writes", "learned"), [
    ("wages-A", WAGES, "salary / 2080"),
    ("overtime-A", OVERTIME, "max(hours - 40, 0)"),
])
def test_values_with_a_business_constant_are_learned_and_predicted(world_name, writes, learned):
    world = hand_made_world(world_name)
    model = induced(world, writes)
    texts = [lr.text for lr in model.active()]
    assert any(learned in t for t in texts), texts
    assert iou_on_tests(model, world) == 1.0, texts


@pytest.mark.parametrize(("world_name", "table", "source", "form", "fits", "by_chance", "chance_constant"), [
    # 276001 / 132.5 is 2083.03: a whole number within rounding of the target
    ("wages-A", "employee", "current.salary", r"(round\()?current\.salary / \d+(, \d\))?",
     ([276001, 30750], [132.69, 14.78], "round(current.salary / 2080, 2)"), ([276001, 30750], [132.5, 14.78]), "2083"),
    # 9141.45 from 26547 is not 'hours over 17405.55'
    ("overtime-A", "timesheet", "current.hours", r"max\(current\.hours - [\d.]+, 0\)",
     ([30, 45], [0, 5], "max(current.hours - 40, 0)"), ([0, 26547], [0, 9141.45]), "17405.55"),
])
def test_only_constants_a_business_would_set_are_offered(world_name, table, source, form, fits, by_chance, chance_constant):
    world = hand_made_world(world_name)

    def offered(inputs: list[float], targets: list[float]) -> list[str]:
        return [c for c in candidates_from(world, table, source, inputs, targets) if re.fullmatch(form, c)]

    inputs, targets, expected = fits
    assert expected in offered(inputs, targets)
    assert not any(chance_constant in c for c in offered(*by_chance))


def test_a_round_rate_is_read_before_a_divisor():
    # 15% of 20, 40 and 60 is 3, 6 and 9, and so is each over 7, rounded to units
    world = hand_made_world("wages-A")
    offered = candidates_from(world, "pool", "current.amount", [20, 40, 60], [3, 6, 9])
    assert "current.amount * 0.15" in offered
    assert not any(re.fullmatch(r"(round\()?current\.amount / \d+(, \d\))?", c) for c in offered)


@pytest.mark.parametrize(("hours", "targets", "threshold"), [
    ([50, 45], [0, 5], "40"),  # the first example is above 40 hours: 40 cannot be the threshold
    ([0, 0.5], [0, 0.4995], "0.0005"),  # no business sets such a threshold
])
def test_a_floor_is_not_offered_where_it_cannot_be_the_threshold(hours, targets, threshold):
    world = hand_made_world("overtime-A")
    offered = candidates_from(world, "timesheet", "current.hours", hours, targets)
    assert f"max(current.hours - {threshold}, 0)" not in offered
