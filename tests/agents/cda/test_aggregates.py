"""Aggregates read off the data, clamped values and flags that are comparisons: rules a plain enumeration misses."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.rules import Action, load_world, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda import discover
from agents.cda.aggregates import aggregate_sources
from agents.cda.contexts import eval_on, example_of
from agents.cda.hypotheses import clamped
from agents.cda.session import Observation
from evals.worldshift.platform import Platform

WORLD = Path(__file__).parent / "worlds" / "claims-A.yaml"


@pytest.fixture(scope="module")
def claims():
    return load_world(WORLD)


def _observe(world, action: Action) -> Observation:
    platform = Platform(world)
    before = platform.snapshot()
    outcome = platform.write(action)
    return Observation(action, before, list(outcome.effects), outcome.rolled_back, "", platform.snapshot())


def test_discovery_learns_clamps_and_filtered_aggregates(claims):
    model = RuleModel(claims.schema, claims.name)
    discover(Platform(claims), model, budget=300)
    texts = [lr.text for lr in model.active()]
    assert any("set net = min(max(loss - excess, 0), policy.cover)" in t for t in texts), texts
    assert any("row.status in ['new', 'review', 'approved']" in t for t in texts), texts
    assert any("row.status == 'issued' and row.kind == 'indemnity'" in t for t in texts), texts
    truth = effects_of_tests(claims.schema, claims.rules, claims.initial_state(), claims.tests)
    assert score_world(model.predict_many(claims.tests, claims.initial_state()), truth).iou == 1.0


def test_count_over_three_of_six_states_is_read_off_the_examples(claims):
    # a handler's open claims after each write, as the after rule sees the records
    writes = [Action("update", "claim", "C4", {"status": "review"}), Action("update", "claim", "C1", {"status": "paid"}),
              Action("update", "claim", "C3", {"status": "rejected"}), Action("update", "claim", "C2", {"status": "approved"})]
    cases = []
    for action in writes:
        ex = example_of(_observe(claims, action), claims.schema)
        cases.append((ex, ex.after.get("handler", ex.current["handler"])["open_claims"]))
    sources = list(aggregate_sources(claims.schema, "claim", cases, after_rule=True))
    assert "count(claim, row.handler == current.handler and row.status in ['new', 'review', 'approved'])" in sources
    # everything it offers fits every case
    for src in sources:
        assert all(eval_on(src, claims.schema, ex, after_rule=True) == want for ex, want in cases), src


def test_no_aggregate_is_offered_when_none_fits(claims):
    ex = example_of(_observe(claims, Action("update", "claim", "C1", {"status": "paid"})), claims.schema)
    ex2 = example_of(_observe(claims, Action("update", "claim", "C2", {"status": "paid"})), claims.schema)
    assert list(aggregate_sources(claims.schema, "claim", [(ex, 123.45), (ex2, 678.9)], after_rule=True)) == []


@settings(max_examples=30, deadline=None)
@given(loss=st.integers(0, 40000), excess=st.integers(0, 3000))
def test_clamped_forms_include_floor_and_cap(claims, loss, excess):
    ex = example_of(_observe(claims, Action("update", "claim", "C2", {"loss": loss, "excess": excess})), claims.schema)
    want = ex.after.get("claim", "C2")["net"]
    forms = list(clamped("current.loss - current.excess", claims.schema, "claim"))
    assert "min(max(current.loss - current.excess, 0), current.policy.cover)" in forms
    assert eval_on("min(max(current.loss - current.excess, 0), current.policy.cover)", claims.schema, ex, after_rule=False) == want


def test_a_flag_may_be_a_comparison_of_two_numbers(claims):
    from agents.cda.hypotheses import value_candidates

    flag = list(value_candidates(claims.schema, "claim", [True, False], target_type="boolean"))
    assert "current.loss > current.excess" in flag
    assert "current.net <= current.policy.cover" in flag
    # a flag that is always the same is a constant, not a comparison
    assert not any(" > " in src for src in value_candidates(claims.schema, "claim", [True, True], target_type="boolean"))


def test_examples_of_one_observation_share_kept_aggregates_per_view(claims):
    obs = _observe(claims, Action("update", "claim", "C1", {"status": "paid"}))
    src = "count(claim, row.handler == current.handler and row.status in ['new', 'review', 'approved'])"
    cache: dict = {}
    first = example_of(obs, claims.schema, cache)
    want_after = eval_on(src, claims.schema, first, after_rule=True)
    want_before = eval_on(src, claims.schema, first, after_rule=False)
    masked = first.masking_after("claim", {"C1": "status"})
    want_masked = eval_on(src, claims.schema, masked, after_rule=True)
    # a second example of the same observation (a later round) finds them kept, and every value
    # equals what an example with nothing kept computes
    again = example_of(obs, claims.schema, cache)
    fresh = example_of(obs, claims.schema)
    assert eval_on(src, claims.schema, again, after_rule=True) == want_after == eval_on(src, claims.schema, fresh, after_rule=True)
    assert eval_on(src, claims.schema, again, after_rule=False) == want_before == eval_on(src, claims.schema, fresh, after_rule=False)
    assert eval_on(src, claims.schema, again.masking_after("claim", {"C1": "status"}), after_rule=True) == want_masked \
        == eval_on(src, claims.schema, fresh.masking_after("claim", {"C1": "status"}), after_rule=True)
    assert want_masked != want_after  # the view matters: the masked write is still open
    assert len([k for k in cache if k[0] == "aggregates"]) == 3
