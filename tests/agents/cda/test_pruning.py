"""Pruning: only rules the others make redundant are retired."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer
from tests.agents.cda.helpers import observe_writes
from tests.agents.cda.test_unify_events import _ONE, _setup


def test_a_rule_right_in_one_write_and_wrong_in_another_is_not_redundant(tmp_path):
    world, _ = _setup(tmp_path)
    from evals.worldshift.platform import Platform

    obs = observe_writes(Platform(world), [
        Action("update", "hold", "H3", {"state": "cancelled"}),   # T2 stays 0: the constant is wrong
        Action("update", "hold", "H1", {"state": "ready"}),       # T1 drops to 1: the constant is right
    ])
    model = RuleModel(world.schema, world.name)
    rid = model.add(_ONE, reason="learned on updates")
    # removing it gains in the first write and loses in the second (summing gains and losses
    # in this order once called it redundant): it is not
    assert Inducer(world.schema).prune_redundant(model, obs, world.name) == []
    assert model.get(rid).status == "active"


def test_a_rule_that_adds_nothing_anywhere_is_retired(tmp_path):
    world, obs = _setup(tmp_path)
    model = RuleModel(world.schema, world.name)
    keep = model.add({**_ONE, "events": ["insert", "update"],
                      "actions": [{"update": {"target": "current.title", "set": {"waiting": "count(hold, row.title == current.title and row.state == 'waiting')"}}}]},
                     reason="the count")
    dup = model.add({**_ONE, "id": "y", "actions": [{"update": {"target": "current.title", "set": {"waiting": "count(hold, row.title == current.title and row.state == 'waiting')"}}}]},
                    reason="the same count on updates again")
    retired = Inducer(world.schema).prune_redundant(model, obs, world.name)
    assert len(retired) == 1 and retired[0] in (keep, dup)


def test_an_inherited_rule_is_kept_when_redundant_and_retired_when_it_only_makes_predictions_worse(tmp_path):
    world, obs = _setup(tmp_path)
    count = "count(hold, row.title == current.title and row.state == 'waiting')"
    earlier = RuleModel(world.schema, "holds-0")
    right = earlier.add({**_ONE, "events": ["insert", "update"], "actions": [{"update": {"target": "current.title", "set": {"waiting": count}}}]},
                        reason="the count")
    twin = earlier.add({**_ONE, "id": "y", "actions": [{"update": {"target": "current.title", "set": {"waiting": count}}}]},
                       reason="the same count on updates, learned in another round")
    # a shortcut that held in the earlier world (or never did): here it invents an effect in every write it fires in
    wrong = earlier.add({**_ONE, "id": "z", "condition": "changes_to(state, 'cancelled')",
                         "actions": [{"update": {"target": "current.title", "set": {"name": "'gone'"}}}]}, reason="a shortcut")
    model = earlier.inherit(world.name)
    retired = Inducer(world.schema).prune_redundant(model, obs, world.name)
    assert wrong in retired
    # the earlier world's evidence still stands behind a rule this world only finds redundant
    assert model.get(right).status == "active" and model.get(twin).status == "active"
