"""Conditions on a relative change: ``salary > previous.salary * 1.1`` separates raises on records
that earn different amounts, where no threshold on the salary alone does."""

from __future__ import annotations

from memkit.rules import Action

from agents.cda.hypotheses import _relative_change_literals
from tests.agents.cda.helpers import hand_made_world, induced, state_after

# raises of 15% and 30% open a review, 5% and exactly 10% do not; 1150 opens one on E1, 3300 does not on E2
WRITES = [Action("update", "employee", "E1", {"salary": 1150}), Action("update", "employee", "E1", {"salary": 1050}),
          Action("update", "employee", "E2", {"salary": 3900}), Action("update", "employee", "E2", {"salary": 3300}),
          Action("update", "employee", "E1", {"salary": 1300}), Action("update", "employee", "E2", {"salary": 3150}),
          Action("update", "employee", "E1", {"salary": 900})]


def _reviews_after(model, world, action: Action) -> int:
    return len(state_after(model, world, action).rows("pay_review"))


def test_a_raise_above_a_share_of_the_salary_before_is_learned():
    world = hand_made_world("raises-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert any("previous.salary * 1.1" in t for t in texts), texts
    # on an employee none of the writes touched: 15% opens a review, 5% does not
    assert _reviews_after(model, world, Action("update", "employee", "E3", {"salary": 2300})) == 1, texts
    assert _reviews_after(model, world, Action("update", "employee", "E3", {"salary": 2100})) == 0, texts


def test_the_round_share_between_unround_ratios_is_learned():
    # a bisection's writes stop at round salaries, not round shares: 1113 on 1000 (1.113) and 3400
    # on 3000 (1.133) open reviews, 1012 (1.012) and 3100 (1.033) do not; only 1.1 between is round
    writes = [Action("update", "employee", "E1", {"salary": 1113}), Action("update", "employee", "E1", {"salary": 1012}),
              Action("update", "employee", "E2", {"salary": 3400}), Action("update", "employee", "E2", {"salary": 3100})]
    world = hand_made_world("raises-A")
    model = induced(world, writes)
    texts = [lr.text for lr in model.active()]
    assert any("previous.salary * 1.1" in t and "1.11" not in t for t in texts), texts
    # 1.06 on E3 is below the share, 1.15 above it: both ratios lie outside the writes' range
    assert _reviews_after(model, world, Action("update", "employee", "E3", {"salary": 2120})) == 0, texts
    assert _reviews_after(model, world, Action("update", "employee", "E3", {"salary": 2300})) == 1, texts


def test_no_share_between_ratios_a_factor_of_two_apart():
    # a sweep's large number (ten times the column's largest) against a write that changed little:
    # "more than ten times the value before" would be a rival of every threshold such writes show
    values = {"current.salary": [17007, 1013], "previous.salary": [1000, 1000]}
    positives = {"current.salary": [17007], "previous.salary": [1000]}
    sources = [lit.source for lit in _relative_change_literals("salary", lambda s: values[s], lambda s: positives[s])]
    assert not any("* 10" in s or "* 2" in s for s in sources), sources
