"""The mining graph: team -> judge vs gold -> critic -> updater (through ``library.add``).

::

    START -> team -> judge -> critic -> updater -> END

The updater writes principles first, then patterns linked to the principles'
ids, then cases linked to the patterns' ids, each through ``add`` so that
near-duplicates merge into existing entries. A critic whose output stayed
invalid is recorded as a failed step and writes nothing.
"""

from __future__ import annotations

import operator
import uuid
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph

from memkit.embeddings import Embedder
from memkit.experience import ExperienceEntry, ExperienceLibrary, Tier
from memkit.llm import ChatModel

from agents.emr.critic import Lessons, llm_critic, rule_critic
from agents.emr.team import build_team_graph
from agents.emr.types import MCQuestion, Step

__all__ = ["MiningState", "build_mining_graph", "DEFAULT_ROUNDS"]

DEFAULT_ROUNDS = 5


class MiningState(TypedDict, total=False):
    """State of mining one question."""

    question: dict[str, Any]
    trajectory_id: str
    answer: str | None
    specialties: list[str]
    correct: bool
    lessons: dict[str, Any] | None
    added: list[dict[str, Any]]
    steps: Annotated[list[dict[str, Any]], operator.add]


def build_mining_graph(
    model: ChatModel | None,
    library: ExperienceLibrary,
    *,
    embedder: Embedder | None = None,
    team: Any = None,
    retries: int = 2,
    k: dict[Tier, int] | None = None,
    checkpointer: Any = None,
) -> Any:
    """Compile the mining graph; ``model=None`` mines offline (case-based team, rule critic)."""
    team_graph = team or build_team_graph(model, library, embedder=embedder, retries=retries, k=k)

    def run_team(state: MiningState) -> dict[str, Any]:
        out = team_graph.invoke({"question": state["question"], "opinions": [], "steps": []})
        return {
            "trajectory_id": state.get("trajectory_id") or uuid.uuid4().hex,
            "answer": out.get("answer"),
            "specialties": out.get("specialties", []),
            "steps": out.get("steps", []),
        }

    def judge(state: MiningState) -> dict[str, Any]:
        q = MCQuestion.model_validate(state["question"])
        correct = state.get("answer") is not None and state.get("answer") == q.answer
        step = Step(role="judge", input={"answer": state.get("answer"), "gold": q.answer}, output={"correct": correct})
        return {"correct": correct, "steps": [step.model_dump()]}

    def critic(state: MiningState) -> dict[str, Any]:
        q = MCQuestion.model_validate(state["question"])
        failure = None
        if model is None:
            lessons: Lessons | None = rule_critic(q, state.get("answer"), state.get("specialties", []))
        else:
            lessons, failure = llm_critic(
                model, q, state.get("answer"), state.get("specialties", []), state.get("steps", []), retries
            )
        step = Step(
            role="critic",
            input={"correct": state.get("correct")},
            output=lessons.model_dump() if lessons else {},
            failure=failure,
        )
        return {"lessons": lessons.model_dump() if lessons else None, "steps": [step.model_dump()]}

    def updater(state: MiningState) -> dict[str, Any]:
        raw = state.get("lessons")
        if raw is None:
            step = Step(role="updater", output={"written": 0}, failure="no valid lessons: nothing written")
            return {"added": [], "steps": [step.model_dump()]}
        lessons = Lessons.model_validate(raw)
        q = MCQuestion.model_validate(state["question"])
        source = [state["trajectory_id"]]
        tags = lessons.specialties or ["general"]
        results = []
        principle_ids = [
            r.target_id
            for r in library.add(
                [
                    ExperienceEntry(tier="principle", polarity=lessons.polarity, text=t, specialties=tags, sources=source)  # type: ignore[arg-type]
                    for t in lessons.principles
                    if t.strip()
                ]
            )
        ]
        results += principle_ids
        pattern_ids = [
            r.target_id
            for r in library.add(
                [
                    ExperienceEntry(
                        tier="pattern",
                        polarity=lessons.polarity,  # type: ignore[arg-type]
                        text=t,
                        specialties=tags,
                        links=principle_ids,
                        sources=source,
                    )
                    for t in lessons.patterns
                    if t.strip()
                ]
            )
        ]
        case_results = library.add(
            [
                ExperienceEntry(
                    tier="case",
                    polarity=c["polarity"],
                    text=c["text"],
                    specialties=tags,
                    links=pattern_ids,
                    sources=source,
                    data={"answer": c["answer"], "question_id": q.id, "dataset": q.dataset},
                )
                for c in lessons.cases
                if str(c.get("text", "")).strip()
            ]
        )
        added = [r.model_dump() for r in case_results]
        step = Step(
            role="updater",
            output={"principles": principle_ids, "patterns": pattern_ids, "cases": [r.target_id for r in case_results]},
        )
        return {"added": added, "steps": [step.model_dump()]}

    builder = StateGraph(MiningState)
    builder.add_node("team", run_team)
    builder.add_node("judge", judge)
    builder.add_node("critic", critic)
    builder.add_node("updater", updater)
    builder.add_edge(START, "team")
    builder.add_edge("team", "judge")
    builder.add_edge("judge", "critic")
    builder.add_edge("critic", "updater")
    builder.add_edge("updater", END)
    return builder.compile(checkpointer=checkpointer)
