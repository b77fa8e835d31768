"""Whole-number values that a rate times a number rounds to units are found (a grant of 1238, not
1237.5), and a rate that is a number steady over the examples times a round factor (twelve
credits at the major's fee per credit, as a percent) is learned as that product, which prices the
next write on a record with another major, rather than as a constant rate."""

from __future__ import annotations

from memkit.rules import Action, Engine

from tests.agents.cda.helpers import hand_made_world, induced

WRITES = [Action("update", "grant", "G1", {"percent": 25}), Action("update", "grant", "G2", {"percent": 15}),
          Action("update", "grant", "G3", {"percent": 40})]


def _amount_after(model, world, action: Action, rid: str) -> float:
    state = world.initial_state()
    Engine(world.schema, model.active_rules()).run(state, action, in_place=True)
    return state.get("grant", rid)["amount"]


def test_whole_unit_amounts_are_explained_by_a_rounded_rate():
    world = hand_made_world("grants-A")
    model = induced(world, WRITES)
    # 25% of 12 x 412.5 is 1237.5: no constant, no rate to cents gives the whole 1238
    assert _amount_after(model, world, Action("update", "grant", "G1", {"percent": 35}), "G1") == 1733


def test_a_grant_of_a_student_in_another_major_is_priced_at_that_majors_fee():
    world = hand_made_world("grants-A")
    model = induced(world, WRITES)
    assert _amount_after(model, world, Action("update", "grant", "G4", {"percent": 30}), "G4") == 1368
