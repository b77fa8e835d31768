"""Critics: turn a judged trajectory into experience at three tiers.

A critic returns :class:`Lessons` (texts per tier, polarity, specialties);
the updater turns them into linked entries. Practices come from successes,
warnings from failures; a failure also yields the corrected case (the gold
answer), so the case tier always says what was right.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from memkit.llm import ChatModel

from agents.emr.llm_steps import ask_structured
from agents.emr.prompts import prompt
from agents.emr.types import MCQuestion

__all__ = ["Lessons", "CriticOutput", "rule_critic", "llm_critic"]


class CriticOutput(BaseModel):
    """What the LLM critic must return (validated; bad output is a recorded failure)."""

    principles: list[str] = Field(default_factory=list, max_length=3)
    patterns: list[str] = Field(default_factory=list, max_length=3)
    cases: list[str] = Field(default_factory=list, max_length=3)
    specialties: list[str] = Field(default_factory=list)


class Lessons(BaseModel):
    """Experience proposed from one trajectory, before it is written."""

    polarity: str
    principles: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    cases: list[dict[str, Any]] = Field(default_factory=list, description="{text, answer, polarity}")
    specialties: list[str] = Field(default_factory=list)


def _case(q: MCQuestion, answer_letter: str, polarity: str) -> dict[str, Any]:
    answer = q.options[answer_letter]
    if polarity == "practice":
        text = f"Q: {q.question} A: {answer}"
    else:
        text = f"Q: {q.question} Misleading choice: {answer}"
    return {"text": text, "answer": answer, "polarity": polarity}


def rule_critic(q: MCQuestion, predicted: str | None, specialties: list[str]) -> Lessons:
    """The model-free critic: a case per outcome, a pattern per question, a principle per specialty."""
    assert q.answer is not None
    correct = predicted == q.answer
    polarity = "practice" if correct else "warning"
    spec = specialties[0] if specialties else "general"
    label = spec.replace("_", " ")
    stem = " ".join(q.question.split()[:16])
    gold = q.options[q.answer]
    if correct:
        principles = [f"In {label} questions, the answers of the most similar solved cases are a reliable guide."]
        patterns = [f"{label}: a question like \"{stem}...\" was answered correctly with \"{gold}\"."]
        cases = [_case(q, q.answer, "practice")]
    else:
        wrong = q.options[predicted] if predicted in q.options else "(no answer)"
        principles = [f"In {label} questions, an option that looks like the answers of similar cases can mislead."]
        patterns = [f"{label}: for a question like \"{stem}...\", \"{wrong}\" misled; the answer was \"{gold}\"."]
        cases = [_case(q, q.answer, "practice")]
        if predicted in q.options:
            cases.append(_case(q, predicted, "warning"))  # type: ignore[arg-type]
    return Lessons(polarity=polarity, principles=principles, patterns=patterns, cases=cases, specialties=specialties)


def llm_critic(
    model: ChatModel, q: MCQuestion, predicted: str | None, specialties: list[str], steps: list[dict[str, Any]], retries: int
) -> tuple[Lessons | None, str | None]:
    """Ask the model for lessons; ``(None, failure)`` when its output stayed invalid."""
    assert q.answer is not None
    correct = predicted == q.answer
    polarity = "practice" if correct else "warning"
    trajectory = json.dumps(
        [{"role": s["role"], "name": s.get("name", ""), "output": s.get("output", {})} for s in steps], default=str
    )[:4000]
    rule = (
        "Write practices: what reasoning led to the right answer."
        if correct
        else "Write warnings: which cue misled the team, so it is not followed again."
    )
    text = prompt(
        "critic",
        predicted=predicted or "(no valid answer)",
        gold=q.answer,
        outcome="success" if correct else "failure",
        specialty_hint=", ".join(specialties) or "general",
        polarity_rule=rule,
        trajectory=trajectory,
        question=q.question,
        options=q.options_text(),
    )
    out, failure = ask_structured(model, text, CriticOutput, retries)
    if out is None:
        return None, failure
    cases = [{"text": t, "answer": q.options[predicted if not correct and predicted in q.options else q.answer], "polarity": polarity} for t in out.cases]  # type: ignore[index]
    if not correct:
        cases.append(_case(q, q.answer, "practice"))  # the corrected case
    return (
        Lessons(
            polarity=polarity,
            principles=out.principles,
            patterns=out.patterns,
            cases=cases,
            specialties=list(dict.fromkeys([*specialties, *out.specialties])),
        ),
        None,
    )
