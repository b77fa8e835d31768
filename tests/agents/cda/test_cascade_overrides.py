"""A create rule's condition is read off the written record as the write left it when the record
ended otherwise because of the records the rule created: a discharged dangerous box gets a hold,
and the new hold's own rule puts the box on hold, so every box that got a hold ends 'held' and
only the status as written tells the writes that opened one from those that did not."""

from __future__ import annotations

from agents.cda.induction import Inducer, induce_until_stable
from evals.worldshift.platform import Platform
from memkit.rules import Action
from memkit.rules.model import RuleModel

from tests.agents.cda.helpers import hand_made_world, iou_on_tests, observe_writes

WRITES = [Action("update", "box", b, {"status": s}) for b, s in
          [("B1", "discharged"), ("B2", "discharged"), ("B3", "discharged"), ("B4", "discharged"),
           ("B1", "in_yard"), ("B3", "in_yard"), ("B2", "in_yard")]] + [
    Action("insert", "hold", f"H{n}", {"box": b}) for n, b in enumerate(["B5", "B6", "B1", "B4"])]


def test_a_hold_is_learned_on_the_status_as_written_where_its_cascade_overwrote_it():
    world = hand_made_world("dock-A")
    model = RuleModel(world.schema, world.name)
    # (the passes and pruning discovery runs: the status 'held' is first read as the box's own
    # before rule, which the hold's rule then explains, and pruning retires it)
    induce_until_stable(Inducer(world.schema), model, observe_writes(Platform(world), WRITES), world.name, lambda _: None)
    texts = [lr.text for lr in model.active()]
    assert any("changes_to(status, 'discharged')" in t and "dangerous" in t and "create hold" in t for t in texts), texts
    assert any("changes_to(status, 'in_yard')" in t and "size == 'large'" in t and "create hold" in t for t in texts), texts
    assert iou_on_tests(model, world) == 1.0, texts
