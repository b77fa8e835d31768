"""The write engine of worldshift/1: one implementation of the semantics for every rule set.

The platform runs it with a world's true rules on live state; the predictor
runs it with learned rules on a snapshot. "How a write runs" in the format
spec is followed step by step (numbers refer to it):

1. update: merge into a copy, a no-op stops here; insert: defaults; delete.
2. before rules in (order, id) order, each condition on the record as the
   earlier ones left it; ``set`` changes that record (not on delete).
3. store or remove.
4. after rules in (order, id) order; each of their writes runs completely,
   with its own rules, before the next (depth first).
5. a write deeper than 16 that would change something aborts the action.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import WriteError
from memkit.rules.ast import Expr
from memkit.rules.evaluator import Compiled, EvalContext, compile_expression
from memkit.rules.rule import (
    Assignment,
    CreateAction,
    DeleteWhereAction,
    Rule,
    SetAction,
    UpdateAction,
    UpdateWhereAction,
)
from memkit.rules.schema import Schema, Value
from memkit.rules.state import Record, State
from memkit.rules.values import normalize, truthy, value_key, values_equal

__all__ = ["MAX_DEPTH", "Action", "ActionResult", "Effect", "Engine", "effect_key", "same_effects", "sort_effects"]

MAX_DEPTH = 16

Effect = tuple[Any, ...]


@dataclass(frozen=True)
class Action:
    """A write asked for by a test or an agent: insert, update or delete of one record."""

    op: str
    table: str
    id: str
    values: Mapping[str, Value] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The action as a test entry of a world file."""
        out: dict[str, Any] = {"op": self.op, "table": self.table, "id": self.id}
        if self.values:
            out["values"] = dict(self.values)
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Action:
        """Build from a test entry (``op``, ``table``, ``id``, optional ``values``)."""
        return cls(raw["op"], raw["table"], raw["id"], dict(raw.get("values") or {}))

    def __str__(self) -> str:
        vals = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"{self.op} {self.table}/{self.id}" + (f" {{{vals}}}" if vals else "")


@dataclass
class ActionResult:
    """What one action did: its side effects, the rules that fired, and whether it was rolled back."""

    effects: list[Effect]
    fired: list[str]
    writes: int
    error: str | None = None
    created: dict[str, str] = field(default_factory=dict)
    # (table, op) of every write that ran rules: only the rules of these triggers shaped the result
    triggers: frozenset[tuple[str, str]] = frozenset()
    # the final values of the fields the action wrote on its own record (empty for deletes and
    # roll-backs): side effects leave them out, yet a before rule may have overridden them
    written_final: dict[str, Value] = field(default_factory=dict)


class _TooDeep(Exception):
    pass


def effect_key(effect: Sequence[Any]) -> tuple[Any, ...]:
    """A hashable key of an effect that keeps value kinds apart (``true`` is not ``1``)."""
    return tuple(value_key(v) if i >= 3 or (effect[0] == "create" and i >= 2) else v for i, v in enumerate(effect))


def same_effects(a: Iterable[Sequence[Any]], b: Iterable[Sequence[Any]]) -> bool:
    """True when two lists hold the same effects as multisets (order ignored, value kinds kept apart)."""
    return Counter(effect_key(e) for e in a) == Counter(effect_key(e) for e in b)


def sort_effects(effects: Iterable[Sequence[Any]]) -> list[Effect]:
    """Effects in a deterministic order (JSON text order; values of mixed kinds sort too)."""
    return sorted((tuple(e) for e in effects), key=lambda e: json.dumps(list(e), sort_keys=True))


@dataclass
class _CompiledRule:
    rule: Rule
    condition: Compiled | None
    actions: list[tuple[Any, ...]]


class _Run:
    __slots__ = ("state", "fired", "writes", "created", "tombstones", "triggers")

    def __init__(self, state: State) -> None:
        self.state = state
        self.fired: list[str] = []
        self.writes = 0
        self.triggers: set[tuple[str, str]] = set()
        self.created: dict[str, str] = {}
        # last stored values of records deleted during the action: an after rule's
        # `current` of a deleted record reads these
        self.tombstones: dict[tuple[str, str], Record] = {}


class Engine:
    """Runs writes under a rule set. Cheap to build; rules are compiled once."""

    def __init__(self, schema: Schema, rules: Iterable[Rule], *, max_depth: int = MAX_DEPTH) -> None:
        self.schema = schema
        self.rules = list(rules)
        self.max_depth = max_depth
        self._by_trigger: dict[tuple[str, str, str], list[_CompiledRule]] = {}
        for rule in sorted(self.rules, key=lambda r: (float(r.order), r.id)):
            compiled = self._compile(rule)
            for event in rule.events:
                self._by_trigger.setdefault((rule.table, event, rule.when), []).append(compiled)

    # -- compilation -----------------------------------------------------
    def _expr(self, node: Expr, table: str, row_table: str | None = None) -> Compiled:
        return compile_expression(node, self.schema, table, row_table)

    def _assign(self, assignments: tuple[Assignment, ...], table: str, row_table: str | None = None) -> list[tuple[str, Compiled]]:
        return [(a.field, self._expr(a.expr, table, row_table)) for a in assignments]

    def _compile(self, rule: Rule) -> _CompiledRule:
        t = rule.table
        actions: list[tuple[Any, ...]] = []
        for a in rule.actions:
            if isinstance(a, SetAction):
                actions.append(("set", self._assign(a.assignments, t)))
            elif isinstance(a, UpdateAction):
                actions.append(("update", self._expr(a.target, t), a.target_table, self._assign(a.assignments, t)))
            elif isinstance(a, UpdateWhereAction):
                actions.append(("update_where", a.table, self._expr(a.where, t, a.table), self._assign(a.assignments, t, a.table)))
            elif isinstance(a, CreateAction):
                actions.append(("create", a.table, self._assign(a.assignments, t)))
            elif isinstance(a, DeleteWhereAction):
                actions.append(("delete_where", a.table, self._expr(a.where, t, a.table)))
        cond = self._expr(rule.condition, t) if rule.condition is not None else None
        return _CompiledRule(rule, cond, actions)

    # -- public API --------------------------------------------------------
    def check_action(self, state: State, action: Action) -> None:
        """Raise WriteError when ``action`` breaks the schema or names a record that is (not) there."""
        if action.op not in ("insert", "update", "delete"):
            raise WriteError(f"unknown op {action.op!r}; use insert, update or delete")
        if action.table not in self.schema.tables:
            raise WriteError(f"unknown table {action.table!r}; tables are {sorted(self.schema.tables)}")
        if not isinstance(action.id, str) or not action.id:
            raise WriteError(f"{action.table}: a record id must be a non-empty string, got {action.id!r}")
        exists = state.exists(action.table, action.id)
        if action.op == "insert" and exists:
            raise WriteError(f"{action.table}/{action.id} already exists")
        if action.op != "insert" and not exists:
            raise WriteError(f"{action.table}/{action.id} does not exist")
        if action.op == "delete" and action.values:
            raise WriteError("a delete takes no values")
        self.schema.check_values(action.table, action.values, state.exists)

    def run(self, state: State, action: Action, *, in_place: bool = False, validate: bool = False) -> ActionResult:
        """Run ``action`` and return its side effects.

        By default ``state`` is left untouched (the action runs on a copy);
        with ``in_place`` the state is changed, except when the action is
        rolled back. With ``validate`` the action is checked against the schema
        first (WriteError, nothing changed).
        """
        if validate:
            self.check_action(state, action)
        work = state.copy()
        run = _Run(work)
        try:
            self._write(run, action.op, action.table, action.id, dict(action.values), 1, root=True)
        except _TooDeep:
            return ActionResult([], run.fired, run.writes, f"rolled back: a chain of writes went deeper than {self.max_depth}",
                                triggers=frozenset(run.triggers))
        effects = side_effects(state, work, action, run.created)
        own = work.get(action.table, action.id) if action.op != "delete" else None
        written_final = {k: own.get(k) for k in action.values} if own is not None else {}
        if in_place:
            state.tables = work.tables
            state._counters = work._counters  # noqa: SLF001 - same class
        return ActionResult(effects, run.fired, run.writes, None, run.created, frozenset(run.triggers), written_final)

    def rules_for(self, table: str, op: str) -> tuple[Rule, ...]:
        """The rules a write ``op`` on ``table`` runs, before rules then after rules, in run order."""
        return tuple(cr.rule for when in ("before", "after") for cr in self._by_trigger.get((table, op, when), ()))

    # -- the write ---------------------------------------------------------
    def _write(self, run: _Run, op: str, table: str, rid: str, values: dict[str, Value], depth: int, root: bool = False) -> None:
        st = run.state
        spec = self.schema.tables[table]
        if op == "update":
            stored = st.get(table, rid)
            if stored is None:
                if root:
                    raise WriteError(f"{table}/{rid} does not exist")
                return
            if all(values_equal(stored.get(k), v) and (k in stored) for k, v in values.items()):
                return  # step 1: a no-op stores nothing, runs no rule, and never counts for depth
            new: Record = dict(stored)
            new.update(values)
            previous: Record = stored
        elif op == "insert":
            if root and st.get(table, rid) is not None:
                raise WriteError(f"{table}/{rid} already exists")
            new = spec.new_record(rid, values)
            previous = spec.empty_record()
        else:
            stored = st.get(table, rid)
            if stored is None:
                if root:
                    raise WriteError(f"{table}/{rid} does not exist")
                return
            new = stored
            previous = stored
        if depth > self.max_depth:
            raise _TooDeep()
        run.writes += 1
        run.triggers.add((table, op))

        # step 2: before rules, on the working copy
        before = self._by_trigger.get((table, op, "before"), ())
        if before:
            ctx = EvalContext(st, table, current=new, previous=previous, event=op)
            for cr in before:
                if cr.condition is not None and not truthy(cr.condition(ctx)):
                    continue
                run.fired.append(cr.rule.id)
                for act in cr.actions:
                    vals = {f: fn(ctx) for f, fn in act[1]}
                    if op != "delete":
                        if new is previous:
                            new = dict(new)
                            ctx.current = new
                        new.update(vals)

        # step 3: store
        if op == "delete":
            run.tombstones[(table, rid)] = new
            st.remove(table, rid)
        else:
            st.put(table, new)

        # step 4: after rules, depth first
        after = self._by_trigger.get((table, op, "after"), ())
        if not after:
            return
        tombstones = run.tombstones

        def current() -> Record:
            rec = st.get(table, rid)
            if rec is not None and op != "delete":
                return rec
            return tombstones.get((table, rid), new)

        ctx = EvalContext(st, table, current=current, previous=previous, event=op)
        for cr in after:
            if cr.condition is not None and not truthy(cr.condition(ctx)):
                continue
            run.fired.append(cr.rule.id)
            for act in cr.actions:
                self._after_action(run, ctx, act, depth)

    def _after_action(self, run: _Run, ctx: EvalContext, act: tuple[Any, ...], depth: int) -> None:
        st = run.state
        kind = act[0]
        if kind == "update":
            _, target, ttable, assigns = act
            tid = target(ctx)
            if not isinstance(tid, str) or st.get(ttable, tid) is None:
                return
            vals = {f: fn(ctx) for f, fn in assigns}
            self._write(run, "update", ttable, tid, vals, depth + 1)
        elif kind == "update_where":
            _, ttable, where, assigns = act
            matches = self._matches(ctx, ttable, where)
            for mid in matches:
                rec = st.get(ttable, mid)
                if rec is None:
                    continue
                ctx.row, ctx.row_table = rec, ttable
                try:
                    vals = {f: fn(ctx) for f, fn in assigns}
                finally:
                    ctx.row, ctx.row_table = None, None
                self._write(run, "update", ttable, mid, vals, depth + 1)
        elif kind == "create":
            _, ttable, assigns = act
            vals = {f: fn(ctx) for f, fn in assigns}
            nid = st.new_id(ttable)
            run.created[nid] = ttable
            self._write(run, "insert", ttable, nid, vals, depth + 1)
        else:
            _, ttable, where = act
            for mid in self._matches(ctx, ttable, where):
                if st.get(ttable, mid) is not None:
                    self._write(run, "delete", ttable, mid, {}, depth + 1)

    @staticmethod
    def _matches(ctx: EvalContext, table: str, where: Callable[[EvalContext], Value]) -> list[str]:
        out: list[str] = []
        ctx.row_table = table
        try:
            for rec in ctx.state.rows(table):
                ctx.row = rec
                if truthy(where(ctx)):
                    out.append(rec["id"])  # type: ignore[arg-type]
        finally:
            ctx.row, ctx.row_table = None, None
        return out


def side_effects(initial: State, final: State, action: Action, created: Mapping[str, str]) -> list[Effect]:
    """The side-effect multiset of ``action`` (spec: "Test actions"), sorted.

    ``created`` maps ids generated by rules during the action to their
    tables; any value equal to one of them is written ``new:<table>``.
    """

    def show(value: Value) -> Value:
        if isinstance(value, str) and value in created:
            return f"new:{created[value]}"
        return normalize(value)

    out: list[Effect] = []
    schema = final.schema
    for table, rows in final.tables.items():
        before_rows = initial.tables.get(table, {})
        fields = list(schema.tables[table].fields)
        for rid, rec in rows.items():
            old = before_rows.get(rid)
            if old is not None:
                if old is rec:
                    continue
                own = set(action.values) if (action.table == table and action.id == rid) else set()
                for f in fields:
                    if f not in own and not _same(old.get(f), rec.get(f)):
                        out.append(("set", table, rid, f, show(rec.get(f))))
            elif action.op == "insert" and action.table == table and action.id == rid:
                written = schema.tables[table].new_record(rid, action.values)
                for f in fields:
                    if f not in action.values and not _same(written.get(f), rec.get(f)):
                        out.append(("set", table, rid, f, show(rec.get(f))))
            else:
                for f in fields:
                    v = rec.get(f)
                    if v is not None:
                        out.append(("create", table, f, show(v)))
        for rid in before_rows:
            if rid not in rows and not (action.op == "delete" and action.table == table and action.id == rid):
                out.append(("delete", table, rid))
    return sort_effects(out)


def _same(a: Value, b: Value) -> bool:
    return values_equal(a, b)
