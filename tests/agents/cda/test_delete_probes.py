"""Delete probes: a cascade that keeps to some of the deleted record's children shows only
where the deleted record has children in those states."""

from __future__ import annotations

import random

from memkit.rules import Action, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda import discover
from agents.cda.experiments import sweep
from evals.worldshift.platform import Platform

from tests.agents.cda.helpers import hand_made_world, induced, state_after


def test_the_sweep_also_deletes_a_record_whose_children_are_in_other_states():
    world = hand_made_world("calls-A")
    phases = sweep(world.schema, world.initial_state(), random.Random(0))
    deleted = [a.id for phase in phases for _, a in phase if a.op == "delete" and a.table == "port_call"]
    # PC1 is the most referenced call, and all its containers are gated out; PC2's containers
    # are on board and in the yard, more states that PC1's children are not in than any other
    # call's (the sweep's second record would be PC4, the one with an invoice, deleted in phase 3)
    assert deleted[:2] == ["PC1", "PC2"]


def test_a_delete_cascade_on_children_in_one_state_is_learned():
    world = hand_made_world("calls-A")
    model = RuleModel(world.schema, world.name)
    discover(Platform(world), model, budget=40)  # the sweep's first three phases and their follow-ups, not its third records
    texts = [lr.text for lr in model.active()]
    after = state_after(model, world, Action("delete", "port_call", "PC2"))
    assert after.get("container", "C05") is None and after.get("container", "C07") is None, texts
    assert after.get("container", "C06") is not None, texts
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    assert score_world(model.predict_many(world.tests, world.initial_state()), truth).iou == 1.0, texts


def test_a_where_clause_joins_the_deleted_record_before_a_record_it_shares():
    world = hand_made_world("drops-A")
    model = induced(world, [Action("delete", "enrollment", "E1")])
    texts = [lr.text for lr in model.active()]
    # Ben's other enrollment keeps its open charge
    after = state_after(model, world, Action("delete", "enrollment", "E2"))
    assert after.get("charge", "C3") is None and after.get("charge", "C4") is not None, texts


def test_an_inherited_model_skips_the_deletes_of_records_whose_children_are_in_other_states():
    world = hand_made_world("calls-A")
    phases = sweep(world.schema, world.initial_state(), random.Random(0), children_deletes=False)
    assert not any("children in other states" in purpose for phase in phases for purpose, _ in phase)
