"""A before rule that overrides a field the write itself set (side effects leave such fields out):
induction is pointed at it by the record read back, its condition on an insert is not led by
whatever the clone happened to write, and a rival condition gets an experiment that tells them apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.rules import Action, Engine, load_world
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from agents.cda.induction import Inducer
from agents.cda.policy import SystematicPolicy
from agents.cda.session import DiscoverySession
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes

SLOT = ("own", "admission", "insert", "state")


@pytest.fixture(scope="module")
def ward() -> World:
    return load_world(Path(__file__).parent / "worlds" / "ward-A.yaml")


def _inserts() -> list[Action]:
    # as a sweep writes them: clones that carry a state (emergencies entered as cancelled, whose
    # state the world overrides), inserts with references only, and a cancelled one without a bed
    return [
        Action("insert", "admission", "N1", {"ward": "W1", "bed": "B5", "priority": "emergency", "state": "cancelled", "days": 2}),
        Action("insert", "admission", "N2", {"ward": "W2", "bed": "B6", "priority": "emergency", "state": "cancelled", "days": 2}),
        Action("insert", "admission", "N3", {"ward": "W1", "bed": "B7"}),
        Action("insert", "admission", "N4", {"ward": "W2", "bed": "B7"}),
        Action("insert", "admission", "N5", {"ward": "W2", "priority": "elective", "state": "cancelled", "days": 1}),
        Action("insert", "admission", "N6", {"ward": "W1", "bed": "B8", "priority": "urgent", "state": "discharged", "days": 4}),
    ]


def test_an_overridden_state_the_effects_leave_out_is_a_slot_to_explain(ward):
    obs = observe_writes(Platform(ward), _inserts())
    # the effects show only the ward's count: the state the rule set is the write's own field
    assert not any(e[0] == "set" and e[1] == "admission" for e in obs[0].effects)
    assert obs[0].after.get("admission", "N1")["state"] == "admitted"
    bad = Inducer(ward.schema).residual_slots(RuleModel(ward.schema, ward.name), obs)
    assert bad.get(SLOT) == 2


def test_an_insert_rule_is_conditioned_on_what_tells_positives_apart_not_on_what_was_written(ward):
    obs = observe_writes(Platform(ward), _inserts())
    learned = Inducer(ward.schema).learn_slot(SLOT, obs)
    assert learned is not None
    # changed(bed) and state == 'cancelled' also separates them: a bed written along with the
    # clone says nothing of the trigger, and the one literal that does is the simpler rule
    assert learned.rule["condition"] == "current.priority == 'emergency'"


def test_a_rival_condition_on_an_overridden_field_gets_a_probe_the_world_answers(ward):
    platform = Platform(ward)
    model = RuleModel(ward.schema, ward.name)
    wrong = {"table": "admission", "events": ["insert"], "when": "before",
             "condition": "current.state == 'cancelled'", "actions": [{"set": {"state": "'admitted'"}}]}
    rid = model.add(wrong, reason="test")
    session = DiscoverySession(platform, model, budget=10, world=ward.name, platform_initial=platform.snapshot())
    session.observations.extend(observe_writes(platform, _inserts()))
    policy = SystematicPolicy()
    policy._scratch(session)["alternatives"] = {rid: [{**wrong, "condition": "current.priority == 'emergency'"}]}
    planned = policy._disambiguations(session)
    assert [p for p, _ in planned] == [f"disambiguate {rid}"]
    probe = planned[0][1]
    # the two conditions disagree on it (in the effects or in the record read back), so the
    # world's answer rules one of them out
    state = ward.initial_state()
    assert probe.op == "insert"
    assert _shows(Engine(ward.schema, model.active_rules()), state, probe) != _shows(Engine(ward.schema, ward.rules), state, probe)


def _shows(engine: Engine, state, action: Action) -> tuple:
    result = engine.run(state, action)
    return sorted(map(repr, result.effects)), result.written_final


def test_a_threshold_on_a_number_another_known_rule_computes_reads_that_number():
    # severity follows the net amount, which the model's net rule computes from the loss in the
    # same write. Read as written the net shows nothing, and the loss with the excess fits these
    # writes too (loss >= 1200 and excess <= 100), but predicts wrongly as soon as a high loss
    # has a large excess or a low excess meets a loss just over: the condition reads the net
    loss = load_world(Path(__file__).parent / "worlds" / "loss-A.yaml")
    platform = Platform(loss)
    writes = {"C1": 1500, "C2": 3000, "C3": 1200, "C4": 2500, "C5": 900, "C6": 1800}
    obs = observe_writes(platform, [Action("update", "claim", cid, {"loss": v}) for cid, v in writes.items()])
    model = RuleModel(loss.schema, loss.name)
    model.add(loss.rule("net").to_dict(), reason="known")
    Inducer(loss.schema).run(model, obs, loss.name)
    severity = [lr.rule for lr in model.active() if "severity" in str(lr.rule["actions"])]
    assert len(severity) == 1
    condition = severity[0]["condition"]
    assert "current.net " in condition and "loss" not in condition and "excess" not in condition
    # and it predicts a write it has not seen: net 3000 - 500 = 2500 is high
    probe = Action("update", "claim", "C5", {"loss": 3000, "excess": 500})
    state = loss.initial_state()
    assert Engine(loss.schema, model.active_rules()).run(state, probe).effects == Engine(loss.schema, loss.rules).run(state, probe).effects


def test_a_revised_rule_keeps_the_order_that_lets_it_read_a_computed_number():
    # the severity rule was given order 110 to run after the net rule it reads; a moved threshold
    # revises it, and the revision must still run after the net rule, or it reads the old net
    loss = load_world(Path(__file__).parent / "worlds" / "loss-A.yaml")
    platform = Platform(loss)
    model = RuleModel(loss.schema, loss.name)
    stale = {"table": "claim", "events": ["update"], "when": "before", "order": 110,
             "condition": "changed(loss) and current.net >= 5000", "actions": [{"set": {"severity": "'high'"}}]}
    rid = model.add(stale, reason="learned in an earlier world")  # added first: it would run first at one order
    model.add(loss.rule("net").to_dict(), reason="known")
    writes = {"C1": 1500, "C2": 3000, "C3": 1200, "C4": 2500, "C5": 900, "C6": 1800}
    obs = observe_writes(platform, [Action("update", "claim", cid, {"loss": v}) for cid, v in writes.items()])
    Inducer(loss.schema).run(model, obs, loss.name)
    revised = model.get(rid)
    assert revised.status == "active" and "5000" not in revised.rule["condition"]
    assert revised.rule.get("order") == 110
    probe = Action("update", "claim", "C5", {"loss": 3000, "excess": 500})
    state = loss.initial_state()
    assert Engine(loss.schema, model.active_rules()).run(state, probe).effects == Engine(loss.schema, loss.rules).run(state, probe).effects
