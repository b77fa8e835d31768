"""A bisection between whole numbers goes on below the unit where the records hold fractions in
that field: a GPA bisected from 0 to 47 ends between 1 and 2, and the boundary (below 2) is only
told from below or equal to 1 by a probe at 1.99."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda.policy import SystematicPolicy
from agents.cda.session import DiscoverySession
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import hand_made_world


def _next_probe(world_name: str, table: str, rid: str, field: str, neg: float, pos: float) -> Action | None:
    world = hand_made_world(world_name)
    platform = Platform(world)
    session = DiscoverySession(platform=platform, model=RuleModel(world.schema, world.name), budget=10)
    session.platform_initial = world.initial_state()
    bisection = {"neg": Action("update", table, rid, {field: neg}), "pos": Action("update", table, rid, {field: pos}),
                 "field": field, "steps": 3, "slot": ("own", table, "update", "standing"), "verify": False,
                 # the probe one unit past the round end was made: the bisection is at its last steps
                 "edges": [float(neg)]}
    return SystematicPolicy()._bisect_step(session, bisection)


def test_whole_ends_on_a_fractional_field_are_bisected_further():
    # standing-A's GPAs are 3.5, 2.8 and 3.1
    probe = _next_probe("standing-A", "student", "S2", "gpa", neg=2, pos=1)
    assert probe is not None and 1 < probe.values["gpa"] < 2


def test_whole_ends_on_a_whole_field_are_where_the_bisection_stops():
    # tenancy-A's monthly rents are 800, 1450 and 800
    assert _next_probe("tenancy-A", "lease", "L1", "monthly_rent", neg=1000, pos=1001) is None
