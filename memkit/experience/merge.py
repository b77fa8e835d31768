"""Merge policies: what ``add`` does with an entry too similar to one already stored.

``add`` asks the policy only when the new entry's cosine similarity to its
nearest neighbour of the same tier and polarity reaches the library's novelty
threshold. The policy answers with a :class:`MergeDecision`:

- ``discard``: the new entry says nothing new; the existing one gains support and sources;
- ``merge``: the existing entry's text is rewritten to cover both (``text``); it
  keeps both entries' sources, and its support grows by the new entry's.

:class:`DefaultMergePolicy` needs no model. :class:`LLMMergePolicy` asks a chat
model for a pydantic-validated decision and falls back to the default policy
when the model's output stays invalid (the failure is kept in ``failures``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from memkit.errors import LLMOutputError
from memkit.experience.entry import ExperienceEntry

if TYPE_CHECKING:
    from memkit.llm import ChatModel

__all__ = ["MergeDecision", "MergePolicy", "DefaultMergePolicy", "LLMMergePolicy", "content_words"]

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "a an the of to in on at for and or but is are was were be been being with by from as that this these those it its "
    "into than then so such not no do does did can could should would may might will shall".split()
)


def content_words(text: str) -> set[str]:
    """Lower-cased words of ``text`` without stop words."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


class MergeDecision(BaseModel):
    """A policy's verdict on a near-duplicate; ``text`` is the rewritten text when merging."""

    action: Literal["merge", "discard"]
    text: str | None = Field(default=None, description="the merged text covering both entries (merge only)")
    reason: str = ""


@runtime_checkable
class MergePolicy(Protocol):
    """Decides between merging and discarding a near-duplicate."""

    def decide(self, existing: ExperienceEntry, new: ExperienceEntry, similarity: float) -> MergeDecision:
        """Verdict for ``new`` against its nearest stored neighbour ``existing``."""
        ...


class DefaultMergePolicy:
    """Merge or discard without a model.

    Discard when the new text is a near-copy (similarity at least
    ``discard_above``) or adds at most ``min_new_words - 1`` content words (a
    rewording); otherwise merge by appending
    the new text's sentence to the existing one, unless the merged text would
    pass ``max_chars`` (then the shorter, more general, text is kept).
    """

    def __init__(self, *, discard_above: float = 0.95, max_chars: int = 800, min_new_words: int = 2) -> None:
        self.discard_above = discard_above
        self.min_new_words = min_new_words
        self.max_chars = max_chars

    def decide(self, existing: ExperienceEntry, new: ExperienceEntry, similarity: float) -> MergeDecision:
        """Discard near-copies; merge the rest by concatenation within ``max_chars``."""
        if similarity >= self.discard_above:
            return MergeDecision(action="discard", reason=f"near-copy (similarity {similarity:.3f})")
        extra = content_words(new.text) - content_words(existing.text)
        if len(extra) < self.min_new_words:
            return MergeDecision(action="discard", reason=f"a rewording: adds {len(extra)} content word(s)")
        head = existing.text.rstrip()
        merged = f"{head}{'' if head.endswith(('.', '!', '?', ';')) else '.'} {new.text.strip()}"
        if len(merged) > self.max_chars:
            keep = min(existing.text, new.text, key=len)
            return MergeDecision(action="merge", text=keep, reason="too long to concatenate; kept the shorter text")
        return MergeDecision(action="merge", text=merged, reason=f"adds {len(extra)} content word(s)")


_MERGE_PROMPT = """You maintain a library of medical question-answering experience.
Two entries of tier "{tier}" and polarity "{polarity}" are very similar (cosine {similarity:.2f}).
Decide whether the NEW entry adds anything to the EXISTING one.
- "discard": NEW says nothing EXISTING does not already say.
- "merge": rewrite EXISTING into one text (at most {max_chars} characters) that covers both.
Reply as JSON with keys action ("merge" or "discard"), text (the merged text, merge only) and reason.

EXISTING: {existing}
NEW: {new}"""


class LLMMergePolicy:
    """Ask a chat model (``memkit.llm.ChatModel``) whether to merge or discard; fall back to the default policy.

    A decision whose ``merge`` carries no text, or output that stays invalid
    after the model's repair retries, is recorded in ``failures`` and decided
    by ``fallback`` instead: bad model output never reaches the library.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        fallback: MergePolicy | None = None,
        max_chars: int = 800,
        retries: int = 2,
    ) -> None:
        self.model = model
        self.fallback = fallback or DefaultMergePolicy(max_chars=max_chars)
        self.max_chars = max_chars
        self.retries = retries
        self.failures: list[str] = []

    def decide(self, existing: ExperienceEntry, new: ExperienceEntry, similarity: float) -> MergeDecision:
        """The model's verdict, validated; the fallback's when the model fails."""
        prompt = _MERGE_PROMPT.format(
            tier=existing.tier,
            polarity=existing.polarity,
            similarity=similarity,
            max_chars=self.max_chars,
            existing=existing.text,
            new=new.text,
        )
        try:
            decision = self.model.structured(
                [{"role": "user", "content": prompt}], MergeDecision, retries=self.retries
            )
        except LLMOutputError as exc:
            self.failures.append(f"merge {existing.id}<-{new.id}: {exc}")
            return self.fallback.decide(existing, new, similarity)
        if decision.action == "merge" and not (decision.text and decision.text.strip()):
            self.failures.append(f"merge {existing.id}<-{new.id}: merge without text")
            return self.fallback.decide(existing, new, similarity)
        if decision.text is not None and len(decision.text) > self.max_chars:
            decision = decision.model_copy(update={"text": decision.text[: self.max_chars]})
        return decision
