"""Two threshold rules that set one field of the written record to different values (a loan
overdue from 1 day, lost from 30): each rule's bisection counts a write as positive only where
the field shows that rule's value. Counted by the field alone, the days that make a loan lost
are positives for the overdue rule too, and the lost threshold was learned below 30."""

from __future__ import annotations

import pytest

from memkit.rules import Action
from memkit.rules.world import World

from tests.agents.cda.helpers import discovered, hand_made_world, state_after


@pytest.fixture(scope="module")
def lending() -> World:
    return hand_made_world("lending-A")


@pytest.fixture(scope="module")
def model(lending):
    return discovered(lending, budget=60)


@pytest.mark.parametrize("days, state", [(1, "overdue"), (10, "overdue"), (29, "overdue"), (30, "lost"), (45, "lost")])
def test_both_thresholds_are_learned(lending, model, days, state):
    after = state_after(model, lending, Action("update", "loan", "N3", {"days_overdue": days}))
    assert after.get("loan", "N3")["state"] == state
