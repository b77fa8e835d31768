"""A rate read off the examples that equals a number which was the same on every example (the
days of the one rental every write happened to touch) is learned as that number, which prices
the next write on another record, rather than as a constant."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after


def test_an_extra_on_another_rental_is_priced_at_that_rentals_days():
    world = hand_made_world("extras-A")
    model = induced(world, [Action("update", "extra", "E1", {"daily_price": 8}), Action("update", "extra", "E2", {"daily_price": 11}),
                            Action("update", "extra", "E3", {"daily_price": 4.5})])
    state = state_after(model, world, Action("update", "extra", "E4", {"daily_price": 7}))
    assert state.get("extra", "E4")["amount"] == 21
