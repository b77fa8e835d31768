"""Recursive-descent parser of worldshift/1 expressions (no ``eval`` anywhere).

Grammar (from the format spec)::

    expr     := or
    or       := and ("or" and)*
    and      := not ("and" not)*
    not      := "not" not | compare
    compare  := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum | "in" list)?
    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "/") unary)*
    unary    := "-" unary | atom
    atom     := number | string | "true" | "false" | "null" | path | call | "(" expr ")"

Function names, arities and the argument positions that take a bare name are
checked here, so every syntax or arity error carries a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from memkit.errors import ExpressionCheckError, ExpressionSyntaxError
from memkit.rules.ast import (
    BareName,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Expr,
    InList,
    Literal,
    Neg,
    Not,
    PathExpr,
)
from memkit.rules.tokens import RESERVED, Token, tokenize

__all__ = ["FUNCTIONS", "FunctionSig", "parse_expression"]


@dataclass(frozen=True)
class FunctionSig:
    """Arity bounds and which argument positions take a bare (or quoted) name."""

    min_args: int
    max_args: int | None
    name_args: frozenset[int] = frozenset()


FUNCTIONS: dict[str, FunctionSig] = {
    "changed": FunctionSig(1, 1, frozenset({0})),
    "changes_to": FunctionSig(2, 2, frozenset({0})),
    "changes_from": FunctionSig(2, 2, frozenset({0})),
    "is_empty": FunctionSig(1, 1),
    "concat": FunctionSig(1, None),
    "round": FunctionSig(2, 2),
    "min": FunctionSig(2, 2),
    "max": FunctionSig(2, 2),
    "if": FunctionSig(3, 3),
    "count": FunctionSig(2, 2, frozenset({0})),
    "sum": FunctionSig(3, 3, frozenset({0, 1})),
}

_COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=")
_ROOTS = ("current", "previous", "row")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    # -- token helpers -------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, offset: int = 1) -> Token:
        return self.tokens[min(self.i + offset, len(self.tokens) - 1)]

    def at(self, kind: str, value: str | None = None) -> bool:
        t = self.tok
        return t.kind == kind and (value is None or t.value == value)

    def at_word(self, word: str) -> bool:
        return self.at("NAME", word)

    def advance(self) -> Token:
        t = self.tok
        self.i += 1
        return t

    def expect_op(self, value: str) -> Token:
        if not self.at("OP", value):
            self.fail(f"expected {value!r}")
        return self.advance()

    def fail(self, message: str, pos: int | None = None) -> None:
        t = self.tok
        found = "end of expression" if t.kind == "END" else repr(t.value if t.kind != "STRING" else f"'{t.value}'")
        raise ExpressionSyntaxError(f"{message}, found {found}", text=self.text, position=t.pos if pos is None else pos)

    # -- grammar -------------------------------------------------------
    def parse(self) -> Expr:
        if self.at("END"):
            raise ExpressionSyntaxError("empty expression", text=self.text, position=0)
        node = self.or_()
        if not self.at("END"):
            self.fail("unexpected token")
        return node

    def or_(self) -> Expr:
        parts = [self.and_()]
        while self.at_word("or"):
            self.advance()
            parts.append(self.and_())
        return parts[0] if len(parts) == 1 else BoolOp("or", tuple(parts))

    def and_(self) -> Expr:
        parts = [self.not_()]
        while self.at_word("and"):
            self.advance()
            parts.append(self.not_())
        return parts[0] if len(parts) == 1 else BoolOp("and", tuple(parts))

    def not_(self) -> Expr:
        if self.at_word("not"):
            self.advance()
            return Not(self.not_())
        return self.compare()

    def compare(self) -> Expr:
        left = self.sum_()
        if self.tok.kind == "OP" and self.tok.value in _COMPARE_OPS:
            op = self.advance().value
            return Compare(op, left, self.sum_())
        if self.at_word("in"):
            self.advance()
            return InList(left, self.list_())
        return left

    def list_(self) -> tuple[Expr, ...]:
        self.expect_op("[")
        items: list[Expr] = []
        if not self.at("OP", "]"):
            items.append(self.or_())
            while self.at("OP", ","):
                self.advance()
                items.append(self.or_())
        self.expect_op("]")
        return tuple(items)

    def sum_(self) -> Expr:
        node = self.product()
        while self.tok.kind == "OP" and self.tok.value in "+-" and len(self.tok.value) == 1:
            op = self.advance().value
            node = BinOp(op, node, self.product())
        return node

    def product(self) -> Expr:
        node = self.unary()
        while self.tok.kind == "OP" and self.tok.value in ("*", "/"):
            op = self.advance().value
            node = BinOp(op, node, self.unary())
        return node

    def unary(self) -> Expr:
        if self.at("OP", "-"):
            self.advance()
            return Neg(self.unary())
        return self.atom()

    def atom(self) -> Expr:
        t = self.tok
        if t.kind == "NUMBER":
            self.advance()
            is_int = not any(c in t.value for c in ".eE")
            return Literal(int(t.value) if is_int else float(t.value))
        if t.kind == "STRING":
            self.advance()
            return Literal(t.value)
        if t.kind == "OP" and t.value == "(":
            self.advance()
            node = self.or_()
            self.expect_op(")")
            return node
        if t.kind == "NAME":
            if t.value == "true":
                self.advance()
                return Literal(True)
            if t.value == "false":
                self.advance()
                return Literal(False)
            if t.value == "null":
                self.advance()
                return Literal(None)
            if t.value in _ROOTS:
                return self.path()
            if t.value in RESERVED:
                self.fail("unexpected keyword")
            if self.peek().kind == "OP" and self.peek().value == "(":
                return self.call()
            raise ExpressionSyntaxError(
                f"unknown name {t.value!r} (a path starts with current, previous or row)",
                text=self.text,
                position=t.pos,
            )
        self.fail("expected a value")
        raise AssertionError("unreachable")

    def path(self) -> Expr:
        root = self.advance()
        fields: list[str] = []
        while self.at("OP", "."):
            self.advance()
            if self.tok.kind != "NAME":
                self.fail("expected a field name after '.'")
            fields.append(self.advance().value)
        if not fields:
            raise ExpressionSyntaxError(
                f"{root.value!r} must be followed by '.field'", text=self.text, position=root.pos
            )
        return PathExpr(root.value, tuple(fields))

    def call(self) -> Expr:
        name_tok = self.advance()
        sig = FUNCTIONS.get(name_tok.value)
        if sig is None:
            raise ExpressionSyntaxError(
                f"unknown function {name_tok.value!r}; functions are {sorted(FUNCTIONS)}",
                text=self.text,
                position=name_tok.pos,
            )
        self.expect_op("(")
        args: list[Expr] = []
        if not self.at("OP", ")"):
            args.append(self.arg(sig, 0))
            while self.at("OP", ","):
                self.advance()
                args.append(self.arg(sig, len(args)))
        self.expect_op(")")
        n = len(args)
        if n < sig.min_args or (sig.max_args is not None and n > sig.max_args):
            want = str(sig.min_args) if sig.max_args == sig.min_args else (
                f"at least {sig.min_args}" if sig.max_args is None else f"{sig.min_args} to {sig.max_args}"
            )
            raise ExpressionCheckError(
                f"{name_tok.value}() takes {want} argument(s), got {n}", text=self.text, position=name_tok.pos
            )
        return Call(name_tok.value, tuple(args))

    def arg(self, sig: FunctionSig, index: int) -> Expr:
        t, nxt = self.tok, self.peek()
        ends_arg = nxt.kind == "OP" and nxt.value in (",", ")")
        if index in sig.name_args and ends_arg:
            if t.kind == "NAME" and t.value not in RESERVED:
                self.advance()
                return BareName(t.value)
            if t.kind == "STRING":
                self.advance()
                return BareName(t.value)
        if index in sig.name_args:
            self.fail("expected a bare or quoted name")
        return self.or_()


@lru_cache(maxsize=8192)
def parse_expression(text: str) -> Expr:
    """Parse ``text`` into an expression tree; raise ExpressionSyntaxError with a position."""
    if not isinstance(text, str):
        raise ExpressionSyntaxError(f"an expression must be a string, got {text!r}")
    return _Parser(text).parse()
