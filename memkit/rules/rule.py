"""Rules of a world (true or learned): parsed, statically checked, and written back.

A :class:`Rule` keeps its expressions as trees; ``to_dict`` gives the
worldshift/1 form, so a learned rule exports to a file the loader accepts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import ExpressionError, WorldValidationError
from memkit.rules.ast import Expr, Literal, PathExpr, to_source
from memkit.rules.checker import check_expression, path_target_table
from memkit.rules.parser import parse_expression
from memkit.rules.schema import Schema

__all__ = [
    "EVENTS",
    "Assignment",
    "SetAction",
    "UpdateAction",
    "UpdateWhereAction",
    "CreateAction",
    "DeleteWhereAction",
    "RuleAction",
    "Rule",
    "parse_rule",
    "parse_value",
    "describe_rule",
]

EVENTS = ("insert", "update", "delete")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_AFTER_ONLY = ("update", "update_where", "create", "delete_where")


@dataclass(frozen=True)
class Assignment:
    """``field: expr`` inside set / values."""

    field: str
    expr: Expr


@dataclass(frozen=True)
class SetAction:
    """``set`` (before rules): change fields of the record being written."""

    assignments: tuple[Assignment, ...]


@dataclass(frozen=True)
class UpdateAction:
    """``update`` (after rules): write the one record reached by ``target``."""

    target: PathExpr
    target_table: str
    assignments: tuple[Assignment, ...]


@dataclass(frozen=True)
class UpdateWhereAction:
    """``update_where``: write every ``row`` of ``table`` for which ``where`` holds."""

    table: str
    where: Expr
    assignments: tuple[Assignment, ...]


@dataclass(frozen=True)
class CreateAction:
    """``create``: insert a new record with a generated id."""

    table: str
    assignments: tuple[Assignment, ...]


@dataclass(frozen=True)
class DeleteWhereAction:
    """``delete_where``: delete every ``row`` of ``table`` for which ``where`` holds."""

    table: str
    where: Expr


RuleAction = SetAction | UpdateAction | UpdateWhereAction | CreateAction | DeleteWhereAction


@dataclass(frozen=True)
class Rule:
    """One business rule: trigger (table, events, when, condition) and actions."""

    id: str
    table: str
    events: tuple[str, ...]
    when: str
    actions: tuple[RuleAction, ...]
    condition: Expr | None = None
    order: float = 100
    name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """The rule as it appears in a worldshift/1 file."""
        out: dict[str, Any] = {"id": self.id}
        if self.name:
            out["name"] = self.name
        out.update({"table": self.table, "events": list(self.events), "when": self.when})
        if self.order != 100:
            out["order"] = int(self.order) if float(self.order).is_integer() else self.order
        if self.condition is not None:
            out["condition"] = to_source(self.condition)
        out["actions"] = [_action_dict(a) for a in self.actions]
        return out

    def with_id(self, new_id: str) -> Rule:
        """The same rule under another id."""
        return Rule(new_id, self.table, self.events, self.when, self.actions, self.condition, self.order, self.name)


def _assign_dict(assignments: tuple[Assignment, ...]) -> dict[str, Any]:
    return {a.field: to_source(a.expr) for a in assignments}


def _action_dict(action: RuleAction) -> dict[str, Any]:
    if isinstance(action, SetAction):
        return {"set": _assign_dict(action.assignments)}
    if isinstance(action, UpdateAction):
        return {"update": {"target": to_source(action.target), "set": _assign_dict(action.assignments)}}
    if isinstance(action, UpdateWhereAction):
        return {"update_where": {"table": action.table, "where": to_source(action.where), "set": _assign_dict(action.assignments)}}
    if isinstance(action, CreateAction):
        return {"create": {"table": action.table, "values": _assign_dict(action.assignments)}}
    return {"delete_where": {"table": action.table, "where": to_source(action.where)}}


def parse_value(raw: Any) -> Expr:
    """A ``set``/``values`` entry: an expression string, or a bare number/boolean/null constant."""
    if isinstance(raw, str):
        return parse_expression(raw)
    if raw is None or isinstance(raw, (bool, int, float)):
        return Literal(raw)
    raise WorldValidationError(f"a value must be an expression string, number, boolean or null, got {raw!r}")


class _RuleParser:
    def __init__(self, raw: Mapping[str, Any], schema: Schema) -> None:
        self.raw = raw
        self.schema = schema
        self.rid = str(raw.get("id", "?"))
        self.where = f"rule {self.rid}"

    def fail(self, message: str) -> None:
        raise WorldValidationError(message, location=self.where)

    def expr(self, raw: Any, what: str, table: str, row_table: str | None = None) -> Expr:
        try:
            node = parse_value(raw)
            check_expression(node, self.schema, table, row_table, raw if isinstance(raw, str) else "")
        except ExpressionError as exc:
            raise WorldValidationError(f"{what}: {exc}", location=self.where) from exc
        except WorldValidationError as exc:
            raise WorldValidationError(f"{what}: {exc.problem}", location=self.where) from exc
        return node

    def assignments(self, raw: Any, table: str, what: str, row_table: str | None = None) -> tuple[Assignment, ...]:
        if not isinstance(raw, Mapping) or not raw:
            self.fail(f"{what} needs at least one field: expression")
        spec = self.schema.tables[table]
        out = []
        for fname, value in raw.items():
            if fname == "id":
                self.fail(f"{what}: the field 'id' cannot be written")
            if fname not in spec.fields:
                self.fail(f"{what}: unknown field {fname!r} of table {table!r}")
            out.append(Assignment(fname, self.expr(value, f"{what}.{fname}", self.table, row_table)))
        return tuple(out)

    def table_name(self, raw: Any, what: str) -> str:
        if not isinstance(raw, str) or raw not in self.schema.tables:
            self.fail(f"{what}: unknown table {raw!r}")
        return raw

    def parse(self) -> Rule:
        raw = self.raw
        for key in ("id", "table", "events", "when", "actions"):
            if key not in raw:
                self.fail(f"missing {key!r}")
        unknown = set(raw) - {"id", "name", "table", "events", "when", "order", "condition", "actions"}
        if unknown:
            self.fail(f"unknown key(s) {sorted(unknown)}")
        if not isinstance(raw["id"], str) or not _NAME.match(raw["id"]):
            self.fail(f"rule id {raw['id']!r} is not a name")
        self.table = self.table_name(raw["table"], "table")
        events = raw["events"]
        if not isinstance(events, (list, tuple)) or not events or any(e not in EVENTS for e in events) or len(set(events)) != len(events):
            self.fail(f"events must be a non-empty list of distinct {list(EVENTS)}, got {events!r}")
        when = raw["when"]
        if when not in ("before", "after"):
            self.fail(f"when must be 'before' or 'after', got {when!r}")
        order = raw.get("order", 100)
        if isinstance(order, bool) or not isinstance(order, (int, float)):
            self.fail(f"order must be a number, got {order!r}")
        condition = None
        if raw.get("condition") is not None:
            condition = self.expr(raw["condition"], "condition", self.table)
        actions_raw = raw["actions"]
        if not isinstance(actions_raw, list) or not actions_raw:
            self.fail("actions must be a non-empty list")
        actions = tuple(self.action(a, i, when) for i, a in enumerate(actions_raw))
        return Rule(
            id=raw["id"],
            table=self.table,
            events=tuple(events),
            when=when,
            actions=actions,
            condition=condition,
            order=order,
            name=str(raw.get("name", "")),
        )

    def action(self, raw: Any, index: int, when: str) -> RuleAction:
        what = f"actions[{index}]"
        if not isinstance(raw, Mapping) or len(raw) != 1:
            self.fail(f"{what} must have exactly one of set, update, update_where, create, delete_where")
        (kind, body), = raw.items()
        if kind == "set":
            if when != "before":
                self.fail(f"{what}: 'set' is allowed in before rules only")
            return SetAction(self.assignments(body, self.table, f"{what}.set"))
        if kind not in _AFTER_ONLY:
            self.fail(f"{what}: unknown action {kind!r}")
        if when != "after":
            self.fail(f"{what}: {kind!r} is allowed in after rules only")
        if not isinstance(body, Mapping):
            self.fail(f"{what}.{kind} must be a mapping")
        if kind == "update":
            target_src = body.get("target")
            try:
                target = parse_expression(target_src) if isinstance(target_src, str) else None
            except ExpressionError as exc:
                raise WorldValidationError(f"{what}.update.target: {exc}", location=self.where) from exc
            if not isinstance(target, PathExpr) or target.root != "current":
                self.fail(f"{what}.update.target must be a path like current.field, got {target_src!r}")
            assert isinstance(target, PathExpr)
            try:
                ttable = path_target_table(target, self.schema, self.table, None, target_src)
            except ExpressionError as exc:
                raise WorldValidationError(f"{what}.update.target: {exc}", location=self.where) from exc
            if ttable is None:
                self.fail(f"{what}.update.target {target_src!r} must end at a reference field")
            assert ttable is not None
            return UpdateAction(target, ttable, self.assignments(body.get("set"), ttable, f"{what}.update.set"))
        if kind == "update_where":
            t = self.table_name(body.get("table"), f"{what}.update_where.table")
            where = self.expr(body.get("where"), f"{what}.update_where.where", self.table, t)
            return UpdateWhereAction(t, where, self.assignments(body.get("set"), t, f"{what}.update_where.set", t))
        if kind == "create":
            t = self.table_name(body.get("table"), f"{what}.create.table")
            return CreateAction(t, self.assignments(body.get("values"), t, f"{what}.create.values"))
        t = self.table_name(body.get("table"), f"{what}.delete_where.table")
        return DeleteWhereAction(t, self.expr(body.get("where"), f"{what}.delete_where.where", self.table, t))


def parse_rule(raw: Mapping[str, Any], schema: Schema) -> Rule:
    """Parse and statically check one rule dict; raise WorldValidationError naming the rule."""
    if not isinstance(raw, Mapping):
        raise WorldValidationError(f"a rule must be a mapping, got {raw!r}")
    return _RuleParser(raw, schema).parse()


def _assign_text(assignments: tuple[Assignment, ...], prefix: str = "") -> str:
    return ", ".join(f"{prefix}{a.field} = {to_source(a.expr)}".replace("current.", "") for a in assignments)


def describe_rule(rule: Rule) -> str:
    """A readable one-line rendering, e.g. ``item update, quantity changes -> set total = ...``."""
    trigger = f"{rule.table} {'/'.join(rule.events)}"
    if rule.condition is not None:
        cond = to_source(rule.condition).replace("current.", "")
        trigger += f", when {cond}"
    parts = []
    for a in rule.actions:
        if isinstance(a, SetAction):
            parts.append(f"set {_assign_text(a.assignments)}")
        elif isinstance(a, UpdateAction):
            parts.append(f"update {to_source(a.target).replace('current.', '')} set {_assign_text(a.assignments)}")
        elif isinstance(a, UpdateWhereAction):
            parts.append(f"update {a.table} where {to_source(a.where)} set {_assign_text(a.assignments)}")
        elif isinstance(a, CreateAction):
            parts.append(f"create {a.table} with {_assign_text(a.assignments)}")
        else:
            parts.append(f"delete {a.table} where {to_source(a.where)}")
    return f"{trigger} -> {'; '.join(parts)}"
