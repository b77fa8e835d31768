"""Mining/evaluation splits as in the seed paper: half for mining, half for evaluation, seeded.

PubMedQA evaluates on its official 500 test ids and mines on the rest. The
two halves never share a question id.
"""

from __future__ import annotations

import random

from agents.emr.types import MCQuestion

__all__ = ["split"]


def split(questions: list[MCQuestion], seed: int) -> tuple[list[MCQuestion], list[MCQuestion]]:
    """``(mining, evaluation)``: official test ids when the questions carry them, else a seeded 50/50 split."""
    official = [q for q in questions if q.meta.get("official_test")]
    if official:
        evaluation = official
        mining = [q for q in questions if not q.meta.get("official_test")]
        random.Random(seed).shuffle(mining)
        return mining, evaluation
    order = list(questions)
    random.Random(seed).shuffle(order)
    half = len(order) // 2
    return order[:half], order[half:]
