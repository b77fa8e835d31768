"""A fixed amount plus a rate (``round(km * 0.8 + 35, 2)``) and a rate on what lies above a
threshold (``max(round(hours * 27 - 1080, 2), 0)``, overtime over 40 hours) read off the examples."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "job", j, v) for j, v in
          [("J1", {"km": 12}), ("J2", {"km": 47.5}), ("J1", {"km": 230}), ("J2", {"km": 3}),
           ("J1", {"hours": 44}), ("J2", {"hours": 36}), ("J1", {"hours": 61}), ("J2", {"hours": 48.5}),
           ("J1", {"hours": 40}), ("J3", {"hours": 30})]]


def test_a_fixed_amount_plus_a_rate_and_a_rate_above_a_threshold_are_learned():
    world = hand_made_world("callouts-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert state_after(model, world, Action("update", "job", "J1", {"km": 140})).get("job", "J1")["charge"] == 147, texts
    after = state_after(model, world, Action("update", "job", "J2", {"hours": 52.5})).get("job", "J2")
    assert after["overtime_pay"] == 337.5, texts
    # J3 is paid overtime: back under 40 hours it is paid none, which the floor at zero explains
    assert state_after(model, world, Action("update", "job", "J3", {"hours": 39})).get("job", "J3")["overtime_pay"] == 0, texts
