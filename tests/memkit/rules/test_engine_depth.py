"""The depth limit: the test's own write has depth 1; a change at depth 17 rolls the whole action back."""

from __future__ import annotations

import pytest

from memkit.rules import MAX_DEPTH, Action, Engine

from tests.memkit.rules.conftest import same_effects, world_from_yaml


def chain_world(length: int, last_value: int | None = 0) -> str:
    """Nodes N1 -> N2 -> ... -> N<length>; updating N1.v pushes v + 1 down the chain, one write deeper per node."""
    rows = []
    for i in range(1, length + 1):
        nxt = f"N{i + 1}" if i < length else None
        v = last_value if i == length else 0
        rows.append(f"    - {{id: N{i}, next: {nxt or 'null'}, v: {'null' if v is None else v}}}")
    action = "update: {target: current.next, set: {v: current.v + 1}}"
    return f"""
format: worldshift/1
name: chain
tables:
  node:
    fields:
      next: {{type: reference, ref: node}}
      v: {{type: number}}
  log:
    fields:
      v: {{type: number}}
records:
  node:
{chr(10).join(rows)}
rules:
  - id: push
    table: node
    events: [update]
    when: after
    condition: changed(v)
    actions:
      - {action}
  - id: log_at_end
    table: node
    events: [update]
    when: after
    condition: "changed(v) and current.next == null and current.v == {length}"
    actions:
      - create: {{table: log, values: {{v: current.v}}}}
"""


def test_max_depth_is_16():
    assert MAX_DEPTH == 16


def test_chain_of_depth_16_works():
    # N1 written at depth 1 (v=1), N2 at depth 2 (v=2) ... N16 at depth 16 (v=16).
    # The log record would be created at depth 17 -> rollback; so use a chain of 15 plus the create at 16.
    w = world_from_yaml(chain_world(15))
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "node", "N1", {"v": 1}))
    assert result.error is None
    want = [("set", "node", f"N{i}", "v", i) for i in range(2, 16)] + [("create", "log", "v", 15)]
    assert same_effects(result.effects, want)


def test_update_chain_of_exactly_16_writes_works():
    w = world_from_yaml(chain_world(16).replace("current.v == 16", "current.v == 999"))
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "node", "N1", {"v": 1}))
    assert result.error is None
    assert same_effects(result.effects, [("set", "node", f"N{i}", "v", i) for i in range(2, 17)])


def test_create_at_depth_17_rolls_back():
    w = world_from_yaml(chain_world(16))
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "node", "N1", {"v": 1}))
    assert result.error is not None
    assert result.effects == []


@pytest.mark.parametrize("in_place", [False, True])
def test_update_at_depth_17_rolls_back_the_whole_action(in_place):
    w = world_from_yaml(chain_world(17))
    engine = Engine(w.schema, w.rules)
    state = w.initial_state()
    before = {t: dict(rows) for t, rows in state.tables.items()}
    result = engine.run(state, Action("update", "node", "N1", {"v": 1}), in_place=in_place)
    assert result.error is not None
    assert result.effects == []
    assert state.tables == before  # nothing it did is kept, not even the action's own write


def test_noop_write_at_depth_17_does_not_count():
    # N17 already holds 17, so the depth-17 write is a no-op: no rollback.
    w = world_from_yaml(chain_world(17, last_value=17).replace("current.v == 17", "current.v == 999"))
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "node", "N1", {"v": 1}))
    assert result.error is None
    assert same_effects(result.effects, [("set", "node", f"N{i}", "v", i) for i in range(2, 17)])


def test_skipped_update_at_depth_17_does_not_count():
    # N17 does not exist as a target (the chain ends at N16 with next null): nothing to roll back.
    w = world_from_yaml(chain_world(16).replace("current.v == 16", "current.v == 999"))
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "node", "N1", {"v": 1}))
    assert result.error is None


def test_self_recursive_rule_stops_at_the_limit():
    w = world_from_yaml(
        """
        format: worldshift/1
        name: loop
        tables:
          t: {fields: {n: {type: number}, other: {type: number}}}
        records:
          t: [{id: T1, n: 0, other: 0}]
        rules:
          - id: again
            table: t
            events: [update]
            when: after
            actions:
              - update_where: {table: t, where: "row.id == current.id", set: {n: "row.n + 1"}}
        """
    )
    result = Engine(w.schema, w.rules).run(w.initial_state(), Action("update", "t", "T1", {"other": 1}))
    assert result.error is not None and result.effects == []
