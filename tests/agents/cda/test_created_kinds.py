"""One write can create records of two kinds in the same table (a large loss in the north gets a
large-loss diary and a regional review): it is evidence for both kinds' rules, so neither rule's
condition is bent to leave it out."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from memkit.rules import Action, Engine, Rule, load_world
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import observe_writes

WRITES = [Action("update", "claim", cid, {"amount": amount}) for cid, amount in
          (("C1", 150), ("C2", 150), ("C3", 60), ("C4", 60), ("C5", 200), ("C2", 120), ("C3", 70), ("C4", 90))]


@pytest.fixture(scope="module")
def diaries() -> World:
    return load_world(Path(__file__).parent / "worlds" / "diaries-A.yaml")


@pytest.fixture(scope="module")
def learned(diaries: World) -> RuleModel:
    model = RuleModel(diaries.schema, diaries.name)
    Inducer(diaries.schema).run(model, observe_writes(Platform(diaries), WRITES), diaries.name)
    return model


def _created_kinds(world: World, rules: Sequence[Rule], action: Action) -> Counter:
    effects = Engine(world.schema, rules).run(world.initial_state(), action).effects
    return Counter(e[3] for e in effects if e[0] == "create" and e[2] == "kind")


@pytest.mark.parametrize("action", [
    Action("update", "claim", "C3", {"amount": 180}),   # north, large: both kinds
    Action("update", "claim", "C1", {"amount": 40}),    # north, small: the review only
    Action("update", "claim", "C4", {"amount": 300}),   # south, large: the large loss only
    Action("update", "claim", "C2", {"amount": 30}),    # south, small: none
])
def test_each_kind_is_predicted_wherever_its_own_rule_fires(diaries, learned, action):
    assert _created_kinds(diaries, learned.active_rules(), action) == _created_kinds(diaries, diaries.rules, action)


def test_one_rule_per_kind_and_neither_reads_the_other_kinds_trigger(diaries, learned):
    creates = [lr.rule for lr in learned.active() if any("create" in a for a in lr.rule["actions"])]
    kinds = sorted(r["actions"][0]["create"]["values"]["kind"] for r in creates)
    assert kinds == ["'large_loss'", "'regional_review'"]
    review = next(r for r in creates if r["actions"][0]["create"]["values"]["kind"] == "'regional_review'")
    # leaving the both-kinds writes out of the review's evidence made it "north and below 100"
    assert not re.search(r"amount\s*[<>]", review.get("condition", ""))


def test_a_record_another_rule_explains_does_not_make_the_write_a_positive_of_its_kind(diaries):
    # C1 is northern: raising its amount to 150 creates both diaries. With the large-loss diary's
    # effects taken out (as Inducer._unexplained does where the model's other rules give it), the
    # write is evidence for the review's rule only
    obs = observe_writes(Platform(diaries), [Action("update", "claim", "C1", {"amount": 150})])[0]
    assert sorted(obs.after.get("diary", rid)["kind"] for rid in obs.created_ids("diary")) == ["large_loss", "regional_review"]
    unexplained = [("create", "diary", "claim", "C1"), ("create", "diary", "kind", "regional_review"), ("create", "diary", "state", "open")]
    inducer = Inducer(diaries.schema)
    assert inducer._created_kinds(obs, "diary", unexplained) == [repr(["regional_review", "open"])]
    # with both diaries unexplained, the write is evidence for both kinds, in creation order
    assert inducer._created_kinds(obs, "diary", obs.effects) == [repr(["large_loss", "open"]), repr(["regional_review", "open"])]
