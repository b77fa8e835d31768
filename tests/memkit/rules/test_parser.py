"""Parser of worldshift/1 expressions: precedence, associativity, paths, bare names, errors with positions."""

from __future__ import annotations

import pytest

from memkit.errors import ExpressionCheckError, ExpressionError, ExpressionSyntaxError, MemkitError
from memkit.rules import parse_expression
from memkit.rules.ast import BareName, BinOp, BoolOp, Call, Compare, InList, Literal, Neg, Not, PathExpr

P = parse_expression


def cur(*fields: str) -> PathExpr:
    return PathExpr("current", tuple(fields))


def lit(v: object) -> Literal:
    return Literal(v)


# -- precedence ---------------------------------------------------------------


def test_and_binds_tighter_than_or():
    assert P("current.a or current.b and current.c") == BoolOp("or", (cur("a"), BoolOp("and", (cur("b"), cur("c")))))
    assert P("current.a and current.b or current.c") == BoolOp("or", (BoolOp("and", (cur("a"), cur("b"))), cur("c")))


def test_not_binds_tighter_than_and_but_looser_than_comparison():
    assert P("not current.a and current.b") == BoolOp("and", (Not(cur("a")), cur("b")))
    assert P("not current.a == 1") == Not(Compare("==", cur("a"), lit(1)))
    assert P("not not current.a") == Not(Not(cur("a")))


def test_parentheses_override_precedence():
    assert P("(current.a or current.b) and current.c") == BoolOp("and", (BoolOp("or", (cur("a"), cur("b"))), cur("c")))


def test_comparison_is_looser_than_arithmetic():
    assert P("current.a + 1 == current.b * 2") == Compare("==", BinOp("+", cur("a"), lit(1)), BinOp("*", cur("b"), lit(2)))
    assert P("1 + 2 < 3 - 4") == Compare("<", BinOp("+", lit(1), lit(2)), BinOp("-", lit(3), lit(4)))


def test_product_binds_tighter_than_sum():
    assert P("1 + 2 * 3") == BinOp("+", lit(1), BinOp("*", lit(2), lit(3)))
    assert P("1 * 2 + 3") == BinOp("+", BinOp("*", lit(1), lit(2)), lit(3))


@pytest.mark.parametrize("op", ["-", "/"])
def test_arithmetic_is_left_associative(op):
    assert P(f"1 {op} 2 {op} 3") == BinOp(op, BinOp(op, lit(1), lit(2)), lit(3))


def test_mixed_sum_is_left_associative():
    assert P("1 - 2 + 3") == BinOp("+", BinOp("-", lit(1), lit(2)), lit(3))
    assert P("8 / 4 * 2") == BinOp("*", BinOp("/", lit(8), lit(4)), lit(2))


def test_unary_minus_binds_tightest():
    assert P("-2 * 3") == BinOp("*", Neg(lit(2)), lit(3))
    assert P("- -current.a") == Neg(Neg(cur("a")))
    assert P("1 - -2") == BinOp("-", lit(1), Neg(lit(2)))
    assert P("-current.a.b") == Neg(cur("a", "b"))


def test_all_comparison_operators():
    for op in ("==", "!=", "<", "<=", ">", ">="):
        assert P(f"current.a {op} 1") == Compare(op, cur("a"), lit(1))


def test_in_list():
    assert P("current.state in ['a', 'b']") == InList(cur("state"), (lit("a"), lit("b")))
    assert P("current.n in []") == InList(cur("n"), ())
    assert P("current.n + 1 in [1 + 1, null]") == InList(BinOp("+", cur("n"), lit(1)), (BinOp("+", lit(1), lit(1)), lit(None)))
    assert P("not current.s in ['x']") == Not(InList(cur("s"), (lit("x"),)))


# -- atoms ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [("0", 0), ("42", 42), ("2.5", 2.5), ("1e3", 1000.0), ("1.5E-2", 0.015), ("2e+2", 200.0), ("true", True), ("false", False), ("null", None)],
)
def test_constants(text, value):
    node = P(text)
    assert isinstance(node, Literal)
    assert node.value == value
    assert isinstance(node.value, bool) == isinstance(value, bool)


def test_strings_have_no_escapes_and_either_quote():
    assert P("'it\"s'") == lit('it"s')
    assert P("\"it's\"") == lit("it's")
    assert P("''") == lit("")
    assert P("'a\\'") == lit("a\\")


def test_paths_walk_references_and_accept_reserved_words_as_field_names():
    assert P("current.request.opened_by.department") == cur("request", "opened_by", "department")
    assert P("previous.order") == PathExpr("previous", ("order",))
    assert P("row.and.or.not.in.true.null.row") == PathExpr("row", ("and", "or", "not", "in", "true", "null", "row"))
    assert P("current.order == 1") == Compare("==", cur("order"), lit(1))


def test_bare_and_quoted_names_in_changed_count_sum():
    assert P("changed(quantity)") == P("changed('quantity')") == Call("changed", (BareName("quantity"),))
    assert P('changes_to(state, "x")') == Call("changes_to", (BareName("state"), lit("x")))
    assert P("count(order_line, true)") == P("count('order_line', true)") == Call("count", (BareName("order_line"), lit(True)))
    assert P("sum(order_line, amount, row.order == current.id)") == P("sum('order_line', \"amount\", row.order == current.id)")
    # a field called like a table or a keyword-free name works as a bare name
    assert P("changed(order)") == Call("changed", (BareName("order"),))


def test_other_function_arguments_are_expressions():
    assert P("is_empty('x')") == Call("is_empty", (lit("x"),))
    assert P("concat('a', current.b, 1)") == Call("concat", (lit("a"), cur("b"), lit(1)))
    assert P("if(current.a > 1, 'big', 'small')") == Call("if", (Compare(">", cur("a"), lit(1)), lit("big"), lit("small")))
    assert P("round(current.a * 2, 2)") == Call("round", (BinOp("*", cur("a"), lit(2)), lit(2)))
    assert P("max(min(1, 2), 3)") == Call("max", (Call("min", (lit(1), lit(2))), lit(3)))


def test_whitespace_is_free():
    assert P("  current.a==1and  current.b ") == BoolOp("and", (Compare("==", cur("a"), lit(1)), cur("b")))


# -- errors with positions ---------------------------------------------------------

ERRORS = [
    ("", "empty", 0),
    ("   ", "empty", 0),
    ("1 +", "end of expression", 3),
    ("current.a = 1", "==", 10),
    ("(1 + 2", "')'", 6),
    ("1 + 2)", "unexpected", 5),
    ("'abc", "unterminated", 0),
    ("current.a == \"x", "unterminated", 13),
    ("current", "current", 0),
    ("current.", "field name", 8),
    ("current.1", "field name", 8),
    ("foo", "unknown name", 0),
    ("x.y == 1", "unknown name", 0),
    ("nosuch(1)", "unknown function", 0),
    ("1 < 2 < 3", "unexpected", 6),
    ("current.a in 1", "'['", 13),
    ("current.a in [1, 2", "']'", 18),
    ("1 $ 2", "unexpected character", 2),
    ("1e", "exponent", 1),
    ("and", "keyword", 0),
    ("1 and or 2", "keyword", 6),
    ("changed(current.a)", "name", 8),
    ("count(1 + 1, true)", "name", 6),
    ("not", "end of expression", 3),
    ("max(1, 2", "')'", 8),
]


@pytest.mark.parametrize("text, message, position", ERRORS)
def test_syntax_errors_carry_position(text, message, position):
    with pytest.raises(ExpressionError) as info:
        P(text)
    err = info.value
    assert isinstance(err, MemkitError)
    assert message in str(err)
    assert err.position == position
    assert f"position {position}" in str(err)


@pytest.mark.parametrize(
    "text, position",
    [("changed()", 0), ("changed(a, 1)", 0), ("round(1)", 0), ("1 + min(1, 2, 3)", 4), ("if(true, 1)", 0), ("count(t)", 0), ("sum(t, f)", 0), ("concat()", 0)],
)
def test_wrong_arity_is_an_error_with_the_call_position(text, position):
    with pytest.raises(ExpressionCheckError) as info:
        P(text)
    assert info.value.position == position
    assert "argument" in str(info.value)


def test_syntax_errors_are_syntax_errors():
    with pytest.raises(ExpressionSyntaxError):
        P("1 +")
