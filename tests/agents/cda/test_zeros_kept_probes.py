"""A write of several numbers that showed a rule of its own record is tried again without each
number it raised from 0: a guard that asks a number to stay 0 (a late fee charged while the
bill's late fee is 0) never holds on a write that sets every number large."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.policy import SystematicPolicy
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes, session_over, world_from_spec

_BILLS = {
    "format": "worldshift/1",
    "name": "zeros-A",
    "tables": {
        "bill": {"fields": {"status": {"type": "choice", "choices": ["draft", "issued", "overdue"], "default": "draft"},
                            "amount": {"type": "number"}, "days": {"type": "number", "default": 0},
                            "late_fee": {"type": "number", "default": 0}, "due": {"type": "number"}}},
    },
    "records": {
        "bill": [{"id": "B1", "status": "issued", "amount": 300, "days": 0, "late_fee": 0, "due": 300},
                 {"id": "B2", "status": "draft", "amount": 200, "days": 0, "late_fee": 0, "due": 200}],
    },
    "rules": [
        {"id": "overdue", "table": "bill", "events": ["update"], "when": "before", "order": 1,
         "condition": "changed(days) and current.days > 0 and current.status == 'issued'", "actions": [{"set": {"status": "'overdue'"}}]},
        {"id": "fee", "table": "bill", "events": ["update"], "when": "before", "order": 2,
         "condition": "changed(days) and current.late_fee == 0 and current.status == 'overdue'", "actions": [{"set": {"late_fee": "5"}}]},
        {"id": "due", "table": "bill", "events": ["update"], "when": "before", "order": 3,
         "condition": "changed(amount) or changed(late_fee)", "actions": [{"set": {"due": "current.amount + current.late_fee"}}]},
    ],
    "tests": [],
}


def _probes(tmp_path, writes: list[tuple[str, dict]]) -> tuple[Platform, list[Action]]:
    world = world_from_spec(tmp_path, _BILLS)
    platform = Platform(world)
    obs = observe_writes(platform, [Action("update", "bill", rid, values) for rid, values in writes])
    session = session_over(world, RuleModel(world.schema, world.name), obs)
    return platform, [a for _, a in SystematicPolicy()._zeros_kept_probes(session)]


def test_a_write_that_set_every_number_large_is_tried_without_each_number_raised_from_zero(tmp_path):
    # the bill went overdue (its status, which the write left alone, changed), but the late fee
    # written along broke the fee rule's guard; without it the world charges the fee
    platform, probes = _probes(tmp_path, [("B1", {"amount": 900, "days": 50, "late_fee": 70})])
    assert Action("update", "bill", "B1", {"amount": 900, "days": 50}) in probes
    assert Action("update", "bill", "B1", {"amount": 900, "late_fee": 70}) in probes
    assert all("amount" in a.values for a in probes), "amount was not 0 on the record: it is kept"
    outcome = observe_writes(platform, [Action("update", "bill", "B1", {"amount": 900, "days": 50})])[0]
    assert ("set", "bill", "B1", "late_fee", 5) in [tuple(e) for e in outcome.effects]


def test_a_write_whose_only_sign_is_a_derived_number_written_over_gets_no_probe(tmp_path):
    # the draft bill's due is derived over the value written: no rule reading a state showed,
    # and every number is no reason to spend a write
    _, probes = _probes(tmp_path, [("B2", {"amount": 900, "days": 50, "due": 1})])
    assert probes == []
