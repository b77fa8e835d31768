"""A record a rule creates may be changed on its way in by a before rule of its own table (a
child's fine waived as it is created): the agent inserts such a record directly to see that rule
on its own trigger, and a create learned once the model has it leaves the field to it."""

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

RETURNS = [Action("update", "loan", lid, {"state": "returned"}) for lid in ("L1", "L2", "L3", "L4", "L5")]


@pytest.fixture(scope="module")
def fees() -> World:
    return load_world(Path(__file__).parent / "worlds" / "fees-A.yaml")


def _session(world: World, model: RuleModel) -> DiscoverySession:
    platform = Platform(world)
    session = DiscoverySession(platform, model, budget=20, world=world.name, platform_initial=platform.snapshot())
    session.observations.extend(observe_writes(platform, RETURNS))
    return session


def test_a_created_record_off_its_default_is_inserted_directly_at_the_default(fees):
    session = _session(fees, RuleModel(fees.schema, fees.name))
    probes = SystematicPolicy()._created_probes(session)
    assert len(probes) == 1  # one per (table, field, value): the child's waived fine
    action = probes[0][1]
    assert (action.op, action.table) == ("insert", "fine")
    assert action.values == {"member": "M2", "loan": "L2", "amount": 1.5, "state": "open"}
    # the world answers with the rule of the fine table: the written 'open' comes out waived
    platform = Platform(fees)
    platform.write(action)
    assert platform.snapshot().get("fine", action.id)["state"] == "waived"


def test_no_probe_where_an_insert_rule_of_the_model_already_sets_the_value(fees):
    model = RuleModel(fees.schema, fees.name)
    model.add(fees.rule("child_waived").to_dict(), reason="known")
    assert SystematicPolicy()._created_probes(_session(fees, model)) == []


def test_a_probe_is_planned_once(fees):
    session = _session(fees, RuleModel(fees.schema, fees.name))
    policy = SystematicPolicy()
    assert len(policy._created_probes(session)) == 1
    assert policy._created_probes(session) == []


def test_an_insert_rule_that_counts_the_table_is_asked_without_the_created_record(fees):
    # "a member's first fine is waived" explains the child's waived fine as well as the true rule
    # does: asked on the records after the write, the fine would count itself and seem unexplained
    model = RuleModel(fees.schema, fees.name)
    model.add({"table": "fine", "events": ["insert"], "when": "before",
               "condition": "count(fine, row.member == current.member) == 0",
               "actions": [{"set": {"state": "'waived'"}}]}, reason="test")
    assert SystematicPolicy()._created_probes(_session(fees, model)) == []


def test_a_create_leaves_out_what_an_insert_rule_of_the_model_sets(fees):
    obs = observe_writes(Platform(fees), RETURNS)
    model = RuleModel(fees.schema, fees.name)
    model.add(fees.rule("child_waived").to_dict(), reason="known")
    Inducer(fees.schema).run(model, obs, fees.name)
    creates = [lr.rule for lr in model.active() if any("create" in a for a in lr.rule["actions"])]
    # one create for adults and children alike, the waiving left to the fine's rule
    assert len(creates) == 1
    assert "state" not in creates[0]["actions"][0]["create"]["values"]
    state = fees.initial_state()
    for probe in (Action("update", "loan", "L4", {"state": "returned"}), Action("update", "loan", "L3", {"state": "returned"})):
        assert Engine(fees.schema, model.active_rules()).run(state, probe).effects == Engine(fees.schema, fees.rules).run(state, probe).effects


def test_without_that_rule_the_create_has_to_carry_the_value(fees):
    # the same writes with no insert rule in the model: the waived state is part of what the
    # creates must say, so the children's fines are not predicted open
    obs = observe_writes(Platform(fees), RETURNS)
    model = RuleModel(fees.schema, fees.name)
    Inducer(fees.schema).run(model, obs, fees.name)
    probe = Action("update", "loan", "L4", {"state": "returned"})
    state = fees.initial_state()
    predicted = Engine(fees.schema, model.active_rules()).run(state, probe).effects
    assert ("create", "fine", "state", "waived") in [tuple(e) for e in predicted]
