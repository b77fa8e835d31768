"""A field with two before rules, one shown in the side effects (a bill paid by a payment) and one
only in the record read back (an issued bill written with days overdue that ends overdue): the
second is learned too, not dropped because the side effects never show it."""

from __future__ import annotations

import pytest

from memkit.rules import Action
from memkit.rules.world import World

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, induced, observe_writes, state_after

SLOT = ("own", "bill", "update", "status")


@pytest.fixture(scope="module")
def dunning() -> World:
    return hand_made_world("dunning-A")


def _writes() -> list[Action]:
    # payments that cover overdue bills (their status change is a side effect), bills set to issued
    # with days overdue (the world overrides the written status), and writes that show neither
    return [
        Action("update", "bill", "B2", {"amount_paid": 600}),
        Action("update", "bill", "B4", {"amount_paid": 400}),
        Action("update", "bill", "B2", {"amount_paid": 200}),
        Action("update", "bill", "B1", {"status": "issued", "days_overdue": 30}),
        Action("update", "bill", "B3", {"status": "issued", "days_overdue": 8}),
        Action("update", "bill", "B1", {"status": "issued"}),
        Action("update", "bill", "B3", {"days_overdue": 8}),
        Action("update", "bill", "B1", {"days_overdue": 30}),
    ]


def test_the_override_of_a_written_status_is_a_positive_of_its_own_rule(dunning):
    obs = observe_writes(Platform(dunning), _writes())
    assert not any(e[0] == "set" and e[1] == "bill" for e in obs[3].effects)
    assert obs[3].after.get("bill", "B1")["status"] == "overdue"
    learned = Inducer(dunning.schema).learn_slot_split(SLOT, obs)
    values = sorted(lr.rule["actions"][0]["set"]["status"] for lr in learned)
    assert values == ["'overdue'", "'paid'"]


def test_the_model_predicts_both_statuses(dunning):
    model = induced(dunning, _writes())
    overdue = state_after(model, dunning, Action("update", "bill", "B1", {"status": "issued", "days_overdue": 3}))
    assert overdue.get("bill", "B1")["status"] == "overdue"
    paid = state_after(model, dunning, Action("update", "bill", "B4", {"amount_paid": 310}))
    assert paid.get("bill", "B4")["status"] == "paid"
