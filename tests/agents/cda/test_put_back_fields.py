"""A field the write set and its own cascade put back (a request total written large, summed again
from the lines its fulfilment delivered) is read by a before rule as written: it is not another
rule's co-effect, and the rule's condition on its change is not priced as one."""

from __future__ import annotations

import pytest

from memkit.rules import Action
from memkit.rules.world import World

from agents.cda.induction import Inducer
from evals.worldshift.platform import Platform
from evals.worldshift.worlds_index import load_named_world
from tests.agents.cda.helpers import observe_writes

SLOT = ("own", "request", "update", "approval_required")

_WRITES = [
    Action("update", "request", "REQ0002", {"total": 5000}),
    Action("update", "request", "REQ0002", {"total": 5001}),
    # fulfilling delivers the lines, whose rule sums the request's total again: 127207 never stays
    Action("update", "request", "REQ0002", {"state": "fulfilled", "total": 127207.0, "item_count": 27.0}),
    Action("update", "request", "REQ0004", {"approval_required": False}),
]


@pytest.fixture(scope="module")
def ews() -> World:
    return load_named_world("ews-A")


def test_the_put_back_total_still_leads_the_condition(ews):
    obs = observe_writes(Platform(ews), _WRITES)
    assert obs[2].after.get("request", "REQ0002")["total"] == obs[2].before.get("request", "REQ0002")["total"]
    learned = Inducer(ews.schema).learn_slot_split(SLOT, obs)
    assert [ls.rule.get("condition") for ls in learned] == ["changed(total) and current.total > 5000"]
