"""A rule inherited on two events that the new world contradicts on one (a GPA bar raised, seen on
updates) is narrowed to the other; the rule learned for the first then also takes the other event
back where it explains those writes as well, so inserts do not keep the old bar."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, observe_writes

_OLD = {"table": "student", "events": ["insert", "update"], "when": "before",
        "condition": "current.gpa < 2", "actions": [{"set": {"standing": "'probation'"}}]}


def test_the_rule_learned_here_absorbs_the_narrowed_inherited_rest():
    world_a, world_b = hand_made_world("standing-A"), hand_made_world("standing-B")
    model_a = RuleModel(world_a.schema, world_a.name)
    rid = model_a.add(_OLD, reason="learned in A")
    model = model_a.inherit(world_b.name)
    # what induction does in B: the updates contradict the rule, which keeps the inserts, and the
    # updates get a rule of their own
    model.revise(rid, {**_OLD, "events": ["insert"]}, reason="contradicted on update")
    new = model.add({**_OLD, "events": ["update"], "condition": "current.gpa < 2.2"}, reason="learned in B")
    writes = [Action("update", "student", "S2", {"gpa": 2.1}), Action("update", "student", "S3", {"gpa": 3.0}),
              Action("insert", "student", "S8", {"advisor": "A1", "gpa": 1.0}),
              Action("insert", "student", "S7", {"advisor": "A1", "gpa": 3.0})]
    merged = Inducer(world_b.schema).unify_events(model, observe_writes(Platform(world_b), writes), world_b.name)
    assert merged == [(new, rid)]
    assert model.get(new).rule["events"] == ["insert", "update"] and model.get(rid).status == "retired"
