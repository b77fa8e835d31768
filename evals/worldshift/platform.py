"""The live enterprise platform an agent experiments on.

It holds the current records, runs writes through the shared engine with the
world's TRUE rules, counts reads and writes, and exposes rules only as far as
the access level allows:

- ``blind``: schema, records and writes;
- ``listing``: plus ``list_rules()`` (id, name, table, events, when);
- ``definitions``: plus ``read_rule(id)`` (the whole rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import AccessError, ConfigError, ExpressionError, WriteError
from memkit.rules import Action, Effect, Engine, EvalContext, Schema, State, World, compile_expression, parse_expression
from memkit.rules.values import truthy

__all__ = ["ACCESS_LEVELS", "Platform", "WriteOutcome"]

ACCESS_LEVELS = ("blind", "listing", "definitions")


@dataclass(frozen=True)
class WriteOutcome:
    """What an agent observes after a write: the side effects (the state diff) and whether it was rolled back."""

    action: Action
    effects: list[Effect]
    rolled_back: bool = False
    message: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Platform:
    """A world's live system: current state, true rules, read/write counters."""

    def __init__(self, world: World, access: str = "blind") -> None:
        if access not in ACCESS_LEVELS:
            raise ConfigError(f"access must be one of {ACCESS_LEVELS}, got {access!r}")
        self.world = world
        self.access = access
        self._engine = Engine(world.schema, world.rules)
        self._initial = world.initial_state()
        self._state = self._initial.copy()
        self.reads = 0
        self.writes = 0
        self._generated = 0

    # -- reading (free, but counted) --------------------------------------
    def schema(self) -> Schema:
        """Tables and fields (not rules)."""
        return self.world.schema

    def query(self, table: str, where: Mapping[str, Any] | str | None = None) -> list[dict[str, Any]]:
        """Records of ``table`` in table order; ``where`` is a mapping of equal values or an expression over ``row``."""
        if table not in self.world.schema.tables:
            raise WriteError(f"unknown table {table!r}")
        self.reads += 1
        rows = self._state.rows(table)
        if where is None:
            return [dict(r) for r in rows]
        if isinstance(where, Mapping):
            return [dict(r) for r in rows if all(r.get(k) == v for k, v in where.items())]
        try:
            fn = compile_expression(parse_expression(where), self.world.schema, table, table)
        except ExpressionError:
            raise
        ctx = EvalContext(self._state, table, row_table=table)
        out = []
        for r in rows:
            ctx.row = r
            if truthy(fn(ctx)):
                out.append(dict(r))
        return out

    def get(self, table: str, record_id: str) -> dict[str, Any] | None:
        """One record, or None."""
        self.reads += 1
        rec = self._state.get(table, record_id)
        return None if rec is None else dict(rec)

    def snapshot(self) -> State:
        """A copy of the whole current state (one read)."""
        self.reads += 1
        return self._state.copy()

    # -- writing (counted against the budget) -------------------------------
    def new_id(self, table: str) -> str:
        """A fresh id for an insert, unused in ``table``."""
        while True:
            self._generated += 1
            candidate = f"X{self._generated:05d}"
            if self._state.get(table, candidate) is None:
                return candidate

    def write(self, action: Action) -> WriteOutcome:
        """Run one write on the live state; raises WriteError (nothing changed) when it breaks the schema."""
        result = self._engine.run(self._state, action, in_place=True, validate=True)
        self.writes += 1
        self.reads += 1  # the agent observes the state difference
        return WriteOutcome(action, result.effects, result.error is not None, result.error)

    def insert(self, table: str, values: Mapping[str, Any], record_id: str | None = None) -> WriteOutcome:
        """Insert a record (a fresh id when none is given)."""
        return self.write(Action("insert", table, record_id or self.new_id(table), dict(values)))

    def update(self, table: str, record_id: str, values: Mapping[str, Any]) -> WriteOutcome:
        """Update fields of a record."""
        return self.write(Action("update", table, record_id, dict(values)))

    def delete(self, table: str, record_id: str) -> WriteOutcome:
        """Delete a record."""
        return self.write(Action("delete", table, record_id))

    def reset(self) -> None:
        """Back to the initial records (not counted as a write)."""
        self._state = self._initial.copy()

    # -- rules, as far as access allows --------------------------------------
    def list_rules(self) -> list[dict[str, Any]]:
        """Id, name, table, events, when of every rule (``listing`` and ``definitions``)."""
        if self.access == "blind":
            raise AccessError("list_rules needs access 'listing' or 'definitions'")
        self.reads += 1
        return [
            {"id": r.id, "name": r.name, "table": r.table, "events": list(r.events), "when": r.when}
            for r in self.world.rules
        ]

    def read_rule(self, rule_id: str) -> dict[str, Any]:
        """The whole rule (``definitions`` only)."""
        if self.access != "definitions":
            raise AccessError("read_rule needs access 'definitions'")
        self.reads += 1
        try:
            return self.world.rule(rule_id).to_dict()
        except KeyError as exc:
            raise AccessError(f"no rule {rule_id!r}") from exc
