"""Generating and writing a WorldShift family: ``<prefix>-A`` ... ``-D`` in evals/worldshift/worlds/.

Every generator (``generate_ews``, ``generate_holdout``, ``generate_fresh``,
``generate_novel``) describes only what is its own in a ``WorldFamily``:
world A without tests (schema, records, rules), the shifts of B (modify a
rule), C (add one) and D (delete one), and its candidate writes. This module
does the rest the same way for all of them: it picks each world's tests by
running the true rules (``evals.worldshift._selection``), dumps the YAML and
writes the four files. Everything is deterministic (fixed seeds, no clock),
so that a test can check that the shipped files are exactly a generator's
output.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memkit.rules import Action, World, load_world, parse_world

from evals.worldshift._selection import deleted_rule_tests, select_tests

__all__ = ["WORLD_DIR", "Shift", "WorldFamily", "dump_world", "parse_shifted", "write_files"]

WORLD_DIR = Path(__file__).parent / "worlds"


def _tidy(value: Any) -> Any:
    """Whole floats as ints (``640`` rather than ``640.0``): the same number to the engine, easier to read."""
    if isinstance(value, dict):
        return {k: _tidy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tidy(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def dump_world(data: dict[str, Any]) -> str:
    """A world as YAML text (key order kept, whole numbers without a decimal point)."""
    return yaml.safe_dump(_tidy(data), sort_keys=False, allow_unicode=True, width=200)


def parse_shifted(raw: dict[str, Any], files: dict[str, str], name: str) -> World:
    """Load a shifted world against the files generated so far (in a temporary folder, never in WORLD_DIR)."""
    with tempfile.TemporaryDirectory() as tmp:
        for fname, text in files.items():
            (Path(tmp) / fname).write_text(text)
        path = Path(tmp) / f"{name}.yaml"
        path.write_text(dump_world(raw))
        return load_world(path)


def write_files(files: dict[str, str]) -> int:
    """Write generated world files into evals/worldshift/worlds/ and say so; returns 0 (an exit code)."""
    for name, text in files.items():
        (WORLD_DIR / name).write_text(text)
        print(f"wrote {WORLD_DIR / name}")
    return 0


_KINDS = {"B": "a policy change", "C": "an extension", "D": "a retirement"}


@dataclass(frozen=True)
class Shift:
    """One shifted world: what changes, in words, and its ``shift`` section (B modifies a rule, C adds one, D deletes one)."""

    what: str
    section: dict[str, Any]

    @property
    def rule_id(self) -> str:
        """The id of the rule this shift modifies, adds or deletes."""
        ((kind, items),) = self.section.items()
        return items[0] if kind == "delete" else items[0]["id"]


@dataclass(frozen=True)
class WorldFamily:
    """What one generator's family is made of; ``generate`` and ``main`` do the rest.

    The worlds are ``<prefix>-A`` ... ``-D``; ``title`` and ``domain`` name
    the family and its domain in the worlds' descriptions (``held_out``: the
    family is never used to tune an agent, which world A's says); ``seed``
    seeds the records and the test picking; world A has ``tables``,
    ``records(rng)`` and ``rules()``; ``shifts()`` gives B's, C's and D's
    ``Shift``; ``candidates`` gives the candidate writes of a world from a
    seeded rng.
    """

    prefix: str
    title: str
    domain: str
    seed: int
    tests_per_world: int
    tables: dict[str, Any]
    records: Callable[[random.Random], dict[str, list[dict[str, Any]]]]
    rules: Callable[[], list[dict[str, Any]]]
    shifts: Callable[[], dict[str, Shift]]
    candidates: Callable[[World, random.Random], list[Action]]
    held_out: bool = True

    @property
    def shift_rules(self) -> dict[str, str]:
        """B, C and D -> the rule their shift modifies, adds or deletes."""
        return {key: shift.rule_id for key, shift in self.shifts().items()}

    def description(self, key: str) -> str:
        """The description of world ``key`` (A ... D)."""
        if key != "A":
            return f"{self.title} world {key}: {_KINDS[key]} - {self.shifts()[key].what}."
        note = " Never used to tune an agent." if self.held_out else ""
        return f"{self.title} world A: {self.domain}, {len(self.tables)} tables, {len(self.rules())} rules.{note}"

    def build_base(self) -> dict[str, Any]:
        """World A without tests."""
        return {"format": "worldshift/1", "name": f"{self.prefix}-A", "description": self.description("A"), "tables": self.tables,
                "records": self.records(random.Random(self.seed)), "rules": self.rules()}

    def generate(self) -> dict[str, str]:
        """File name -> YAML text of the family's four worlds: A is ``build_base()``; B, C, D apply ``shifts()``.

        Tests are picked by running the true rules on candidate writes; B and
        C focus on their changed or added rule, D prefers writes that fired
        the deleted rule in C.
        """
        prefix, seed, n = self.prefix, self.seed, self.tests_per_world
        base, shifts = self.build_base(), self.shifts()
        world_a = parse_world(base, WORLD_DIR / f"{prefix}-A.yaml")
        base["tests"] = [t.to_dict() for t in select_tests(world_a, self.candidates(world_a, random.Random(seed + 1)), n, seed + 1)]
        files = {f"{prefix}-A.yaml": dump_world(base)}
        prev_name, prev_world = f"{prefix}-A", world_a
        for i, key in enumerate("BCD"):
            name = f"{prefix}-{key}"
            raw = {"format": "worldshift/1", "name": name, "description": self.description(key), "extends": f"{prev_name}.yaml",
                   "shift": shifts[key].section}
            world = parse_shifted(raw, files, name)
            world_seed = seed + 2 + i
            pool = self.candidates(world, random.Random(world_seed))
            if key == "D":
                prefer = deleted_rule_tests(prev_world, self.candidates(prev_world, random.Random(world_seed)), shifts["D"].rule_id)
                tests = select_tests(world, pool, n, world_seed, prefer=prefer)
            else:
                tests = select_tests(world, pool, n, world_seed, focus=shifts[key].rule_id, previous=prev_world)
            raw["tests"] = [t.to_dict() for t in tests]
            files[f"{name}.yaml"] = dump_world(raw)
            prev_name, prev_world = name, world
        return files

    def main(self, argv: list[str] | None = None) -> int:
        """Rewrite the family's four world files in evals/worldshift/worlds/; returns 0 (an exit code)."""
        return write_files(self.generate())
