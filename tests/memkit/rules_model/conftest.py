"""A small shop world (the rule model may be tested without evals' built-in worlds)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from memkit.rules import World, parse_world

SHOP = """
format: worldshift/1
name: shop
tables:
  customer:
    fields:
      name: {type: string}
      tier: {type: choice, choices: [basic, gold]}
      open_orders: {type: number, default: 0}
  order:
    fields:
      customer: {type: reference, ref: customer}
      state: {type: choice, choices: [draft, submitted, approved, cancelled], default: draft}
      total: {type: number, default: 0}
      needs_approval: {type: boolean, default: false}
  order_line:
    fields:
      order: {type: reference, ref: order}
      quantity: {type: number}
      unit_price: {type: number}
      amount: {type: number}
  approval:
    fields:
      order: {type: reference, ref: order}
      state: {type: choice, choices: [requested, approved, rejected]}
records:
  customer:
    - {id: C1, name: Ada, tier: gold, open_orders: 1}
    - {id: C2, name: Bo, tier: basic, open_orders: 0}
  order:
    - {id: O1, customer: C1, state: draft, total: 40, needs_approval: false}
    - {id: O2, customer: C2, state: draft, total: 0, needs_approval: true}
  order_line:
    - {id: L1, order: O1, quantity: 2, unit_price: 20, amount: 40}
rules:
  - id: line_amount
    name: Line amount follows quantity and price
    table: order_line
    events: [insert, update]
    when: before
    condition: "changed(quantity) or changed(unit_price)"
    actions:
      - set: {amount: "round(current.quantity * current.unit_price, 2)"}
  - id: order_total
    table: order_line
    events: [insert, update, delete]
    when: after
    actions:
      - update: {target: current.order, set: {total: "sum('order_line', 'amount', row.order == current.order)"}}
  - id: approval_on_submit
    table: order
    events: [update]
    when: after
    condition: "changes_to(state, 'submitted') and current.needs_approval"
    actions:
      - create: {table: approval, values: {order: current.id, state: "'requested'"}}
  - id: cancel_clears
    table: order
    events: [update]
    when: after
    condition: "changes_to(state, 'cancelled')"
    actions:
      - update: {target: current.customer, set: {open_orders: "max(current.customer.open_orders - 1, 0)"}}
tests:
  - {op: update, table: order_line, id: L1, values: {quantity: 3}}
  - {op: insert, table: order_line, id: L9, values: {order: O1, quantity: 1, unit_price: 5}}
  - {op: update, table: order, id: O2, values: {state: submitted}}
  - {op: update, table: order, id: O1, values: {state: cancelled}}
  - {op: update, table: customer, id: C2, values: {name: Bea}}
"""


@pytest.fixture(scope="session")
def shop() -> World:
    """The shop world: four tables, four rules (before/after, update, create), five tests."""
    return parse_world(yaml.safe_load(textwrap.dedent(SHOP)), Path("shop.yaml"))
