"""A sum over one sibling record fits a new record's number by coincidence (a new lease priced
like the unit's one other lease): arithmetic on the record's numbers comes first, since only it
prices a lease on a unit that has none yet."""

from __future__ import annotations

from memkit.rules import Action, Engine

from tests.agents.cda.helpers import hand_made_world, induced


def _rent(world, rules, unit: str) -> object:
    state = world.initial_state()
    Engine(world.schema, rules).run(state, Action("insert", "lease", "L9", {"unit": unit}), in_place=True)
    return state.get("lease", "L9")["rent"]


def test_a_price_read_off_the_unit_is_learned_rather_than_the_sibling_leases_rent():
    world = hand_made_world("units-A")
    # U1 and U2 each have one lease at exactly the rent a new lease gets (U1 also a draft without a rent)
    model = induced(world, [Action("insert", "lease", "N1", {"unit": "U1"}), Action("insert", "lease", "N2", {"unit": "U2"})])
    # U3 has no lease yet: 35 sqm at building B1's rate of 20
    assert _rent(world, world.rules, "U3") == 700
    assert _rent(world, model.active_rules(), "U3") == 700
