"""Records created one per child of a cascade (every product of a suspended supplier raises an
alert about itself) are not learned as one create on the written table that names a single
parent as a constant: that rule explains one of the records, and on any other write it makes an
alert about the wrong product. A constant record that is left once the cascade's records are
explained by their own rule (a substitute product put under watch) is still learned."""

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
    assert not any(row["product"] in ("P1", "P2", "P3") for row in after.rows("alert")), texts


def test_a_create_names_a_constant_record_once_the_cascade_beside_it_is_explained():
    # the alerts about the suspended supplier's own products are the product rule's, learned from
    # the direct writes: what is left of the supplier's write is one alert about P9, every time
    world = hand_made_world("watch-A")
    writes = [Action("update", "product", "P2", {"available": False}), Action("update", "product", "P4", {"available": False}),
              Action("update", "supplier", "S1", {"status": "suspended"}), Action("update", "supplier", "S3", {"status": "suspended"}),
              Action("update", "supplier", "S1", {"name": "Acme Ltd"})]
    model = induced(world, writes)
    texts = [lr.text for lr in model.active()]
    assert any("supplier update" in t and "create alert" in t and "product = 'P9'" in t for t in texts), texts
