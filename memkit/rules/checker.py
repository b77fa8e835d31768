"""Static checks of expressions against a schema: unknown tables and fields, bad paths, misplaced ``row``."""

from __future__ import annotations

from memkit.errors import ExpressionCheckError
from memkit.rules.ast import BareName, BinOp, BoolOp, Call, Compare, Expr, InList, Literal, Neg, Not, PathExpr, to_source
from memkit.rules.schema import Schema

__all__ = ["check_expression", "path_target_table"]


def _fail(message: str, text: str) -> None:
    raise ExpressionCheckError(message, text=text)


def path_target_table(path: PathExpr, schema: Schema, table: str, row_table: str | None, text: str = "") -> str | None:
    """Check ``path`` and return the table its last field refers to (None if not a reference)."""
    t = row_table if path.root == "row" else table
    if path.root == "row" and row_table is None:
        _fail("'row' is only defined inside update_where, delete_where, count and sum", text or to_source(path))
    assert t is not None
    for i, fname in enumerate(path.fields):
        spec = schema.tables.get(t)
        if spec is None:
            _fail(f"unknown table {t!r}", text or to_source(path))
        assert spec is not None
        if not spec.has_field(fname):
            _fail(f"unknown field {fname!r} of table {t!r}", text or to_source(path))
        fspec = spec.fields.get(fname)
        last = i == len(path.fields) - 1
        if fspec is not None and fspec.type == "reference":
            if last:
                return fspec.ref
            t = fspec.ref or ""
        elif not last:
            _fail(f"{t}.{fname} is not a reference, so the path cannot go on to {path.fields[i + 1]!r}", text or to_source(path))
    return None


def check_expression(node: Expr, schema: Schema, table: str, row_table: str | None = None, text: str = "") -> None:
    """Raise ExpressionCheckError when ``node`` does not fit the schema for a rule on ``table``."""
    src = text or to_source(node)
    if table not in schema.tables:
        _fail(f"unknown table {table!r}", src)

    def walk(n: Expr, rt: str | None) -> None:
        if isinstance(n, (Literal, BareName)):
            return
        if isinstance(n, PathExpr):
            path_target_table(n, schema, table, rt, src)
            return
        if isinstance(n, (Neg, Not)):
            walk(n.operand, rt)
            return
        if isinstance(n, BoolOp):
            for o in n.operands:
                walk(o, rt)
            return
        if isinstance(n, (BinOp, Compare)):
            walk(n.left, rt)
            walk(n.right, rt)
            return
        if isinstance(n, InList):
            walk(n.left, rt)
            for item in n.items:
                walk(item, rt)
            return
        if isinstance(n, Call):
            if n.name in ("changed", "changes_to", "changes_from"):
                f = n.args[0]
                fname = f.name if isinstance(f, BareName) else None
                if fname is None or not schema.tables[table].has_field(fname):
                    _fail(f"{n.name}(): unknown field {fname!r} of table {table!r}", src)
                for a in n.args[1:]:
                    walk(a, rt)
                return
            if n.name in ("count", "sum"):
                tname = n.args[0].name if isinstance(n.args[0], BareName) else None
                if tname not in schema.tables:
                    _fail(f"{n.name}(): unknown table {tname!r}", src)
                assert tname is not None
                if n.name == "sum":
                    fname = n.args[1].name if isinstance(n.args[1], BareName) else None
                    if fname is None or not schema.tables[tname].has_field(fname):
                        _fail(f"sum(): unknown field {fname!r} of table {tname!r}", src)
                walk(n.args[-1], tname)
                return
            for a in n.args:
                walk(a, rt)
            return
        raise TypeError(f"not an expression node: {n!r}")

    walk(node, row_table)
