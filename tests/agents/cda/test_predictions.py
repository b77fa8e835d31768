"""The prediction cache: replays reused only while the rules that shaped them are the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.rules import Engine

from agents.cda.predictions import PredictionCache
from agents.cda.session import Observation


def _observations(world) -> list[Observation]:
    initial = world.initial_state()
    return [Observation(action=a, before=initial, effects=[]) for a in world.tests]


def test_engine_reports_the_triggers_whose_rules_ran(shop):
    world = shop["A"]
    engine = Engine(world.schema, world.rules)
    for action in world.tests:
        result = engine.run(world.initial_state(), action)
        if result.writes:
            assert (action.table, action.op) in result.triggers
        # every rule that fired belongs to a trigger the run reports
        fired_tables = {r.table for r in world.rules if r.id in result.fired}
        assert fired_tables <= {t for t, _ in result.triggers}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABCD"), st.integers(0, 2**16)), min_size=2, max_size=6))
def test_cached_replays_equal_fresh_runs_under_changing_rule_sets(shop, steps):
    # rule sets change from step to step (whole worlds' rules, random subsets of them):
    # whatever the cache returns must be exactly what a fresh engine computes
    obs = _observations(shop["A"])
    cache = PredictionCache(shop["A"].schema)
    for key, mask in steps:
        rules = [r for i, r in enumerate(shop[key].rules) if not (mask >> i) & 1 or i % 3 == 0]
        engine = cache.engine(rules)
        fresh = Engine(shop["A"].schema, rules)
        for o in obs:
            got = cache.run(engine, o)
            want = fresh.run(o.before, o.action)
            assert got.effects == want.effects and got.fired == want.fired


def test_a_change_to_rules_no_replay_ran_keeps_the_stored_results(shop):
    world = shop["A"]
    obs = _observations(world)
    cache = PredictionCache(world.schema)
    engine = cache.engine(world.rules)
    for o in obs:
        cache.run(engine, o)
    assert cache.hits == 0
    # dropping one rule: replays that never wrote its trigger's table are reused, the others rerun
    dropped = world.rules[0]
    engine2 = cache.engine(world.rules[1:])
    misses0 = cache.misses
    for o in obs:
        res = cache.run(engine2, o)
        assert res.effects == Engine(world.schema, world.rules[1:]).run(o.before, o.action).effects
    triggers = {(dropped.table, op) for op in dropped.events}
    touched = sum(1 for o in obs if triggers & Engine(world.schema, world.rules).run(o.before, o.action).triggers)
    assert 0 < touched < len(obs)
    assert cache.misses - misses0 == touched
    assert cache.hits == len(obs) - touched
