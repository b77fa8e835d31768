"""Value expressions beyond one or two fields: a sum of three numbers of the record (a balance
due) and a product whose rate is read off the examples (days over the free days x units x a
daily rate) are found by induction, so the learned rule predicts writes it never saw; before
they were in the search, each observed value became a constant under a condition of its own."""

from __future__ import annotations

from typing import Any

import pytest

from memkit.rules import Action, Engine
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from tests.agents.cda.helpers import induced, hand_made_world

BILL_WRITES = [Action("update", "bill", bid, values) for bid, values in (
    ("B1", {"paid": 20}), ("B2", {"late_fee": 9.1}), ("B3", {"amount": 350.4}), ("B4", {"paid": 45.75}),
    ("B2", {"amount": 95.2}), ("B1", {"late_fee": 3.3}))]
BOX_WRITES = [Action("update", "box", xid, values) for xid, values in (
    ("X1", {"dwell_days": 14}), ("X2", {"units": 3}), ("X3", {"free_days": 2}), ("X4", {"dwell_days": 2}),
    ("X2", {"dwell_days": 30}), ("X4", {"units": 4}))]


@pytest.fixture(scope="module")
def charges() -> World:
    return hand_made_world("charges-A")


@pytest.fixture(scope="module")
def learned(charges) -> RuleModel:
    return induced(charges, BILL_WRITES + BOX_WRITES)


def _effects(world: World, rules, action: Action) -> list[tuple[Any, ...]]:
    return sorted(tuple(e) for e in Engine(world.schema, rules).run(world.initial_state(), action).effects)


@pytest.mark.parametrize("action", [
    Action("update", "bill", "B3", {"late_fee": 17.35}),
    Action("update", "bill", "B4", {"amount": 60.1, "paid": 5}),
    Action("update", "bill", "B1", {"amount": 70, "late_fee": 1.5, "paid": 20}),
])
def test_a_balance_of_three_numbers_is_learned_as_one_expression(charges, learned, action):
    assert _effects(charges, learned.active_rules(), action) == _effects(charges, charges.rules, action)
    assert len([r for r in learned.active_rules() if r.table == "bill"]) == 1


@pytest.mark.parametrize("action", [
    Action("update", "box", "X3", {"dwell_days": 40}),
    Action("update", "box", "X1", {"units": 2, "dwell_days": 8}),
    Action("update", "box", "X2", {"free_days": 12}),  # below the free days: nothing to charge
])
def test_a_charge_at_a_rate_read_off_the_examples_is_learned(charges, learned, action):
    assert _effects(charges, learned.active_rules(), action) == _effects(charges, charges.rules, action)
