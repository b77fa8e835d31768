"""Each numbered step and each precise rule of "How a write runs", on small hand-written worlds.

Expected effects are worked out by hand from the spec, never by running the engine.
"""

from __future__ import annotations

import pytest

from memkit.errors import WriteError
from memkit.rules import Action, Engine

from tests.memkit.rules.conftest import effects, run, same_effects, world_from_yaml

# -- step 1: no-op updates, defaults on insert ---------------------------------------

NOOP = """
format: worldshift/1
name: noop
tables:
  acct:
    fields:
      name: {type: string}
      bal: {type: number}
      hits: {type: number, default: 0}
  log:
    fields:
      what: {type: string}
records:
  acct:
    - {id: A1, name: ann, bal: 40}
rules:
  - id: count_writes
    table: acct
    events: [update]
    when: before
    actions:
      - set: {hits: "current.hits + 1"}
  - id: log_writes
    table: acct
    events: [update]
    when: after
    actions:
      - create: {table: log, values: {what: "'write'"}}
"""


@pytest.fixture(scope="module")
def noop():
    return world_from_yaml(NOOP)


@pytest.mark.parametrize("values", [{"name": "ann"}, {"bal": 40}, {"bal": 40.0000001}, {"name": "ann", "bal": 40.0}])
def test_noop_update_stores_nothing_and_runs_no_rule(noop, values):
    result = run(noop, "update", "acct", "A1", values)
    assert result.error is None
    assert result.effects == []
    assert result.fired == []


def test_update_that_changes_one_field_runs_rules(noop):
    # hits: null + 1 is null (null arithmetic) -> unchanged; the after rule creates a log record
    got = effects(noop, "update", "acct", "A1", {"name": "ann", "bal": 41})
    assert same_effects(got, [("create", "log", "what", "write")])


DEFAULTS = """
format: worldshift/1
name: defaults
tables:
  order:
    fields:
      state: {type: choice, choices: [draft, done], default: draft}
      total: {type: number, default: 0}
      note: {type: string}
rules:
  - id: describe
    table: order
    events: [insert]
    when: before
    actions:
      - set: {note: "concat(current.state, '/', current.total, '/', is_empty(current.total))"}
"""


def test_insert_defaults_fill_missing_fields_and_explicit_null_stays_null():
    w = world_from_yaml(DEFAULTS)
    # state from its default; total given explicitly as null stays null
    assert same_effects(effects(w, "insert", "order", "O1", {"total": None}), [("set", "order", "O1", "note", "draft//true")])
    assert same_effects(effects(w, "insert", "order", "O2", {}), [("set", "order", "O2", "note", "draft/0/false")])
    state = w.initial_state()
    Engine(w.schema, w.rules).run(state, Action("insert", "order", "O3", {"state": "done"}), in_place=True)
    assert state.get("order", "O3") == {"id": "O3", "state": "done", "total": 0, "note": "done/0/false"}


# -- step 2: before rules in (order, id), each seeing the earlier ones' set -----------

ORDERING = """
format: worldshift/1
name: ordering
tables:
  t:
    fields:
      x: {type: number}
      trail: {type: string}
      seen: {type: string}
records:
  t:
    - {id: T1, x: 0, trail: ''}
rules:
  - {id: R2, table: t, events: [update], when: before, actions: [{set: {trail: "concat(current.trail, 'R2,')"}}]}
  - {id: R10, table: t, events: [update], when: before, actions: [{set: {trail: "concat(current.trail, 'R10,')"}}]}
  - {id: R1, table: t, events: [update], when: before, actions: [{set: {trail: "concat(current.trail, 'R1,')"}}]}
  - {id: Z, table: t, events: [update], when: before, order: 50, actions: [{set: {trail: "concat(current.trail, 'Z,')"}}]}
  - {id: A, table: t, events: [update], when: before, order: 100.5, actions: [{set: {trail: "concat(current.trail, 'A,')"}}]}
  - id: sees_earlier
    table: t
    events: [update]
    when: before
    order: 200
    condition: "current.trail == 'Z,R1,R10,R2,A,'"
    actions:
      - set: {seen: "'yes'"}
"""


def test_before_rules_run_in_order_then_id_in_plain_string_order():
    w = world_from_yaml(ORDERING)
    got = effects(w, "update", "t", "T1", {"x": 1})
    assert same_effects(got, [("set", "t", "T1", "trail", "Z,R1,R10,R2,A,"), ("set", "t", "T1", "seen", "yes")])
    assert run(w, "update", "t", "T1", {"x": 1}).fired == ["Z", "R1", "R10", "R2", "A", "sees_earlier"]


def test_after_rules_run_in_order_then_id_too():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: after-order
        tables:
          t: {fields: {x: {type: number}, trail: {type: string}}}
        records:
          t: [{id: T1, x: 0, trail: ''}, {id: T2, trail: ''}]
        rules:
          - {id: R2, table: t, events: [update], when: after, condition: "current.id == 'T1'", actions: [{update_where: {table: t, where: "row.id == 'T2'", set: {trail: "concat(row.trail, 'R2,')"}}}]}
          - {id: R10, table: t, events: [update], when: after, condition: "current.id == 'T1'", actions: [{update_where: {table: t, where: "row.id == 'T2'", set: {trail: "concat(row.trail, 'R10,')"}}}]}
          - {id: B, table: t, events: [update], when: after, order: 1, condition: "current.id == 'T1'", actions: [{update_where: {table: t, where: "row.id == 'T2'", set: {trail: "concat(row.trail, 'B,')"}}}]}
        """
    )
    assert same_effects(effects(w, "update", "t", "T1", {"x": 1}), [("set", "t", "T2", "trail", "B,R10,R2,")])


def test_before_set_evaluates_all_expressions_first_then_assigns():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: swap
        tables:
          t: {fields: {a: {type: number}, b: {type: number}, go: {type: boolean}}}
        records:
          t: [{id: T1, a: 1, b: 2}]
        rules:
          - id: swap
            table: t
            events: [update]
            when: before
            actions:
              - set: {a: current.b, b: current.a}
              - set: {go: "current.a == 2"}
        """
    )
    got = effects(w, "update", "t", "T1", {"go": False})
    assert same_effects(got, [("set", "t", "T1", "a", 2), ("set", "t", "T1", "b", 1)])  # go is the action's own field
    state = w.initial_state()
    Engine(w.schema, w.rules).run(state, Action("update", "t", "T1", {"go": False}), in_place=True)
    assert state.get("t", "T1")["go"] is True  # the second action saw the swap


# -- delete: set has no effect; count/sum in before rules see stored records ----------

STORED = """
format: worldshift/1
name: stored
tables:
  item:
    fields:
      amount: {type: number}
      before_count: {type: number}
      before_sum: {type: number}
  log:
    fields:
      amount: {type: number}
      n: {type: number}
records:
  item:
    - {id: I1, amount: 10}
    - {id: I2, amount: 5}
rules:
  - id: snapshot
    table: item
    events: [insert, update]
    when: before
    actions:
      - set: {before_count: "count(item, true)", before_sum: "sum(item, amount, true)"}
  - id: on_delete_set
    table: item
    events: [delete]
    when: before
    condition: "count(item, row.id == current.id) == 1 and sum(item, amount, true) == 15"
    actions:
      - set: {amount: 999}
  - id: on_delete_log
    table: item
    events: [delete]
    when: after
    actions:
      - create: {table: log, values: {amount: current.amount, n: "count(item, true)"}}
"""


@pytest.fixture(scope="module")
def stored():
    return world_from_yaml(STORED)


def test_count_and_sum_in_before_rule_on_insert_do_not_see_the_new_record(stored):
    got = effects(stored, "insert", "item", "I3", {"amount": 100})
    assert same_effects(got, [("set", "item", "I3", "before_count", 2), ("set", "item", "I3", "before_sum", 15)])


def test_count_and_sum_in_before_rule_on_update_see_the_old_values(stored):
    got = effects(stored, "update", "item", "I1", {"amount": 100})
    assert same_effects(got, [("set", "item", "I1", "before_count", 2), ("set", "item", "I1", "before_sum", 15)])


def test_before_rule_on_delete_sees_the_record_still_there_and_its_set_has_no_effect(stored):
    result = run(stored, "delete", "item", "I1")
    assert "on_delete_set" in result.fired  # count() still saw I1, sum() still counted its 10
    # the after rule reads current as last stored: amount 10, not the 999 of the before set
    assert same_effects(result.effects, [("create", "log", "amount", 10), ("create", "log", "n", 1)])


# -- update targets ----------------------------------------------------------------

TARGETS = """
format: worldshift/1
name: targets
tables:
  customer:
    fields:
      touched: {type: number}
  order:
    fields:
      customer: {type: reference, ref: customer}
  line:
    fields:
      order: {type: reference, ref: order}
      q: {type: number}
records:
  customer:
    - {id: C1}
  order:
    - {id: O1, customer: C1}
    - {id: O2}
  line:
    - {id: L1, order: O1, q: 1}
    - {id: L2, order: O2, q: 1}
    - {id: L3, q: 1}
rules:
  - id: touch_customer
    table: line
    events: [update]
    when: after
    actions:
      - update: {target: current.order.customer, set: {touched: current.q}}
  - id: drop_order_then_touch
    table: line
    events: [delete]
    when: after
    actions:
      - delete_where: {table: order, where: "row.id == current.order"}
      - update: {target: current.order, set: {customer: null}}
      - update: {target: current.order.customer, set: {touched: 7}}
"""


@pytest.fixture(scope="module")
def targets():
    return world_from_yaml(TARGETS)


def test_update_target_follows_references(targets):
    assert same_effects(effects(targets, "update", "line", "L1", {"q": 3}), [("set", "customer", "C1", "touched", 3)])


@pytest.mark.parametrize("line", ["L2", "L3"])
def test_update_target_skipped_when_path_meets_null(targets, line):
    result = run(targets, "update", "line", line, {"q": 3})
    assert result.error is None and result.effects == []


def test_update_target_skipped_when_the_record_no_longer_exists(targets):
    # delete_where removes O1; `update current.order` is then skipped (not re-created),
    # and current.order.customer meets a missing record, so it is skipped too.
    result = run(targets, "delete", "line", "L1")
    assert result.error is None
    assert same_effects(result.effects, [("delete", "order", "O1")])


def test_update_target_skipped_on_dangling_reference_left_by_an_earlier_action(targets):
    engine = Engine(targets.schema, targets.rules)
    state = targets.initial_state()
    engine.run(state, Action("delete", "order", "O1"), in_place=True)  # no rule on order: L1.order now dangles
    result = engine.run(state, Action("update", "line", "L1", {"q": 9}))
    assert result.error is None and result.effects == []


# -- update_where: chosen once in table order, skip deleted, row at write time ---------

WHERE = """
format: worldshift/1
name: where
tables:
  ctl:
    fields:
      go: {type: boolean}
      seq: {type: string}
  item:
    fields:
      ctl: {type: reference, ref: ctl}
      flag: {type: boolean}
      w: {type: number}
      got: {type: number}
      kill: {type: reference, ref: item}
      bump: {type: reference, ref: item}
records:
  ctl:
    - {id: C1, go: false, seq: ''}
  item:
    - {id: I2, ctl: C1, flag: true, w: 1, kill: I3, bump: I4}
    - {id: I1, ctl: C1, flag: false, w: 1}
    - {id: I3, ctl: C1, flag: true, w: 1}
    - {id: I4, ctl: C1, flag: true, w: 1}
    - {id: I5, ctl: C1, flag: true, w: 1, bump: I1}
rules:
  - id: go
    table: ctl
    events: [update]
    when: after
    condition: "changes_to(go, true)"
    actions:
      - update_where: {table: item, where: "row.flag", set: {got: "row.w * 10"}}
  - id: item_log
    table: item
    events: [update]
    when: after
    condition: "changed(got)"
    actions:
      - update: {target: current.ctl, set: {seq: "concat(current.ctl.seq, current.id, ',')"}}
      - delete_where: {table: item, where: "row.id == current.kill"}
      - update_where: {table: item, where: "row.id == current.bump", set: {w: 5, flag: true}}
"""


def test_update_where_chooses_matches_once_in_table_order_and_skips_deleted_ones():
    w = world_from_yaml(WHERE)
    got = effects(w, "update", "ctl", "C1", {"go": True})
    # matches chosen once, in file order: I2, I3, I4, I5 (I1 does not match yet).
    # I2 (got 10) logs, kills I3 and bumps I4 (w 5); I3 is skipped (deleted);
    # I4's set sees w=5 at its own write (got 50); I5 (got 10) bumps I1 to flag true,
    # but I1 was not chosen, so it gets no `got`.
    want = [
        ("set", "item", "I2", "got", 10),
        ("delete", "item", "I3"),
        ("set", "item", "I4", "w", 5),
        ("set", "item", "I4", "got", 50),
        ("set", "item", "I5", "got", 10),
        ("set", "item", "I1", "w", 5),
        ("set", "item", "I1", "flag", True),
        ("set", "ctl", "C1", "seq", "I2,I4,I5,"),
    ]
    assert same_effects(got, want)


def test_table_order_is_file_order_then_insertion_and_update_keeps_the_place():
    w = world_from_yaml(WHERE)
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    engine.run(state, Action("insert", "item", "I0", {"ctl": "C1", "flag": True, "w": 2}), in_place=True)
    engine.run(state, Action("update", "item", "I2", {"w": 3, "kill": None, "bump": None}), in_place=True)
    got = engine.run(state, Action("update", "ctl", "C1", {"go": True})).effects
    seq = [e for e in got if e[0] == "set" and e[1] == "ctl"]
    # I2 stays first though updated; I0 was inserted last; I5 bumps I1 (not chosen)
    assert seq == [("set", "ctl", "C1", "seq", "I2,I3,I4,I5,I0,")]


# -- create: generated ids ------------------------------------------------------------

CREATE = """
format: worldshift/1
name: create
tables:
  order:
    fields:
      n: {type: number}
  approval:
    fields:
      order: {type: reference, ref: order}
      state: {type: string, default: requested}
records:
  order:
    - {id: O1, n: 0}
  approval:
    - {id: approval__new1, order: O1}
    - {id: approval__new3, order: O1}
rules:
  - id: ask
    table: order
    events: [update]
    when: after
    actions:
      - create: {table: approval, values: {order: current.id}}
      - create: {table: approval, values: {order: current.id}}
      - create: {table: approval, values: {order: current.id, state: "'x'"}}
"""


def test_created_ids_count_per_table_and_skip_ids_in_use():
    w = world_from_yaml(CREATE)
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    result = engine.run(state, Action("update", "order", "O1", {"n": 1}), in_place=True)
    assert set(result.created) == {"approval__new2", "approval__new4", "approval__new5"}
    assert state.get("approval", "approval__new2") == {"id": "approval__new2", "order": "O1", "state": "requested"}
    assert state.get("approval", "approval__new5")["state"] == "x"
    assert same_effects(
        result.effects,
        [
            ("create", "approval", "order", "O1"),
            ("create", "approval", "state", "requested"),
            ("create", "approval", "order", "O1"),
            ("create", "approval", "state", "requested"),
            ("create", "approval", "order", "O1"),
            ("create", "approval", "state", "x"),
        ],
    )


def test_generated_ids_are_deterministic():
    w = world_from_yaml(CREATE)
    a = run(w, "update", "order", "O1", {"n": 1})
    b = run(w, "update", "order", "O1", {"n": 1})
    assert a.created == b.created and a.effects == b.effects


# -- a rule's actions all run; previous fixed; current re-read -------------------------

FLOW = """
format: worldshift/1
name: flow
tables:
  t:
    fields:
      flag: {type: boolean}
      x: {type: string}
      y: {type: number}
  log:
    fields:
      prev_x: {type: string}
      cur_x: {type: string}
      flag: {type: boolean}
records:
  t:
    - {id: T1, flag: false, x: a}
rules:
  - id: main
    table: t
    events: [update]
    when: after
    condition: "changes_to(flag, true)"
    actions:
      - update_where: {table: t, where: "row.id == current.id", set: {flag: false, x: "'c'"}}
      - create: {table: log, values: {prev_x: previous.x, cur_x: current.x, flag: current.flag}}
"""


def test_all_actions_run_even_if_the_condition_became_false_previous_fixed_current_reread():
    w = world_from_yaml(FLOW)
    got = effects(w, "update", "t", "T1", {"flag": True, "x": "b"})
    # the action itself wrote flag and x; the rule sets them to false and 'c' (x is an own field: not shown;
    # flag is own too). The log sees previous.x = 'a' (stored before the whole write) and current.x = 'c'.
    assert same_effects(got, [("create", "log", "prev_x", "a"), ("create", "log", "cur_x", "c"), ("create", "log", "flag", False)])


STALE = """
format: worldshift/1
name: stale
tables:
  t:
    fields:
      x: {type: number}
      y: {type: number}
  log:
    fields:
      v: {type: number}
records:
  t:
    - {id: T1, x: 1}
rules:
  - id: A
    table: t
    events: [update]
    when: after
    condition: "changed(y)"
    actions:
      - update_where: {table: t, where: "row.id == current.id", set: {x: 5}}
      - create: {table: log, values: {v: current.x}}
  - id: B
    table: t
    events: [update]
    when: after
    condition: "changes_to(x, 5)"
    actions:
      - delete_where: {table: t, where: "row.id == current.id"}
"""


def test_current_of_a_record_deleted_in_a_cascade_is_its_last_stored_values():
    w = world_from_yaml(STALE)
    # A's update_where writes T1.x = 5 (depth 2); B then deletes T1 (depth 3).
    # A's create reads current.x: T1 is gone, its last stored values have x = 5.
    got = effects(w, "update", "t", "T1", {"y": 1})
    assert same_effects(got, [("create", "log", "v", 5), ("delete", "t", "T1")])


def test_values_written_by_rules_are_not_type_checked():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: untyped
        tables:
          t: {fields: {n: {type: number}, s: {type: string}}}
        records:
          t: [{id: T1, n: 1, s: a}]
        rules:
          - {id: R, table: t, events: [update], when: before, condition: "changed(s)", actions: [{set: {n: "'text'"}}]}
        """
    )
    assert same_effects(effects(w, "update", "t", "T1", {"s": "b"}), [("set", "t", "T1", "n", "text")])


def test_invalid_actions_raise_write_error_with_validate(noop):
    engine = Engine(noop.schema, noop.rules)
    state = noop.initial_state()
    bad = [
        Action("update", "acct", "A9", {"bal": 1}),
        Action("insert", "acct", "A1", {}),
        Action("update", "nosuch", "A1", {}),
        Action("update", "acct", "A1", {"nosuch": 1}),
        Action("update", "acct", "A1", {"bal": "lots"}),
        Action("update", "acct", "A1", {"id": "A2"}),
    ]
    for action in bad:
        with pytest.raises(WriteError):
            engine.run(state, action, validate=True)
    assert state.tables == noop.initial_state().tables
