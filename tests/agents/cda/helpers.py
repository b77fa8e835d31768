"""Helpers shared by the discovery-agent tests."""

from __future__ import annotations

from memkit.rules import Action

from agents.cda.session import Observation
from evals.worldshift.platform import Platform

__all__ = ["observe_writes"]


def observe_writes(platform: Platform, actions: list[Action]) -> list[Observation]:
    """Each write run on the platform's initial records, as the discovery agent observes it
    (the state before, the side effects, the snapshot after); the platform is reset after each."""
    before = platform.snapshot()
    out = []
    for action in actions:
        platform.reset()
        outcome = platform.write(action)
        out.append(Observation(action, before, list(outcome.effects), outcome.rolled_back, "", platform.snapshot()))
    platform.reset()
    return out
