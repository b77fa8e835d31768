"""Two wrong rules that share a slot's cases (an accidental expression that is 0 on cancelled lines,
a constant for one delivered line) are replaced together by the two right ones, although neither
replacement alone explains the slot better."""

from __future__ import annotations

import pytest

from memkit.rules import Action
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from evals.worldshift.worlds_index import load_named_world
from tests.agents.cda.helpers import observe_writes

_WRONG = [
    {"table": "request_item", "events": ["update"], "when": "before",
     "condition": "changed(quantity) or changed(unit_price) or changes_to(state, 'cancelled')",
     "actions": [{"set": {"total": "max(current.quantity - current.total, 0) * current.unit_price"}}]},
    {"table": "request_item", "events": ["update"], "when": "before",
     "condition": "changed(quantity) and current.state == 'delivered'", "actions": [{"set": {"total": "62700"}}]},
]

_WRITES = [
    Action("update", "request_item", "RITM0009", {"state": "cancelled"}),
    Action("update", "request_item", "RITM0020", {"quantity": 57.0}),
    Action("update", "request_item", "RITM0033", {"state": "delivered"}),
    Action("update", "request_item", "RITM0001", {"unit_price": 400}),
]


@pytest.fixture(scope="module")
def ews() -> World:
    return load_named_world("ews-A")


def _line_total_rules(model: RuleModel) -> list[tuple[str | None, str]]:
    return sorted((lr.rule.get("condition"), lr.rule["actions"][0]["set"]["total"]) for lr in model.active()
                  if lr.rule["table"] == "request_item" and "total" in lr.rule["actions"][0].get("set", {}))


def test_two_wrong_rules_of_one_slot_are_replaced_together(ews):
    model = RuleModel(ews.schema, ews.name)
    for rule in _WRONG:
        model.add(rule, reason="learned from fewer writes")
    Inducer(ews.schema).run(model, observe_writes(Platform(ews), _WRITES), ews.name)
    assert _line_total_rules(model) == [("changed(quantity) or changed(unit_price)", "current.quantity * current.unit_price"),
                                        ("changes_to(state, 'cancelled')", "0")]
