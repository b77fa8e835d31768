"""A before rule whose value reads through a reference (a work order's parts cost, from its part's
unit cost) is learned with "the reference is set" in its condition where every write that showed
it had one: read literally without it, the rule would empty the parts cost, and so the total, of a
labour-only order that another rule creates."""

from __future__ import annotations

from agents.cda.induction import Inducer, induce_until_stable
from evals.worldshift.platform import Platform
from memkit.rules import Action
from memkit.rules.model import RuleModel

from tests.agents.cda.helpers import hand_made_world, induced, iou_on_tests, observe_writes, state_after

WRITES = [
    Action("insert", "work_order", "W5", {"vehicle": "V1", "part": "P2", "part_qty": 2, "labour_hours": 1}),
    Action("insert", "work_order", "W6", {"vehicle": "V2", "part": "P1", "part_qty": 1, "labour_hours": 3}),
    Action("insert", "work_order", "W7", {"vehicle": "V2", "part": "P2", "part_qty": 4, "labour_hours": 0.5}),
    Action("update", "work_order", "W1", {"part_qty": 6}),
    Action("update", "work_order", "W1", {"part_qty": 3}),
    Action("update", "work_order", "W1", {"part": "P2"}),
    Action("update", "work_order", "W1", {"labour_hours": 4}),
    Action("update", "vehicle", "V1", {"needs_service": True}),
]


def test_the_parts_cost_rule_is_guarded_by_the_part():
    texts = [lr.text for lr in induced(hand_made_world("workorders-A"), WRITES).active()]
    assert any("parts_cost" in t and "not is_empty(part)" in t for t in texts), texts


def test_a_labour_only_order_keeps_its_parts_cost_and_total():
    world = hand_made_world("workorders-A")
    state = state_after(induced(world, WRITES), world, Action("update", "vehicle", "V2", {"needs_service": True}))
    created = [r for r in state.rows("work_order") if r.get("vehicle") == "V2"]
    assert [(r.get("parts_cost"), r.get("total")) for r in created] == [(0, 130)]


def test_the_tests_are_predicted_exactly():
    world = hand_made_world("workorders-A")
    model = RuleModel(world.schema, world.name)
    induce_until_stable(Inducer(world.schema), model, observe_writes(Platform(world), WRITES), world.name, lambda _: None)
    assert iou_on_tests(model, world) == 1.0
