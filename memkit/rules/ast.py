"""Expression trees of the worldshift/1 language, and their source form.

Nodes are frozen dataclasses so parsed rules can be shared and hashed;
``to_source`` writes a node back as text that parses to an equal node.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Expr",
    "Literal",
    "PathExpr",
    "BareName",
    "Call",
    "Neg",
    "Not",
    "BoolOp",
    "BinOp",
    "Compare",
    "InList",
    "to_source",
    "literal_source",
]


class Expr:
    """Base of every expression node."""

    def __str__(self) -> str:
        return to_source(self)


@dataclass(frozen=True)
class Literal(Expr):
    """A constant: number, string, boolean or null."""

    value: object


@dataclass(frozen=True)
class PathExpr(Expr):
    """``current.a.b``: a root (current, previous, row) and one or more field names."""

    root: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class BareName(Expr):
    """A bare name argument (a field or table name) where a function allows one."""

    name: str


@dataclass(frozen=True)
class Call(Expr):
    """A function call."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Neg(Expr):
    """Unary minus."""

    operand: Expr


@dataclass(frozen=True)
class Not(Expr):
    """Logical not."""

    operand: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    """``and`` / ``or`` over two or more operands."""

    op: str
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class BinOp(Expr):
    """Arithmetic: ``+ - * /``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Expr):
    """``== != < <= > >=``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class InList(Expr):
    """``x in [a, b, ...]``."""

    left: Expr
    items: tuple[Expr, ...]


# Binding strength, used to add parentheses only where the grammar needs them.
_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7, "atom": 8}


def literal_source(value: object) -> str:
    """The source text of a constant."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        quote = "'" if "'" not in value else '"'
        return f"{quote}{value}{quote}"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    return str(value)


def _prec(node: Expr) -> int:
    if isinstance(node, BoolOp):
        return _PREC[node.op]
    if isinstance(node, Not):
        return _PREC["not"]
    if isinstance(node, (Compare, InList)):
        return _PREC["cmp"]
    if isinstance(node, BinOp):
        return _PREC[node.op]
    if isinstance(node, Neg):
        return _PREC["neg"]
    if isinstance(node, Literal) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and node.value < 0:
        return _PREC["neg"]
    return _PREC["atom"]


def _wrap(node: Expr, min_prec: int) -> str:
    text = to_source(node)
    return f"({text})" if _prec(node) < min_prec else text


def to_source(node: Expr) -> str:
    """Write ``node`` as expression text."""
    if isinstance(node, Literal):
        return literal_source(node.value)
    if isinstance(node, PathExpr):
        return ".".join((node.root, *node.fields))
    if isinstance(node, BareName):
        return node.name
    if isinstance(node, Call):
        return f"{node.name}({', '.join(to_source(a) for a in node.args)})"
    if isinstance(node, Neg):
        return f"-{_wrap(node.operand, _PREC['neg'])}"
    if isinstance(node, Not):
        return f"not {_wrap(node.operand, _PREC['not'])}"
    if isinstance(node, BoolOp):
        p = _PREC[node.op]
        return f" {node.op} ".join(_wrap(o, p + 1) for o in node.operands)
    if isinstance(node, BinOp):
        p = _PREC[node.op]
        # left-associative: the right operand needs parentheses at equal strength
        return f"{_wrap(node.left, p)} {node.op} {_wrap(node.right, p + 1)}"
    if isinstance(node, Compare):
        p = _PREC["cmp"]
        return f"{_wrap(node.left, p + 1)} {node.op} {_wrap(node.right, p + 1)}"
    if isinstance(node, InList):
        p = _PREC["cmp"]
        return f"{_wrap(node.left, p + 1)} in [{', '.join(to_source(i) for i in node.items)}]"
    raise TypeError(f"not an expression node: {node!r}")
