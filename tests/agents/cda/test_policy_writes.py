"""The systematic policy spends its write budget on writes it has not seen in this world."""

from __future__ import annotations

from types import SimpleNamespace

from memkit.rules import Action
from memkit.rules.model import RuleModel

from agents.cda import discover
from agents.cda.graph import build_discovery_graph
from agents.cda.policy import SystematicPolicy
from agents.cda.session import Observation
from evals.worldshift.platform import Platform


def _write(action: Action) -> tuple:
    values = tuple(sorted((f, repr(v)) for f, v in action.values.items()))
    return (action.op, action.table, None if action.op == "insert" else action.id, values)


def test_an_audited_world_runs_no_write_twice(shop):
    # the audit replays the inherited rules' evidence, which the sweep then plans again: every
    # write starts from the same records, so running it twice would only repeat what was seen
    model = RuleModel(shop["A"].schema, "shop-A")
    discover(Platform(shop["A"]), model, budget=300)
    model_b = model.inherit("shop-B")
    graph = build_discovery_graph(Platform(shop["B"]), model_b, budget=300, audit=True)
    graph.invoke({"round": 0}, {"recursion_limit": 100_000})
    writes = [_write(o.action) for o in graph.session.observations]
    assert any(o.purpose.startswith("audit") for o in graph.session.observations)
    assert len(writes) == len(set(writes))


def test_one_observation_narrows_every_bisection_waiting_for_that_write(shop):
    # two slots' bisections may probe the same write; each must narrow, not wait forever
    state = shop["A"].initial_state()
    order = state.rows("order")[0]
    neg = Action("update", "order", order["id"], {"total": 10})
    pos = Action("update", "order", order["id"], {"total": 500})
    probe = {"total": 150}
    slot_a, slot_b = ("create", "order", "update", "approval"), ("upd", "order", "update", "customer", "open_orders")
    bisections = [{"neg": neg, "pos": pos, "field": "total", "steps": 1, "slot": slot,
                   "pending": Action("update", "order", order["id"], dict(probe))} for slot in (slot_a, slot_b)]
    session = SimpleNamespace(scratch={"bisections": bisections}, platform_initial=None)
    effects = [("create", "approval", "order", order["id"])]
    obs = Observation(action=Action("update", "order", order["id"], dict(probe)), before=state, effects=effects)
    SystematicPolicy().observe_bisection(session, obs)  # type: ignore[arg-type]
    assert all(b["pending"] is None for b in bisections)
    assert bisections[0]["pos"].values == probe  # its slot's effect appeared: the positive end moves
    assert bisections[1]["neg"].values == probe  # no customer effect: the negative end moves


def test_a_bisection_stops_once_a_rule_overwrites_the_number_it_writes(shop):
    # a derived field (a stock value that follows its quantity) ends as the rule computes it, whatever
    # was written: further probes would only repeat the last one
    state = shop["A"].initial_state()
    order = state.rows("order")[0]
    slot = ("create", "order", "update", "approval")
    policy = SystematicPolicy()
    stepped = []
    for final_total in (42, 150):  # overwritten by a rule / kept as written
        probe = Action("update", "order", order["id"], {"total": 150})
        b = {"neg": Action("update", "order", order["id"], {"total": 10}), "pos": Action("update", "order", order["id"], {"total": 500}),
             "field": "total", "steps": 1, "slot": slot, "pending": probe}
        session = SimpleNamespace(scratch={"bisections": [b]}, platform_initial=None)
        after = state.copy()
        after.put("order", {**order, "total": final_total})
        policy.observe_bisection(session, Observation(action=probe, before=state, effects=[], after=after))  # type: ignore[arg-type]
        assert b["pending"] is None and b["neg"] == probe
        stepped.append(policy._bisect_step(session, b))  # type: ignore[arg-type]
    assert stepped[0] is None
    assert stepped[1] is not None and 150 < stepped[1].values["total"] < 500


def test_a_status_write_is_kept_once_a_write_of_the_table_saw_its_status_overridden(shop):
    # a before rule that sets the status shows no side effect when the write set the status itself
    # (state -> draft with a large total ends 'submitted'): the record's final state shows the rule
    state = shop["A"].initial_state()
    status_write = ("order.total = 9000 on O1 (status state at its default)", Action("update", "order", "O1", {"total": 9000}))
    other = ("order.rush flipped", Action("update", "order", "O1", {"rush": True}))
    write = Action("update", "order", "O2", {"state": "draft", "total": 9000})
    kept, overridden = state.copy(), state.copy()
    kept.put("order", {**state.get("order", "O2"), "state": "draft", "total": 9000})
    overridden.put("order", {**state.get("order", "O2"), "state": "submitted", "total": 9000})
    policy = SystematicPolicy()
    for after, expected in ((kept, [other]), (overridden, [status_write, other])):
        session = SimpleNamespace(observations=[Observation(action=write, before=state, effects=[], after=after)])
        assert policy._status_writes_that_matter(session, [status_write, other]) == expected  # type: ignore[arg-type]


def test_a_bisection_across_two_records_first_checks_the_negative_end_on_the_positive_record(shop):
    # the same write approves one order and not another: the other may differ in what matters
    # (its state), not in the total; one write at the other's total on the first record tells
    state = shop["A"].initial_state()
    slot = ("create", "order", "update", "approval")
    neg = Action("update", "order", "O4", {"state": "submitted", "total": 40})
    pos = Action("update", "order", "O4", {"state": "submitted", "total": 500})
    policy = SystematicPolicy()
    outcomes = []
    for shows in (True, False):
        b = {"neg": neg, "pos": pos, "field": "total", "steps": 0, "slot": slot, "verify": True}
        session = SimpleNamespace(scratch={"bisections": [b]}, platform_initial=state)
        first = policy._bisect_step(session, b)  # type: ignore[arg-type]
        assert first == neg
        effects = [("create", "approval", "order", "O4")] if shows else []
        after = state.copy()
        after.put("order", {**state.get("order", "O4"), **first.values})
        policy.observe_bisection(session, Observation(action=first, before=state, effects=effects, after=after))  # type: ignore[arg-type]
        outcomes.append(policy._bisect_step(session, b))  # type: ignore[arg-type]
    assert outcomes[0] is None  # approved at 40 too: the total is not the boundary
    assert outcomes[1] is not None and 40 < outcomes[1].values["total"] < 500


def _bisect(fires, neg_total: float, pos_total: float) -> tuple[float, float, int]:
    """Run a bisection on order.total against a world where ``fires(total)`` shows the rule: the
    final (negative, positive) ends and the writes it took."""
    slot = ("create", "order", "update", "approval")
    b = {"neg": Action("update", "order", "O1", {"total": neg_total}), "pos": Action("update", "order", "O1", {"total": pos_total}),
         "field": "total", "steps": 0, "slot": slot}
    session = SimpleNamespace(scratch={"bisections": [b]}, platform_initial=None)
    policy, writes = SystematicPolicy(), 0
    while (probe := policy._bisect_step(session, b)) is not None:  # type: ignore[arg-type]
        writes += 1
        b["pos" if fires(probe.values["total"]) else "neg"] = probe
    return b["neg"].values["total"], b["pos"].values["total"], writes


def test_a_bisection_finds_a_round_threshold_to_the_unit():
    # midpoints alone probe 5000 .. 15000 at 12000, 10000, 8000, 7000, 6000 and run out of steps
    # at 6000: "> 5000" was learned as ">= 6000"
    assert _bisect(lambda t: t > 5000, 500, 127207)[:2] == (5000, 5001)
    assert _bisect(lambda t: t >= 5000, 500, 127207)[:2] == (4999, 5000)
    assert _bisect(lambda t: t < 20, 1000, 0)[:2] == (20, 19)


def test_a_threshold_that_is_not_round_is_bisected_as_closely_as_before():
    # at most two writes one unit past a round end, and the same interval as midpoints alone give
    neg, pos, writes = _bisect(lambda t: t > 7325, 500, 127207)
    assert neg <= 7325 < pos and pos - neg <= 200
    assert writes <= SystematicPolicy().bisect_steps + 2


def test_a_bisection_never_writes_the_number_its_record_holds():
    # an update to the number the record already holds changes nothing, and a rule on the number's
    # change shows nothing there: read as a negative, it put a boundary above 3 at 4 (lease-B's
    # late charge, bisected on a charge 4 days late)
    slot = ("own", "charge", "update", "status")
    b = {"neg": Action("update", "charge", "C1", {"days_late": 0}), "pos": Action("update", "charge", "C1", {"days_late": 327}),
         "field": "days_late", "steps": 0, "slot": slot}
    initial = SimpleNamespace(get=lambda table, rid: {"id": rid, "days_late": 4}, rows=lambda table: [{"id": "C1", "days_late": 4}])
    session = SimpleNamespace(scratch={"bisections": [b]}, platform_initial=initial)
    policy, written = SystematicPolicy(), []
    while (probe := policy._bisect_step(session, b)) is not None:  # type: ignore[arg-type]
        written.append(probe.values["days_late"])
        changed = probe.values["days_late"] != 4
        b["pos" if changed and probe.values["days_late"] > 3 else "neg"] = probe
    assert 4 not in written
    assert (b["neg"].values["days_late"], b["pos"].values["days_late"]) == (3, 5)


def test_a_recount_learned_without_delete_is_tried_on_deleting_a_record_it_counts():
    # the sweep's delete may pick a claim the total does not count (a paid one) and show nothing;
    # the recount's delete is then tried on a claim that is counted, where the two models differ
    from pathlib import Path

    from memkit.rules import Engine, load_world
    from agents.cda.session import DiscoverySession

    claims = load_world(Path(__file__).parent / "worlds" / "claims-A.yaml")
    model = RuleModel(claims.schema, claims.name)
    recount = "count(claim, row.handler == current.handler and row.status in ['new', 'review', 'approved'])"
    model.add({"table": "claim", "events": ["insert", "update"], "when": "after",
               "actions": [{"update": {"target": "current.handler", "set": {"open_claims": recount}}}]}, reason="test")
    platform = Platform(claims)
    session = DiscoverySession(platform, model, budget=10, world=claims.name, platform_initial=platform.snapshot())
    planned = SystematicPolicy()._recount_events(session)
    deletes = [a for p, a in planned if a.op == "delete"]
    assert [p for p, a in planned if a.op == "delete"] == [f"recount {model.active()[0].id} on delete"]
    state = claims.initial_state()
    counted = state.get("claim", deletes[0].id)["status"] in ("new", "review", "approved")
    assert counted
    # the world agrees: deleting it changes the handler's total
    truth = Engine(claims.schema, claims.rules).run(state, deletes[0]).effects
    assert any(e[0] == "set" and e[3] == "open_claims" for e in truth)
    # asked again for the same rule version, it plans nothing more
    assert SystematicPolicy()._recount_events(session) == []
