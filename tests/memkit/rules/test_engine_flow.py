"""Order of work inside one action: depth first, conditions evaluated at their turn, no-op decided once."""

from __future__ import annotations

from memkit.rules import Action, Engine

from tests.memkit.rules.conftest import effects, run, same_effects, world_from_yaml

DEPTH_FIRST = """
format: worldshift/1
name: depth-first
tables:
  t:
    fields:
      go: {type: boolean}
      a: {type: reference, ref: t}
      b: {type: reference, ref: t}
      hit: {type: boolean}
      log: {type: reference, ref: journal}
  journal:
    fields:
      trail: {type: string}
records:
  journal:
    - {id: J, trail: ''}
  t:
    - {id: ROOT, go: false, a: A, b: B, log: J}
    - {id: A, a: AA, log: J}
    - {id: AA, log: J}
    - {id: B, log: J}
rules:
  - id: fan_out
    table: t
    events: [update]
    when: after
    condition: "changes_to(go, true)"
    actions:
      - update: {target: current.a, set: {hit: true}}
      - update: {target: current.b, set: {hit: true}}
  - id: on_hit
    table: t
    events: [update]
    when: after
    condition: "changes_to(hit, true)"
    actions:
      - update: {target: current.log, set: {trail: "concat(current.log.trail, current.id, ',')"}}
      - update: {target: current.a, set: {hit: true}}
"""


def test_after_rule_writes_run_depth_first():
    w = world_from_yaml(DEPTH_FIRST)
    got = effects(w, "update", "t", "ROOT", {"go": True})
    # A is written, its rule logs A and writes AA (which logs) before B is written.
    want = [
        ("set", "t", "A", "hit", True),
        ("set", "t", "AA", "hit", True),
        ("set", "t", "B", "hit", True),
        ("set", "journal", "J", "trail", "A,AA,B,"),
    ]
    assert same_effects(got, want)


CONDITION_NOW = """
format: worldshift/1
name: condition-now
tables:
  t:
    fields:
      x: {type: number}
      stage: {type: string}
  log:
    fields:
      what: {type: string}
records:
  t:
    - {id: T1, x: 0, stage: a}
rules:
  - id: R1
    table: t
    events: [update]
    when: after
    condition: "changed(x) and current.stage == 'a'"
    actions:
      - update_where: {table: t, where: "row.id == current.id", set: {stage: "'b'"}}
  - id: R2
    table: t
    events: [update]
    when: after
    condition: "changed(x) and current.stage == 'b'"
    actions:
      - create: {table: log, values: {what: "concat('saw ', current.stage, ' prev ', previous.stage)"}}
"""


def test_a_later_after_rule_sees_what_an_earlier_one_wrote():
    w = world_from_yaml(CONDITION_NOW)
    # R1 sets stage b (a nested write of T1 whose own after rules do not fire: x unchanged there);
    # R2's condition is evaluated at its turn, on the stored record: stage b; previous is fixed (stage a).
    got = effects(w, "update", "t", "T1", {"x": 1})
    assert same_effects(got, [("set", "t", "T1", "stage", "b"), ("create", "log", "what", "saw b prev a")])


REVERT = """
format: worldshift/1
name: revert
tables:
  t:
    fields:
      locked: {type: boolean}
      v: {type: number}
  log:
    fields:
      v: {type: number}
records:
  t:
    - {id: T1, locked: true, v: 1}
rules:
  - id: keep_locked
    table: t
    events: [update]
    when: before
    condition: "current.locked"
    actions:
      - set: {v: previous.v}
  - id: audit
    table: t
    events: [update]
    when: after
    actions:
      - create: {table: log, values: {v: current.v}}
"""


def test_noop_is_decided_on_the_merged_values_only_not_after_before_rules():
    w = world_from_yaml(REVERT)
    # the update changes v, so it is not a no-op; the before rule puts v back; the record is still
    # stored and the after rule runs (v is the action's own field, so no set effect).
    result = run(w, "update", "t", "T1", {"v": 5})
    assert result.fired == ["keep_locked", "audit"]
    assert same_effects(result.effects, [("create", "log", "v", 1)])


CREATE_DEFAULTS = """
format: worldshift/1
name: create-defaults
tables:
  t:
    fields:
      go: {type: boolean}
  ticket:
    fields:
      state: {type: string, default: new}
      prio: {type: number, default: 3}
      owner: {type: reference, ref: t}
records:
  t:
    - {id: T1, go: false}
rules:
  - id: open
    table: t
    events: [update]
    when: after
    actions:
      - create: {table: ticket, values: {state: null, owner: current.id}}
"""


def test_create_applies_defaults_and_keeps_explicit_null():
    w = world_from_yaml(CREATE_DEFAULTS)
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    result = engine.run(state, Action("update", "t", "T1", {"go": True}), in_place=True)
    assert same_effects(result.effects, [("create", "ticket", "prio", 3), ("create", "ticket", "owner", "T1")])
    assert state.get("ticket", "ticket__new1") == {"id": "ticket__new1", "state": None, "prio": 3, "owner": "T1"}


def test_quoted_field_names_in_changed_work_in_rules():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: quoted
        tables:
          t: {fields: {a: {type: number}, b: {type: number}, n: {type: number}}}
          u: {fields: {k: {type: number}}}
        records:
          t: [{id: T1, a: 1, b: 1}]
          u: [{id: U1, k: 2}, {id: U2, k: 3}, {id: U3, k: null}]
        rules:
          - id: r
            table: t
            events: [update]
            when: before
            condition: "changed('a') and not changed(\\"b\\")"
            actions:
              - set: {n: "sum('u', \\"k\\", true) + count(\\"u\\", row.k > 2)"}
        """
    )
    assert same_effects(effects(w, "update", "t", "T1", {"a": 2}), [("set", "t", "T1", "n", 6)])
    assert effects(w, "update", "t", "T1", {"a": 2, "b": 2}) == []


def test_before_and_after_rules_on_delete():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: deletes
        tables:
          parent: {fields: {kids: {type: number}}}
          kid: {fields: {parent: {type: reference, ref: parent}, name: {type: string}}}
        records:
          parent: [{id: P1, kids: 2}]
          kid: [{id: K1, parent: P1, name: a}, {id: K2, parent: P1, name: b}]
        rules:
          - id: recount
            table: kid
            events: [delete]
            when: after
            condition: "not changed(name)"
            actions:
              - update: {target: current.parent, set: {kids: "count(kid, row.parent == current.parent)"}}
          - id: cascade
            table: parent
            events: [update]
            when: after
            condition: "changes_to(kids, 0)"
            actions:
              - delete_where: {table: parent, where: "row.id == current.id"}
        """
    )
    # K1 goes: P1.kids = 1 (K1 no longer counted; changed() is false on delete)
    assert same_effects(effects(w, "delete", "kid", "K1"), [("set", "parent", "P1", "kids", 1)])
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    engine.run(state, Action("delete", "kid", "K1"), in_place=True)
    # K2 goes: P1.kids = 0, which deletes P1: the only effect is the deletion
    result = engine.run(state, Action("delete", "kid", "K2"))
    assert same_effects(result.effects, [("delete", "parent", "P1")])


OVERRIDE = """
format: worldshift/1
name: override
tables:
  line:
    fields:
      quantity: {type: number}
      amount: {type: number}
      note: {type: string}
records:
  line:
    - {id: L1, quantity: 2, amount: 4, note: ''}
rules:
  - id: amount
    table: line
    events: [update]
    when: before
    condition: "changed(quantity)"
    actions:
      - set: {amount: "current.quantity * 2"}
"""


def test_the_result_holds_the_final_values_of_the_fields_the_write_set_itself():
    # side effects leave the written fields out, even where a before rule overrode them
    world = world_from_yaml(OVERRIDE)
    engine = Engine(world.schema, world.rules)
    overridden = engine.run(world.initial_state(), Action("update", "line", "L1", {"quantity": 5, "amount": 1}))
    assert overridden.effects == [] and overridden.written_final == {"quantity": 5, "amount": 10}
    kept = engine.run(world.initial_state(), Action("update", "line", "L1", {"amount": 1, "note": "x"}))
    assert kept.written_final == {"amount": 1, "note": "x"}
    assert engine.run(world.initial_state(), Action("delete", "line", "L1")).written_final == {}
