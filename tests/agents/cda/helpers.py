"""Helpers shared by the discovery-agent tests."""

from __future__ import annotations

from pathlib import Path

import yaml

from memkit.rules import Action, Engine, load_world, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests
from memkit.rules.state import State
from memkit.rules.world import World

from agents.cda.graph import build_discovery_graph, discover
from agents.cda.hypotheses import value_candidates
from agents.cda.induction import Inducer
from agents.cda.session import DiscoverySession, Observation
from evals.worldshift.platform import Platform

__all__ = ["induced", "discovered", "discovery_run", "observe_writes", "hand_made_world", "world_from_spec", "session_over", "state_after",
           "iou_on_tests", "candidates_from"]

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


def world_from_spec(tmp_path: Path, spec: dict) -> World:
    """The world ``spec`` (a worldshift/1 mapping), written to a file under ``tmp_path`` and loaded."""
    path = tmp_path / f"{spec['name']}.yaml"
    path.write_text(yaml.safe_dump(spec))
    return load_world(path)


def session_over(world: World, model: RuleModel, observations: list[Observation]) -> DiscoverySession:
    """A discovery session over ``world`` at its initial records, with these observations."""
    platform = Platform(world)
    return DiscoverySession(platform, model, budget=50, world=world.name, observations=observations,
                            platform_initial=platform.snapshot())


def induced(world: World, actions: list[Action]) -> RuleModel:
    """A fresh model with what induction makes of these writes on the world's initial records."""
    model = RuleModel(world.schema, world.name)
    Inducer(world.schema).run(model, observe_writes(Platform(world), actions), world.name)
    return model


def discovered(world: World, budget: int) -> RuleModel:
    """A fresh model after the discovery agent has spent ``budget`` writes on the world."""
    model = RuleModel(world.schema, world.name)
    discover(Platform(world), model, budget=budget)
    return model


def discovery_run(world: World, budget: int) -> tuple[RuleModel, list[Observation]]:
    """A fresh model after the discovery graph has spent ``budget`` writes on the world, with the
    observations it made (their purposes say which experiment each was)."""
    model = RuleModel(world.schema, world.name)
    graph = build_discovery_graph(Platform(world), model, budget=budget)
    graph.invoke({"round": 0}, {"recursion_limit": 100_000})
    return model, graph.session.observations


def state_after(model: RuleModel, world: World, action: Action) -> State:
    """The world's initial records after ``action`` with the model's active rules (its prediction)."""
    state = world.initial_state()
    Engine(world.schema, model.active_rules()).run(state, action, in_place=True)
    return state


def iou_on_tests(model: RuleModel, world: World) -> float:
    """IoU of the model's predictions on the world's tests, against the world's own rules."""
    truth = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    return score_world(model.predict_many(world.tests, world.initial_state()), truth).iou


def candidates_from(world: World, table: str, source: str, inputs: list[float], targets: list[float]) -> list[str]:
    """The value search's candidates for ``targets`` where ``source`` takes ``inputs`` on the
    examples and every other source is empty."""
    def first_inputs(src: str) -> list[float | None]:
        return list(inputs) if src == source else [None] * len(inputs)
    return list(value_candidates(world.schema, table, targets, first_inputs=first_inputs))
