"""Views of one observation that hypotheses are evaluated on.

An :class:`Example` is one write of a table/event with the records as they
were before and after it; hypotheses (conditions, value expressions, where
clauses) are compiled once per (table, row table) and evaluated on many
examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from memkit.errors import ExpressionError
from memkit.rules import EvalContext, Schema, State, compile_expression, parse_expression
from memkit.rules.evaluator import Compiled
from memkit.rules.state import Record

from agents.cda.session import Observation

__all__ = ["Example", "example_of", "compiled", "eval_on"]


@dataclass
class Example:
    """One root write seen from its table: ``current`` after it, ``previous`` before it."""

    obs: Observation
    table: str
    event: str
    record_id: str
    current: Record
    previous: Record
    before: State
    after: State
    # the maskings applied to the observation's view, in order: with the observation it
    # determines the example, so values computed on it can be kept (see Inducer)
    view: tuple[Any, ...] = ()
    # values kept for this observation (see example_of); aggregates are kept per view and state
    # seen: an example is frozen in use, and scoring thousands of candidate expressions would
    # otherwise rescan a table for each
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def written(self, schema: Schema) -> Record:
        """The record as the write itself made it, before any rule ran (previous + values, or defaults + values)."""
        a = self.obs.action
        if a.op == "insert":
            return schema.tables[a.table].new_record(a.id, a.values)
        return {**self.previous, **a.values}

    def masking(self, schema: Schema, field: str) -> Example:
        """This example as a before rule setting ``field`` sees it: ``field`` still holds the written value."""
        cur = dict(self.current)
        cur[field] = self.written(schema).get(field)
        return Example(self.obs, self.table, self.event, self.record_id, cur, self.previous, self.before, self.after,
                       (*self.view, ("field", field)), self.cache)

    def masking_after(self, table: str, changes: dict[str, str | None]) -> Example:
        """This example with the after-state's ``table`` records put back as they were before
        (field ``f`` of each id in ``changes``; ``None`` removes a created record), so a value
        expression cannot read the effect it is meant to explain."""
        after = self.after.copy()
        for rid, fname in changes.items():
            old = self.before.get(table, rid)
            if fname is None or old is None:
                after.remove(table, rid)
                continue
            rec = after.get(table, rid)
            if rec is not None:
                after.put(table, {**rec, fname: old.get(fname)})
        current = self.current
        if table == self.table and self.record_id in changes and changes[self.record_id] is not None:
            current = after.get(table, self.record_id) or current
        return Example(self.obs, self.table, self.event, self.record_id, current, self.previous, self.before, after,
                       (*self.view, ("after", table, tuple(sorted(changes.items(), key=repr)))), self.cache)

    def ctx(self, *, after_rule: bool, row: Record | None = None, row_table: str | None = None) -> EvalContext:
        """An evaluation context as a before rule (state before) or an after rule (state after) sees it."""
        state = self.after if after_rule else self.before
        memo = self.cache.setdefault(("aggregates", self.view, after_rule), {})
        return EvalContext(state, self.table, current=self.current, previous=self.previous, row=row, row_table=row_table,
                           event=self.event, memo=memo)


def example_of(obs: Observation, schema: Schema, cache: dict[Any, Any] | None = None) -> Example:
    """The Example view of an observation (``after`` must be set on it).

    ``cache`` is where values computed on the observation's examples are kept (one dict per
    observation, the same on every call for it); without it they live as long as the example.
    """
    a = obs.action
    after: State = obs.after  # type: ignore[attr-defined]
    spec = schema.tables[a.table]
    if a.op == "insert":
        previous = spec.empty_record()
        current = after.get(a.table, a.id) or spec.new_record(a.id, a.values)
    elif a.op == "update":
        previous = obs.before.get(a.table, a.id) or spec.empty_record()
        current = after.get(a.table, a.id) or {**previous, **a.values}
    else:
        previous = obs.before.get(a.table, a.id) or spec.empty_record()
        current = previous
    return Example(obs, a.table, a.op, a.id, current, previous, obs.before, after, (), {} if cache is None else cache)


@lru_cache(maxsize=200_000)
def compiled(source: str, schema_key: int, table: str, row_table: str | None) -> Compiled | None:
    """Compile ``source`` for ``table`` once; None when it does not parse or check."""
    schema = _SCHEMAS[schema_key]
    try:
        return compile_expression(parse_expression(source), schema, table, row_table)
    except (ExpressionError, KeyError, TypeError):
        return None


_SCHEMAS: dict[int, Schema] = {}


def schema_key(schema: Schema) -> int:
    """Register ``schema`` for :func:`compiled` and return its key."""
    key = id(schema)
    _SCHEMAS[key] = schema
    return key


def eval_on(source: str, schema: Schema, ex: Example, *, after_rule: bool, row: Record | None = None, row_table: str | None = None) -> Any:
    """Evaluate ``source`` on one example; a sentinel ``_FAIL`` when it cannot be compiled or run."""
    fn = compiled(source, schema_key(schema), ex.table, row_table)
    if fn is None:
        return _FAIL
    try:
        return fn(ex.ctx(after_rule=after_rule, row=row, row_table=row_table))
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return _FAIL


class _Fail:
    def __repr__(self) -> str:
        return "<fail>"


_FAIL = _Fail()
FAIL = _FAIL
