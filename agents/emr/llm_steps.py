"""LLM calls of the team with bounded repair: bad output becomes a recorded failure, never an answer."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from memkit.errors import LLMOutputError
from memkit.llm import ChatModel

from agents.emr.prompts import prompt

__all__ = ["Choice", "Plan", "ask_choice", "ask_structured", "normalise_letter"]


class Choice(BaseModel):
    """A model's pick of one option."""

    answer: str = Field(description="one option letter")
    rationale: str = ""


class Plan(BaseModel):
    """The planner's pick of specialties."""

    specialties: list[str] = Field(min_length=1)
    reason: str = ""


_LETTER = re.compile(r"^\(?([A-Za-z])\)?[.):]?$")


def normalise_letter(answer: str) -> str:
    """``"b"``, ``"(B)"``, ``"B."`` -> ``"B"``; anything else comes back stripped as given."""
    text = answer.strip()
    match = _LETTER.match(text)
    return match.group(1).upper() if match else text


def ask_structured(model: ChatModel, text: str, schema: type[BaseModel], retries: int) -> tuple[Any, str | None]:
    """``(instance, None)`` or ``(None, failure)`` when the output stayed invalid."""
    try:
        return model.structured([{"role": "user", "content": text}], schema, retries=retries), None
    except LLMOutputError as exc:
        return None, str(exc)


def ask_choice(model: ChatModel, text: str, letters: list[str], retries: int) -> tuple[Choice | None, str | None]:
    """Ask for an option letter; an answer that is not an option is shown back at most ``retries`` times."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    last = ""
    for _attempt in range(1 + retries):
        try:
            choice = model.structured(messages, Choice, retries=retries)
        except LLMOutputError as exc:
            return None, str(exc)
        letter = normalise_letter(choice.answer)
        if letter in letters:
            return choice.model_copy(update={"answer": letter}), None
        last = choice.answer
        messages = [
            *messages,
            {"role": "assistant", "content": choice.model_dump_json()},
            {"role": "user", "content": prompt("repair_option", answer=choice.answer, letters=", ".join(letters))},
        ]
    return None, f"answer {last!r} is not an option ({', '.join(letters)}) after {1 + retries} attempts"
