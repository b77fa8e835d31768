"""A model-free answerer: a similarity-weighted vote over retrieved cases.

Each retrieved case carries the answer text it stands for (``data["answer"]``).
A practice case votes for the option whose text matches that answer; a
warning case (a choice that misled before) votes against it. Votes are
weighted by ``similarity ** sharpness`` and by the case's support. With no
usable case, the answerer falls back to the option most similar to the
question: that is the "empty library" baseline.
"""

from __future__ import annotations

import math
import re

import numpy as np

from memkit.embeddings import Embedder
from memkit.experience import ScoredEntry

from agents.emr.types import MCQuestion

__all__ = ["CaseBasedAnswerer", "normalise_answer"]

_SPACE = re.compile(r"\s+")


def normalise_answer(text: str) -> str:
    """Lower-case, single-spaced, without trailing punctuation: the key answers are matched on."""
    return _SPACE.sub(" ", text.strip().lower()).rstrip(".")


class CaseBasedAnswerer:
    """Answer from the cases tier.

    Args:
        embedder: embeds option and answer texts (cached by the embedder).
        sharpness: exponent on case similarity; higher trusts only the nearest cases.
        warning_weight: how strongly a warning lowers the option it warns against.
        match_floor: cosine above which a case's answer text counts as (partly) the same as an option.
    """

    def __init__(
        self,
        embedder: Embedder,
        *,
        sharpness: float = 4.0,
        warning_weight: float = 0.5,
        match_floor: float = 0.8,
    ) -> None:
        self.embedder = embedder
        self.sharpness = sharpness
        self.warning_weight = warning_weight
        self.match_floor = match_floor

    def scores(self, question: MCQuestion, cases: list[ScoredEntry]) -> dict[str, float]:
        """Vote of ``cases`` per option letter (all zero when no case applies)."""
        letters = list(question.options)
        votes = dict.fromkeys(letters, 0.0)
        usable = [c for c in cases if isinstance(c.entry.data.get("answer"), str) and c.score > 0]
        if not usable:
            return votes
        option_keys = [normalise_answer(question.options[k]) for k in letters]
        answer_keys = [normalise_answer(c.entry.data["answer"]) for c in usable]
        # Exact text matches are free; embed only when some answer matches no option exactly.
        need_embed = any(a not in option_keys for a in answer_keys)
        if need_embed:
            opt_vecs = self.embedder.embed([question.options[k] for k in letters])
            ans_vecs = self.embedder.embed([c.entry.data["answer"] for c in usable])
            sims = ans_vecs @ opt_vecs.T
        for row, (case, key) in enumerate(zip(usable, answer_keys, strict=True)):
            weight = case.score**self.sharpness * (1.0 + math.log(case.entry.support))
            if case.entry.polarity == "warning":
                weight = -self.warning_weight * weight
            for col, opt_key in enumerate(option_keys):
                if key == opt_key:
                    match = 1.0
                elif need_embed and sims[row, col] > self.match_floor:
                    match = float((sims[row, col] - self.match_floor) / (1.0 - self.match_floor))
                else:
                    continue
                votes[letters[col]] += weight * match
        return votes

    def fallback(self, question: MCQuestion) -> dict[str, float]:
        """The empty-library answer: cosine of each option to the question."""
        letters = list(question.options)
        vecs = self.embedder.embed([question.question, *(question.options[k] for k in letters)])
        sims = vecs[1:] @ vecs[0]
        return {k: float(s) for k, s in zip(letters, sims, strict=True)}

    def answer(self, question: MCQuestion, cases: list[ScoredEntry]) -> tuple[str, dict[str, float], bool]:
        """``(letter, scores, used_cases)``: the vote's winner, else the fallback's."""
        votes = self.scores(question, cases)
        if max(votes.values()) > 0:
            return _argmax(votes), votes, True
        prior = self.fallback(question)
        return _argmax(prior), prior, False


def _argmax(scores: dict[str, float]) -> str:
    letters = list(scores)
    return letters[int(np.argmax([scores[k] for k in letters]))]
