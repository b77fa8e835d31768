"""Null semantics and every function of the expression language, evaluated on a small world."""

from __future__ import annotations

import pytest

from memkit.rules import EvalContext, evaluate, parse_expression

from tests.memkit.rules.conftest import world_from_yaml

WORLD = """
format: worldshift/1
name: values
tables:
  item:
    fields:
      n: {type: number}
      s: {type: string}
      b: {type: boolean}
      parent: {type: reference, ref: item}
records:
  item:
    - {id: I1, n: 2, s: x, b: true}
    - {id: I2, n: null, s: '', parent: I1}
    - {id: I3, n: 5.5, s: y, parent: I2}
    - {id: I4, s: z, b: false}
"""


@pytest.fixture(scope="module")
def world():
    return world_from_yaml(WORLD)


def ev(world, text, current="I3", previous=None, event="update"):
    state = world.initial_state()
    ctx = EvalContext(state, "item", current=state.get("item", current), previous=state.get("item", previous) if previous else None, event=event)
    return evaluate(parse_expression(text), ctx)


def same(got, want):
    """Equal and of the same kind (booleans never stand for numbers)."""
    if want is None:
        return got is None
    if isinstance(want, bool):
        return got is want
    if isinstance(want, (int, float)):
        return not isinstance(got, bool) and isinstance(got, (int, float)) and abs(got - want) < 1e-9
    return got == want


CASES = [
    # arithmetic with null or a non-number is null; / by zero is null
    ("1 + 2 * 3", 7),
    ("7 / 2", 3.5),
    ("1 + null", None),
    ("null * 2", None),
    ("'a' + 'b'", None),
    ("1 + true", None),
    ("-null", None),
    ("-'a'", None),
    ("-current.n", -5.5),
    ("1 / 0", None),
    ("0 / 0", None),
    ("current.n / (current.n - 5.5)", None),
    ("current.parent.n + 1", None),  # I2.n is null
    # == / != across kinds
    ("null == null", True),
    ("null != null", False),
    ("null == 0", False),
    ("null == ''", False),
    ("null == false", False),
    ("1 == true", False),
    ("0 == false", False),
    ("1 == '1'", False),
    ("'a' == 'a'", True),
    ("true == true", True),
    ("1 != '1'", True),
    ("current.n == 5.5", True),
    ("0.1 + 0.2 == 0.3", True),
    ("1.0000001 == 1", True),
    ("1.000001 == 1", False),
    ("2 == 2.0", True),
    # ordering: two numbers or two strings, else false
    ("1 < 2", True),
    ("2 <= 2", True),
    ("'a' < 'b'", True),
    ("'B' < 'a'", True),
    ("'b' >= 'a'", True),
    ("1 < '2'", False),
    ("null < 1", False),
    ("null >= null", False),
    ("1 > null", False),
    ("true > false", False),
    ("1.0000001 > 1", False),
    # only true is true
    ("not null", True),
    ("not 1", True),
    ("not 'true'", True),
    ("not false", True),
    ("not true", False),
    ("1 and true", False),
    ("null or true", True),
    ("null or 1", False),
    ("'x' or false", False),
    ("true and true and true", True),
    # in
    ("2 in [1, 2, 3]", True),
    ("2 in ['2']", False),
    ("null in [1, null]", True),
    ("null in [1, 2]", False),
    ("1 in []", False),
    ("true in [1]", False),
    ("2.0000001 in [2]", True),
    # paths through references and nulls
    ("current.parent.parent.s", "x"),
    ("current.parent.parent.parent.s", None),
    ("current.parent.parent.parent.parent.s", None),
    ("current.id", "I3"),
    ("current.parent.id", "I2"),
    # is_empty
    ("is_empty(null)", True),
    ("is_empty('')", True),
    ("is_empty(' ')", False),
    ("is_empty(0)", False),
    ("is_empty(false)", False),
    ("is_empty(current.parent.s)", True),
    # concat
    ("concat('a', 1, '-', null, '-', true, false)", "a1--truefalse"),
    ("concat(60.0)", "60"),
    ("concat(60)", "60"),
    ("concat(2.5)", "2.5"),
    ("concat(12 * 5)", "60"),
    ("concat(1 / 3)", "0.333333"),
    ("concat(2 / 3)", "0.666667"),
    ("concat(-2.50)", "-2.5"),
    ("concat(0.0000001)", "0"),
    ("concat(1e21 / 1e15)", "1000000"),
    ("concat(null)", ""),
    ("concat(current.s, current.n)", "y5.5"),
    # round: half away from zero on the shortest decimal form
    ("round(2.675, 2)", 2.68),
    ("round(1.005, 2)", 1.01),
    ("round(2.5, 0)", 3),
    ("round(-2.5, 0)", -3),
    ("round(0.125, 2)", 0.13),
    ("round(-0.125, 2)", -0.13),
    ("round(1.234, 1)", 1.2),
    ("round(1234.5678, 2)", 1234.57),
    ("round(7, 2)", 7),
    ("round(null, 2)", None),
    ("round(2.5, null)", None),
    ("round('2.5', 0)", None),
    # min / max
    ("min(1, 2)", 1),
    ("min(2, 1)", 1),
    ("max(1, 2)", 2),
    ("max(-1, -2)", -1),
    ("min(1, null)", None),
    ("max(null, 1)", None),
    ("max(null, null)", None),
    ("max(current.n, 10)", 10),
    # if: only true picks the first branch
    ("if(true, 'a', 'b')", "a"),
    ("if(false, 'a', 'b')", "b"),
    ("if(null, 'a', 'b')", "b"),
    ("if(1, 'a', 'b')", "b"),
    ("if(current.n > 5, current.n, null)", 5.5),
    # count / sum: null and non-numbers count as 0
    ("count(item, true)", 4),
    ("count(item, false)", 0),
    ("count(item, row.n > 1)", 2),
    ("count(item, row.b)", 1),
    ("count(item, row.b == false)", 1),
    ("count(item, row.parent == current.parent)", 1),
    ("count('item', is_empty(row.parent))", 2),
    ("sum(item, n, true)", 7.5),
    ("sum(item, n, row.n == null)", 0),
    ("sum(item, s, true)", 0),
    ("sum(item, b, true)", 0),
    ("sum('item', 'n', row.id in ['I1', 'I2'])", 2),
    ("sum(item, n, row.id == current.id) + count(item, row.parent.id == 'I1')", 6.5),
]


@pytest.mark.parametrize("text, want", CASES)
def test_value_of(world, text, want):
    got = ev(world, text)
    assert same(got, want), f"{text} -> {got!r}, want {want!r}"


def test_changed_on_update_compares_previous_and_current(world):
    # previous I1 (n=2, s=x, b=true), current I3 (n=5.5, s=y, b=null)
    assert ev(world, "changed(n)", current="I3", previous="I1") is True
    assert ev(world, "changed(n)", current="I1", previous="I1") is False
    assert ev(world, "changed(b)", current="I3", previous="I1") is True
    assert ev(world, "changes_to(s, 'y')", current="I3", previous="I1") is True
    assert ev(world, "changes_to(s, 'x')", current="I3", previous="I1") is False
    assert ev(world, "changes_from(s, 'x')", current="I3", previous="I1") is True
    assert ev(world, "changes_from(s, 'y')", current="I3", previous="I1") is False
    assert ev(world, "changes_to(s, 'x')", current="I1", previous="I1") is False


def test_changed_rounds_numbers_to_six_decimals(world):
    state = world.initial_state()
    prev = dict(state.get("item", "I1"))
    for new_n, want in ((2.0000001, False), (2.000001, True), (2, False)):
        cur = dict(prev, n=new_n)
        ctx = EvalContext(state, "item", current=cur, previous=prev, event="update")
        assert evaluate(parse_expression("changed(n)"), ctx) is want, new_n


def test_changed_on_insert_means_not_null(world):
    state = world.initial_state()
    empty = world.schema.table("item").empty_record()
    cur = dict(empty, id="I9", n=0, s="")
    ctx = EvalContext(state, "item", current=cur, previous=empty, event="insert")
    assert evaluate(parse_expression("changed(n)"), ctx) is True
    assert evaluate(parse_expression("changed(s)"), ctx) is True
    assert evaluate(parse_expression("changed(b)"), ctx) is False
    assert evaluate(parse_expression("changes_to(n, 0)"), ctx) is True
    assert evaluate(parse_expression("changes_from(n, null)"), ctx) is True


def test_changed_on_delete_is_false(world):
    state = world.initial_state()
    rec = state.get("item", "I1")
    ctx = EvalContext(state, "item", current=rec, previous=rec, event="delete")
    for f in ("n", "s", "b", "parent"):
        assert evaluate(parse_expression(f"changed({f})"), ctx) is False


def test_a_memo_shares_each_top_level_aggregate_and_changes_no_value(world):
    state = world.initial_state()
    cur = state.get("item", "I3")
    memo: dict = {}
    texts = ["count(item, row.n > 1)", "count(item, row.n > 1) * 2", "round(sum(item, n, true) / 3, 2)",
             "count(item, row.n > 1) + sum(item, n, true)",
             # an aggregate inside another's where clause depends on the row: never kept
             "count(item, count(item, row.parent == current.id) == 0)"]
    for text in texts:
        plain = evaluate(parse_expression(text), EvalContext(state, "item", current=cur, previous=cur))
        kept = evaluate(parse_expression(text), EvalContext(state, "item", current=cur, previous=cur, memo=memo))
        assert same(kept, plain), text
    assert len(memo) == 3  # count(item, row.n > 1), sum(item, n, true), and the outer count of the last
    # kept values are reused by any expression that holds the same aggregate (the context is
    # promised frozen: a record added afterwards is seen only with a new memo)
    state.put("item", {**cur, "id": "I9", "n": 10})
    assert evaluate(parse_expression("count(item, row.n > 1) * 10"), EvalContext(state, "item", current=cur, memo=memo)) == 20
    assert evaluate(parse_expression("count(item, row.n > 1) * 10"), EvalContext(state, "item", current=cur, memo={})) == 30
