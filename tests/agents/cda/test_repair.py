"""Repairing a slot edits the rule that the new evidence is about, and only on the event it is about."""

from __future__ import annotations

from pathlib import Path

import yaml

from memkit.rules import Action, load_world
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes

_ITEMS = {
    "format": "worldshift/1",
    "name": "items-B",
    "tables": {
        "item": {"fields": {"price": {"type": "number"}, "qty": {"type": "number"},
                            "fee": {"type": "number", "default": 0}, "total": {"type": "number"}}},
    },
    "records": {
        "item": [{"id": "I1", "price": 3, "qty": 2, "fee": 5, "total": 6},
                 {"id": "I2", "price": 4, "qty": 5, "fee": 1, "total": 20},
                 {"id": "I3", "price": 10, "qty": 1, "fee": 2, "total": 10}],
    },
    # in the world before, one rule set the total on insert and update; now an update charges the fee per unit instead
    "rules": [
        {"id": "on_insert", "table": "item", "events": ["insert"], "when": "before",
         "actions": [{"set": {"total": "current.price * current.qty"}}]},
        {"id": "on_update", "table": "item", "events": ["update"], "when": "before",
         "actions": [{"set": {"total": "current.qty * current.fee"}}]},
    ],
    "tests": [],
}
_INHERITED = {"id": "x", "table": "item", "events": ["insert", "update"], "when": "before",
              "actions": [{"set": {"total": "current.price * current.qty"}}]}

_CASES = {
    "format": "worldshift/1",
    "name": "cases-A",
    "tables": {
        "case": {"fields": {"status": {"type": "choice", "choices": ["open", "approved", "denied"], "default": "open"}}},
        "letter": {"fields": {"case": {"type": "reference", "ref": "case"},
                              "kind": {"type": "choice", "choices": ["approval", "denial"]}}},
    },
    "records": {
        "case": [{"id": f"C{i}", "status": "open"} for i in range(1, 7)],
        "letter": [],
    },
    "rules": [
        {"id": "denial", "table": "case", "events": ["update"], "when": "after", "condition": "changes_to(status, 'denied')",
         "actions": [{"create": {"table": "letter", "values": {"case": "current.id", "kind": "'denial'"}}}]},
        {"id": "approval", "table": "case", "events": ["update"], "when": "after", "condition": "changes_to(status, 'approved')",
         "actions": [{"create": {"table": "letter", "values": {"case": "current.id", "kind": "'approval'"}}}]},
    ],
    "tests": [],
}
_DENIAL, _APPROVAL = _CASES["rules"]


def _load(tmp_path: Path, world: dict):
    path = tmp_path / f"{world['name']}.yaml"
    path.write_text(yaml.safe_dump(world))
    return load_world(path)


def test_a_rule_contradicted_on_one_event_keeps_the_others(tmp_path):
    world = _load(tmp_path, _ITEMS)
    obs = observe_writes(Platform(world), [
        Action("update", "item", "I1", {"qty": 4}),
        Action("update", "item", "I2", {"price": 6}),
        Action("update", "item", "I3", {"qty": 3, "fee": 7}),
        Action("update", "item", "I2", {"fee": 9}),
        Action("update", "item", "I1", {"price": 7, "qty": 1}),
        Action("insert", "item", "I9", {"price": 2, "qty": 8, "fee": 3}),
        Action("insert", "item", "I8", {"price": 5, "qty": 1}),
    ])
    model = RuleModel(world.schema, world.name)
    rid = model.add(_INHERITED, reason="learned in the world before")
    Inducer(world.schema).run(model, obs, world.name)
    # the inherited rule still holds on insert: it keeps that event (and its identity and
    # evidence) instead of being rewritten into the update rule and learned again
    assert model.get(rid).status == "active"
    assert model.get(rid).rule["events"] == ["insert"]
    initial = world.initial_state()
    update = Action("update", "item", "I2", {"qty": 7})
    insert = Action("insert", "item", "I7", {"price": 3, "qty": 3, "fee": 4})
    assert ("set", "item", "I2", "total", 7 * 1) in [tuple(e) for e in model.predict(update, initial)]
    assert ("set", "item", "I7", "total", 9) in [tuple(e) for e in model.predict(insert, initial)]


def test_a_right_rule_is_not_rewritten_into_its_neighbour(tmp_path):
    world = _load(tmp_path, _CASES)
    obs = observe_writes(Platform(world), [
        Action("update", "case", "C1", {"status": "denied"}),
        Action("update", "case", "C2", {"status": "approved"}),
        Action("update", "case", "C3", {"status": "denied"}),
        Action("update", "case", "C4", {"status": "approved"}),
        Action("update", "case", "C5", {"status": "open"}),
    ])
    model = RuleModel(world.schema, world.name)
    # the approval letter was learned with the wrong trigger; the denial letter is right
    wrong = model.add({**_APPROVAL, "id": "x", "condition": "changes_to(status, 'open')"}, reason="a guess")
    right = model.add({**_DENIAL, "id": "x"}, reason="learned before")
    Inducer(world.schema).run(model, obs, world.name)
    assert [h.op for h in model.history if h.rule_id == right] == ["add"]
    assert "changes_to(status, 'approved')" in model.get(wrong).rule["condition"]


def _cases_world(tmp_path: Path, name: str, rules: list[dict]):
    return _load(tmp_path, {**_CASES, "name": name, "rules": rules})


def test_a_rule_whose_effect_is_gone_is_retired_unless_another_event_still_shows_it(tmp_path):
    both = {**_DENIAL, "id": "x", "events": ["insert", "update"]}
    denials = [Action("update", "case", "C1", {"status": "denied"}), Action("update", "case", "C3", {"status": "denied"})]
    # the letter is gone altogether: seen on updates only, the rule is stale as a whole
    gone = _cases_world(tmp_path, "cases-D", [_APPROVAL])
    model = RuleModel(gone.schema, gone.name)
    rid = model.add(both, reason="learned before")
    Inducer(gone.schema).run(model, observe_writes(Platform(gone), denials), gone.name)
    assert model.get(rid).status == "retired"
    # the letter still comes on insert, and a write shows it: the rule keeps that event
    kept = _cases_world(tmp_path, "cases-E", [{**_DENIAL, "events": ["insert"]}, _APPROVAL])
    model = RuleModel(kept.schema, kept.name)
    rid = model.add(both, reason="learned before")
    writes = [*denials, Action("insert", "case", "C9", {"status": "denied"})]
    Inducer(kept.schema).run(model, observe_writes(Platform(kept), writes), kept.name)
    assert model.get(rid).status == "active" and model.get(rid).rule["events"] == ["insert"]


_LINES = {
    "format": "worldshift/1",
    "name": "lines-A",
    "tables": {
        "order": {"fields": {"total": {"type": "number", "default": 0}}},
        "line": {"fields": {"order": {"type": "reference", "ref": "order"}, "quantity": {"type": "number"},
                            "unit_cost": {"type": "number"}, "amount": {"type": "number", "default": 0}}},
    },
    "records": {
        "order": [{"id": "O1", "total": 26}, {"id": "O2", "total": 20}],
        "line": [{"id": "L1", "order": "O1", "quantity": 2, "unit_cost": 3, "amount": 6},
                 {"id": "L2", "order": "O1", "quantity": 4, "unit_cost": 5, "amount": 20},
                 {"id": "L3", "order": "O2", "quantity": 1, "unit_cost": 20, "amount": 20}],
    },
    # the amount follows quantity and cost only when one of them changes: an amount written by hand stays
    "rules": [
        {"id": "amount", "table": "line", "events": ["update"], "when": "before",
         "condition": "changed(quantity) or changed(unit_cost)", "actions": [{"set": {"amount": "current.quantity * current.unit_cost"}}]},
        {"id": "total", "table": "line", "events": ["update"], "when": "after",
         "actions": [{"update": {"target": "current.order", "set": {"total": "sum(line, amount, row.order == current.order)"}}}]},
    ],
    "tests": [],
}


def test_a_before_rule_that_overrides_a_field_the_world_keeps_as_written_gets_a_condition(tmp_path):
    # the override itself never shows as a side effect (the write set the field), only the
    # order total further down does: the amount rule must still be the one repaired
    world = _load(tmp_path, _LINES)
    obs = observe_writes(Platform(world), [
        Action("update", "line", "L1", {"quantity": 5}),
        Action("update", "line", "L2", {"unit_cost": 2}),
        Action("update", "line", "L3", {"quantity": 3}),
        Action("update", "line", "L1", {"amount": 100}),
        Action("update", "line", "L3", {"amount": 0}),
    ])
    model = RuleModel(world.schema, world.name)
    for rule in _LINES["rules"]:
        model.add({**rule, "id": "x", "condition": None} if rule["id"] == "amount" else {**rule, "id": "x"}, reason="a guess")
    inducer = Inducer(world.schema)
    assert ("own", "line", "update", "amount") in inducer.residual_slots(model, obs)
    inducer.run(model, obs, world.name)
    assert inducer.residual_slots(model, obs) == {}
    initial = world.initial_state()
    assert ("set", "order", "O1", "total", 120) in [tuple(e) for e in model.predict(Action("update", "line", "L1", {"amount": 100}), initial)]
    assert ("set", "line", "L1", "amount", 10) in [tuple(e) for e in model.predict(Action("update", "line", "L1", {"quantity": 5, "unit_cost": 2}), initial)]


_FRAUD = {
    "format": "worldshift/1",
    "name": "fraud-A",
    "tables": {
        "claim": {"fields": {"fraud": {"type": "number", "default": 0},
                             "amount": {"type": "number", "default": 0},
                             "status": {"type": "choice", "choices": ["open", "investigating", "denied"], "default": "open"},
                             "siu": {"type": "boolean", "default": False}}},
    },
    "records": {
        "claim": [{"id": f"C{i}", "fraud": 10, "amount": 50 if i == 6 else 100 * i, "status": "denied" if i == 6 else "open", "siu": False}
                  for i in range(1, 7)],
    },
    # one rule sets two fields: the status it sets along with the flag is a co-effect, not a cause
    "rules": [
        {"id": "siu", "table": "claim", "events": ["update"], "when": "before",
         "condition": "changed(fraud) and current.fraud >= 60 and current.status != 'denied'",
         "actions": [{"set": {"siu": "true", "status": "'investigating'"}}]},
    ],
    "tests": [],
}


def test_a_condition_does_not_read_what_the_same_write_derived(tmp_path: Path) -> None:
    path = tmp_path / "fraud-A.yaml"
    path.write_text(yaml.safe_dump(_FRAUD))
    world = load_world(path)
    writes = [("C1", {"fraud": 70}), ("C2", {"fraud": 85}), ("C3", {"fraud": 60}), ("C4", {"fraud": 95}),
              ("C1", {"fraud": 59}), ("C2", {"fraud": 20}), ("C6", {"fraud": 90}), ("C5", {"amount": 7}),
              ("C3", {"status": "investigating"}), ("C4", {"status": "denied"})]
    obs = observe_writes(Platform(world), [Action("update", "claim", rid, values) for rid, values in writes])
    learned = Inducer(world.schema).learn_slot(("own", "claim", "update", "siu"), obs)
    assert learned is not None
    condition = learned.rule["condition"]
    assert "current.fraud >=" in condition and "investigating" not in condition


_RATIO = {
    "format": "worldshift/1",
    "name": "ratio-A",
    "tables": {
        "policy": {"fields": {"paid": {"type": "number", "default": 0}, "premium": {"type": "number"},
                              "ratio": {"type": "number"}}},
    },
    "records": {
        "policy": [{"id": "P1", "paid": 120, "premium": 400, "ratio": 0.3},
                   {"id": "P2", "paid": 50, "premium": 70, "ratio": 0.71},
                   {"id": "P3", "paid": 0, "premium": 900, "ratio": 0}],
    },
    # over a zero premium the ratio comes out empty (null): one rule, not a rule per observed value
    "rules": [
        {"id": "ratio", "table": "policy", "events": ["update"], "when": "before",
         "condition": "changed(paid) or changed(premium)",
         "actions": [{"set": {"ratio": "round(current.paid / current.premium, 2)"}}]},
    ],
    "tests": [],
}


def test_a_ratio_is_found_although_one_observation_divided_by_zero(tmp_path: Path) -> None:
    path = tmp_path / "ratio-A.yaml"
    path.write_text(yaml.safe_dump(_RATIO))
    world = load_world(path)
    writes = [("P1", {"premium": 0}), ("P1", {"paid": 300}), ("P2", {"premium": 300}), ("P3", {"paid": 45})]
    obs = observe_writes(Platform(world), [Action("update", "policy", rid, values) for rid, values in writes])
    assert obs[0].after.get("policy", "P1").get("ratio") is None
    learned = Inducer(world.schema).learn_slot(("own", "policy", "update", "ratio"), obs)
    assert learned is not None
    assert learned.rule["actions"] == [{"set": {"ratio": "round(current.paid / current.premium, 2)"}}]


_WARD = {
    "format": "worldshift/1",
    "name": "ward-C",
    "tables": {
        "bed": {"fields": {"status": {"type": "choice", "choices": ["free", "occupied", "cleaning"], "default": "free"}}},
        "stay": {"fields": {"bed": {"type": "reference", "ref": "bed"},
                            "state": {"type": "choice", "choices": ["admitted", "discharged"], "default": "admitted"},
                            "long": {"type": "boolean", "default": False}}},
        "task": {"fields": {"bed": {"type": "reference", "ref": "bed"}, "stay": {"type": "reference", "ref": "stay"},
                            "kind": {"type": "choice", "choices": ["cleaning", "planning"]}}},
    },
    "records": {
        "bed": [{"id": f"B{i}", "status": "occupied"} for i in range(1, 5)],
        "stay": [{"id": f"S{i}", "bed": f"B{i}", "state": "admitted", "long": False} for i in range(1, 5)],
        "task": [],
    },
    # a discharge frees the bed for cleaning and the bed's rule creates the cleaning task; new in
    # this world, a long stay gets a planning task of its own
    "rules": [
        {"id": "discharge", "table": "stay", "events": ["update"], "when": "after", "condition": "changes_to(state, 'discharged')",
         "actions": [{"update": {"target": "current.bed", "set": {"status": "'cleaning'"}}}]},
        {"id": "clean", "table": "bed", "events": ["update"], "when": "after", "condition": "changes_to(status, 'cleaning')",
         "actions": [{"create": {"table": "task", "values": {"bed": "current.id", "kind": "'cleaning'"}}}]},
        {"id": "plan", "table": "stay", "events": ["update"], "when": "after", "condition": "changes_to(long, true)",
         "actions": [{"create": {"table": "task", "values": {"stay": "current.id", "kind": "'planning'"}}}]},
    ],
    "tests": [],
}


def test_an_effect_a_cascade_already_gives_is_not_learned_again_on_the_first_record(tmp_path: Path) -> None:
    path = tmp_path / "ward-C.yaml"
    path.write_text(yaml.safe_dump(_WARD))
    world = load_world(path)
    discharge, clean, _ = _WARD["rules"]
    model = RuleModel(world.schema, world.name)
    model.add(discharge, reason="learned earlier")
    model.add(clean, reason="learned earlier")
    writes = [("S1", {"state": "discharged"}), ("S2", {"state": "discharged", "long": True}), ("S3", {"long": True}),
              ("S4", {"state": "discharged"}), ("S2", {"long": True}), ("S1", {"state": "discharged", "long": True}),
              ("S3", {"state": "discharged"})]
    obs = observe_writes(Platform(world), [Action("update", "stay", rid, values) for rid, values in writes])
    Inducer(world.schema).run(model, obs, world.name)
    creates_on_stay = [lr.rule for lr in model.active() if lr.rule["table"] == "stay" and "create" in lr.rule["actions"][0]]
    # one rule: the planning task on a long stay; the cleaning task stays the bed's rule's
    assert len(creates_on_stay) == 1, [lr.text for lr in model.active()]
    assert creates_on_stay[0]["actions"][0]["create"]["values"]["kind"] == "'planning'"
    assert "long" in creates_on_stay[0].get("condition", "")
