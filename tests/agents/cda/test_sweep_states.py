"""The sweep reaches the states its first records are already in: a rule that acts on the way
into the commonest state (activating a lease) or sets a status on insert (a card payment clears
at once) shows nothing on records, or clones of records, that are already there."""

from __future__ import annotations

import random

import pytest

from memkit.rules.world import World

from agents.cda.experiments import sweep
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world, observe_writes


@pytest.fixture(scope="module")
def tenancy() -> World:
    return hand_made_world("tenancy-A")


def _first_phases(world: World, n: int) -> list:
    platform = Platform(world)
    phases = sweep(world.schema, world.initial_state(), random.Random(0), new_id=platform.new_id)
    return [a for phase in phases[:n] for _, a in phase]


def test_the_first_records_state_is_written_from_another_state_in_the_first_phase(tenancy):
    # L1, the most referenced lease, is already active: only another lease can be activated
    actions = [a for a in _first_phases(tenancy, 1) if a.table == "lease"]
    assert [a.id for a in actions if a.values == {"status": "active"}] == ["L2"]
    effects = [e for o in observe_writes(Platform(tenancy), actions) for e in o.effects]
    assert ("set", "unit", "U2", "status", "occupied") in [tuple(e) for e in effects]


def test_a_clone_at_default_statuses_shows_a_status_set_on_insert(tenancy):
    # P1 is cleared already: its clone shows nothing; the clone at the default status does
    inserts = [a for a in _first_phases(tenancy, 2) if a.op == "insert" and a.table == "payment"]
    # the second leaves the status out, so it starts at the default (pending)
    assert [a.values.get("status") for a in inserts] == ["cleared", None]
    ends = [o.after.get("payment", a.id)["status"] for a, o in zip(inserts, observe_writes(Platform(tenancy), inserts))]
    assert ends == ["cleared", "cleared"]

