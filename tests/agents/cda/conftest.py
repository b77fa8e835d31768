"""Shared fixtures for the discovery-agent tests: the small shop family (A -> B -> C -> D)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.rules import World, load_world

WORLDS = Path(__file__).parent / "worlds"


@pytest.fixture(scope="session")
def shop() -> dict[str, World]:
    """The four shop worlds: B raises a threshold, C adds a rule, D deletes one."""
    return {k: load_world(WORLDS / f"shop-{k}.yaml") for k in "ABCD"}
