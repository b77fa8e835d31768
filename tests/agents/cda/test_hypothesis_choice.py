"""Choosing between hypotheses that fit the same observations, and experiments that tell them apart."""

from __future__ import annotations

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda import discover
from agents.cda.experiments import bisect_pairs
from agents.cda.hypotheses import Literal, dnf_cost, learn_dnf, learn_dnf_candidates
from agents.cda.induction import Inducer
from agents.cda.policy import SystematicPolicy, _cross_record_pairs
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import discovery_run, observe_writes, session_over, world_from_spec


def _table(columns: dict[str, list[bool]]):
    return lambda src: columns[src]


def test_the_cheaper_of_two_fitting_conditions_wins():
    # six approval updates: 0-2 approved, 3-5 rejected (positives), 6 moved back to requested (negative).
    # "changed(state) and request_ok" fits too (it covers more positives per literal) but costs more.
    columns = {
        "changed(state)": [True] * 7,
        "changes_to(state, 'approved')": [True, True, True, False, False, False, False],
        "changes_to(state, 'rejected')": [False, False, False, True, True, True, False],
        "request.ok == false": [True, True, True, True, True, False, False],
    }
    lits = [Literal("changed(state)", 0), Literal("changes_to(state, 'approved')", 0),
            Literal("changes_to(state, 'rejected')", 0), Literal("request.ok == false", 3)]
    found = learn_dnf_candidates(lits, _table(columns), list(range(6)), [6])
    assert len(found) >= 1
    best = learn_dnf(lits, _table(columns), list(range(6)), [6])
    assert sorted(map(tuple, best)) == [("changes_to(state, 'approved')",), ("changes_to(state, 'rejected')",)]
    ranks = {lit.source: lit.rank for lit in lits}
    assert all(dnf_cost(best, ranks) <= dnf_cost(d, ranks) for d in found)


def test_one_conjunction_is_found_where_greedy_covering_runs_out_of_terms():
    # four overdue-making writes (positives) and three that changed nothing: each positive also has a
    # literal of its own that no negative shares, which greedy covering takes first (it excludes every
    # negative at once) and so spends its three terms on three positives; the rule is one conjunction
    columns = {
        "changed(days_overdue)": [True, True, True, True, True, True, False],
        "current.state == 'active'": [True, True, True, True, False, True, True],
        "current.days_overdue < 30": [True, True, True, True, True, False, True],
        **{f"current.id == 'L{k}'": [i == k for i in range(7)] for k in range(4)},
    }
    lits = [Literal("changed(days_overdue)", 0), Literal("current.state == 'active'", 1),
            Literal("current.days_overdue < 30", 1)] + [Literal(f"current.id == 'L{k}'", 1) for k in range(4)]
    best = learn_dnf(lits, _table(columns), [0, 1, 2, 3], [4, 5, 6])
    assert best == [["changed(days_overdue)", "current.state == 'active'", "current.days_overdue < 30"]]


def test_learned_terms_carry_no_literal_they_do_not_need():
    columns = {"changed(x)": [True, True, True], "a": [True, False, True], "b": [True, True, False]}
    lits = [Literal("changed(x)", 0), Literal("a", 1), Literal("b", 1)]
    dnf = learn_dnf(lits, _table(columns), [0], [1, 2])
    for term in dnf:
        for lit in term:
            rest = [x for x in term if x != lit]
            # dropping any literal lets a negative through
            assert not rest or any(all(columns[x][i] for x in rest) for i in (1, 2))


def test_same_write_on_two_records_starts_a_bisection_on_the_positive_one(shop):
    state = shop["A"].initial_state()
    pos = Action("update", "order", "O4", {"state": "submitted"})   # total 500: approval created
    neg = Action("update", "order", "O1", {"state": "submitted"})   # total 40: nothing
    # different records are never paired directly: O1 may only look negative
    assert bisect_pairs([(pos, True), (neg, False)], state) == []
    pairs = _cross_record_pairs([(pos, True), (neg, False)], state, {"total"})
    assert pairs == [(Action("update", "order", "O4", {"state": "submitted", "total": 40}),
                      Action("update", "order", "O4", {"state": "submitted", "total": 500}), "total")]


def test_emptiness_of_the_set_field_is_the_first_guard(shop):
    # a before rule that sets a field "only while it is empty" is common; its guard must rank
    # ahead of a choice that happens to separate the same examples
    from agents.cda.hypotheses import condition_literals

    schema = shop["A"].schema
    values = lambda src: [None, 3.0]  # noqa: E731 - the field is empty on the positives
    lits = condition_literals(schema, "order_line", "insert", set(), values, lambda src: [None], target="unit_price")
    ranks = {lit.source: lit.rank for lit in lits}
    assert ranks["is_empty(current.unit_price)"] == 0
    assert ranks["is_empty(current.unit_price)"] < min(r for s, r in ranks.items() if s.startswith("current.") and "==" in s)


def test_disambiguation_experiments_are_run_and_labelled():
    from evals.worldshift.worlds_index import load_named_world

    model, observations = discovery_run(load_named_world("ews-A"), budget=300)
    probes = [o for o in observations if o.purpose.startswith("disambiguate")]
    assert probes, "rival hypotheses should have been put to an experiment"
    # each probe targets a rule the model had when it was planned, on that rule's trigger (a
    # rule may since have been narrowed to fewer events, so any version of it counts)
    for o in probes:
        rid = o.purpose.split()[1]
        versions = [h.after for h in model.history if h.rule_id == rid and h.after] + [model.get(rid).rule]
        assert any(o.action.table == r["table"] and o.action.op in r["events"] for r in versions)


def test_aggregates_over_two_choice_values_and_capped_products_are_candidates(shop):
    from agents.cda.hypotheses import value_candidates

    schema = shop["A"].schema
    # order.state has four values: a count of a customer's orders in two of them (the open ones)
    # is a candidate, as is "all but one"
    candidates = list(value_candidates(schema, "customer", [1, 2]))
    assert "count(order, row.customer == current.id and row.state in ['draft', 'submitted'])" in candidates
    assert "count(order, row.customer == current.id and row.state != 'cancelled')" in candidates
    # a line amount capped by its order's total
    line = list(value_candidates(schema, "order_line", [3.5, 40]))
    assert "round(min(current.quantity * current.unit_price, current.order.total), 2)" in line


_LATE = {
    "format": "worldshift/1",
    "name": "late-A",
    "tables": {
        "loan": {"fields": {"state": {"type": "choice", "choices": ["open", "late", "closed"], "default": "open"},
                            "days": {"type": "number", "default": 0}, "renew": {"type": "number", "default": 0}}},
    },
    "records": {
        "loan": [{"id": f"L{i}", "state": "open", "days": 0, "renew": 1} for i in range(1, 4)]
                + [{"id": "L4", "state": "closed", "days": 3, "renew": 1}, {"id": "L5", "state": "open", "days": 4, "renew": 1}],
    },
    "rules": [
        {"id": "late", "table": "loan", "events": ["update"], "when": "before",
         "condition": "changed(days) and current.days > 0 and current.state == 'open'", "actions": [{"set": {"state": "'late'"}}]},
    ],
    "tests": [],
}


def test_a_field_written_along_in_every_positive_gets_a_rival_and_an_experiment(tmp_path):
    # every write that made a loan late also reset 'renew' (a bisection carries such values into
    # each probe): "changed(renew)" fits as well as the state does; a rival without it is kept,
    # and the write that tells the two apart (the same write without 'renew') is proposed
    world = world_from_spec(tmp_path, _LATE)
    writes = [("L1", {"days": 5, "renew": 0}), ("L2", {"days": 12, "renew": 0}), ("L3", {"days": 2, "renew": 0}),
              ("L4", {"days": 7}), ("L1", {"renew": 0}), ("L5", {"days": 0, "renew": 0})]
    obs = observe_writes(Platform(world), [Action("update", "loan", rid, values) for rid, values in writes])
    inducer = Inducer(world.schema)
    learned = inducer.learn_slot(("own", "loan", "update", "state"), obs)
    assert learned is not None
    conditions = [learned.rule.get("condition") or ""] + [a.get("condition") or "" for a in learned.alternatives]
    assert any("changed(renew)" not in c for c in conditions[1:]), conditions
    assert "changed(renew)" in conditions[0], "the fixture is meant to make the carried field the cheaper choice"
    model = RuleModel(world.schema, world.name)
    rid = model.add(learned.rule, reason="learned", evidence=[])
    session = session_over(world, model, obs)
    session.scratch["alternatives"] = {rid: learned.alternatives}
    probes = [a for _, a in SystematicPolicy()._disambiguations(session)]
    assert any("renew" not in a.values and "days" in a.values and a.id in ("L1", "L2", "L3") for a in probes)


_SHELF = {
    "format": "worldshift/1",
    "name": "shelf-A",
    "tables": {
        "title": {"fields": {"holds": {"type": "number", "default": 0}}},
        "copy": {"fields": {"title": {"type": "reference", "ref": "title"},
                            "status": {"type": "choice", "choices": ["on_loan", "available", "on_hold_shelf"], "default": "available"}}},
        "loan": {"fields": {"copy": {"type": "reference", "ref": "copy"},
                            "state": {"type": "choice", "choices": ["active", "returned"], "default": "active"}}},
    },
    "records": {
        "title": [{"id": "T1", "holds": 2}, {"id": "T2", "holds": 0}],
        "copy": [{"id": "C1", "title": "T1", "status": "on_loan"}, {"id": "C2", "title": "T2", "status": "on_loan"}],
        "loan": [{"id": "L1", "copy": "C1", "state": "active"}, {"id": "L2", "copy": "C2", "state": "active"}],
    },
    "rules": [
        {"id": "return", "table": "loan", "events": ["update"], "when": "after", "condition": "changes_to(state, 'returned')",
         "actions": [{"update": {"target": "current.copy", "set": {"status": "'available'"}}}]},
        {"id": "shelf", "table": "copy", "events": ["update"], "when": "before",
         "condition": "changes_to(status, 'available') and current.title.holds > 0", "actions": [{"set": {"status": "'on_hold_shelf'"}}]},
    ],
    "tests": [],
}


def test_a_value_the_world_turned_into_another_is_written_on_the_record_in_the_middle(tmp_path):
    # the model knows that a return makes the copy available; the world shows the copy on the hold
    # shelf: the copy's own rule is probed by making the copy available directly
    world = world_from_spec(tmp_path, _SHELF)
    platform = Platform(world)
    obs = observe_writes(platform, [Action("update", "loan", "L1", {"state": "returned"}), Action("update", "loan", "L2", {"state": "returned"})])
    assert ("set", "copy", "C1", "status", "on_hold_shelf") in [tuple(e) for e in obs[0].effects]
    model = RuleModel(world.schema, world.name)
    model.add(_SHELF["rules"][0], reason="learned from returns")
    session = session_over(world, model, obs)
    probes = [a for _, a in SystematicPolicy()._intermediate_probes(session)]
    assert probes == [Action("update", "copy", "C1", {"status": "available"})]


def test_a_number_the_world_computed_otherwise_is_no_intermediate_probe(tmp_path):
    # the model's count is off (a wrong expression), not moved on by a rule of the title
    world = world_from_spec(tmp_path, _SHELF)
    platform = Platform(world)
    obs = observe_writes(platform, [Action("update", "loan", "L1", {"state": "returned"})])
    obs[0].effects.append(("set", "title", "T1", "holds", 1))
    model = RuleModel(world.schema, world.name)
    model.add({"id": "x", "table": "loan", "events": ["update"], "when": "after",
               "actions": [{"update": {"target": "current.copy.title", "set": {"holds": "5"}}}]}, reason="a wrong count")
    session = session_over(world, model, obs)
    assert SystematicPolicy()._intermediate_probes(session) == []


def test_numbers_on_a_record_at_its_default_status_jump_the_queue_once_a_rule_sets_that_status(tmp_path):
    # a return that ends 'on_hold_shelf' shows a rule of the copy setting its status: the deferred
    # number writes on a copy at its default status are due now, ahead of the later phases
    world = world_from_spec(tmp_path, _SHELF)
    platform = Platform(world)
    model = RuleModel(world.schema, world.name)
    status_write = ("copy.status -> x on C2 (status status at its default)", Action("update", "copy", "C2", {"status": "on_loan"}))
    other = ("loan.copy -> other copy", Action("update", "loan", "L1", {"copy": "C2"}))
    quiet = observe_writes(platform, [Action("update", "title", "T2", {"holds": 0})])
    session = session_over(world, model, quiet)
    scratch = {"later": [[other, status_write]]}
    policy = SystematicPolicy()
    assert policy._status_writes_now_due(session, scratch) == []  # nothing sets a copy's status yet
    session.observations += observe_writes(platform, [Action("update", "copy", "C1", {"status": "available"})])  # ends on the hold shelf
    assert policy._status_writes_now_due(session, scratch) == [status_write]
    assert scratch["later"] == [[other]]


_BUDGET = {
    "format": "worldshift/1",
    "name": "budget-A",
    "tables": {
        "budget": {"fields": {"amount": {"type": "number", "default": 0}, "committed": {"type": "number", "default": 0},
                              "over": {"type": "boolean", "default": False}}},
    },
    "records": {"budget": [{"id": "B1", "amount": 100, "committed": 0, "over": False},
                           {"id": "B2", "amount": 200, "committed": 0, "over": False}]},
    "rules": [{"id": "over", "table": "budget", "events": ["update"], "when": "before",
               "condition": "changed(committed) and current.committed > current.amount", "actions": [{"set": {"over": "true"}}]}],
    "tests": [],
}


def test_a_rival_is_put_to_the_test_again_once_the_rule_it_rivals_is_revised(tmp_path):
    # "over 1" and "over the amount" agree on every seen write moved to B2 (1000 and 1); once a
    # bisection has revised the rule to "over 100", 150 on B2 (amount 200) tells the two apart
    world = world_from_spec(tmp_path, _BUDGET)
    platform = Platform(world)
    obs = observe_writes(platform, [Action("update", "budget", "B1", {"committed": 1000}), Action("update", "budget", "B1", {"committed": 1})])
    rule = {"table": "budget", "events": ["update"], "when": "before", "actions": [{"set": {"over": "true"}}]}
    model = RuleModel(world.schema, world.name)
    rid = model.add({**rule, "condition": "changed(committed) and current.committed > 1"}, reason="learned")
    rival = {**rule, "condition": "current.amount < current.committed"}
    session = session_over(world, model, obs)
    session.scratch["alternatives"] = {rid: [rival]}
    policy = SystematicPolicy()
    assert policy._disambiguations(session) == []
    session.observations.extend(observe_writes(platform, [Action("update", "budget", "B1", {"committed": 150})]))
    model.revise(rid, {**rule, "condition": "changed(committed) and current.committed > 100"}, reason="bisected")
    probes = [a for _, a in policy._disambiguations(session)]
    assert Action("update", "budget", "B2", {"committed": 150}) in probes


_ISSUED = {
    "format": "worldshift/1",
    "name": "issued-A",
    "tables": {
        "bill": {"fields": {"status": {"type": "choice", "choices": ["draft", "issued", "overdue"], "default": "draft"},
                            "days": {"type": "number", "default": 0}}},
    },
    "records": {
        "bill": [{"id": "D1", "status": "draft", "days": 0}, {"id": "D2", "status": "draft", "days": 0},
                 {"id": "I1", "status": "issued", "days": 0}, {"id": "O1", "status": "overdue", "days": 3}],
    },
    "rules": [
        {"id": "overdue", "table": "bill", "events": ["update"], "when": "before",
         "condition": "changed(days) and current.days > 0 and current.status == 'issued'", "actions": [{"set": {"status": "'overdue'"}}]},
    ],
    "tests": [],
}


def test_a_state_written_along_in_every_positive_gets_a_rival_tried_on_a_record_already_in_it(tmp_path):
    # every write that made a bill overdue also issued it (a sweep write "issued, with large
    # numbers"): "changes_to(status, 'issued')" fits, and so does the state the rule reads; the
    # state reading is kept as a rival, and the write that tells the two apart is the same write
    # on a bill already issued
    world = world_from_spec(tmp_path, _ISSUED)
    writes = [("D1", {"status": "issued", "days": 5}), ("D2", {"status": "issued", "days": 9}),
              ("D1", {"days": 5}), ("D2", {"status": "issued"}), ("O1", {"days": 7}), ("I1", {"status": "draft", "days": 4})]
    platform = Platform(world)
    obs = observe_writes(platform, [Action("update", "bill", rid, values) for rid, values in writes])
    learned = Inducer(world.schema).learn_slot(("own", "bill", "update", "status"), obs)
    assert learned is not None
    assert "changes_to(status, 'issued')" in (learned.rule.get("condition") or ""), "the fixture is meant to make the change the first choice"
    rivals = [a.get("condition") or "" for a in learned.alternatives]
    assert any("current.status == 'issued'" in c and "changes_to" not in c for c in rivals), rivals
    model = RuleModel(world.schema, world.name)
    rid = model.add(learned.rule, reason="learned", evidence=[])
    session = session_over(world, model, obs)
    session.scratch["alternatives"] = {rid: learned.alternatives}
    probes = [a for _, a in SystematicPolicy()._disambiguations(session)]
    # (a write on the issued bill: there the status does not change, and only the state reading fires)
    assert any(a.id == "I1" and "days" in a.values for a in probes), probes
    # the world's answer there leaves the change out of the rule
    probe = next(a for a in probes if a.id == "I1")
    relearned = Inducer(world.schema).learn_slot(("own", "bill", "update", "status"), obs + observe_writes(platform, [probe]))
    assert relearned is not None and "changes_to" not in (relearned.rule.get("condition") or "")


def test_a_change_into_a_state_with_no_other_change_to_fire_on_gets_no_state_rival(tmp_path):
    # "changes_to(status, 'issued')" alone: the state reading would fire on writes that change
    # nothing, so it is no rival (and no write is spent on it)
    spec = {**_ISSUED, "rules": [{"id": "stamp", "table": "bill", "events": ["update"], "when": "before",
                                  "condition": "changes_to(status, 'issued')", "actions": [{"set": {"days": "1"}}]}]}
    world = world_from_spec(tmp_path, spec)
    writes = [("D1", {"status": "issued"}), ("D2", {"status": "issued"}), ("O1", {"status": "draft"})]
    obs = observe_writes(Platform(world), [Action("update", "bill", rid, values) for rid, values in writes])
    learned = Inducer(world.schema).learn_slot(("own", "bill", "update", "days"), obs)
    assert learned is not None
    assert not any("current.status == 'issued'" in (a.get("condition") or "") for a in learned.alternatives)


def test_a_rule_kept_from_an_earlier_world_has_its_state_rival_tried_from_the_writes_it_fired_on(tmp_path):
    # an inherited rule is not learned again while it fits, so induction gives it no rivals; its
    # state reading is still put to the test, from the write it fired on though a dozen later
    # writes on the trigger (this world's sweep) come after it
    world = world_from_spec(tmp_path, _ISSUED)
    rule = {"id": "inherited", "table": "bill", "events": ["update"], "when": "before",
            "condition": "changed(days) and changes_to(status, 'issued')", "actions": [{"set": {"status": "'overdue'"}}]}
    writes = [("D1", {"status": "issued", "days": 5})] + [(rid, {"status": st}) for rid in ("D1", "D2", "O1") for st in ("draft", "overdue")] * 2
    obs = observe_writes(Platform(world), [Action("update", "bill", rid, values) for rid, values in writes])
    model = RuleModel(world.schema, world.name)
    model.add(rule, reason="kept", evidence=[])
    probes = [a for _, a in SystematicPolicy()._disambiguations(session_over(world, model, obs))]
    assert any(a.id == "I1" and "days" in a.values for a in probes), probes


def test_a_kept_rule_has_each_change_it_reads_along_with_another_as_a_rival():
    from agents.cda.induction import kept_rule_rivals

    # every positive wrote the amount along with the days (a sweep write sets every number):
    # the rule without either change is a rival; a lone change is the rule's trigger and stays
    rule = {"id": "R", "table": "bill", "events": ["update"], "when": "before",
            "condition": "changed(days) and changed(amount) and current.status == 'issued'", "actions": [{"set": {"status": "'overdue'"}}]}
    conditions = [r["condition"] for r in kept_rule_rivals(rule)]
    assert "changed(days) and current.status == 'issued'" in conditions
    assert "changed(amount) and current.status == 'issued'" in conditions
    assert kept_rule_rivals({**rule, "condition": "changed(amount) and current.status == 'issued'"}) == []
    # a change into a state read as the state; not where the rule has no other change to fire on
    assert [r["condition"] for r in kept_rule_rivals({**rule, "condition": "changed(days) and changes_to(status, 'issued')"})] \
        == ["changed(days) and current.status == 'issued'", "changes_to(status, 'issued')"]
    assert kept_rule_rivals({**rule, "condition": "changes_to(status, 'issued')"}) == []
    assert kept_rule_rivals({**rule, "condition": "changed(days) or changed(amount)"}) == []
