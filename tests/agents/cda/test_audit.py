"""The audit: an inherited model is checked against what each trigger does now."""

from __future__ import annotations

from memkit.rules import score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from agents.cda import discover
from evals.worldshift.platform import Platform


def _iou(world, model) -> float:
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    return score_world(model.predict_many(world.tests, world.initial_state()), truth).iou


def _run_family(shop, audit: bool) -> dict[str, RuleModel]:
    models: dict[str, RuleModel] = {}
    model = RuleModel(shop["A"].schema, "shop-A")
    for key in "ABCD":
        world = shop[key]
        model = model if key == "A" else model.inherit(world.name)
        discover(Platform(world), model, budget=300, audit=audit)
        models[key] = model
    return models


def _active_texts(model: RuleModel) -> list[str]:
    return [lr.text for lr in model.active()]


def test_changed_threshold_is_revised_and_deleted_rule_retired(shop):
    models = _run_family(shop, audit=True)
    # A: the approval threshold is found exactly by bisection
    assert any("total > 100" in t and "create approval" in t for t in _active_texts(models["A"]))
    # B: the inherited rule is revised in place to the new threshold
    b_revisions = [h for h in models["B"].history if h.world == "shop-B" and h.op == "revise"]
    assert b_revisions, "the audit should revise the approval rule in B"
    assert any("total > 250" in t and "create approval" in t for t in _active_texts(models["B"]))
    # C: a new rule explains the new effect on customers
    c_added = [h for h in models["C"].history if h.world == "shop-C" and h.op == "add"]
    assert any("customer" in models["C"].get(h.rule_id).text and "open_orders" in models["C"].get(h.rule_id).text for h in c_added)
    # D: the rule that rejected approvals is retired, with a reason
    d_retired = [h for h in models["D"].history if h.world == "shop-D" and h.op == "retire"]
    assert any("approval" in models["D"].get(h.rule_id).text and "rejected" in models["D"].get(h.rule_id).text for h in d_retired)
    assert not any("rejected" in t for t in _active_texts(models["D"]))
    for key in "ABCD":
        assert _iou(shop[key], models[key]) == 1.0


def test_without_audit_the_stale_rule_survives(shop):
    models = _run_family(shop, audit=False)
    # the paper's failure mode: nothing inherited is ever retired
    assert not [h for h in models["D"].history if h.op == "retire" and models["D"].get(h.rule_id).origin_world != h.world]
    assert any("rejected" in t for t in _active_texts(models["D"]))
