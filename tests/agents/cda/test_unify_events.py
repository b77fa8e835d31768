"""One rule for several events: a per-event rule that only fit by luck gives way to the general one."""

from __future__ import annotations

from pathlib import Path

import yaml

from memkit.rules import Action, load_world
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes

_WORLD = {
    "format": "worldshift/1",
    "name": "holds-A",
    "tables": {
        "title": {"fields": {"name": {"type": "string"}, "waiting": {"type": "number", "default": 0}}},
        "hold": {"fields": {"title": {"type": "reference", "ref": "title"},
                            "state": {"type": "choice", "choices": ["waiting", "ready", "cancelled"], "default": "waiting"}}},
    },
    "records": {
        "title": [{"id": "T1", "name": "a", "waiting": 2}, {"id": "T2", "name": "b", "waiting": 0}],
        "hold": [{"id": "H1", "title": "T1", "state": "waiting"}, {"id": "H2", "title": "T1", "state": "waiting"},
                 {"id": "H3", "title": "T2", "state": "ready"}],
    },
    "rules": [{"id": "count_waiting", "table": "hold", "events": ["insert", "update"], "when": "after",
               "actions": [{"update": {"target": "current.title",
                                       "set": {"waiting": "count(hold, row.title == current.title and row.state == 'waiting')"}}}]}],
    "tests": [],
}

_COUNT = {"id": "x", "table": "hold", "events": ["insert"], "when": "after",
          "actions": [{"update": {"target": "current.title", "set": {"waiting": "count(hold, row.title == current.title and row.state == 'waiting')"}}}]}
_ONE = {"id": "x", "table": "hold", "events": ["update"], "when": "after",
        "actions": [{"update": {"target": "current.title", "set": {"waiting": "1"}}}]}


def _setup(tmp_path: Path):
    path = tmp_path / "holds-A.yaml"
    path.write_text(yaml.safe_dump(_WORLD))
    world = load_world(path)
    platform = Platform(world)
    # every update seen happens to leave one hold waiting: the constant 1 fits them all
    obs = observe_writes(platform, [
        Action("update", "hold", "H1", {"state": "ready"}),
        Action("update", "hold", "H2", {"state": "cancelled"}),
        Action("update", "hold", "H3", {"state": "waiting"}),
        Action("insert", "hold", "H9", {"title": "T1"}),
        Action("insert", "hold", "H8", {"title": "T2", "state": "waiting"}),
    ])
    return world, obs


def test_a_rule_that_explains_another_events_writes_absorbs_its_rule(tmp_path):
    world, obs = _setup(tmp_path)
    model = RuleModel(world.schema, world.name)
    count_id = model.add(_COUNT, reason="learned on inserts")
    one_id = model.add(_ONE, reason="learned on updates")
    merged = Inducer(world.schema).unify_events(model, obs, world.name)
    assert merged == [(count_id, one_id)]
    assert model.get(one_id).status == "retired"
    assert model.get(count_id).rule["events"] == ["insert", "update"]
    # the merged model is right where the constant was not: an update leaving two holds waiting
    probe = Action("update", "hold", "H3", {"title": "T1", "state": "waiting"})
    initial = world.initial_state()
    effects = model.predict(probe, initial)
    assert ["set", "title", "T1", "waiting", 3] in [list(e) for e in effects]


def test_no_merge_when_the_wider_rule_explains_less(tmp_path):
    world, obs = _setup(tmp_path)
    model = RuleModel(world.schema, world.name)
    model.add({**_ONE, "events": ["update"]}, reason="learned on updates")
    model.add({**_COUNT, "actions": [{"update": {"target": "current.title", "set": {"waiting": "3"}}}]}, reason="fits one insert")
    # the constant 1 would explain the other insert but lose the one 3 explained: both rules stay
    assert Inducer(world.schema).unify_events(model, obs, world.name) == []
    assert len(model.active()) == 2


def test_inherited_rules_are_not_merged_on_this_worlds_writes(tmp_path):
    world, obs = _setup(tmp_path)
    model = RuleModel(world.schema, world.name)
    model.add(_COUNT, reason="learned on inserts")
    model.add(_ONE, reason="learned on updates")
    later = model.inherit("holds-B")
    assert Inducer(world.schema).unify_events(later, obs, "holds-B") == []


def test_a_rule_on_two_events_runs_after_what_either_event_needs_first(shop):
    from agents.cda.induction import order_before_rules

    model = RuleModel(shop["A"].schema, "shop-A")
    # added first, so that a tie in order would run it before the price is set
    amount = model.add({"id": "x", "table": "order_line", "events": ["insert", "update"], "when": "before",
                        "actions": [{"set": {"amount": "current.quantity * current.unit_price"}}]}, reason="amount")
    price = model.add({"id": "x", "table": "order_line", "events": ["insert"], "when": "before",
                       "actions": [{"set": {"unit_price": "7"}}]}, reason="inserts get a price")
    # a second rule on updates that the amount does not depend on
    model.add({"id": "x", "table": "order_line", "events": ["update"], "when": "before",
               "actions": [{"set": {"order": "current.order"}}]}, reason="updates keep the order")
    order_before_rules(model, lambda rid: True, lambda text: None)
    # on updates nothing sets the price first, on inserts the price rule does: inserts decide
    assert model.get(amount).rule["order"] > model.get(price).rule.get("order", 100)
    state = shop["A"].initial_state()
    effects = model.predict(Action("insert", "order_line", "L9", {"order": "O1", "quantity": 3}), state)
    assert ["set", "order_line", "L9", "amount", 21] in [list(e) for e in effects]
