"""``a * b + c`` with the rate and the fixed charge two references away: a bill's amount is its
kWh at the account's tariff's unit rate plus the tariff's standing charge."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("insert", "bill", f"N{i}", {"account": a, "kwh": k})
          for i, (a, k) in enumerate([("A1", 250), ("A2", 410), ("A1", 120), ("A2", 95), ("A1", 777)])]


def test_a_product_through_references_plus_a_fixed_charge_is_learned():
    world = hand_made_world("tariffs-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    # a tariff none of the writes was on: 512 x 0.31 + 9.75
    after = state_after(model, world, Action("insert", "bill", "B9", {"account": "A3", "kwh": 512}))
    assert after.get("bill", "B9")["amount"] == 168.47, texts
