"""Evaluation of expression trees with the spec's null semantics.

Expressions are compiled once into nested Python closures (a tree walk would
re-dispatch on node types at every evaluation, and rule discovery evaluates
the same candidate rules thousands of times).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memkit.rules.ast import BareName, BinOp, BoolOp, Call, Compare, Expr, InList, Literal, Neg, Not, PathExpr
from memkit.rules.schema import Schema, Value, is_number
from memkit.rules.state import Record, State
from memkit.rules.values import arith, less_than, round_half_away, to_text, truthy, values_equal

__all__ = ["EvalContext", "Compiled", "compile_expression", "evaluate"]


@dataclass
class EvalContext:
    """What an expression can see.

    ``current`` is a record or a zero-argument function returning one (an
    after rule re-reads the stored record at each use); ``table`` is the
    rule's table (for ``changed``); ``row`` and ``row_table`` are set inside
    ``update_where`` / ``delete_where`` / ``count`` / ``sum``.

    ``memo``, when given, keeps the value of each top-level ``count`` / ``sum``
    (one not inside another's where clause) for reuse: only for a context whose
    state, current and previous records do not change while it is in use (rule
    discovery scores thousands of candidates on one frozen example; the engine,
    which writes as it goes, leaves it unset).
    """

    state: State
    table: str
    current: Record | Callable[[], Record] | None = None
    previous: Record | None = None
    row: Record | None = None
    row_table: str | None = None
    event: str = "update"
    extra: dict[str, object] = field(default_factory=dict)
    memo: dict[str, Value] | None = None

    def current_record(self) -> Record | None:
        cur = self.current
        return cur() if callable(cur) else cur


Compiled = Callable[[EvalContext], Value]


def _compile_path(node: PathExpr, schema: Schema, table: str, row_table: str | None) -> Compiled:
    root_table = row_table if node.root == "row" else table
    # Resolve the reference tables of each step once, at compile time.
    steps: list[tuple[str, str | None]] = []
    t: str | None = root_table
    for i, fname in enumerate(node.fields):
        ref = None
        if i < len(node.fields) - 1:
            spec = schema.field(t, fname) if t else None
            ref = spec.ref if spec is not None and spec.type == "reference" else None
        steps.append((fname, ref))
        t = ref
    root = node.root

    def run(ctx: EvalContext) -> Value:
        if root == "current":
            rec = ctx.current_record()
        elif root == "previous":
            rec = ctx.previous
        else:
            rec = ctx.row
        value: Value = None
        for fname, ref in steps:
            if rec is None:
                return None
            value = rec.get(fname)
            if ref is not None:
                rec = ctx.state.get(ref, value) if value is not None else None
        return value

    return run


def compile_expression(node: Expr, schema: Schema, table: str, row_table: str | None = None) -> Compiled:
    """Compile ``node`` for a rule on ``table`` (``row_table`` inside where/set of update_where)."""
    c = lambda n, rt=row_table: compile_expression(n, schema, table, rt)  # noqa: E731

    if isinstance(node, Literal):
        v = node.value
        return lambda ctx: v  # type: ignore[return-value]
    if isinstance(node, PathExpr):
        return _compile_path(node, schema, table, row_table)
    if isinstance(node, BareName):
        name = node.name
        return lambda ctx: name
    if isinstance(node, Neg):
        f = c(node.operand)

        def neg(ctx: EvalContext) -> Value:
            v = f(ctx)
            return -float(v) if is_number(v) else None  # type: ignore[arg-type]

        return neg
    if isinstance(node, Not):
        f = c(node.operand)
        return lambda ctx: not truthy(f(ctx))
    if isinstance(node, BoolOp):
        fs = [c(o) for o in node.operands]
        if node.op == "and":
            return lambda ctx: all(truthy(f(ctx)) for f in fs)
        return lambda ctx: any(truthy(f(ctx)) for f in fs)
    if isinstance(node, BinOp):
        fl, fr, op = c(node.left), c(node.right), node.op
        return lambda ctx: arith(op, fl(ctx), fr(ctx))
    if isinstance(node, Compare):
        fl, fr, op = c(node.left), c(node.right), node.op
        if op == "==":
            return lambda ctx: values_equal(fl(ctx), fr(ctx))
        if op == "!=":
            return lambda ctx: not values_equal(fl(ctx), fr(ctx))
        return lambda ctx: less_than(op, fl(ctx), fr(ctx))
    if isinstance(node, InList):
        fl = c(node.left)
        items = [c(i) for i in node.items]

        def in_list(ctx: EvalContext) -> Value:
            v = fl(ctx)
            return any(values_equal(v, f(ctx)) for f in items)

        return in_list
    if isinstance(node, Call):
        return _compile_call(node, schema, table, row_table)
    raise TypeError(f"cannot compile {node!r}")


def _field_pair(fname: str) -> tuple[Callable[[EvalContext], Value], Callable[[EvalContext], Value]]:
    def cur(ctx: EvalContext) -> Value:
        rec = ctx.current_record()
        return None if rec is None else rec.get(fname)

    def prev(ctx: EvalContext) -> Value:
        return None if ctx.previous is None else ctx.previous.get(fname)

    return cur, prev


def _changed(cur: Compiled, prev: Compiled) -> Compiled:
    def run(ctx: EvalContext) -> bool:
        if ctx.event == "insert":
            return cur(ctx) is not None
        return not values_equal(prev(ctx), cur(ctx))

    return run


def _compile_call(node: Call, schema: Schema, table: str, row_table: str | None) -> Compiled:
    name, args = node.name, node.args
    c = lambda n, rt=row_table: compile_expression(n, schema, table, rt)  # noqa: E731
    if name in ("changed", "changes_to", "changes_from"):
        fname = args[0].name if isinstance(args[0], BareName) else str(args[0])
        cur, prev = _field_pair(fname)
        changed = _changed(cur, prev)
        if name == "changed":
            return changed
        fv = c(args[1])
        side = cur if name == "changes_to" else prev
        return lambda ctx: changed(ctx) and values_equal(side(ctx), fv(ctx))
    if name == "is_empty":
        f = c(args[0])

        def is_empty(ctx: EvalContext) -> Value:
            v = f(ctx)
            return v is None or v == ""

        return is_empty
    if name == "concat":
        fs = [c(a) for a in args]
        return lambda ctx: "".join(to_text(f(ctx)) for f in fs)
    if name == "round":
        fx, fn = c(args[0]), c(args[1])
        return lambda ctx: round_half_away(fx(ctx), fn(ctx))
    if name in ("min", "max"):
        fa, fb = c(args[0]), c(args[1])
        pick_first_if = "<=" if name == "min" else ">="

        def minmax(ctx: EvalContext) -> Value:
            a, b = fa(ctx), fb(ctx)
            if a is None or b is None:
                return None
            both_num = is_number(a) and is_number(b)
            both_str = isinstance(a, str) and isinstance(b, str)
            if not (both_num or both_str):
                return None
            return a if less_than(pick_first_if, a, b) else b

        return minmax
    if name == "if":
        fc, fa, fb = c(args[0]), c(args[1]), c(args[2])
        return lambda ctx: fa(ctx) if truthy(fc(ctx)) else fb(ctx)
    if name in ("count", "sum"):
        tname = args[0].name if isinstance(args[0], BareName) else str(args[0])
        where_node = args[-1]
        fwhere = compile_expression(where_node, schema, table, tname)
        fname = (args[1].name if isinstance(args[1], BareName) else str(args[1])) if name == "sum" else None
        # the same aggregate compiled inside different expressions shares one memo entry
        memo_key = f"{table}|{node!r}"

        def aggregate(ctx: EvalContext) -> Value:
            memo = ctx.memo
            if memo is not None and ctx.row is None:
                value = memo.get(memo_key, _UNSET)
                if value is _UNSET:
                    value = memo[memo_key] = scan(ctx)
                return value
            return scan(ctx)

        def scan(ctx: EvalContext) -> Value:
            saved_row, saved_table = ctx.row, ctx.row_table
            total: float = 0.0
            n = 0
            try:
                ctx.row_table = tname
                for rec in ctx.state.tables.get(tname, {}).values():
                    ctx.row = rec
                    if truthy(fwhere(ctx)):
                        if fname is None:
                            n += 1
                        else:
                            v = rec.get(fname)
                            if is_number(v):
                                total += float(v)  # type: ignore[arg-type]
            finally:
                ctx.row, ctx.row_table = saved_row, saved_table
            return n if fname is None else total

        return aggregate
    raise TypeError(f"unknown function {name}")


_UNSET = object()


def evaluate(node: Expr, ctx: EvalContext) -> Value:
    """Evaluate ``node`` once in ``ctx`` (compiles on the fly; prefer compile_expression in loops)."""
    return compile_expression(node, ctx.state.schema, ctx.table, ctx.row_table)(ctx)
