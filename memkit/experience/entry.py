"""The data of an experience library: entries, filters, retrieval bundles.

An :class:`ExperienceEntry` is one piece of mined experience at one of three
tiers (most general first)::

    principle   "Weigh the study design before the effect size."
      └─ pattern    "Retrospective cohort questions about screening: 'maybe' is rarely right."
           └─ case      "Q: Does screening X reduce mortality? ... -> yes"

``links`` point one tier up (a case to its patterns, a pattern to its
principles). ``polarity`` says whether the entry is a ``practice`` (learned
from a success) or a ``warning`` (a misleading cue learned from a failure).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "Tier",
    "Polarity",
    "TIERS",
    "POLARITIES",
    "ExperienceEntry",
    "EntryFilter",
    "ScoredEntry",
    "RetrievalBundle",
    "AddResult",
    "new_id",
    "utcnow",
]

Tier = Literal["principle", "pattern", "case"]
Polarity = Literal["practice", "warning"]
TIERS: tuple[Tier, ...] = ("principle", "pattern", "case")
POLARITIES: tuple[Polarity, ...] = ("practice", "warning")


def new_id() -> str:
    """A fresh random entry id."""
    return uuid.uuid4().hex


def utcnow() -> datetime:
    """Now, timezone-aware UTC (entries never carry naive times)."""
    return datetime.now(UTC)


class ExperienceEntry(BaseModel):
    """One piece of experience: a principle, a pattern or a case.

    ``namespace`` and ``data`` are free for callers (the LangGraph store
    adapter keeps the BaseStore namespace and value there); ``data`` must be
    JSON-serialisable.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    id: str = Field(default_factory=new_id, min_length=1)
    tier: Tier
    polarity: Polarity = "practice"
    text: str = Field(min_length=1)
    specialties: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    support: int = Field(default=1, ge=1)
    sources: list[str] = Field(default_factory=list)
    namespace: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    @field_validator("specialties", "links", "sources")
    @classmethod
    def _dedupe(cls, values: list[str]) -> list[str]:
        # Sets in meaning, lists on the wire: keep first-seen order, drop repeats.
        return list(dict.fromkeys(v for v in values if v))

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must not be blank")
        return value


class EntryFilter(BaseModel):
    """Which entries an operation may see. Every field given must hold (AND); unset fields do not filter.

    ``specialties_any`` and ``links_any`` hold when the entry shares at least
    one value; ``namespace_prefix`` when the entry's namespace starts with it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    tiers: tuple[Tier, ...] | None = None
    polarity: Polarity | None = None
    specialties_any: tuple[str, ...] | None = None
    links_any: tuple[str, ...] | None = None
    namespace_prefix: tuple[str, ...] | None = None

    def matches(self, entry: ExperienceEntry) -> bool:
        """The executable definition of the filter; every backend must agree with it."""
        if self.tiers is not None and entry.tier not in self.tiers:
            return False
        if self.polarity is not None and entry.polarity != self.polarity:
            return False
        if self.specialties_any is not None and not set(self.specialties_any) & set(entry.specialties):
            return False
        if self.links_any is not None and not set(self.links_any) & set(entry.links):
            return False
        if self.namespace_prefix is not None:
            prefix = list(self.namespace_prefix)
            if entry.namespace[: len(prefix)] != prefix:
                return False
        return True

    def also(self, **changes: Any) -> EntryFilter:
        """This filter with some fields replaced."""
        return self.model_copy(update=changes)


class ScoredEntry(BaseModel):
    """An entry with its cosine similarity to the query and how it was reached."""

    entry: ExperienceEntry
    score: float
    via: Literal["nearest", "link"] = "nearest"


class RetrievalBundle(BaseModel):
    """The result of a hierarchical retrieval: principles, then patterns under them, then cases under those."""

    query: str
    principles: list[ScoredEntry] = Field(default_factory=list)
    patterns: list[ScoredEntry] = Field(default_factory=list)
    cases: list[ScoredEntry] = Field(default_factory=list)

    def tier(self, tier: Tier) -> list[ScoredEntry]:
        """The scored entries of one tier."""
        return {"principle": self.principles, "pattern": self.patterns, "case": self.cases}[tier]

    def all(self) -> list[ScoredEntry]:
        """Every scored entry, principles first."""
        return [*self.principles, *self.patterns, *self.cases]

    def __len__(self) -> int:
        return len(self.principles) + len(self.patterns) + len(self.cases)

    def as_text(self, *, max_chars: int = 400) -> str:
        """The bundle as prompt text, one line per entry, warnings marked."""
        lines: list[str] = []
        for title, items in (("Principles", self.principles), ("Patterns", self.patterns), ("Cases", self.cases)):
            if not items:
                continue
            lines.append(f"{title}:")
            for item in items:
                mark = "WARNING (a misleading cue): " if item.entry.polarity == "warning" else ""
                text = item.entry.text if len(item.entry.text) <= max_chars else item.entry.text[: max_chars - 3] + "..."
                lines.append(f"- {mark}{text} (similarity {item.score:.2f}, support {item.entry.support})")
        return "\n".join(lines) if lines else "(no experience retrieved)"


class AddResult(BaseModel):
    """What ``add`` did with one entry: inserted it, merged it into ``target_id``, or discarded it."""

    action: Literal["inserted", "merged", "discarded"]
    id: str
    target_id: str
    similarity: float | None = None
