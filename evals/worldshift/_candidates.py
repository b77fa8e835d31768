"""Candidate writes of a WorldShift world, from which its tests are picked (shared by the generators).

``CandidateWrites`` walks every record of every table and proposes, field by
field, every other choice, the flipped boolean, plausible numbers (a
family's own), another referenced record, a rename where a family has one,
a delete of the record, then a number of new records per table (a family's
own). The walk and the order in which it draws from the random generator are
the same for every family, so that a family's output only depends on its own
parts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from memkit.rules import Action, State, World

from evals.worldshift._selection import thresholds

__all__ = ["CandidateWrites", "Limits", "Row", "near_thresholds", "numbered_ids", "other_reference", "pick_row", "plausible_numbers"]

Row = dict[str, Any]
# (table, field) -> the numbers that rule conditions compare that field with
Limits = dict[tuple[str, str], set[float]]
# (table, field, record, state, limits, rng) -> new values of a number field (unchanged and negative ones are dropped later)
NumberValues = Callable[[str, str, Row, State, Limits, random.Random], Iterable[float]]
# (table, field, referenced table, current value, state, rng) -> new values of a reference field
ReferenceValues = Callable[[str, str, str, Any, State, random.Random], list[Any]]
# (table, field, record, index of the record in its table) -> a new text, or None for fields nobody renames
Rename = Callable[[str, str, dict[str, Any], int], str | None]
# (table, state, rng, k) -> the values of the k-th new record of the table
InsertValues = Callable[[str, State, random.Random, int], dict[str, Any]]


def pick_row(state: State, rng: random.Random, table: str, where: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """A random record of ``table`` (among those ``where`` accepts)."""
    rows = [r for r in state.rows(table) if where is None or where(r)]
    return rows[rng.randrange(len(rows))]


def other_reference(table: str, field: str, ref: str, cur: Any, state: State, rng: random.Random) -> list[Any]:
    """One other record of the referenced table, picked at random."""
    return [pick_row(state, rng, ref, lambda r: r["id"] != cur)["id"]]


def near_thresholds(limits: Limits, table: str, field: str) -> set[float]:
    """Every threshold the rules compare ``table.field`` with, and the numbers one below and one above it."""
    return {v for t in limits.get((table, field), set()) for v in (t, t + 1, t - 1)}


def plausible_numbers(values: Iterable[float], base: float) -> list[float | int]:
    """The new ``values`` of a number field now at ``base``, in order: unchanged and negative ones dropped, whole ones as ints."""
    return sorted(int(v) if float(v) == int(v) else v for v in set(values) if v != base and v >= 0)


def numbered_ids(prefixes: Mapping[str, str]) -> dict[str, str]:
    """Table -> id format of its new records (``WH901``, ``WH902``, ...) from the id prefix of its records."""
    return {table: prefix + "9{:02d}" for table, prefix in prefixes.items()}


def _no_rename(table: str, field: str, rec: dict[str, Any], idx: int) -> str | None:
    return None


@dataclass(frozen=True)
class CandidateWrites:
    """A family's candidate writes: its number values, new records and new ids, and optionally renames and references."""

    numbers: NumberValues
    insert: InsertValues
    new_ids: Mapping[str, str]
    inserts_per_table: int = 16
    rename: Rename = _no_rename
    references: ReferenceValues = other_reference

    def __call__(self, world: World, rng: random.Random) -> list[Action]:
        """Deterministic, realistic candidate writes of every kind on every table of ``world``."""
        state = world.initial_state()
        limits = thresholds(world)
        out: list[Action] = []
        for table, spec in world.schema.tables.items():
            for idx, rec in enumerate(state.rows(table)):
                for fname, fs in spec.fields.items():
                    cur = rec.get(fname)
                    if fs.type == "choice":
                        values: list[Any] = [c for c in fs.choices or () if c != cur]
                    elif fs.type == "boolean":
                        values = [not bool(cur)]
                    elif fs.type == "number":
                        values = plausible_numbers(self.numbers(table, fname, rec, state, limits, rng), float(cur or 0))
                    elif fs.type == "reference":
                        values = self.references(table, fname, fs.ref or "", cur, state, rng)
                    else:
                        new = self.rename(table, fname, rec, idx)
                        values = [] if new is None else [new]
                    out += [Action("update", table, rec["id"], {fname: v}) for v in values]
                out.append(Action("delete", table, rec["id"]))
            for k in range(self.inserts_per_table):
                out.append(Action("insert", table, self.new_ids[table].format(k + 1), self.insert(table, state, rng, k)))
        return out
