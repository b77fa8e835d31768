"""Data crossing the team's boundaries: questions, opinions, steps of a trajectory."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

__all__ = ["MCQuestion", "Step", "Opinion", "option_letters"]


def option_letters(n: int) -> list[str]:
    """``A``, ``B``, ... for ``n`` options."""
    return [chr(ord("A") + i) for i in range(n)]


class MCQuestion(BaseModel):
    """A multiple-choice question; ``answer`` is the gold option letter (``None`` when unknown)."""

    id: str
    dataset: str = ""
    question: str = Field(min_length=1)
    options: dict[str, str]
    answer: str | None = None
    context: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _answer_is_an_option(self) -> MCQuestion:
        if len(self.options) < 2:
            raise ValueError("a multiple-choice question needs at least two options")
        if self.answer is not None and self.answer not in self.options:
            raise ValueError(f"answer {self.answer!r} is not one of the options {sorted(self.options)}")
        return self

    def options_text(self) -> str:
        """Options as prompt lines ``A. text``."""
        return "\n".join(f"{k}. {v}" for k, v in self.options.items())


class Opinion(BaseModel):
    """One specialist's answer (``None`` when its output stayed invalid) with option scores."""

    specialty: str
    answer: str | None
    rationale: str = ""
    scores: dict[str, float] = Field(default_factory=dict)


class Step(BaseModel):
    """One step of a trajectory: who did it, what went in and out, what experience it saw, any failure."""

    role: Literal["planner", "specialist", "aggregator", "judge", "critic", "updater"]
    name: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    output: dict[str, Any] = Field(default_factory=dict)
    experience: list[str] = Field(default_factory=list, description="ids of the retrieved entries")
    failure: str | None = None
