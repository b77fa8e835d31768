"""The RuleStore conformance suite: every backend must pass these checks.

Use it from a test module with a fixture ``rule_store_factory`` that returns a
fresh store for a schema (and, for persistent backends, ``reopen`` support):

    from stores.conformance.rule_store import *  # noqa: F401,F403
"""

from __future__ import annotations

import pytest

from memkit.errors import NotFoundError
from memkit.rules import Action, load_world
from memkit.rules.model import Evidence, RuleModel

__all__ = [
    "sample_world",
    "test_save_then_load_round_trips_the_model",
    "test_one_version_per_world_and_latest_by_save_order",
    "test_saved_version_is_a_snapshot",
    "test_missing_world_raises_not_found",
    "test_delete_removes_a_version",
    "test_versions_list_numbers_and_times",
]


def _model(world, name: str = "w1") -> RuleModel:
    model = RuleModel(world.schema, name)
    model.add(world.rules[0], reason="seed", evidence=[Evidence(action={"op": "update", "table": "t", "id": "x"}, effects=[])])
    model.record_experiment(Evidence(action={"op": "update", "table": "t", "id": "x"}, effects=[]))
    return model


_WORLD = """
format: worldshift/1
name: conformance
tables:
  order: {fields: {total: {type: number, default: 0}}}
  order_line: {fields: {order: {type: reference, ref: order}, quantity: {type: number}, unit_price: {type: number}, amount: {type: number}}}
records:
  order: [{id: O1, total: 40}]
  order_line: [{id: L1, order: O1, quantity: 2, unit_price: 20, amount: 40}]
rules:
  - {id: line_amount, table: order_line, events: [insert, update], when: before,
     condition: "changed(quantity) or changed(unit_price)", actions: [{set: {amount: "round(current.quantity * current.unit_price, 2)"}}]}
  - {id: order_total, table: order_line, events: [insert, update, delete], when: after,
     actions: [{update: {target: current.order, set: {total: "sum(order_line, amount, row.order == current.order)"}}}]}
"""


@pytest.fixture
def sample_world(tmp_path):
    """A two-rule world (the stores package may not import the evaluation worlds)."""
    path = tmp_path / "conformance.yaml"
    path.write_text(_WORLD)
    return load_world(path)


def test_save_then_load_round_trips_the_model(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    model = _model(sample_world)
    store.save(model, "w1")
    loaded = store.load("w1")
    assert loaded.to_json() == model.to_json()
    action = Action("update", "order_line", "L1", {"quantity": 3})
    assert loaded.predict(action, sample_world.initial_state()) == model.predict(action, sample_world.initial_state())


def test_one_version_per_world_and_latest_by_save_order(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    a = _model(sample_world, "A")
    store.save(a, "A")
    b = a.inherit("B")
    b.retire(b.rules[0].id, reason="gone")
    store.save(b, "B")
    a.add(sample_world.rules[1], reason="later edit")
    store.save(a, "A")  # replaces A's version, and A is now the latest
    assert store.worlds() == ["B", "A"]
    assert len(store.load("A").rules) == 2
    assert store.load().world == "A"
    assert store.load("B").rules[0].status == "retired"


def test_saved_version_is_a_snapshot(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    model = _model(sample_world)
    store.save(model, "w1")
    model.retire(model.rules[0].id, reason="after saving")
    assert store.load("w1").rules[0].status == "active"


def test_missing_world_raises_not_found(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    with pytest.raises(NotFoundError):
        store.load()
    with pytest.raises(NotFoundError):
        store.load("nope")
    with pytest.raises(NotFoundError):
        store.delete("nope")


def test_delete_removes_a_version(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    store.save(_model(sample_world), "w1")
    store.save(_model(sample_world, "w2"), "w2")
    store.delete("w1")
    assert store.worlds() == ["w2"]


def test_versions_list_numbers_and_times(rule_store_factory, sample_world):
    store = rule_store_factory(sample_world.schema)
    v1 = store.save(_model(sample_world), "w1")
    v2 = store.save(_model(sample_world, "w2"), "w2")
    versions = store.versions()
    assert [v for v, _, _ in versions] == [v1, v2] and v2 > v1
    assert [w for _, w, _ in versions] == ["w1", "w2"]
    assert all("T" in at for _, _, at in versions)
