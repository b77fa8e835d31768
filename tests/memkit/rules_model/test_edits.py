"""add / revise / retire: validation, ids, status, evidence and the history they leave."""

from __future__ import annotations

import pytest

from memkit.errors import RuleModelError
from memkit.rules import Action
from memkit.rules.model import Evidence, RuleModel

AMOUNT = {"table": "order_line", "events": ["insert", "update"], "when": "before",
          "condition": "changed(quantity)", "actions": [{"set": {"amount": "current.quantity * current.unit_price"}}]}
TOTAL = {"table": "order_line", "events": ["update"], "when": "after",
         "actions": [{"update": {"target": "current.order", "set": {"total": "current.amount"}}}]}
EV = Evidence(action={"op": "update", "table": "order_line", "id": "L1", "values": {"quantity": 3}},
              effects=[["set", "order_line", "L1", "amount", 60]], world="shop", note="quantity 2 -> 3")


def _with(**changes):
    return {**AMOUNT, **changes}


INVALID = [
    (_with(condition="changed(quantity"), "expected"),                        # syntax error
    (_with(condition="current.colour == 'red'"), "colour"),                   # unknown field
    (_with(table="invoice"), "invoice"),                                      # unknown table
    (_with(when="after"), "set"),                                             # set in an after rule
    ({**TOTAL, "when": "before"}, "update"),                                  # update in a before rule
    (_with(events=["upsert"]), "upsert"),                                     # unknown event
    (_with(condition="round(current.quantity)"), "round"),                    # wrong arity
    (_with(actions=[{"set": {"amount": "current.quantity *"}}]), ""),         # syntax error in an action
    (_with(actions=[{"set": {"colour": "1"}}]), "colour"),                    # unknown field assigned
    ({**TOTAL, "actions": [{"create": {"table": "nope", "values": {}}}]}, "nope"),
]


def test_add_assigns_fresh_ids_and_stores_the_rule_with_its_id(shop):
    model = RuleModel(shop.schema, "shop")
    first = model.add(AMOUNT, reason="quantity changes set amount", evidence=[EV], confidence=0.8)
    second = model.add(TOTAL, reason="order total follows")
    assert (first, second) == ("L001", "L002")
    lr = model.get(first)
    assert lr.rule["id"] == "L001" and lr.rule["table"] == "order_line"
    assert lr.status == "active" and lr.confidence == 0.8 and lr.origin_world == "shop"
    assert lr.evidence == [EV]
    assert "order_line" in lr.text and "amount" in lr.text and "->" in lr.text
    assert [r.id for r in model.rules] == ["L001", "L002"]


def test_add_accepts_a_parsed_rule_and_an_explicit_id(shop):
    model = RuleModel(shop.schema)
    rid = model.add(shop.rules[0], reason="copied", rule_id="line_amount")
    assert rid == "line_amount"
    assert model.get(rid).rule == shop.rules[0].to_dict()
    assert model.add(AMOUNT, reason="next") == "L001"
    with pytest.raises(RuleModelError, match="already"):
        model.add(AMOUNT, reason="twice", rule_id="line_amount")


def test_fresh_ids_skip_ids_already_taken(shop):
    model = RuleModel(shop.schema)
    model.add(AMOUNT, reason="x", rule_id="L001")
    assert model.add(TOTAL, reason="y") == "L002"


@pytest.mark.parametrize(("raw", "needle"), INVALID)
def test_add_refuses_an_invalid_rule_with_the_parser_message(shop, raw, needle):
    model = RuleModel(shop.schema, "shop")
    with pytest.raises(RuleModelError) as info:
        model.add(raw, reason="bad")
    assert needle in str(info.value)
    assert info.value.__cause__ is not None  # the parser's / checker's own error is kept
    assert model.rules == [] and model.history == []


@pytest.mark.parametrize(("raw", "needle"), INVALID[:4])
def test_revise_refuses_an_invalid_rule_and_keeps_the_old_one(shop, raw, needle):
    model = RuleModel(shop.schema)
    rid = model.add(AMOUNT, reason="ok")
    before = model.get(rid).rule
    with pytest.raises(RuleModelError, match=needle):
        model.revise(rid, raw, reason="bad")
    assert model.get(rid).rule == before and len(model.history) == 1


def test_revise_keeps_the_id_and_changes_predictions(shop):
    model = RuleModel(shop.schema, "shop")
    rid = model.add(AMOUNT, reason="first guess")
    act = Action("update", "order_line", "L1", {"quantity": 3})
    assert model.predict(act, shop.initial_state()) == [("set", "order_line", "L1", "amount", 60)]
    model.revise(rid, _with(actions=[{"set": {"amount": "current.quantity * current.unit_price * 2"}}]),
                 reason="doubled", evidence=[EV])
    assert model.get(rid).rule["id"] == rid and [r.id for r in model.rules] == [rid]
    assert model.predict(act, shop.initial_state()) == [("set", "order_line", "L1", "amount", 120)]
    assert model.get(rid).evidence == [EV]


def test_retire_stops_prediction_and_revise_reactivates(shop):
    model = RuleModel(shop.schema)
    rid = model.add(AMOUNT, reason="x")
    act = Action("update", "order_line", "L1", {"quantity": 3})
    model.retire(rid, reason="gone in this world")
    assert model.get(rid).status == "retired"
    assert model.active() == [] and model.active_rules() == [] and len(model.rules) == 1
    assert model.predict(act, shop.initial_state()) == []
    with pytest.raises(RuleModelError, match="already retired"):
        model.retire(rid, reason="again")
    model.revise(rid, AMOUNT, reason="it came back")
    assert model.get(rid).status == "active"
    assert model.predict(act, shop.initial_state()) == [("set", "order_line", "L1", "amount", 60)]


def test_unknown_ids_are_refused(shop):
    model = RuleModel(shop.schema)
    for call in (lambda: model.get("L9"), lambda: model.retire("L9", reason="?"),
                 lambda: model.revise("L9", AMOUNT, reason="?"), lambda: model.add_evidence("L9", EV)):
        with pytest.raises(RuleModelError, match="L9"):
            call()


def test_every_edit_is_in_the_history(shop):
    model = RuleModel(shop.schema, "A")
    rid = model.add(AMOUNT, reason="seen", evidence=[EV])
    model.revise(rid, _with(condition="changed(quantity) or changed(unit_price)"), reason="price too")
    model.retire(rid, reason="no longer fires", evidence=[EV])
    ops = [(h.seq, h.op, h.rule_id, h.world) for h in model.history]
    assert ops == [(0, "add", rid, "A"), (1, "revise", rid, "A"), (2, "retire", rid, "A")]
    add, revise, retire = model.history
    assert add.before is None and add.after == revise.before and add.reason == "seen" and add.evidence == [EV]
    assert revise.after["condition"] == "changed(quantity) or changed(unit_price)"
    assert retire.before == revise.after and retire.after is None and retire.evidence == [EV]


def test_evidence_and_experiments(shop):
    model = RuleModel(shop.schema, "A")
    rid = model.add(AMOUNT, reason="x")
    model.add_evidence(rid, EV)
    model.record_experiment(EV)
    assert model.get(rid).evidence == [EV]
    assert model.trajectory == [EV]
    assert len(model.history) == 1  # evidence is not an edit


def test_active_rules_follow_edits(shop):
    model = RuleModel(shop.schema)
    a = model.add(AMOUNT, reason="x")
    assert [r.id for r in model.active_rules()] == [a]
    b = model.add(TOTAL, reason="y")
    assert [r.id for r in model.active_rules()] == [a, b]
    model.retire(a, reason="z")
    assert [r.id for r in model.active_rules()] == [b]
