"""A threshold rule keeps, as evidence for the next world's audit, the bisection's writes nearest its
threshold on either side: its evidence was set when it was learned, before the bisection, and a
threshold that moves a little (a GPA bar raised from 2 to 2.2) would show in no replay."""

from __future__ import annotations

import dataclasses

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import keep_threshold_boundaries
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, observe_writes

_RULE = {"table": "student", "events": ["update"], "when": "before",
         "condition": "changed(gpa) and current.gpa < 2", "actions": [{"set": {"standing": "'probation'"}}]}


def _probes(world, gpas: list[float]):
    writes = [Action("update", "student", "S2", {"gpa": g}) for g in gpas]
    return [dataclasses.replace(o, purpose="bisect student.gpa") for o in observe_writes(Platform(world), writes)]


def test_the_probes_nearest_the_threshold_become_evidence():
    world = hand_made_world("standing-A")
    model = RuleModel(world.schema, world.name)
    rid = model.add(_RULE, reason="learned from the first writes")
    obs = _probes(world, [0.0, 42.0, 5.0, 1.0, 2.0, 1.99])
    assert keep_threshold_boundaries(model, obs, world.name) == [rid]
    kept = {(e.action["values"]["gpa"], e.supports) for e in model.get(rid).evidence}
    assert (1.99, True) in kept and (2.0, False) in kept
    # the replay of the write at 2 fires once the bar is 2.2: the next world's audit sees the move
    raised = hand_made_world("standing-B")
    replay = observe_writes(Platform(raised), [Action("update", "student", "S2", {"gpa": 2.0})])[0]
    assert any(e[0] == "set" and e[3] == "standing" for e in replay.effects)


def test_writes_that_were_no_bisection_are_not_taken():
    world = hand_made_world("standing-A")
    model = RuleModel(world.schema, world.name)
    rid = model.add(_RULE, reason="learned from the first writes")
    obs = [dataclasses.replace(o, purpose="student.gpa = 2.0") for o in _probes(world, [2.0, 1.0])]
    assert keep_threshold_boundaries(model, obs, world.name) == []
    assert model.get(rid).evidence == []
