"""The change into the state most records are in (a lease made active): every write starts from the
initial records, so the sweep writes that state on a record in another one, early, or the rule on
entering it is never seen."""

from __future__ import annotations

import random

import pytest

from memkit.rules import Action
from memkit.rules.world import World

from agents.cda.experiments import sweep
from tests.agents.cda.helpers import discovered, hand_made_world, state_after


@pytest.fixture(scope="module")
def tenancy() -> World:
    return hand_made_world("tenancy-A")


def test_the_first_phase_writes_the_first_records_status_on_a_record_at_the_default(tenancy):
    first_phase = sweep(tenancy.schema, tenancy.initial_state(), random.Random(0))[0]
    writes = [a for _, a in first_phase if a.table == "lease" and "status" in a.values]
    # L1 (active) is the record the sweep changes; the draft lease is the one made active
    assert Action("update", "lease", "L3", {"status": "active"}) in writes


def test_activating_a_lease_is_learned_within_a_small_budget(tenancy):
    model = discovered(tenancy, budget=20)
    after = state_after(model, tenancy, Action("update", "lease", "L3", {"status": "active"}))
    assert after.get("unit", "U3")["status"] == "occupied"
    ended = state_after(model, tenancy, Action("update", "lease", "L2", {"status": "ended"}))
    assert ended.get("unit", "U2")["status"] == "vacant"
