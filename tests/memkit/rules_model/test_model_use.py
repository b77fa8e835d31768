"""inherit, predict, diff, export and the JSON round trip of the rule model."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkit.rules import Action, Engine, load_world
from memkit.rules.model import Evidence, RuleModel

EV = Evidence(action={"op": "update", "table": "order", "id": "O1", "values": {"state": "cancelled"}},
              effects=[["set", "customer", "C1", "open_orders", 0]], world="A")


def oracle(world, name: str = "A") -> RuleModel:
    model = RuleModel(world.schema, name)
    for rule in world.rules:
        model.add(rule, reason="true rule", rule_id=rule.id, evidence=[EV])
    return model


# -- inherit -------------------------------------------------------------------------------

def test_inherit_copies_rules_and_history_but_not_the_trajectory(shop):
    a = oracle(shop)
    a.record_experiment(EV)
    b = a.inherit("B")
    assert b.world == "B" and a.world == "A"
    assert b.trajectory == [] and a.trajectory == [EV]
    assert [r.model_dump() for r in b.rules] == [r.model_dump() for r in a.rules]
    assert [h.model_dump() for h in b.history] == [h.model_dump() for h in a.history]
    assert all(r.origin_world == "A" for r in b.rules)


def test_inherited_models_are_independent(shop):
    a = oracle(shop)
    b = a.inherit("B")
    b.retire("line_amount", reason="deleted in B")
    b.get("order_total").evidence.append(EV)
    new = b.add(shop.rules[0].with_id("x"), reason="new in B")
    assert a.get("line_amount").status == "active" and len(a.history) == len(shop.rules)
    assert len(a.get("order_total").evidence) == 1
    assert new not in {r.id for r in a.rules}
    assert b.history[-1].world == "B" and b.get(new).origin_world == "B"
    a.retire("order_total", reason="edit the parent")
    assert b.get("order_total").status == "active"
    # fresh ids keep counting in the child: no id is ever reused for another rule
    assert b.add(shop.rules[1].with_id("y"), reason="z") != new


# -- predict -------------------------------------------------------------------------------

def test_predict_with_the_true_rules_equals_the_engine(shop):
    model = oracle(shop)
    engine = Engine(shop.schema, shop.rules)
    initial = shop.initial_state()
    for test in shop.tests:
        assert model.predict(test, initial) == engine.run(initial, test).effects
    assert model.predict_many(shop.tests, initial) == [engine.run(initial, t).effects for t in shop.tests]
    assert any(model.predict_many(shop.tests, initial))  # the shop's tests do have side effects


_updates = st.one_of(
    st.builds(lambda q, p: Action("update", "order_line", "L1", {"quantity": q, "unit_price": p}),
              st.integers(-3, 50), st.integers(0, 40)),
    st.builds(lambda s: Action("update", "order", "O1", {"state": s}),
              st.sampled_from(["draft", "submitted", "approved", "cancelled"])),
    st.builds(lambda s: Action("update", "order", "O2", {"state": s}),
              st.sampled_from(["draft", "submitted", "approved", "cancelled"])),
    st.builds(lambda q: Action("insert", "order_line", "L7", {"order": "O2", "quantity": q, "unit_price": 3}),
              st.integers(0, 9)),
    st.just(Action("delete", "order_line", "L1")),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=st.lists(_updates, min_size=1, max_size=4), keep=st.sets(st.integers(0, 3)))
def test_predict_never_mutates_the_snapshot_and_matches_the_engine(shop, actions, keep):
    rules = [r for i, r in enumerate(shop.rules) if i in keep]
    model = RuleModel(shop.schema)
    for rule in rules:
        model.add(rule, reason="subset", rule_id=rule.id)
    snapshot = shop.initial_state()
    before = snapshot.to_records()
    engine = Engine(shop.schema, rules)
    assert model.predict_many(actions, snapshot) == [engine.run(shop.initial_state(), a).effects for a in actions]
    assert snapshot.to_records() == before


# -- diff ----------------------------------------------------------------------------------

def test_diff_names_added_removed_changed_retired_and_reactivated(shop):
    a = oracle(shop)
    a.retire("cancel_clears", reason="gone")
    b = a.inherit("B")
    assert a.diff(b).empty and str(a.diff(b)) == "no differences"
    b.add({"table": "customer", "events": ["update"], "when": "before", "actions": [{"set": {"open_orders": 0}}]},
          reason="new")
    b.revise("order_total", {**shop.rules[1].to_dict(), "events": ["update"]}, reason="narrower")
    b.retire("line_amount", reason="deleted")
    b.revise("cancel_clears", shop.rules[3], reason="back")
    d = a.diff(b)
    assert d.added == ["L001"] and d.changed == ["order_total"]
    assert d.retired == ["line_amount"] and d.reactivated == ["cancel_clears"] and d.removed == []
    assert b.diff(a).removed == ["L001"] and b.diff(a).retired == ["cancel_clears"]
    text = str(d)
    assert "added: L001" in text and "retired: line_amount" in text and "changed: order_total" in text


# -- export --------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_export_is_a_world_the_loader_accepts(shop, tmp_path, suffix):
    model = oracle(shop)
    model.retire("cancel_clears", reason="gone")
    model.add({"table": "customer", "events": ["update"], "when": "before", "condition": "changed(name)",
               "actions": [{"set": {"tier": "'gold'"}}]}, reason="learned")
    path = model.export(tmp_path / f"learned{suffix}", name="shop-learned", records=shop.records)
    world = load_world(path)
    assert world.name == "shop-learned"
    assert [r.id for r in world.rules] == ["line_amount", "order_total", "approval_on_submit", "L001"]
    assert [r.to_dict() for r in world.rules] == [lr.rule for lr in model.active()]
    assert world.schema.to_dict() == shop.schema.to_dict() and world.records == shop.records
    initial = world.initial_state()
    assert model.predict_many(shop.tests, initial) == [Engine(world.schema, world.rules).run(initial, t).effects for t in shop.tests]


def test_world_dict_without_records(shop):
    data = RuleModel(shop.schema, "A").to_world_dict("empty")
    assert data["format"] == "worldshift/1" and data["rules"] == [] and "records" not in data
    assert set(data["tables"]) == {"customer", "order", "order_line", "approval"}


# -- JSON round trip -----------------------------------------------------------------------

_RULES = [
    {"table": "order_line", "events": ["update"], "when": "before", "condition": "changed(quantity)",
     "actions": [{"set": {"amount": "current.quantity * 2"}}]},
    {"table": "order", "events": ["update", "insert"], "when": "after", "condition": "changes_to(state, 'approved')",
     "actions": [{"update": {"target": "current.customer", "set": {"open_orders": "current.customer.open_orders + 1"}}}]},
    {"table": "order", "events": ["delete"], "when": "after", "order": 5,
     "actions": [{"delete_where": {"table": "order_line", "where": "row.order == current.id"}}]},
]

_ops = st.lists(st.tuples(st.sampled_from(["add", "revise", "retire", "evidence", "experiment"]),
                          st.integers(0, 5), st.integers(0, 2), st.text(max_size=8)), max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_ops, confidence=st.floats(0, 1))
def test_json_round_trip_is_lossless(shop, ops, confidence):
    model = RuleModel(shop.schema, "A")
    for op, which, rule, text in ops:
        ids = [r.id for r in model.rules]
        ev = Evidence(action={"op": "update", "table": "order", "id": "O1", "values": {"total": which}},
                      effects=[["set", "order", "O1", "total", which]], supports=bool(which % 2), note=text)
        if op == "add" or not ids:
            model.add(_RULES[rule], reason=text, evidence=[ev], confidence=confidence)
        elif op == "revise":
            model.revise(ids[which % len(ids)], _RULES[rule], reason=text, evidence=[ev])
        elif op == "retire" and model.get(ids[which % len(ids)]).status == "active":
            model.retire(ids[which % len(ids)], reason=text)
        elif op == "evidence":
            model.add_evidence(ids[which % len(ids)], ev)
        else:
            model.record_experiment(ev)
    data = json.loads(json.dumps(model.to_json()))
    back = RuleModel.from_json(data, shop.schema)
    assert back.to_json() == model.to_json()
    assert model.diff(back).empty
    initial = shop.initial_state()
    assert back.predict_many(shop.tests, initial) == model.predict_many(shop.tests, initial)
    # ids keep counting after a reload
    assert back.add(_RULES[0], reason="next") == model.add(_RULES[0], reason="next")
