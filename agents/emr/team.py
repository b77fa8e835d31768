"""The agent team: planner -> specialists in parallel (``Send``) -> aggregator.

::

    START -> planner --Send(specialty)--> specialist x N --> aggregator -> END

Each role first retrieves experience for itself from the library
(hierarchically: principles, patterns, cases) and records a :class:`Step`
with its input, output, retrieved entry ids and any failure. With a chat
model, roles answer through ``memkit.llm`` structured output with bounded
repair; with ``model=None`` the team runs offline: an embedding planner, the
case-based answerer as specialists, and a score-summing aggregator.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from memkit.embeddings import Embedder
from memkit.experience import EntryFilter, ExperienceLibrary, RetrievalBundle, Tier
from memkit.llm import ChatModel

from agents.emr.casebased import CaseBasedAnswerer
from agents.emr.llm_steps import Plan, ask_choice, ask_structured
from agents.emr.prompts import prompt
from agents.emr.specialties import SPECIALTIES, EmbeddingPlanner
from agents.emr.types import MCQuestion, Opinion, Step

__all__ = ["TeamState", "build_team_graph", "DEFAULT_TEAM_K"]

DEFAULT_TEAM_K: dict[Tier, int] = {"principle": 2, "pattern": 3, "case": 10}


class TeamState(TypedDict, total=False):
    """State of one team run; ``opinions`` and ``steps`` are appended to by parallel specialists."""

    question: dict[str, Any]
    specialties: list[str]
    specialty: str
    opinions: Annotated[list[dict[str, Any]], operator.add]
    steps: Annotated[list[dict[str, Any]], operator.add]
    answer: str | None
    scores: dict[str, float]


def build_team_graph(
    model: ChatModel | None,
    library: ExperienceLibrary,
    *,
    embedder: Embedder | None = None,
    max_specialists: int = 2,
    k: dict[Tier, int] | None = None,
    retries: int = 2,
    answerer: CaseBasedAnswerer | None = None,
    checkpointer: Any = None,
) -> Any:
    """Compile the team graph; ``model=None`` runs it offline with the case-based answerer."""
    embedder = embedder or library.embedder
    ks = dict(k or DEFAULT_TEAM_K)
    planner_offline = EmbeddingPlanner(embedder, k=max_specialists)
    cbr = answerer or CaseBasedAnswerer(embedder)

    def retrieve(text: str, specialty: str | None) -> RetrievalBundle:
        where = EntryFilter(specialties_any=(specialty, "general")) if specialty else None
        bundle = library.retrieve(text, k=ks, where=where)
        if specialty and not bundle.cases and library.count() > 0:
            bundle = library.retrieve(text, k=ks)  # nothing tagged for this specialty: use everything
        return bundle

    def planner(state: TeamState) -> dict[str, Any]:
        q = MCQuestion.model_validate(state["question"])
        bundle = library.retrieve(q.question, k={"principle": ks["principle"], "pattern": 0, "case": 0})
        failure = None
        if model is None:
            chosen = planner_offline.plan(q.question)
        else:
            text = prompt(
                "planner",
                max_specialists=max_specialists,
                specialties=", ".join(SPECIALTIES),
                experience=bundle.as_text(),
                question=q.question,
            )
            plan, failure = ask_structured(model, text, Plan, retries)
            known = [s for s in (plan.specialties if plan else []) if s in SPECIALTIES]
            if plan is not None and not known:
                failure = f"planner named no known specialty: {plan.specialties}"
            chosen = list(dict.fromkeys(known))[:max_specialists] or ["internal_medicine"]
        step = Step(
            role="planner",
            input={"question": q.question},
            output={"specialties": chosen},
            experience=[s.entry.id for s in bundle.all()],
            failure=failure,
        )
        return {"specialties": chosen, "steps": [step.model_dump()]}

    def fan_out(state: TeamState) -> list[Send]:
        return [Send("specialist", {"question": state["question"], "specialty": s}) for s in state["specialties"]]

    def specialist(state: TeamState) -> dict[str, Any]:
        q = MCQuestion.model_validate(state["question"])
        specialty = state["specialty"]
        bundle = retrieve(q.question, specialty)
        failure = None
        if model is None:
            letter, scores, used = cbr.answer(q, bundle.cases)
            opinion = Opinion(
                specialty=specialty,
                answer=letter,
                rationale="vote of similar cases" if used else "no usable case: option most similar to the question",
                scores=scores if used else {},
            )
        else:
            context = f"\nContext:\n{q.context}\n" if q.context else ""
            text = prompt(
                "specialist",
                specialty=specialty.replace("_", " "),
                experience=bundle.as_text(),
                context=context,
                question=q.question,
                options=q.options_text(),
            )
            choice, failure = ask_choice(model, text, list(q.options), retries)
            opinion = Opinion(
                specialty=specialty,
                answer=choice.answer if choice else None,
                rationale=choice.rationale if choice else "",
            )
        step = Step(
            role="specialist",
            name=specialty,
            input={"question": q.question},
            output=opinion.model_dump(),
            experience=[s.entry.id for s in bundle.all()],
            failure=failure,
        )
        return {"opinions": [opinion.model_dump()], "steps": [step.model_dump()]}

    def aggregator(state: TeamState) -> dict[str, Any]:
        q = MCQuestion.model_validate(state["question"])
        opinions = [Opinion.model_validate(o) for o in state.get("opinions", [])]
        failure = None
        experience: list[str] = []
        if model is None:
            total = dict.fromkeys(q.options, 0.0)
            for o in opinions:
                norm = sum(abs(v) for v in o.scores.values()) or 1.0
                for key, value in o.scores.items():
                    total[key] += value / norm
            if any(total.values()):
                answer = max(total, key=lambda key: total[key])
                scores = total
            else:
                answer, scores, _ = cbr.answer(q, [])
        else:
            bundle = library.retrieve(q.question, k={"principle": ks["principle"], "pattern": ks["pattern"], "case": 0})
            experience = [s.entry.id for s in bundle.all()]
            said = "\n".join(
                f"- {o.specialty}: {o.answer if o.answer else '(no valid answer)'} — {o.rationale}" for o in opinions
            )
            text = prompt(
                "aggregator", experience=bundle.as_text(), question=q.question, options=q.options_text(), opinions=said
            )
            choice, failure = ask_choice(model, text, list(q.options), retries)
            votes = Counter(o.answer for o in opinions if o.answer)
            if choice is not None:
                answer = choice.answer
            elif votes:
                answer = votes.most_common(1)[0][0]  # the specialists' majority stands in for a failed aggregator
            else:
                answer = None
            scores = {key: float(votes.get(key, 0)) for key in q.options}
        step = Step(
            role="aggregator",
            input={"opinions": [o.model_dump() for o in opinions]},
            output={"answer": answer},
            experience=experience,
            failure=failure,
        )
        return {"answer": answer, "scores": scores, "steps": [step.model_dump()]}

    builder = StateGraph(TeamState)
    builder.add_node("planner", planner)
    builder.add_node("specialist", specialist)
    builder.add_node("aggregator", aggregator)
    builder.add_edge(START, "planner")
    builder.add_conditional_edges("planner", fan_out, ["specialist"])
    builder.add_edge("specialist", "aggregator")
    builder.add_edge("aggregator", END)
    return builder.compile(checkpointer=checkpointer)
