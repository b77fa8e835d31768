"""Hypothesis properties: expression round trip, and random valid writes on worlds with rules.

- parse(to_source(e)) == e for generated expression trees;
- a valid write never leaves a reference to a missing record, unless that record was deleted by the action;
- replaying an action on the same state gives the same effects (determinism);
- ``run`` without ``in_place`` never changes the given state; a rolled-back action changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkit.errors import WriteError
from memkit.rules import FUNCTIONS, Action, Engine, State, World, load_world, parse_expression, side_effects, to_source
from memkit.rules.ast import BareName, BinOp, BoolOp, Call, Compare, Expr, InList, Literal, Neg, Not, PathExpr
from memkit.rules.tokens import RESERVED

from tests.memkit.rules.conftest import WORLDS

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- round trip ------------------------------------------------------------------------

identifiers = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)
bare_names = identifiers.filter(lambda s: s not in RESERVED)
field_names = st.one_of(identifiers, st.sampled_from(sorted(RESERVED)))
numbers = st.one_of(
    st.integers(min_value=0, max_value=10**12),
    st.floats(min_value=0, max_value=1e30, allow_nan=False, allow_infinity=False),
)
strings = st.text(max_size=8).filter(lambda s: not ("'" in s and '"' in s))
literals = st.builds(Literal, st.one_of(numbers, strings, st.sampled_from([True, False, None])))
paths = st.builds(PathExpr, st.sampled_from(["current", "previous", "row"]), st.lists(field_names, min_size=1, max_size=3).map(tuple))


def _calls(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    @st.composite
    def call(draw: Any) -> Expr:
        name = draw(st.sampled_from(sorted(FUNCTIONS)))
        sig = FUNCTIONS[name]
        n = draw(st.integers(sig.min_args, sig.max_args if sig.max_args is not None else sig.min_args + 3))
        args = tuple(BareName(draw(bare_names)) if i in sig.name_args else draw(children) for i in range(n))
        return Call(name, args)

    return call()


def _extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    return st.one_of(
        st.builds(Neg, children),
        st.builds(Not, children),
        st.builds(BoolOp, st.sampled_from(["and", "or"]), st.lists(children, min_size=2, max_size=3).map(tuple)),
        st.builds(BinOp, st.sampled_from(["+", "-", "*", "/"]), children, children),
        st.builds(Compare, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), children, children),
        st.builds(InList, children, st.lists(children, max_size=3).map(tuple)),
        _calls(children),
    )


expressions = st.recursive(st.one_of(literals, paths), _extend, max_leaves=12)


@SETTINGS
@given(expressions)
def test_parse_of_to_source_is_the_same_tree(expr):
    text = to_source(expr)
    assert parse_expression(text) == expr, text


@SETTINGS
@given(expressions)
def test_to_source_is_a_fixed_point(expr):
    text = to_source(expr)
    assert to_source(parse_expression(text)) == text


# -- random valid writes -------------------------------------------------------------------


@pytest.fixture(scope="module", params=["example-world.yaml", "example-world-B.yaml", "refs.yaml"])
def world(request) -> World:
    return load_world(WORLDS / request.param)


def _value(draw: Any, state: State, spec: Any) -> Any:
    if spec.type == "number":
        return draw(st.one_of(st.sampled_from([None, 0, 1, 2.5, 40, 99.999999, 100, 101, 499, 500, 501, 600]), st.integers(-5, 1000)))
    if spec.type == "string":
        return draw(st.sampled_from([None, "", "a", "Ada", "x y"]))
    if spec.type == "boolean":
        return draw(st.sampled_from([None, True, False]))
    if spec.type == "choice":
        return draw(st.sampled_from([None, *spec.choices]))
    ids = sorted(state.tables[spec.ref])
    return draw(st.sampled_from([None, *ids]))


def _action(draw: Any, state: State) -> Action:
    schema = state.schema
    table = draw(st.sampled_from(sorted(schema.tables)))
    ids = list(state.tables[table])
    ops = ["insert"] + (["update", "update", "delete"] if ids else [])
    op = draw(st.sampled_from(ops))
    if op == "insert":
        rid = draw(st.sampled_from(["X1", "X2", "X3", f"{table}__new1", f"{table}__new2"]).filter(lambda i: i not in ids))
    else:
        rid = draw(st.sampled_from(ids))
    values: dict[str, Any] = {}
    if op != "delete":
        fields = schema.tables[table].fields
        for fname in draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=3)):
            values[fname] = _value(draw, state, fields[fname])
    return Action(op, table, rid, values)


def _snapshot(state: State) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {t: [(rid, dict(rec)) for rid, rec in rows.items()] for t, rows in state.tables.items()}


def _dangling(state: State) -> set[tuple[str, str, str, str]]:
    out = set()
    for tname, tspec in state.schema.tables.items():
        for rid, rec in state.tables[tname].items():
            for fname, fspec in tspec.fields.items():
                v = rec.get(fname)
                if fspec.type == "reference" and v is not None and state.get(fspec.ref, v) is None:
                    out.add((tname, rid, fname, f"{fspec.ref}/{v}"))
    return out


@SETTINGS
@given(data=st.data())
def test_random_valid_writes_never_break_references_unless_a_delete_happened(world, data):
    engine = Engine(world.schema, world.rules)
    state = world.initial_state()
    assert _dangling(state) == set()
    for _ in range(data.draw(st.integers(1, 6), label="steps")):
        action = _action(data.draw, state)
        before_ids = {(t, rid) for t, rows in state.tables.items() for rid in rows}
        before_dangling = _dangling(state)
        result = engine.run(state, action, in_place=True, validate=True)
        after_ids = {(t, rid) for t, rows in state.tables.items() for rid in rows}
        deleted = {f"{t}/{rid}" for t, rid in before_ids - after_ids}
        deleted |= {f"{t}/{rid}" for rid, t in result.created.items() if (t, rid) not in after_ids}
        already_missing = {d[3] for d in before_dangling}  # a rule may copy a reference that already dangled
        for tname, rid, fname, target in _dangling(state) - before_dangling:
            assert target in deleted or target in already_missing, f"{action}: {tname}/{rid}.{fname} -> {target}, which was never deleted"


@SETTINGS
@given(data=st.data())
def test_replaying_an_action_gives_the_same_effects_and_run_leaves_the_state_alone(world, data):
    engine = Engine(world.schema, world.rules)
    state = world.initial_state()
    for _ in range(data.draw(st.integers(0, 3), label="warm-up")):
        engine.run(state, _action(data.draw, state), in_place=True, validate=True)
    action = _action(data.draw, state)
    snap = _snapshot(state)
    first = engine.run(state, action, validate=True)
    assert _snapshot(state) == snap  # not in place: untouched
    second = engine.run(state, action)
    third = Engine(world.schema, world.rules).run(state.copy(), action)
    assert _snapshot(state) == snap
    for other in (second, third):
        assert other.effects == first.effects
        assert other.created == first.created
        assert other.fired == first.fired
        assert other.error == first.error


@SETTINGS
@given(data=st.data())
def test_in_place_run_reports_the_diff_it_leaves(world, data):
    engine = Engine(world.schema, world.rules)
    state = world.initial_state()
    initial = state.copy()
    action = _action(data.draw, state)
    predicted = engine.run(state, action)
    done = engine.run(state, action, in_place=True)
    assert done.effects == predicted.effects
    if done.error is not None:
        assert _snapshot(state) == _snapshot(initial)
        return
    assert done.effects == side_effects(initial, state, action, done.created)
    if action.op == "delete":
        assert state.get(action.table, action.id) is None


def test_deleting_a_record_leaves_references_dangling_unless_a_rule_acts():
    w = load_world(WORLDS / "refs.yaml")
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    result = engine.run(state, Action("delete", "person", "P1"), in_place=True)
    assert result.effects == []  # P1 has no audit; nothing acts on its manager or head references
    assert _dangling(state) == {
        ("dept", "D1", "head", "person/P1"),
        ("person", "P2", "manager", "person/P1"),
        ("person", "P3", "manager", "person/P1"),
    }
    result = engine.run(state, Action("delete", "dept", "D1"), in_place=True)
    # dept_delete_moves_people nulls P2.dept; P2's budget rule then finds current.dept null and is skipped
    assert sorted(result.effects) == [("set", "person", "P2", "dept", None)]
    assert ("audit", "A1", "dept", "dept/D1") in _dangling(state)


def test_invalid_writes_change_nothing(world):
    engine = Engine(world.schema, world.rules)
    state = world.initial_state()
    snap = _snapshot(state)
    table = next(t for t in sorted(world.schema.tables) if state.tables[t])
    rid = next(iter(state.tables[table]))
    for action in (Action("update", table, rid, {"no_such_field": 1}), Action("insert", table, rid, {}), Action("delete", table, "missing")):
        with pytest.raises(WriteError):
            engine.run(state, action, in_place=True, validate=True)
        assert _snapshot(state) == snap
