"""The discovery graph: plan -> act -> observe -> induce -> audit -> (plan | stop), as a LangGraph StateGraph.

Budget counts platform writes; reads are free but reported. Every experiment
starts from the world's initial records (``reset`` is free), so each
observation is a clean before/after pair; the agent sees only what a user of
the live system sees: records before, records after.
"""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from memkit.errors import WriteError
from memkit.rules import Action
from memkit.rules.model import Evidence, RuleModel

from agents.cda.induction import Inducer, induce_until_stable, keep_threshold_boundaries
from agents.cda.policy import SystematicPolicy
from agents.cda.predictions import predictions_of
from agents.cda.session import DiscoveryPolicy, DiscoveryReport, DiscoverySession, Observation

__all__ = ["build_discovery_graph", "discover", "DiscoveryState"]


class DiscoveryState(TypedDict, total=False):
    """What flows between nodes (the heavy objects live in the session)."""

    round: int
    planned: int
    new: int
    edits: int
    stop_reason: str


def _act(session: DiscoverySession, actions: list[Action]) -> list[Observation]:
    platform = session.platform
    purposes = session.scratch.get("purposes", {})
    out: list[Observation] = []
    for action in actions:
        if session.writes_left <= 0:
            break
        platform.reset()
        try:
            outcome = platform.write(action)
        except WriteError as exc:
            session.note(f"refused: {action}: {exc}")
            continue
        after = platform.snapshot()
        platform.reset()
        obs = Observation(action, session.platform_initial, list(outcome.effects), outcome.rolled_back, purposes.get(id(action), ""), after)  # type: ignore[arg-type]
        out.append(obs)
        if session.progress is not None:
            session.progress(platform.writes, session.budget)
        if session.checkpoint is not None and session.checkpoint_every and platform.writes % session.checkpoint_every == 0:
            session.scratch.setdefault("checkpoint_due", []).append(platform.writes)
    return out


def build_discovery_graph(
    platform: Any,
    model: RuleModel,
    policy: DiscoveryPolicy | None = None,
    budget: int = 300,
    *,
    audit: bool = True,
    seed: int = 0,
    checkpoint=None,
    checkpoint_every: int = 0,
    progress=None,
    max_idle_rounds: int = 2,
    checkpointer=None,
):
    """A compiled StateGraph that runs discovery on ``platform`` into ``model``.

    ``policy`` defaults to :class:`SystematicPolicy`. The compiled graph
    carries the session as ``graph.session`` so callers can read the log and
    observations after ``invoke``.
    """
    policy = policy or SystematicPolicy()
    world = model.world or platform.world.name
    session = DiscoverySession(
        platform=platform,
        model=model,
        budget=budget,
        world=world,
        audit=audit,
        seed=seed,
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        progress=progress,
    )
    platform.reset()
    session.platform_initial = platform.snapshot()
    if platform.access == "definitions":
        _sync_definitions(session)
    pending: dict[str, Any] = {"actions": [], "new": []}

    def plan(state: DiscoveryState) -> DiscoveryState:
        actions = policy.plan(session) if session.writes_left > 0 else []
        pending["actions"] = actions
        return {"round": state.get("round", 0) + 1, "planned": len(actions)}

    def act(state: DiscoveryState) -> DiscoveryState:
        pending["new"] = _act(session, pending["actions"])
        return {"new": len(pending["new"])}

    def observe(state: DiscoveryState) -> DiscoveryState:
        for obs in pending["new"]:
            session.observations.append(obs)
            model.record_experiment(Evidence(action=obs.action.to_dict(), effects=[list(e) for e in obs.effects], world=world, note=obs.purpose))
        return {}

    def induce(state: DiscoveryState) -> DiscoveryState:
        edits = policy.induce(session, pending["new"]) if pending["new"] else 0
        session.rounds_without_change = 0 if edits else session.rounds_without_change + 1
        for writes in session.scratch.pop("checkpoint_due", []):
            checkpoint(writes, model)
        return {"edits": edits}

    def audit_node(state: DiscoveryState) -> DiscoveryState:
        # the end-of-discovery check: every rule against everything seen in this world
        if state.get("planned", 0) == 0 or session.writes_left <= 0:
            final_audit(session)
        return {}

    def route(state: DiscoveryState) -> str:
        if session.writes_left <= 0:
            return "stop"
        if state.get("planned", 0) == 0:
            return "stop"
        return "plan"

    graph = StateGraph(DiscoveryState)
    graph.add_node("plan", plan)
    graph.add_node("act", act)
    graph.add_node("observe", observe)
    graph.add_node("induce", induce)
    graph.add_node("audit", audit_node)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "act")
    graph.add_edge("act", "observe")
    graph.add_edge("observe", "induce")
    graph.add_edge("induce", "audit")
    graph.add_conditional_edges("audit", route, {"plan": "plan", "stop": END})
    compiled = graph.compile(checkpointer=checkpointer)
    compiled.session = session  # type: ignore[attr-defined]
    return compiled


def final_audit(session: DiscoverySession) -> None:
    """Check every rule against all observations of this world (no writes): revise, retire, add."""
    if session.scratch.get("final_audit_done"):
        return
    session.scratch["final_audit_done"] = True
    if not session.audit:
        return
    inducer = Inducer(session.platform.schema(), predictions=predictions_of(session),
                      literal_values=session.scratch.setdefault("literal_values", {}))
    induce_until_stable(inducer, session.model, session.observations, session.world, session.note, passes=2, label="audit ")
    for rid in keep_threshold_boundaries(session.model, session.observations, session.world, inducer.may_edit):
        session.note(f"audit kept {rid}'s nearest writes to its threshold as evidence")


def _sync_definitions(session: DiscoverySession) -> None:
    """With ``definitions`` access the rules can be read: add new ones, revise changed ones, retire vanished ones."""
    platform, model = session.platform, session.model
    listed = {info["id"]: platform.read_rule(info["id"]) for info in platform.list_rules()}
    known = {lr.id: lr for lr in model.rules}
    for rid, rule in listed.items():
        if rid not in known:
            model.add(rule, reason="read from the platform (definitions access)", rule_id=rid)
        elif known[rid].rule != rule or known[rid].status != "active":
            model.revise(rid, rule, reason="the platform's definition changed")
    for lr in model.active():
        if lr.id not in listed:
            model.retire(lr.id, reason="no longer in the platform's rule list")
    session.scratch["definitions_synced"] = True


def discover(
    platform: Any,
    model: RuleModel,
    *,
    budget: int = 300,
    audit: bool = True,
    seed: int = 0,
    policy: DiscoveryPolicy | None = None,
    checkpoint=None,
    checkpoint_every: int = 0,
    progress=None,
) -> DiscoveryReport:
    """Run discovery to the end and return its report (the model is edited in place)."""
    start_history = len(model.history)
    writes0, reads0 = platform.writes, platform.reads
    graph = build_discovery_graph(
        platform, model, policy, budget, audit=audit, seed=seed,
        checkpoint=checkpoint, checkpoint_every=checkpoint_every, progress=progress,
    )
    graph.invoke({"round": 0}, {"recursion_limit": 100_000})
    session: DiscoverySession = graph.session  # type: ignore[attr-defined]
    final_audit(session)
    if checkpoint is not None:
        checkpoint(platform.writes - writes0, model)
    new = model.history[start_history:]
    return DiscoveryReport(
        world=session.world,
        writes=platform.writes - writes0,
        reads=platform.reads - reads0,
        edits=len(new),
        retired=[h.rule_id for h in new if h.op == "retire"],
        revised=[h.rule_id for h in new if h.op == "revise"],
        added=[h.rule_id for h in new if h.op == "add"],
        log=session.log,
    )
