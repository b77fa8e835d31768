"""A sweep's change of a choice that showed nothing is written again on a record with the flags the
first record has down raised: a rule on a change and a flag (a reefer box that is released is
invoiced its power) shows nothing on a plain first record, and such a write is not followed up."""

from __future__ import annotations

from dataclasses import replace

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.policy import SystematicPolicy
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes, session_over, world_from_spec

_BOXES = {
    "format": "worldshift/1",
    "name": "boxes-A",
    "tables": {
        "box": {"fields": {"status": {"type": "choice", "choices": ["in_yard", "held", "released"], "default": "in_yard"},
                           "reefer": {"type": "boolean", "default": False},
                           "hazardous": {"type": "boolean", "default": False}}},
        "invoice": {"fields": {"box": {"type": "reference", "ref": "box"}}},
    },
    "records": {
        # B3 raises both flags B1 has down, B2 one of them
        "box": [{"id": "B1", "status": "in_yard", "reefer": False, "hazardous": False},
                {"id": "B2", "status": "in_yard", "reefer": True, "hazardous": False},
                {"id": "B3", "status": "in_yard", "reefer": True, "hazardous": True}],
        "invoice": [],
    },
    "rules": [
        {"id": "power", "table": "box", "events": ["update"], "when": "after", "condition": "changes_to(status, 'released') and current.reefer",
         "actions": [{"create": {"table": "invoice", "values": {"box": "current.id"}}}]},
        {"id": "hold", "table": "box", "events": ["update"], "when": "after", "condition": "changes_to(status, 'held')",
         "actions": [{"create": {"table": "invoice", "values": {"box": "current.id"}}}]},
    ],
    "tests": [],
}


def _repeats(tmp_path, writes: list[tuple[str, Action]], *, inherited: bool = True) -> tuple[Platform, list[tuple[str, Action]], SystematicPolicy, object]:
    world = world_from_spec(tmp_path, _BOXES)
    platform = Platform(world)
    obs = [replace(o, purpose=p) for (p, _), o in zip(writes, observe_writes(platform, [a for _, a in writes]))]
    # a later world: the model (its hold rule) comes from the world before
    model = RuleModel(world.schema, "boxes-before")
    model.add(_BOXES["rules"][1], reason="learned in the world before")
    session = session_over(world, model.inherit(world.name) if inherited else RuleModel(world.schema, world.name), obs)
    policy = SystematicPolicy()
    return platform, policy._flags_raised_repeats(session), policy, session


def test_a_choice_change_that_showed_nothing_is_repeated_on_the_record_with_the_most_flags_raised(tmp_path):
    platform, repeats, policy, session = _repeats(tmp_path, [
        ("box.status -> released", Action("update", "box", "B1", {"status": "released"})),
        ("box.status -> held", Action("update", "box", "B1", {"status": "held"}))])
    # the hold showed an invoice on B1 already: only the release is repeated, on B3
    assert repeats == [("box.status -> released on B3 (flags raised)", Action("update", "box", "B3", {"status": "released"}))]
    outcome = observe_writes(platform, [repeats[0][1]])[0]
    assert [e[:2] for e in outcome.effects if e[0] == "create"] == [("create", "invoice")]
    # once per write and world
    assert policy._flags_raised_repeats(session) == []


def test_writes_other_than_the_sweeps_choice_changes_are_not_repeated(tmp_path):
    # a follow-up's write (another purpose) and a write on the record with every flag raised
    _, repeats, _, _ = _repeats(tmp_path, [
        ("generalise update box/B2 {status='released'}", Action("update", "box", "B1", {"status": "released"})),
        ("box.status -> in_yard", Action("update", "box", "B3", {"status": "in_yard"}))])
    assert repeats == []


def test_nothing_is_repeated_in_a_first_world(tmp_path):
    # there the sweep's later phases need the budget: the repeats cost ews-A a rule
    _, repeats, _, _ = _repeats(tmp_path, [("box.status -> released", Action("update", "box", "B1", {"status": "released"}))],
                                inherited=False)
    assert repeats == []
