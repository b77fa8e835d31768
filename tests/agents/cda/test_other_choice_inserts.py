"""A rule learned from inserts that all carried one choice (bank transfers clear at once) is tried
with the field's other choices: the follow-ups of an insert keep its values, so a rule that holds
for two methods would be learned for the one the first insert carried."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.induction import Inducer
from agents.cda.policy import SystematicPolicy
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes, session_over, world_from_spec

_PAYMENTS = {
    "format": "worldshift/1",
    "name": "clearing-A",
    "tables": {
        "payment": {"fields": {"method": {"type": "choice", "choices": ["bank_transfer", "card", "cash", "cheque"], "default": "cash"},
                               "status": {"type": "choice", "choices": ["pending", "cleared"], "default": "pending"},
                               "amount": {"type": "number", "default": 0}}},
    },
    "records": {"payment": [{"id": "P1", "method": "cash", "status": "pending", "amount": 10}]},
    "rules": [
        {"id": "clear", "table": "payment", "events": ["insert"], "when": "before",
         "condition": "current.method in ['bank_transfer', 'card']", "actions": [{"set": {"status": "'cleared'"}}]},
    ],
    "tests": [],
}


def _learned(tmp_path, writes: list[dict]):
    world = world_from_spec(tmp_path, _PAYMENTS)
    platform = Platform(world)
    obs = observe_writes(platform, [Action("insert", "payment", f"N{i}", values) for i, values in enumerate(writes)])
    model = RuleModel(world.schema, world.name)
    Inducer(world.schema).run(model, obs, world.name)
    return platform, model, session_over(world, model, obs)


def test_the_last_insert_a_choice_rule_fired_on_is_tried_with_each_choice_no_insert_wrote(tmp_path):
    platform, model, session = _learned(tmp_path, [{"method": "bank_transfer", "amount": 5}, {"method": "cash", "amount": 7},
                                                   {"method": "bank_transfer", "amount": 9}])
    assert [lr.rule.get("condition") for lr in model.active()] == ["current.method == 'bank_transfer'"]
    policy = SystematicPolicy()
    probes = [a for _, a in policy._other_choice_inserts(session)]
    # cash was written already; the last positive's amount is kept
    assert sorted(a.values["method"] for a in probes) == ["card", "cheque"]
    assert all(a.op == "insert" and a.values["amount"] == 9 for a in probes)
    # the world clears the card payment: the probe shows what the first inserts could not
    outcome = observe_writes(platform, [next(a for a in probes if a.values["method"] == "card")])[0]
    assert ("set", "payment", outcome.action.id, "status", "cleared") in [tuple(e) for e in outcome.effects]
    # once per table and field in a world
    assert policy._other_choice_inserts(session) == []


def test_induction_over_the_probes_learns_every_choice_the_rule_holds_for(tmp_path):
    platform, _, session = _learned(tmp_path, [{"method": "bank_transfer", "amount": 5}, {"method": "cash", "amount": 7}])
    probes = [a for _, a in SystematicPolicy()._other_choice_inserts(session)]
    model = RuleModel(platform.schema(), "clearing-A")
    Inducer(platform.schema()).run(model, [*session.observations, *observe_writes(platform, probes)], "clearing-A")
    [condition] = [lr.rule.get("condition") for lr in model.active()]
    assert sorted(condition.split(" or ")) == ["current.method == 'bank_transfer'", "current.method == 'card'"]


def test_no_probe_where_the_rule_reads_no_choice_of_its_record(tmp_path):
    # every insert clears: the rule has no condition, and no choice needs trying
    spec = {**_PAYMENTS, "rules": [{**_PAYMENTS["rules"][0], "condition": None}]}
    spec["rules"][0].pop("condition")
    world = world_from_spec(tmp_path, spec)
    obs = observe_writes(Platform(world), [Action("insert", "payment", "N1", {"method": "bank_transfer", "amount": 5}),
                                           Action("insert", "payment", "N2", {"method": "cash", "amount": 7})])
    model = RuleModel(world.schema, world.name)
    Inducer(world.schema).run(model, obs, world.name)
    assert SystematicPolicy()._other_choice_inserts(session_over(world, model, obs)) == []
