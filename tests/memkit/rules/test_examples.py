"""The spec's example worlds: side effects worked out by hand from the spec and pinned."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.rules import Action, Engine

from tests.memkit.rules.conftest import WORLDS, same_effects

SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec"

# test 1: L1 quantity 3 -> line_amount sets amount 3*20 = 60 (L1.quantity is the action's own field);
#         order_total sets O1.total = 60; big_order_flag: 60 > 100 false.
# test 2: insert L9 -> amount = 1*5 = 5 (not in the action's values); O1.total = 40 + 5 = 45.
# test 3: O1 cancelled -> no approvals to reject; C1.open_orders = max(1 - 1, 0) = 0.
# test 4: no rule on customer.
EXAMPLE_A = [
    [("set", "order", "O1", "total", 60), ("set", "order_line", "L1", "amount", 60)],
    [("set", "order", "O1", "total", 45), ("set", "order_line", "L9", "amount", 5)],
    [("set", "customer", "C1", "open_orders", 0)],
    [],
]

# B: L1 quantity 30 -> amount 600; O1.total 600; big_order_flag (B) 600 > 500 -> needs_approval true.
EXAMPLE_B = [
    [("set", "order", "O1", "needs_approval", True), ("set", "order", "O1", "total", 600), ("set", "order_line", "L1", "amount", 600)],
]


def _effects(world, action):
    result = Engine(world.schema, world.rules).run(world.initial_state(), action)
    assert result.error is None
    return result.effects


@pytest.mark.parametrize("index", range(len(EXAMPLE_A)))
def test_example_a_tests(example_a, index):
    assert same_effects(_effects(example_a, example_a.tests[index]), EXAMPLE_A[index])


def test_example_b_test(example_b):
    assert len(example_b.tests) == 1
    assert same_effects(_effects(example_b, example_b.tests[0]), EXAMPLE_B[0])


def test_example_b_inherits_tables_records_and_other_rules(example_a, example_b):
    assert example_b.schema == example_a.schema
    assert example_b.records == example_a.records
    assert [r.id for r in example_b.rules] == [r.id for r in example_a.rules]
    assert example_b.rule("big_order_flag") != example_a.rule("big_order_flag")
    assert example_b.rule("order_total") == example_a.rule("order_total")


def test_the_same_write_differs_between_a_and_b(example_a):
    # in A a gold customer's 600 order needs no approval
    got = _effects(example_a, Action("update", "order_line", "L1", {"quantity": 30}))
    assert same_effects(got, [("set", "order", "O1", "total", 600), ("set", "order_line", "L1", "amount", 600)])


def test_example_approval_on_submit_then_cancel_rejects_it(example_b):
    engine = Engine(example_b.schema, example_b.rules)
    state = example_b.initial_state()
    engine.run(state, Action("update", "order_line", "L1", {"quantity": 30}), in_place=True)
    got = engine.run(state, Action("update", "order", "O1", {"state": "submitted"}), in_place=True).effects
    assert same_effects(got, [("create", "approval", "order", "O1"), ("create", "approval", "state", "requested")])
    assert state.get("approval", "approval__new1") == {"id": "approval__new1", "order": "O1", "state": "requested"}
    got = engine.run(state, Action("update", "order", "O1", {"state": "cancelled"})).effects
    assert same_effects(got, [("set", "approval", "approval__new1", "state", "rejected"), ("set", "customer", "C1", "open_orders", 0)])


def test_deleting_a_line_updates_the_order_total(example_a):
    # order_total runs on delete: the sum no longer counts L1
    got = _effects(example_a, Action("delete", "order_line", "L1"))
    assert same_effects(got, [("set", "order", "O1", "total", 0)])


@pytest.mark.skipif(not SPEC.is_dir(), reason="the shared spec folder is not beside this checkout")
@pytest.mark.parametrize("name", ["example-world.yaml", "example-world-B.yaml"])
def test_copies_match_the_spec(name):
    assert (WORLDS / name).read_text() == (SPEC / name).read_text()
