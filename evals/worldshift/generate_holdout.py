"""Generator of the held-out world family ``holdout-A`` ... ``holdout-D`` (package data).

A warehouse inventory and purchasing domain, deliberately unlike the
EnterpriseWorldShift service desk: 8 tables, 133 initial records, 18 rules in
world A. B modifies one rule (the carrier's fee per kg goes up: a computed
value changes), C adds one (a stock level that turns low raises a draft
purchase order with the product's supplier), D deletes one (stock that runs
out no longer opens an out-of-stock alert).

The family measures how a rule-discovery agent generalises; it is built from
the format spec and the engine only, never from agent code, and must never be
used to tune an agent.

``python -m evals.worldshift.generate_holdout`` rewrites the four files; a
test checks that the shipped files are exactly its output. ``_world_writer``
picks the tests (60 per world) from this module's candidate writes, as for
every family; D's show that the deleted rule's effect is gone.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from memkit.rules import State

from evals.worldshift._candidates import CandidateWrites, Limits, Row, numbered_ids, pick_row
from evals.worldshift._fields import boolean, choice, number, reference, string, table
from evals.worldshift._world_writer import Shift, WorldFamily

__all__ = ["FAMILY", "FEE_PER_KG_A", "FEE_PER_KG_B", "build_shifts"]

FEE_PER_KG_A = 1.8
FEE_PER_KG_B = 2.25
LOW_STOCK = 25
APPROVAL_TOTAL = 5000

TABLES: dict[str, Any] = {
    "warehouse": table(name=string(), region=choice(["north", "south", "east", "west"]), capacity=number(), active=boolean(True)),
    "supplier": table(name=string(), rating=number(), preferred=boolean(False), lead_days=number(7), blocked=boolean(False)),
    "product": table(name=string(), category=choice(["electronics", "furniture", "apparel", "grocery", "tools"]),
                     supplier=reference("supplier"), unit_cost=number(), weight=number(), discontinued=boolean(False)),
    "stock": table(product=reference("product"), warehouse=reference("warehouse"), on_hand=number(0),
                   status=choice(["ok", "low", "out"], "ok"), value=number(0)),
    "purchase_order": table(supplier=reference("supplier"), warehouse=reference("warehouse"),
                            state=choice(["draft", "sent", "received", "cancelled"], "draft"), total=number(0), line_count=number(0),
                            needs_approval=boolean(False)),
    "po_line": table(purchase_order=reference("purchase_order"), product=reference("product"), quantity=number(1), unit_cost=number(),
                     amount=number(0), received=boolean(False)),
    "shipment": table(warehouse=reference("warehouse"), product=reference("product"), quantity=number(), weight=number(),
                      service=choice(["standard", "express"], "standard"),
                      state=choice(["pending", "packed", "shipped", "delivered", "cancelled"], "pending"), fee=number(0)),
    "alert": table(stock=reference("stock"), warehouse=reference("warehouse"), kind=choice(["out_of_stock", "damaged", "count_mismatch"]),
                   open=boolean(True)),
}

_ID_PREFIX = {"warehouse": "WH", "supplier": "SUP", "product": "PRD", "stock": "STK", "purchase_order": "PO", "po_line": "POL",
              "shipment": "SHP", "alert": "ALR"}


def _fee_rule(rate: float, name: str) -> dict[str, Any]:
    return {"id": "H11", "name": name, "table": "shipment", "events": ["insert", "update"], "when": "before",
            "condition": "changed(weight)", "actions": [{"set": {"fee": f"round(current.weight * {rate}, 2)"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 18 rules of world A (ids H01..H18 stay the same across shifted worlds)."""
    return [
        {"id": "H01", "name": "A new order line without a cost takes the product's cost", "table": "po_line", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.unit_cost)",
         "actions": [{"set": {"unit_cost": "current.product.unit_cost"}}]},
        {"id": "H02", "name": "Line amount follows quantity and unit cost", "table": "po_line", "events": ["insert", "update"],
         "when": "before", "order": 20, "condition": "changed(quantity) or changed(unit_cost)",
         "actions": [{"set": {"amount": "round(current.quantity * current.unit_cost, 2)"}}]},
        {"id": "H03", "name": "A purchase order totals and counts its lines", "table": "po_line", "events": ["insert", "update", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.purchase_order", "set": {
             "total": "sum(po_line, amount, row.purchase_order == current.purchase_order)",
             "line_count": "count(po_line, row.purchase_order == current.purchase_order)"}}}]},
        {"id": "H04", "name": f"Purchase orders above {APPROVAL_TOTAL} need approval", "table": "purchase_order", "events": ["update"],
         "when": "before", "condition": f"changed(total) and current.total > {APPROVAL_TOTAL}",
         "actions": [{"set": {"needs_approval": True}}]},
        {"id": "H05", "name": "Receiving a purchase order receives its lines", "table": "purchase_order", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'received')",
         "actions": [{"update_where": {"table": "po_line", "where": "row.purchase_order == current.id and row.received == false",
                                       "set": {"received": True}}}]},
        {"id": "H06", "name": "A received line adds its quantity to the stock of the order's warehouse", "table": "po_line",
         "events": ["update"], "when": "after", "condition": "changes_to(received, true)",
         "actions": [{"update_where": {"table": "stock",
                                       "where": "row.product == current.product and row.warehouse == current.purchase_order.warehouse",
                                       "set": {"on_hand": "row.on_hand + current.quantity"}}}]},
        {"id": "H07", "name": "Stock value follows the quantity on hand", "table": "stock", "events": ["insert", "update"],
         "when": "before", "condition": "changed(on_hand)",
         "actions": [{"set": {"value": "round(current.on_hand * current.product.unit_cost, 2)"}}]},
        {"id": "H08", "name": f"Stock below {LOW_STOCK} is low", "table": "stock", "events": ["update"], "when": "before", "order": 10,
         "condition": f"changed(on_hand) and current.on_hand < {LOW_STOCK}",
         "actions": [{"set": {"status": "'low'"}}]},
        {"id": "H09", "name": "Stock at or below zero is out", "table": "stock", "events": ["update"], "when": "before", "order": 20,
         "condition": "changed(on_hand) and current.on_hand <= 0",
         "actions": [{"set": {"status": "'out'"}}]},
        {"id": "H10", "name": "Stock that runs out opens an out-of-stock alert", "table": "stock", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'out')",
         "actions": [{"create": {"table": "alert", "values": {"stock": "current.id", "warehouse": "current.warehouse",
                                                               "kind": "'out_of_stock'", "open": True}}}]},
        _fee_rule(FEE_PER_KG_A, f"Shipping fee is {FEE_PER_KG_A} per kg"),
        {"id": "H12", "name": "Shipping takes the quantity out of the warehouse's stock", "table": "shipment", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'shipped')",
         "actions": [{"update_where": {"table": "stock", "where": "row.product == current.product and row.warehouse == current.warehouse",
                                       "set": {"on_hand": "row.on_hand - current.quantity"}}}]},
        {"id": "H13", "name": "Grocery shipments go express", "table": "shipment", "events": ["insert"], "when": "before",
         "condition": "current.product.category == 'grocery'",
         "actions": [{"set": {"service": "'express'"}}]},
        {"id": "H14", "name": "Deleting a purchase order deletes its lines", "table": "purchase_order", "events": ["delete"],
         "when": "after",
         "actions": [{"delete_where": {"table": "po_line", "where": "row.purchase_order == current.id"}}]},
        {"id": "H15", "name": "Blocking a supplier cancels its draft purchase orders", "table": "supplier", "events": ["update"],
         "when": "after", "condition": "changes_to(blocked, true)",
         "actions": [{"update_where": {"table": "purchase_order", "where": "row.supplier == current.id and row.state == 'draft'",
                                       "set": {"state": "'cancelled'"}}}]},
        {"id": "H16", "name": "Cancelling a purchase order drops its unreceived lines", "table": "purchase_order", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'cancelled')",
         "actions": [{"delete_where": {"table": "po_line", "where": "row.purchase_order == current.id and row.received == false"}}]},
        {"id": "H17", "name": "Closing a warehouse cancels its pending shipments", "table": "warehouse", "events": ["update"],
         "when": "after", "condition": "changes_to(active, false)",
         "actions": [{"update_where": {"table": "shipment", "where": "row.warehouse == current.id and row.state == 'pending'",
                                       "set": {"state": "'cancelled'"}}}]},
        {"id": "H18", "name": "A supplier rated below 2 loses preferred status", "table": "supplier", "events": ["update"],
         "when": "before", "condition": "changed(rating) and current.rating < 2",
         "actions": [{"set": {"preferred": False}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies H11 (fee per kg), C adds H19 (low stock reorders), D deletes H10 (out-of-stock alert)."""
    h19 = {"id": "H19", "name": "Stock that turns low raises a draft purchase order with the product's supplier", "table": "stock",
           "events": ["update"], "when": "after", "condition": "changes_to(status, 'low')",
           "actions": [{"create": {"table": "purchase_order", "values": {
               "supplier": "current.product.supplier", "warehouse": "current.warehouse", "state": "'draft'"}}}]}
    fee_b = _fee_rule(FEE_PER_KG_B, f"Shipping fee is {FEE_PER_KG_B} per kg (carrier tariff raised)")
    return {"B": Shift(f"the carrier's shipping fee rises from {FEE_PER_KG_A} to {FEE_PER_KG_B} per kg", {"modify": [fee_b]}),
            "C": Shift("stock that turns low raises a draft purchase order with the product's supplier", {"add": [h19]}),
            "D": Shift("stock that runs out no longer opens an out-of-stock alert", {"delete": ["H10"]})}


# -- initial records -----------------------------------------------------------------------------

_WAREHOUSES = [("Rotterdam Central", "north", 12000), ("Lyon South", "south", 8000), ("Leipzig East", "east", 9500),
               ("Porto West", "west", 6000), ("Antwerp Overflow", "north", 4000)]
_SUPPLIERS = [("Nordic Components", 4.6, True, 5), ("Atlas Furniture", 3.8, True, 14), ("Verde Foods", 4.1, True, 3),
              ("Keller Tools", 2.4, True, 9), ("Lumen Electronics", 3.2, False, 10), ("Textil Norte", 2.1, False, 21),
              ("Baltic Hardware", 4.9, True, 6), ("Orchard Fresh", 1.8, False, 4)]
# name, category, supplier index, unit cost, weight in kg
_PRODUCTS = [
    ("USB-C dock", "electronics", 0, 89.5, 0.6), ("27in monitor", "electronics", 4, 215.0, 6.2), ("Wireless mouse", "electronics", 0, 18.9, 0.1),
    ("Label printer", "electronics", 4, 142.0, 2.3), ("Barcode scanner", "electronics", 0, 76.0, 0.4),
    ("Office chair", "furniture", 1, 189.0, 14.5), ("Standing desk", "furniture", 1, 420.0, 32.0), ("Pallet rack", "furniture", 6, 310.0, 48.0),
    ("Filing cabinet", "furniture", 1, 135.0, 21.0), ("Safety vest", "apparel", 5, 6.4, 0.2), ("Work gloves", "apparel", 5, 3.9, 0.1),
    ("Steel-toe boots", "apparel", 5, 48.0, 1.6), ("Fleece jacket", "apparel", 5, 32.5, 0.8), ("Coffee beans 1kg", "grocery", 2, 14.2, 1.0),
    ("Bottled water 24pk", "grocery", 7, 5.8, 12.0), ("Oat bars box", "grocery", 2, 9.6, 0.9), ("Fresh fruit crate", "grocery", 7, 22.0, 8.5),
    ("Cordless drill", "tools", 3, 119.0, 1.9), ("Socket set", "tools", 3, 64.0, 3.4), ("Pallet jack", "tools", 6, 385.0, 70.0),
    ("Tape gun", "tools", 6, 12.5, 0.5), ("Ladder 3m", "tools", 3, 97.0, 9.0), ("Shrink wrap roll", "tools", 6, 18.0, 2.2),
    ("Label tape", "electronics", 4, 7.2, 0.1),
]
_NEW_WAREHOUSES = [("Hamburg Port", "north"), ("Milan Hub", "south"), ("Gdansk Docks", "east"), ("Bilbao Yard", "west")]
_NEW_SUPPLIERS = ["Delta Packaging", "Iberia Steel", "Alpine Goods", "Carpathia Supply"]
_NEW_PRODUCTS = [("Tablet stand", "electronics", 24.0, 0.7), ("Bookshelf", "furniture", 88.0, 19.0), ("Rain jacket", "apparel", 41.0, 0.9),
                 ("Green tea 100ct", "grocery", 8.4, 0.4), ("Torque wrench", "tools", 72.0, 1.5), ("Sandwich crate", "grocery", 31.0, 6.0)]
_RENAMES = {"warehouse": ["Rotterdam Europoort", "Lyon Saint-Priest", "Leipzig Nord", "Porto Maia", "Antwerp North"],
            "supplier": ["Nordic Components AB", "Atlas Office", "Verde Foods BV", "Keller Werkzeuge", "Lumen Tech", "Textil Norte SA",
                         "Baltic Hardware Oy", "Orchard Fresh Ltd"],
            "product": ["USB-C dock v2", "27in IPS monitor", "Silent mouse", "Thermal label printer", "2D barcode scanner"]}


def _status(on_hand: float) -> str:
    return "out" if on_hand <= 0 else "low" if on_hand < LOW_STOCK else "ok"


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """133 records, consistent with the rules of world A (totals, values, statuses and fees as the rules would set them)."""
    warehouses = [{"id": f"WH{i + 1:02d}", "name": n, "region": r, "capacity": c, "active": True} for i, (n, r, c) in enumerate(_WAREHOUSES)]
    suppliers = [{"id": f"SUP{i + 1:02d}", "name": n, "rating": r, "preferred": p, "lead_days": d, "blocked": i == 5}
                 for i, (n, r, p, d) in enumerate(_SUPPLIERS)]
    products = [{"id": f"PRD{i + 1:03d}", "name": n, "category": c, "supplier": f"SUP{s + 1:02d}", "unit_cost": cost, "weight": w,
                 "discontinued": i == 12} for i, (n, c, s, cost, w) in enumerate(_PRODUCTS)]
    # 36 stock rows: every product in one warehouse, the first 12 in a second one
    pairs = [(p, p % 5) for p in range(24)] + [(p, (p + 2) % 5) for p in range(12)]
    levels = [0, 8, 14, 19, 24, 25, 26, 30, 40, 55, 60, 75, 80, 120, 150, 180, 240, 300, 420]
    stock = []
    for i, (p, w) in enumerate(pairs):
        on_hand = levels[(i * 7 + rng.randrange(3)) % len(levels)]
        stock.append({"id": f"STK{i + 1:03d}", "product": products[p]["id"], "warehouse": warehouses[w]["id"], "on_hand": on_hand,
                      "status": _status(on_hand), "value": round(on_hand * products[p]["unit_cost"], 2)})
    stocked = {(s["product"], s["warehouse"]) for s in stock}
    states = ["draft"] * 6 + ["sent"] * 4 + ["received"] * 3 + ["cancelled"]
    orders, lines = [], []
    for i, state in enumerate(states):
        sup = suppliers[[0, 1, 2, 3, 4, 6, 7, 0, 1, 2, 3, 4, 6, 7][i]]
        wh = warehouses[i % 5]["id"]
        orders.append({"id": f"PO{i + 1:03d}", "supplier": sup["id"], "warehouse": wh, "state": state, "total": 0, "line_count": 0,
                       "needs_approval": False})
    # 24 lines: two for each of the first 10 orders, one for the next 4 (the cancelled order has one received line left)
    for i in range(24):
        order = orders[i // 2] if i < 20 else orders[10 + (i - 20)]
        own = [p for p in products if p["supplier"] == order["supplier"] and (p["id"], order["warehouse"]) in stocked]
        pool = own or [p for p in products if (p["id"], order["warehouse"]) in stocked]
        product = pool[(i + rng.randrange(len(pool))) % len(pool)]
        # bulky or dear products are ordered by the handful, cheap ones by the case
        qty = rng.choice([2, 4, 5, 8, 10]) if product["unit_cost"] >= 100 else rng.choice([10, 20, 25, 40, 60, 100])
        lines.append({"id": f"POL{i + 1:03d}", "purchase_order": order["id"], "product": product["id"], "quantity": qty,
                      "unit_cost": product["unit_cost"], "amount": round(qty * product["unit_cost"], 2),
                      "received": order["state"] in ("received", "cancelled")})
    for order in orders:
        mine = [ln for ln in lines if ln["purchase_order"] == order["id"]]
        order["total"] = round(sum(ln["amount"] for ln in mine), 2)
        order["line_count"] = len(mine)
        order["needs_approval"] = order["total"] > APPROVAL_TOTAL
    shipments = []
    ship_states = ["pending"] * 7 + ["packed"] * 4 + ["shipped"] * 3 + ["delivered"] * 2
    by_id = {p["id"]: p for p in products}
    for i, state in enumerate(ship_states):
        st = stock[(i * 7 + 1) % len(stock)]
        product = by_id[st["product"]]
        # some shipments would drain their stock when shipped
        qty = max(1, int(st["on_hand"])) if i % 4 == 1 and st["on_hand"] <= 60 else rng.choice([2, 5, 10, 12, 20])
        weight = round(qty * product["weight"], 2)
        shipments.append({"id": f"SHP{i + 1:03d}", "warehouse": st["warehouse"], "product": st["product"], "quantity": qty,
                          "weight": weight, "service": "express" if product["category"] == "grocery" or i % 5 == 3 else "standard",
                          "state": state, "fee": round(weight * FEE_PER_KG_A, 2)})
    out_rows = [s for s in stock if s["status"] == "out"] + [s for s in stock if s["status"] == "low"]
    alerts = [{"id": f"ALR{i + 1:02d}", "stock": s["id"], "warehouse": s["warehouse"],
               "kind": "out_of_stock" if s["status"] == "out" else ["damaged", "count_mismatch"][i % 2], "open": i % 3 != 2}
              for i, s in enumerate(out_rows[:6])]
    return {"warehouse": warehouses, "supplier": suppliers, "product": products, "stock": stock, "purchase_order": orders,
            "po_line": lines, "shipment": shipments, "alert": alerts}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules use."""
    base = float(rec.get(field) or 0)
    whole = base == int(base) and field not in ("unit_cost", "weight", "rating")
    values: set[float] = set()
    for t in limits.get((table, field), set()):
        values |= {t, t + 1, t - 1} if whole or t == int(t) and t > 10 else {t, round(t + 0.1, 1), round(t - 0.1, 1)}
    step = rng.choice([0.5, 0.8, 1.25, 1.5, 2])
    values.add(round(base * step) if whole else round(base * step, 2))
    values.add(base + rng.choice([5, 10, 20]) if whole else round(base + rng.choice([0.5, 1, 2.5]), 2))
    if field in ("on_hand", "quantity"):
        values.add(0)
    if field == "rating":
        values |= {1.5, 3.5, 4.5}
    if field == "quantity":
        values.discard(0)
    return values


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults)."""
    def pick(t: str) -> str:
        return pick_row(state, rng, t)["id"]

    if table == "warehouse":
        name, region = _NEW_WAREHOUSES[k % len(_NEW_WAREHOUSES)]
        return {"name": name, "region": region, "capacity": rng.choice([3000, 5000, 7500])}
    if table == "supplier":
        return {"name": _NEW_SUPPLIERS[k % len(_NEW_SUPPLIERS)], "rating": rng.choice([1.5, 2.0, 3.4, 4.2]), "lead_days": rng.choice([4, 7, 12])}
    if table == "product":
        name, cat, cost, weight = _NEW_PRODUCTS[k % len(_NEW_PRODUCTS)]
        return {"name": name, "category": cat, "supplier": pick("supplier"), "unit_cost": cost, "weight": weight}
    if table == "stock":
        out = {"product": pick("product"), "warehouse": pick("warehouse")}
        if rng.random() < 0.8:
            out["on_hand"] = rng.choice([0, 12, 25, 40, 100])
        return out
    if table == "purchase_order":
        return {"supplier": pick("supplier"), "warehouse": pick("warehouse")}
    if table == "po_line":
        product = state.get("product", pick("product"))
        out = {"purchase_order": pick("purchase_order"), "product": product["id"], "quantity": rng.choice([5, 15, 30, 60, 100])}
        if rng.random() < 0.4:
            out["unit_cost"] = round(product["unit_cost"] * rng.choice([0.9, 1.0]), 2)
        return out
    if table == "shipment":
        rows = state.rows("stock")
        if k % 4 == 1:  # a share of grocery shipments, whose service a rule decides
            rows = [r for r in rows if state.get("product", r["product"])["category"] == "grocery"]
        st = rows[(k * 5 + rng.randrange(2)) % len(rows)]
        product = state.get("product", st["product"])
        qty = rng.choice([1, 4, 10, 25])
        out = {"warehouse": st["warehouse"], "product": st["product"], "quantity": qty}
        if rng.random() < 0.8:
            out["weight"] = round(qty * product["weight"], 2)
        return out
    st = pick_row(state, rng, "stock")
    return {"stock": st["id"], "warehouse": st["warehouse"], "kind": rng.choice(["damaged", "count_mismatch", "out_of_stock"])}


def _rename(table: str, field: str, rec: dict[str, Any], idx: int) -> str | None:
    """The idx-th of a table's new names, for the tables whose records get renamed."""
    return _RENAMES[table][idx % len(_RENAMES[table])] if field == "name" and table in _RENAMES else None


FAMILY = WorldFamily("holdout", "Held-out", "warehouse inventory and purchasing", 7321, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
