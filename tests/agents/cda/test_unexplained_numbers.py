"""A number no expression explains is left unexplained rather than learned as one constant per
write: a constant singled out by a condition predicts a wrong value for the next write it fires
on, and a wrong value costs a prediction more than no value."""

from __future__ import annotations

from memkit.rules import Action, Engine

from tests.agents.cda.helpers import hand_made_world, induced

# each trip driven further: every write's fee is a different number
_WRITES = [("T1", 900), ("T2", 1500), ("T3", 2750), ("T4", 3100), ("T6", 640)]


def test_no_rule_is_made_of_single_writes_fees_as_constants():
    world = hand_made_world("trips-A")
    model = induced(world, [Action("update", "trip", rid, {"km": km}) for rid, km in _WRITES])
    constants = [r for r in model.active_rules() if any(
        "fee" in act.get("set", {}) and not any(c.isalpha() for c in str(act["set"]["fee"])) for act in r.to_dict()["actions"])]
    assert constants == []


def test_a_new_write_gets_no_wrong_fee():
    world = hand_made_world("trips-A")
    model = induced(world, [Action("update", "trip", rid, {"km": km}) for rid, km in _WRITES])
    write = Action("update", "trip", "T5", {"km": 1234})
    truth = Engine(world.schema, world.rules).run(world.initial_state(), write).effects
    predicted = Engine(world.schema, model.active_rules()).run(world.initial_state(), write).effects
    assert {tuple(e) for e in predicted} <= {tuple(e) for e in truth}
