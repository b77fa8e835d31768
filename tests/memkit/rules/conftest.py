"""Shared helpers for the rule-language tests: tiny worlds from YAML text, and running writes."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from memkit.rules import Action, ActionResult, Engine, State, World, load_world, parse_world

WORLDS = Path(__file__).parent / "worlds"


def world_from_yaml(text: str, name: str = "inline.yaml") -> World:
    """A world parsed from YAML text (``name`` is the path used in messages)."""
    return parse_world(yaml.safe_load(textwrap.dedent(text)), Path(name))


def write_world(tmp_path: Path, text: str, name: str = "world.yaml") -> Path:
    """Write YAML (or JSON) text to ``tmp_path/name`` and return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def run(world: World, op: str, table: str, rid: str, values: dict[str, Any] | None = None, state: State | None = None, **kw: Any) -> ActionResult:
    """Run one action under the world's own rules (on its initial records unless ``state`` is given)."""
    engine = Engine(world.schema, world.rules)
    return engine.run(world.initial_state() if state is None else state, Action(op, table, rid, values or {}), **kw)


def effects(world: World, op: str, table: str, rid: str, values: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
    """The side effects of one action on the initial records, as a sorted list of tuples."""
    result = run(world, op, table, rid, values)
    assert result.error is None, result.error
    return sorted(result.effects, key=repr)


def same_effects(got: list[tuple[Any, ...]], want: list[tuple[Any, ...]]) -> bool:
    """Multiset equality of effects that keeps value kinds apart (``True`` is not ``1``)."""

    def key(e: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple((type(v).__name__ if isinstance(v, bool) else "v", v) for v in e)

    return sorted(map(key, got), key=repr) == sorted(map(key, want), key=repr)


@pytest.fixture(scope="session")
def example_a() -> World:
    """The spec's example shop world (a verbatim copy in tests/memkit/rules/worlds)."""
    return load_world(WORLDS / "example-world.yaml")


@pytest.fixture(scope="session")
def example_b() -> World:
    """The spec's example shift (B extends A and modifies big_order_flag)."""
    return load_world(WORLDS / "example-world-B.yaml")
