"""A number every record at the default status holds at 0 (days overdue on an active loan): the
sweep's low end there, 0, is no write at all. Where its large value shows a rule on that record,
the policy writes 1 at once, so that a threshold the large value crossed (lost from 30 days) has
a negative below it before the budget runs out (the sweep's later writes of small numbers come
in its last phase)."""

from __future__ import annotations

import pytest

from memkit.rules import Action
from memkit.rules.world import World

from tests.agents.cda.helpers import discovery_run, hand_made_world, state_after


@pytest.fixture(scope="module")
def lending() -> World:
    return hand_made_world("lending-A")


@pytest.fixture(scope="module")
def run(lending):
    return discovery_run(lending, budget=45)


def test_one_is_written_where_the_large_value_showed_a_rule(run):
    _, observations = run
    low = [o for o in observations if o.purpose.endswith("(the low end)")]
    # N2 is the first active loan (the default status), at 0 days overdue
    assert [o.action for o in low] == [Action("update", "loan", "N2", {"days_overdue": 1.0})]


@pytest.mark.parametrize("days, state", [(1, "overdue"), (10, "overdue"), (29, "overdue"), (30, "lost"), (45, "lost")])
def test_the_lost_threshold_is_learned_within_a_small_budget(lending, run, days, state):
    model, _ = run
    after = state_after(model, lending, Action("update", "loan", "N3", {"days_overdue": days}))
    assert after.get("loan", "N3")["state"] == state
