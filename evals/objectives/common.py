"""What every objectives experiment returns, and small statistics helpers."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

__all__ = ["ExperimentResult", "Progress", "mean", "ci95", "fmt_ci", "no_progress"]

Progress = Callable[[str], None]


def no_progress(_: str) -> None:
    """A progress callback that says nothing."""


class ExperimentResult(BaseModel):
    """One experiment's outcome: the paper's claim, its baseline, what we measured and whether it held."""

    method: str
    claim: str
    baseline: str
    measured: str
    reproduced: bool
    seeds: int
    metrics: dict[str, Any] = Field(default_factory=dict, description="numbers behind `measured`, per arm and seed")
    settings: dict[str, Any] = Field(default_factory=dict)
    seconds: float = 0.0


# two-sided 95% Student-t quantiles for n - 1 degrees of freedom
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def mean(xs: Sequence[float]) -> float:
    """Plain mean (NaN for an empty list)."""
    return sum(xs) / len(xs) if xs else float("nan")


def ci95(xs: Sequence[float]) -> float:
    """Half-width of the 95% t confidence interval of the mean (NaN with fewer than two values)."""
    n = len(xs)
    if n < 2:
        return float("nan")
    m = mean(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return _T95.get(n - 1, 1.96) * sd / math.sqrt(n)


def fmt_ci(xs: Sequence[float], digits: int = 3) -> str:
    """``mean ± ci`` (just the mean with one value)."""
    half = ci95(xs)
    if math.isnan(half):
        return f"{mean(xs):.{digits}f}"
    return f"{mean(xs):.{digits}f}±{half:.{digits}f}"
