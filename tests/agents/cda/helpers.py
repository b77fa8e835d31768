"""Helpers shared by the discovery-agent tests."""

from __future__ import annotations

from pathlib import Path

from memkit.rules import Action, load_world
from memkit.rules.model import RuleModel
from memkit.rules.world import World

from agents.cda.induction import Inducer
from agents.cda.session import Observation
from evals.worldshift.platform import Platform

__all__ = ["induced", "observe_writes", "hand_made_world"]

_WORLDS = Path(__file__).parent / "worlds"


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


def hand_made_world(name: str) -> World:
    """A small hand-made world of ``tests/agents/cda/worlds`` (``name`` without ``.yaml``)."""
    return load_world(_WORLDS / f"{name}.yaml")


def induced(world: World, actions: list[Action]) -> RuleModel:
    """A fresh model with what induction makes of these writes on the world's initial records."""
    model = RuleModel(world.schema, world.name)
    Inducer(world.schema).run(model, observe_writes(Platform(world), actions), world.name)
    return model
