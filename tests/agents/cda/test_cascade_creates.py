"""Records created one per child of a cascade (every product of a suspended supplier raises an
alert about itself) are not learned as one create on the written table that names a single
parent as a constant: that rule explains one of the records, and on any other write it makes an
alert about the wrong product."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after

WRITES = [Action("update", "supplier", s, v) for s, v in
          [("S1", {"name": "Acme Ltd"}), ("S1", {"status": "suspended"}), ("S2", {"name": "Brill plc"})]]


def test_a_create_does_not_name_one_of_the_parents_a_write_made_records_about():
    world = hand_made_world("alerts-A")
    model = induced(world, WRITES)
    texts = [lr.text for lr in model.active()]
    assert not any("create alert" in t and "product = '" in t for t in texts), texts
    assert any("set available = false" in t for t in texts), texts  # the cascade itself is learned
    after = state_after(model, world, Action("update", "supplier", "S2", {"status": "suspended"}))
    assert after.rows("alert") == [], texts
