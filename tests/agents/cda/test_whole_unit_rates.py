"""Whole-number values that a rate times a number rounds to units are found (a grant of 1238, not
1237.5), and a rate that is a number steady over the examples times a round factor (twelve
credits at the major's fee per credit, as a percent) is learned as that product, which prices the
next write on a record with another major, rather than as a constant rate."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "grant", "G1", {"percent": 25}), Action("update", "grant", "G2", {"percent": 15}),
          Action("update", "grant", "G3", {"percent": 40})]


def _amount_after(model, world, action: Action, rid: str) -> float:
    return state_after(model, world, action).get("grant", rid)["amount"]


def test_whole_unit_amounts_are_explained_by_a_rounded_rate():
    world = hand_made_world("grants-A")
    model = induced(world, WRITES)
    # 25% of 12 x 412.5 is 1237.5: no constant, no rate to cents gives the whole 1238
    assert _amount_after(model, world, Action("update", "grant", "G1", {"percent": 35}), "G1") == 1733


def test_a_grant_of_a_student_in_another_major_is_priced_at_that_majors_fee():
    world = hand_made_world("grants-A")
    model = induced(world, WRITES)
    assert _amount_after(model, world, Action("update", "grant", "G4", {"percent": 30}), "G4") == 1368


def test_a_plain_rate_is_not_taken_for_a_steady_number_times_part_of_it():
    # 50 per point is as round as a rate gets: the year of 2 every write saw, times 25, is no better
    world = hand_made_world("rates-A")
    model = induced(world, [Action("update", "grant", "G1", {"percent": 25}), Action("update", "grant", "G2", {"percent": 15}),
                            Action("update", "grant", "G3", {"percent": 40})])
    assert _amount_after(model, world, Action("update", "grant", "G4", {"percent": 30}), "G4") == 1500


def test_whole_numbers_that_add_up_are_not_taken_for_a_rate_rounded_to_units():
    world = hand_made_world("rates-A")
    model = induced(world, [Action("update", "item", "R1", {"a": 10}), Action("update", "item", "R2", {"a": 20}),
                            Action("update", "item", "R3", {"a": 30})])
    state = state_after(model, world, Action("update", "item", "R4", {"a": 4}))
    assert state.get("item", "R4")["total"] == 13, [lr.text for lr in model.active()]
