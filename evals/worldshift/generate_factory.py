"""Generator of the factory world family ``factory-A`` ... ``factory-D`` (package data).

A manufacturing plant domain (production of pumps and valves), unlike the
EnterpriseWorldShift service desk, the held-out warehouse, the fresh
hospital, the novel library, the sealed insurance claims, the vault utility
billing, the harbor container terminal, the lease property management, the
fleet vehicle rental, the campus administration and the payroll: 9 tables
(vendor, material, finished_good, bom_line, machine, work_order, buy_order,
inspection, plant_notice), about 200 initial records and 24 rules in world
A. A bill-of-materials line takes its material's unit cost and costs its
quantity per unit at that cost plus its scrap allowance; a finished good's
material cost is the sum of its lines, its unit cost adds its standard
minutes at its routing machine's hourly rate, its margin follows its list
price, and an active good whose margin falls below 15% opens a margin
review. A material's available stock is what is on hand less what is
allocated; when it falls below the reorder point and no buy order is open,
a draft buy order is raised with the material's vendor at the vendor's
discount; a buy order is its quantity at its unit cost, with a small-order
charge below the vendor's minimum order value, and a vendor's open order
value sums its draft and sent orders; receiving an order adds to the
material's stock at a weighted average cost, which flows into every BOM
line that uses the material and so into the goods' costs and margins. A
vendor put on hold cancels its draft orders. A new work order takes its
good's routing machine (unless that machine is down) and plans its setup
plus its quantity at the standard minutes; its yield and scrap cost follow
the good and scrap quantities; a machine's open orders and load follow its
released and running work orders; completing a work order adds its good
quantity to stock and its hours to its machine, which goes into
maintenance once past its service interval; a machine that goes down or
into maintenance puts its released and running work orders on hold and
opens a notice. An inspection's defect rate is its defects over its sample;
above 4% it fails, which puts its work order on hold and opens a quality
alert. Deleting a finished good deletes its BOM lines and its planned work
orders (the others stay). B modifies one rule (an inspection fails above a
defect rate of 2.5%, was 4%: a threshold changes), C adds one (releasing a
work order books a first-article inspection), D deletes one (a material
that falls below its reorder point no longer raises a draft buy order).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_factory`` rewrites the four files; a
test checks that the shipped files are exactly its output. ``_world_writer``
picks the tests (60 per world) from this module's candidate writes, as for
every family; D's show that the deleted rule's effect is gone.
"""

from __future__ import annotations

import random
import sys
from functools import partial
from typing import Any

from memkit.rules import State
from memkit.rules.values import round_half_away

from evals.worldshift._candidates import CandidateWrites, Limits, Row, near_thresholds, numbered_ids, pick_row
from evals.worldshift._fields import boolean, choice, number, reference, string, table
from evals.worldshift._world_writer import Shift, WorldFamily

__all__ = ["DEFECT_LIMIT_A", "DEFECT_LIMIT_B", "FAMILY", "FIRST_ARTICLE_SAMPLE", "MIN_MARGIN", "SMALL_ORDER_FEE", "build_shifts"]

# defect rate (percent of the sample) above which an inspection fails, before and after B's policy change
DEFECT_LIMIT_A = 4
DEFECT_LIMIT_B = 2.5
MIN_MARGIN = 15  # an active good whose margin (percent of list price) falls below this opens a margin review
SMALL_ORDER_FEE = 40  # charged on a buy order worth less than its vendor's minimum order value
FIRST_ARTICLE_SAMPLE = 20  # C: a released work order's first-article inspection samples at most this many parts

_UOM = ["kg", "m", "pcs"]
_MACHINE_KINDS = ["cnc", "lathe", "press", "molding", "welding", "assembly", "paint", "finishing"]
_MACHINE_STATES = ["running", "idle", "down", "maintenance"]
_WORK_ORDER_STATES = ["planned", "released", "running", "on_hold", "completed", "cancelled"]
_BUY_ORDER_STATES = ["draft", "sent", "received", "cancelled"]
_STAGES = ["first_article", "in_process", "final"]
_RESULTS = ["pending", "pass", "fail"]
_NOTICE_KINDS = ["margin_review", "maintenance_due", "breakdown", "quality_alert", "safety", "policy"]

TABLES: dict[str, Any] = {
    "vendor": table(name=string(), country=string(), lead_days=number(), discount_pct=number(0), min_order=number(0),
                    on_hold=boolean(False), open_po_value=number(0)),
    "material": table(code=string(), description=string(), vendor=reference("vendor"), uom=choice(_UOM, "pcs"), unit_cost=number(),
                      on_hand=number(0), allocated=number(0), available=number(), reorder_point=number(0), reorder_qty=number()),
    "machine": table(code=string(), name=string(), kind=choice(_MACHINE_KINDS), hourly_rate=number(), setup_hours=number(0),
                     status=choice(_MACHINE_STATES, "idle"), run_hours=number(0), hours_since_service=number(0),
                     service_interval=number(500), open_orders=number(0), load_hours=number(0)),
    "finished_good": table(sku=string(), name=string(), routing=reference("machine"), std_minutes=number(), material_cost=number(0),
                           unit_cost=number(), list_price=number(), margin_pct=number(), stock_qty=number(0), active=boolean(True)),
    "bom_line": table(finished_good=reference("finished_good"), material=reference("material"), qty_per=number(1),
                      scrap_pct=number(0), unit_cost=number(), line_cost=number()),
    "work_order": table(finished_good=reference("finished_good"), machine=reference("machine"), quantity=number(), due=string(),
                        planned_hours=number(), good_qty=number(), scrap_qty=number(), yield_pct=number(), scrap_cost=number(),
                        status=choice(_WORK_ORDER_STATES, "planned")),
    "buy_order": table(vendor=reference("vendor"), material=reference("material"), quantity=number(), unit_cost=number(),
                       amount=number(), status=choice(_BUY_ORDER_STATES, "draft")),
    "inspection": table(work_order=reference("work_order"), stage=choice(_STAGES, "in_process"), inspector=string(),
                        sample_size=number(), defects=number(), defect_rate=number(), result=choice(_RESULTS, "pending")),
    "plant_notice": table(kind=choice(_NOTICE_KINDS), finished_good=reference("finished_good"), machine=reference("machine"),
                          work_order=reference("work_order"), note=string(), status=choice(["open", "closed"], "open")),
}

_ID_PREFIX = {"vendor": "VEN", "material": "MAT", "machine": "MC", "finished_good": "FG", "bom_line": "BOM", "work_order": "WO",
              "buy_order": "BUY", "inspection": "QI", "plant_notice": "PN"}

_OPEN_ORDER = "['draft', 'sent']"
_ON_MACHINE = "['released', 'running']"


def _round(x: float, places: int) -> float:
    """Rounded half away from zero to ``places`` decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, places))


def _result_rule(limit: float, name: str) -> dict[str, Any]:
    """M23, whose defect limit B lowers."""
    return {"id": "M23", "name": name, "table": "inspection", "events": ["insert", "update"], "when": "before", "order": 20,
            "condition": "changed(defect_rate)",
            "actions": [{"set": {"result": f"if(current.defect_rate > {limit:g}, 'fail', 'pass')"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 24 rules of world A (ids M01..M24 stay the same across shifted worlds)."""
    return [
        # bill of materials
        {"id": "M01", "name": "A new BOM line without a unit cost takes its material's unit cost", "table": "bom_line",
         "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.unit_cost)",
         "actions": [{"set": {"unit_cost": "current.material.unit_cost"}}]},
        {"id": "M02", "name": "A BOM line costs its quantity per unit at its unit cost, plus its scrap allowance", "table": "bom_line",
         "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": "changed(qty_per) or changed(unit_cost) or changed(scrap_pct)",
         "actions": [{"set": {"line_cost": "round(current.qty_per * current.unit_cost * (1 + current.scrap_pct / 100), 2)"}}]},
        {"id": "M03", "name": "A finished good's material cost is the sum of its BOM lines' costs", "table": "bom_line",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.finished_good", "set": {
             "material_cost": "round(sum(bom_line, line_cost, row.finished_good == current.finished_good), 2)"}}}]},
        # finished goods
        {"id": "M04", "name": "A finished good's unit cost is its material cost plus its standard minutes at its routing machine's "
                              "hourly rate", "table": "finished_good", "events": ["insert", "update"], "when": "before", "order": 10,
         "condition": "changed(material_cost) or changed(std_minutes) or changed(routing)",
         "actions": [{"set": {"unit_cost": "round(current.material_cost + current.std_minutes * current.routing.hourly_rate / 60, 2)"}}]},
        {"id": "M05", "name": "A finished good's margin is the share of its list price left over its unit cost, in percent",
         "table": "finished_good", "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": "changed(unit_cost) or changed(list_price)",
         "actions": [{"set": {"margin_pct": "round((current.list_price - current.unit_cost) * 100 / current.list_price, 1)"}}]},
        {"id": "M06", "name": f"An active finished good whose margin falls below {MIN_MARGIN}% opens a margin review",
         "table": "finished_good", "events": ["update"], "when": "after",
         "condition": f"current.margin_pct < {MIN_MARGIN} and not previous.margin_pct < {MIN_MARGIN} and current.active == true",
         "actions": [{"create": {"table": "plant_notice", "values": {"kind": "'margin_review'", "finished_good": "current.id"}}}]},
        {"id": "M07", "name": "Deleting a finished good deletes its BOM lines and its planned work orders; work already released stays",
         "table": "finished_good", "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "bom_line", "where": "row.finished_good == current.id"}},
                     {"delete_where": {"table": "work_order", "where": "row.finished_good == current.id and row.status == 'planned'"}}]},
        # materials
        {"id": "M08", "name": "A material's available stock is its stock on hand less what is allocated", "table": "material",
         "events": ["insert", "update"], "when": "before", "condition": "changed(on_hand) or changed(allocated)",
         "actions": [{"set": {"available": "current.on_hand - current.allocated"}}]},
        {"id": "M09", "name": "A material whose available stock falls below its reorder point, with no buy order open, raises a draft "
                              "buy order for its reorder quantity with its vendor, at the vendor's discount", "table": "material",
         "events": ["insert", "update"], "when": "after",
         "condition": "current.available < current.reorder_point and not previous.available < previous.reorder_point and "
                      f"count(buy_order, row.material == current.id and row.status in {_OPEN_ORDER}) == 0",
         "actions": [{"create": {"table": "buy_order", "values": {
             "vendor": "current.vendor", "material": "current.id", "quantity": "current.reorder_qty",
             "unit_cost": "round(current.unit_cost * (1 - current.vendor.discount_pct / 100), 2)"}}}]},
        {"id": "M10", "name": "A material's new unit cost flows into every BOM line that uses it", "table": "material",
         "events": ["update"], "when": "after", "condition": "changed(unit_cost)",
         "actions": [{"update_where": {"table": "bom_line", "where": "row.material == current.id",
                                       "set": {"unit_cost": "current.unit_cost"}}}]},
        # vendors and buy orders
        {"id": "M11", "name": "A vendor put on hold cancels its draft buy orders", "table": "vendor", "events": ["update"],
         "when": "after", "condition": "changes_to(on_hold, true)",
         "actions": [{"update_where": {"table": "buy_order", "where": "row.vendor == current.id and row.status == 'draft'",
                                       "set": {"status": "'cancelled'"}}}]},
        {"id": "M12", "name": f"A buy order is its quantity at its unit cost, plus a small-order charge of {SMALL_ORDER_FEE} below the "
                              "vendor's minimum order value", "table": "buy_order", "events": ["insert", "update"], "when": "before",
         "condition": "changed(quantity) or changed(unit_cost)",
         "actions": [{"set": {"amount": "round(current.quantity * current.unit_cost + if(current.quantity * current.unit_cost < "
                                        f"current.vendor.min_order, {SMALL_ORDER_FEE}, 0), 2)"}}]},
        {"id": "M13", "name": "A vendor's open order value is the amount of its draft and sent buy orders", "table": "buy_order",
         "events": ["insert", "update", "delete"], "when": "after",
         "condition": f"current.status in {_OPEN_ORDER} or previous.status in {_OPEN_ORDER}",
         "actions": [{"update": {"target": "current.vendor", "set": {
             "open_po_value": f"round(sum(buy_order, amount, row.vendor == current.vendor and row.status in {_OPEN_ORDER}), 2)"}}}]},
        {"id": "M14", "name": "Receiving a buy order adds its quantity to the material's stock on hand at a weighted average unit cost",
         "table": "buy_order", "events": ["update"], "when": "after", "condition": "changes_to(status, 'received')",
         "actions": [{"update": {"target": "current.material", "set": {
             "on_hand": "current.material.on_hand + current.quantity",
             "unit_cost": "round((current.material.on_hand * current.material.unit_cost + current.quantity * current.unit_cost) / "
                          "(current.material.on_hand + current.quantity), 2)"}}}]},
        # machines
        {"id": "M15", "name": "A running or idle machine whose hours since its last service reach its service interval goes into "
                              "maintenance", "table": "machine", "events": ["insert", "update"], "when": "before",
         "condition": "current.hours_since_service >= current.service_interval and current.status in ['running', 'idle']",
         "actions": [{"set": {"status": "'maintenance'"}}]},
        {"id": "M16", "name": "A machine that goes down or into maintenance puts its released and running work orders on hold and opens "
                              "a notice", "table": "machine", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'down') or changes_to(status, 'maintenance')",
         "actions": [{"update_where": {"table": "work_order", "where": f"row.machine == current.id and row.status in {_ON_MACHINE}",
                                       "set": {"status": "'on_hold'"}}},
                     {"create": {"table": "plant_notice", "values": {
                         "kind": "if(current.status == 'down', 'breakdown', 'maintenance_due')", "machine": "current.id"}}}]},
        # work orders
        {"id": "M17", "name": "A new work order without a machine takes its good's routing machine, unless that machine is down",
         "table": "work_order", "events": ["insert"], "when": "before", "order": 10,
         "condition": "is_empty(current.machine) and current.finished_good.routing.status != 'down'",
         "actions": [{"set": {"machine": "current.finished_good.routing"}}]},
        {"id": "M18", "name": "A work order plans its machine's setup hours plus its quantity at its good's standard minutes",
         "table": "work_order", "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": "changed(quantity) or changed(machine) or changed(finished_good)",
         "actions": [{"set": {"planned_hours": "round(current.machine.setup_hours + "
                                               "current.quantity * current.finished_good.std_minutes / 60, 1)"}}]},
        {"id": "M19", "name": "A work order's yield is its good quantity's share of all it made, and its scrap costs the good's unit "
                              "cost", "table": "work_order", "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(good_qty) or changed(scrap_qty)",
         "actions": [{"set": {"yield_pct": "round(current.good_qty * 100 / (current.good_qty + current.scrap_qty), 1)",
                              "scrap_cost": "round(current.scrap_qty * current.finished_good.unit_cost, 2)"}}]},
        {"id": "M20", "name": "A machine's open orders count its released and running work orders and its load sums their planned "
                              "hours; a work order that moves leaves its old machine's figures", "table": "work_order",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.machine", "set": {
             "open_orders": f"count(work_order, row.machine == current.machine and row.status in {_ON_MACHINE})",
             "load_hours": f"round(sum(work_order, planned_hours, row.machine == current.machine and row.status in {_ON_MACHINE}), 1)"}}},
             {"update_where": {"table": "machine", "where": "row.id == previous.machine and row.id != current.machine", "set": {
                 "open_orders": f"count(work_order, row.machine == previous.machine and row.status in {_ON_MACHINE})",
                 "load_hours": f"round(sum(work_order, planned_hours, row.machine == previous.machine and "
                               f"row.status in {_ON_MACHINE}), 1)"}}}]},
        {"id": "M21", "name": "Completing a work order adds its good quantity to its good's stock and its planned hours to its "
                              "machine's run hours and hours since service", "table": "work_order", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'completed')",
         "actions": [{"update": {"target": "current.finished_good", "set": {
             "stock_qty": "current.finished_good.stock_qty + if(current.good_qty > 0, current.good_qty, 0)"}}},
             {"update": {"target": "current.machine", "set": {
                 "run_hours": "round(current.machine.run_hours + current.planned_hours, 1)",
                 "hours_since_service": "round(current.machine.hours_since_service + current.planned_hours, 1)"}}}]},
        # inspections
        {"id": "M22", "name": "An inspection's defect rate is its defects over its sample size, in percent", "table": "inspection",
         "events": ["insert", "update"], "when": "before", "order": 10, "condition": "changed(defects) or changed(sample_size)",
         "actions": [{"set": {"defect_rate": "round(current.defects * 100 / current.sample_size, 2)"}}]},
        _result_rule(DEFECT_LIMIT_A, f"An inspection fails above a defect rate of {DEFECT_LIMIT_A:g}% and passes otherwise"),
        {"id": "M24", "name": "A failed inspection puts its released or running work order on hold and opens a quality alert",
         "table": "inspection", "events": ["insert", "update"], "when": "after", "condition": "changes_to(result, 'fail')",
         "actions": [{"update_where": {"table": "work_order", "where": f"row.id == current.work_order and row.status in {_ON_MACHINE}",
                                       "set": {"status": "'on_hold'"}}},
                     {"create": {"table": "plant_notice", "values": {"kind": "'quality_alert'", "work_order": "current.work_order",
                                                                     "machine": "current.work_order.machine"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies M23 (defect limit), C adds M25 (first-article inspection), D deletes M09 (reorder buy order)."""
    m25 = {"id": "M25", "name": f"Releasing a work order without a first-article inspection books one, sampling up to "
                                f"{FIRST_ARTICLE_SAMPLE} parts", "table": "work_order", "events": ["insert", "update"], "when": "after",
           "condition": "changes_to(status, 'released') and "
                        "count(inspection, row.work_order == current.id and row.stage == 'first_article') == 0",
           "actions": [{"create": {"table": "inspection", "values": {"work_order": "current.id", "stage": "'first_article'",
                                                                     "sample_size": f"min(current.quantity, {FIRST_ARTICLE_SAMPLE})"}}}]}
    m23_b = _result_rule(DEFECT_LIMIT_B, f"An inspection fails above a defect rate of {DEFECT_LIMIT_B:g}% and passes otherwise "
                                         f"(limit tightened)")
    return {"B": Shift(f"an inspection fails above a defect rate of {DEFECT_LIMIT_B:g}% (was {DEFECT_LIMIT_A:g}%)", {"modify": [m23_b]}),
            "C": Shift("releasing a work order books a first-article inspection", {"add": [m25]}),
            "D": Shift("a material that falls below its reorder point no longer raises a draft buy order", {"delete": ["M09"]})}


# -- initial records -----------------------------------------------------------------------------

# name, country, lead days, discount percent, minimum order value, on hold
_VENDORS = [("Nordwerk Steel", "DE", 12, 3, 1500, False), ("Pacific Polymers", "US", 21, 0, 800, False),
            ("Alder Castings", "UK", 28, 2, 2500, False), ("Keystone Fasteners", "US", 5, 5, 250, False),
            ("Sato Bearings", "JP", 35, 4, 1000, False), ("Brightwire Motors", "IT", 18, 0, 3000, False),
            ("Granite Alloys", "CA", 14, 1.5, 1200, False), ("Orchid Coatings", "FR", 10, 0, 500, True)]
# code, description, vendor, unit of measure, unit cost, on hand, allocated, reorder point, reorder quantity
_MATERIALS = [("ST-BAR-40", "Steel bar 40 mm", 0, "m", 7.85, 420, 120, 150, 400),
              ("ST-PLT-06", "Steel plate 6 mm", 0, "kg", 1.42, 1800, 650, 800, 2000),
              ("SS-BAR-25", "Stainless bar 25 mm", 6, "m", 14.6, 95, 40, 80, 200),
              ("CI-HSG-65", "Cast iron housing blank 65", 2, "pcs", 58.4, 36, 12, 20, 40),
              ("CI-HSG-40", "Cast iron housing blank 40", 2, "pcs", 41.9, 22, 6, 15, 30),
              ("BR-BAR-20", "Brass bar 20 mm", 6, "m", 11.2, 260, 90, 100, 250),
              ("PP-GRN-01", "Polypropylene granulate", 1, "kg", 2.15, 950, 300, 400, 1000),
              ("PA-GRN-02", "Glass-filled nylon granulate", 1, "kg", 4.8, 310, 180, 150, 500),
              ("EP-RES-05", "Epoxy resin", 7, "kg", 9.4, 64, 10, 30, 80),
              ("FS-BLT-M8", "Hex bolt M8 x 30", 3, "pcs", 0.18, 5200, 1400, 2000, 10000),
              ("FS-NUT-M8", "Hex nut M8", 3, "pcs", 0.06, 6100, 1400, 2000, 10000),
              ("FS-SCR-M4", "Socket screw M4 x 12", 3, "pcs", 0.09, 2400, 900, 1500, 5000),
              ("SL-ORG-40", "O-ring 40 x 3", 3, "pcs", 0.42, 1300, 350, 400, 2000),
              ("SL-MEC-20", "Mechanical seal 20 mm", 4, "pcs", 23.5, 48, 20, 25, 60),
              ("BG-BAL-62", "Ball bearing 6204", 4, "pcs", 4.35, 230, 60, 80, 300),
              ("BG-BAL-63", "Ball bearing 6305", 4, "pcs", 6.9, 75, 30, 40, 150),
              ("MT-IEC-11", "Electric motor 1.1 kW", 5, "pcs", 142, 14, 6, 6, 20),
              ("MT-IEC-22", "Electric motor 2.2 kW", 5, "pcs", 198.5, 7, 4, 5, 12),
              ("CB-PWR-15", "Power cable 1.5 mm2", 5, "m", 0.95, 900, 120, 300, 1000),
              ("PT-PWD-RD", "Powder coat red", 7, "kg", 12.4, 48, 8, 20, 50),
              ("HS-RUB-19", "Rubber hose 19 mm", 1, "m", 3.1, 620, 300, 250, 600),
              ("SP-SPR-01", "Compression spring", 3, "pcs", 0.55, 780, 200, 300, 1500),
              ("GS-GLS-20", "Sight glass 20 mm", 6, "pcs", 8.75, 40, 8, 15, 50),
              ("EL-SNS-01", "Flow sensor module", 5, "pcs", 64, 18, 4, 10, 25)]
# code, name, kind, hourly rate, setup hours, status, run hours, hours since service, service interval
_MACHINES = [("MC-CNC1", "CNC mill 1", "cnc", 92, 1.5, "running", 11840, 412, 500),
             ("MC-CNC2", "CNC mill 2", "cnc", 92, 1.5, "running", 9020, 188, 500),
             ("MC-LAT1", "CNC lathe", "lathe", 78, 1, "running", 14310, 465, 500),
             ("MC-PRS1", "Hydraulic press", "press", 65, 2, "idle", 7600, 240, 400),
             ("MC-MLD1", "Injection molder", "molding", 84, 2.5, "running", 20115, 372, 600),
             ("MC-WLD1", "Welding robot", "welding", 71, 0.5, "maintenance", 5230, 352, 350),
             ("MC-ASM1", "Assembly cell A", "assembly", 48, 0.5, "running", 16480, 95, 800),
             ("MC-ASM2", "Assembly cell B", "assembly", 48, 0.5, "idle", 12950, 610, 800),
             ("MC-PNT1", "Paint booth", "paint", 56, 1, "down", 8870, 290, 450),
             ("MC-DBR1", "Deburring station", "finishing", 39, 0.25, "running", 6020, 138, 300)]
# sku, name, routing machine, standard minutes, target margin (the list price is rounded from it), stock, active
_GOODS = [("CP-40", "Centrifugal pump 40 mm", 6, 42, 0.32, 18, True), ("CP-65", "Centrifugal pump 65 mm", 6, 55, 0.18, 9, True),
          ("GV-25", "Gate valve DN25", 2, 18, 0.27, 64, True), ("GV-50", "Gate valve DN50", 2, 26, 0.165, 40, True),
          ("BV-15", "Ball valve DN15", 1, 9, 0.41, 210, True), ("CV-32", "Check valve DN32", 1, 14, 0.22, 75, True),
          ("IM-40", "Impeller 40 mm", 4, 3, 0.36, 120, True), ("PH-65", "Pump housing 65 mm", 0, 34, 0.12, 22, True),
          ("PR-10", "Pressure regulator PR10", 0, 21, 0.24, 36, True), ("MB-02", "Motor mount bracket", 3, 4, 0.19, 300, True),
          ("HR-30", "Hose reel 30 m", 5, 16, 0.3, 14, True), ("FM-20", "Flow meter FM20", 7, 30, 0.14, 11, False)]
# per finished good: (material code, quantity per unit, scrap allowance percent)
_BOM = [[("CI-HSG-40", 1, 2), ("PP-GRN-01", 0.35, 5), ("MT-IEC-11", 1, 0), ("SL-MEC-20", 1, 0), ("BG-BAL-62", 2, 1),
         ("FS-BLT-M8", 8, 2), ("SL-ORG-40", 2, 3)],
        [("CI-HSG-65", 1, 2), ("PA-GRN-02", 0.6, 5), ("MT-IEC-22", 1, 0), ("SL-MEC-20", 1, 0), ("BG-BAL-63", 2, 1),
         ("FS-BLT-M8", 12, 2), ("FS-NUT-M8", 12, 2)],
        [("BR-BAR-20", 0.4, 8), ("ST-BAR-40", 0.15, 5), ("SL-ORG-40", 3, 3), ("FS-SCR-M4", 4, 2)],
        [("ST-PLT-06", 2.8, 6), ("ST-BAR-40", 0.3, 5), ("SL-ORG-40", 4, 3), ("FS-BLT-M8", 8, 2), ("FS-NUT-M8", 8, 2)],
        [("BR-BAR-20", 0.12, 8), ("SS-BAR-25", 0.05, 6), ("SL-ORG-40", 2, 3)],
        [("BR-BAR-20", 0.25, 8), ("SP-SPR-01", 1, 1), ("SL-ORG-40", 2, 3)],
        [("PA-GRN-02", 0.28, 4), ("SS-BAR-25", 0.04, 6)],
        [("CI-HSG-65", 1, 3), ("PT-PWD-RD", 0.3, 10), ("FS-SCR-M4", 6, 2)],
        [("BR-BAR-20", 0.3, 8), ("SP-SPR-01", 2, 1), ("SL-ORG-40", 3, 3), ("GS-GLS-20", 1, 0)],
        [("ST-PLT-06", 1.6, 6), ("PT-PWD-RD", 0.08, 10), ("FS-BLT-M8", 4, 2)],
        [("ST-BAR-40", 2.2, 5), ("HS-RUB-19", 30, 2), ("PT-PWD-RD", 0.4, 10), ("SP-SPR-01", 1, 1)],
        [("SS-BAR-25", 0.2, 6), ("EL-SNS-01", 1, 0), ("CB-PWR-15", 2, 0), ("SL-ORG-40", 2, 3), ("GS-GLS-20", 1, 0)]]
# work orders: good, machine (None: the good's routing), quantity, due, good quantity, scrap quantity, status
_WORK_ORDERS = [(0, None, 40, "2027-03-01", 38, 2, "completed"), (1, None, 20, "2027-03-03", 19, 1, "completed"),
                (2, None, 200, "2027-03-02", 191, 9, "completed"), (3, None, 80, "2027-03-04", 77, 3, "completed"),
                (4, None, 500, "2027-03-01", 488, 12, "completed"), (6, None, 1200, "2027-03-05", 1142, 58, "completed"),
                (9, None, 600, "2027-03-03", 597, 3, "completed"), (10, None, 25, "2027-02-26", 24, 1, "completed"),
                (0, None, 60, "2027-03-10", 22, 1, "running"), (2, None, 150, "2027-03-11", 64, 2, "running"),
                (5, None, 240, "2027-03-09", 131, 7, "running"), (7, None, 30, "2027-03-12", 11, 0, "running"),
                (6, None, 1500, "2027-03-12", 410, 19, "running"),
                (1, None, 30, "2027-03-15", None, None, "released"), (3, None, 60, "2027-03-16", None, None, "released"),
                (4, None, 400, "2027-03-14", None, None, "released"), (8, None, 50, "2027-03-17", None, None, "released"),
                (9, None, 800, "2027-03-15", None, None, "released"), (7, 1, 24, "2027-03-18", None, None, "released"),
                (2, None, 120, "2027-03-19", None, None, "released"), (8, 1, 35, "2027-03-20", None, None, "released"),
                (10, None, 20, "2027-03-13", 6, 0, "on_hold"), (9, 8, 400, "2027-03-11", None, None, "on_hold"),
                (5, None, 180, "2027-03-08", 60, 9, "on_hold"),
                (0, None, 50, "2027-03-24", None, None, "planned"), (1, None, 25, "2027-03-26", None, None, "planned"),
                (3, None, 100, "2027-03-25", None, None, "planned"), (4, None, 600, "2027-03-23", None, None, "planned"),
                (6, 9, 800, "2027-03-29", None, None, "planned"), (8, None, 40, "2027-03-30", None, None, "planned"),
                (10, None, 30, "2027-03-31", None, None, "planned"), (7, None, 36, "2027-03-27", None, None, "planned"),
                (5, None, 200, "2027-02-20", None, None, "cancelled"), (11, None, 10, "2027-02-18", None, None, "cancelled")]
# buy orders: material code, quantity, status (the unit cost is the material's at the vendor's discount, a few off it)
_BUY_ORDERS = [("SS-BAR-25", 200, "sent", 0), ("PA-GRN-02", 500, "sent", 0), ("MT-IEC-22", 12, "draft", 0),
               ("ST-BAR-40", 400, "received", 0.2), ("ST-PLT-06", 2000, "received", -0.03), ("CI-HSG-65", 40, "sent", 0),
               ("CI-HSG-40", 30, "received", 1.5), ("BR-BAR-20", 250, "received", 0), ("PP-GRN-01", 1000, "received", 0.05),
               ("FS-BLT-M8", 10000, "received", 0), ("FS-NUT-M8", 10000, "draft", 0), ("FS-SCR-M4", 1200, "draft", 0),
               ("SL-ORG-40", 2000, "sent", 0), ("SL-MEC-20", 60, "received", -0.5), ("BG-BAL-62", 300, "sent", 0),
               ("BG-BAL-63", 40, "draft", 0), ("MT-IEC-11", 20, "received", 0), ("CB-PWR-15", 300, "draft", 0),
               ("PT-PWD-RD", 50, "cancelled", 0), ("EP-RES-05", 20, "cancelled", 0), ("SP-SPR-01", 1500, "sent", 0),
               ("EL-SNS-01", 25, "sent", 0)]
# inspections: work order index, stage, inspector, sample size, defects (None: pending)
_INSPECTIONS = [(0, "final", "R. Okafor", 20, 0), (1, "final", "R. Okafor", 19, 1), (2, "final", "M. Lindqvist", 50, 2),
                (3, "final", "M. Lindqvist", 32, 1), (4, "final", "J. Castell", 80, 2), (5, "final", "J. Castell", 125, 4),
                (6, "final", "R. Okafor", 80, 1), (7, "final", "M. Lindqvist", 13, 0), (8, "first_article", "J. Castell", 5, 0),
                (8, "in_process", "R. Okafor", 40, 1), (9, "first_article", "M. Lindqvist", 8, 0), (9, "in_process", "J. Castell", 32, 1),
                (10, "first_article", "R. Okafor", 13, 0), (10, "in_process", "R. Okafor", 50, 1),
                (11, "first_article", "M. Lindqvist", 5, 0), (12, "first_article", "J. Castell", 20, 0),
                (12, "in_process", "J. Castell", 125, 3), (23, "in_process", "M. Lindqvist", 32, 2),
                (23, "first_article", "R. Okafor", 13, 0), (21, "first_article", "R. Okafor", 5, 0),
                (13, "first_article", "J. Castell", 5, None), (14, "first_article", "M. Lindqvist", 8, None),
                (15, "first_article", "R. Okafor", 20, None), (16, "first_article", "J. Castell", 8, None),
                (17, "first_article", "M. Lindqvist", 20, None), (19, "first_article", "R. Okafor", 13, None),
                (11, "in_process", "J. Castell", 8, None), (12, "final", "M. Lindqvist", 200, None),
                (9, "in_process", "R. Okafor", 50, 1), (5, "in_process", "J. Castell", 80, 2)]


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (costs, margins, stock, loads, rates and results as the rules set)."""
    vendors = [{"id": f"VEN{i + 1:02d}", "name": n, "country": c, "lead_days": lead, "discount_pct": disc, "min_order": mo,
                "on_hold": hold, "open_po_value": 0} for i, (n, c, lead, disc, mo, hold) in enumerate(_VENDORS)]
    materials = [{"id": f"MAT{i + 1:02d}", "code": code, "description": desc, "vendor": vendors[v]["id"], "uom": uom, "unit_cost": uc,
                  "on_hand": oh, "allocated": al, "available": oh - al, "reorder_point": rp, "reorder_qty": rq}
                 for i, (code, desc, v, uom, uc, oh, al, rp, rq) in enumerate(_MATERIALS)]
    mat_of = {m["code"]: m for m in materials}
    machines = [{"id": f"MC{i + 1:02d}", "code": code, "name": name, "kind": kind, "hourly_rate": rate, "setup_hours": setup,
                 "status": status, "run_hours": run, "hours_since_service": since, "service_interval": interval, "open_orders": 0,
                 "load_hours": 0} for i, (code, name, kind, rate, setup, status, run, since, interval) in enumerate(_MACHINES)]

    goods: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    for i, (sku, name, routing, minutes, margin, stock, active) in enumerate(_GOODS):
        fg_id = f"FG{i + 1:02d}"
        mine = []
        for code, qty, scrap in _BOM[i]:
            uc = mat_of[code]["unit_cost"]
            line = {"id": f"BOM{len(lines) + 1:03d}", "finished_good": fg_id, "material": mat_of[code]["id"], "qty_per": qty,
                    "scrap_pct": scrap, "unit_cost": uc, "line_cost": _round(qty * uc * (1 + scrap / 100), 2)}
            lines.append(line)
            mine.append(line)
        material_cost = _round(sum(line["line_cost"] for line in mine), 2)
        unit_cost = _round(material_cost + minutes * machines[routing]["hourly_rate"] / 60, 2)
        price = float(round(unit_cost / (1 - margin) / (5 if unit_cost > 100 else 1)) * (5 if unit_cost > 100 else 1))
        goods.append({"id": fg_id, "sku": sku, "name": name, "routing": machines[routing]["id"], "std_minutes": minutes,
                      "material_cost": material_cost, "unit_cost": unit_cost, "list_price": price,
                      "margin_pct": _round((price - unit_cost) * 100 / price, 1), "stock_qty": stock, "active": active})

    orders: list[dict[str, Any]] = []
    for i, (g, m, qty, due, good, scrap, status) in enumerate(_WORK_ORDERS):
        fg = goods[g]
        machine = machines[m] if m is not None else next(x for x in machines if x["id"] == fg["routing"])
        wo = {"id": f"WO{i + 1:03d}", "finished_good": fg["id"], "machine": machine["id"], "quantity": qty, "due": due,
              "planned_hours": _round(machine["setup_hours"] + qty * fg["std_minutes"] / 60, 1), "good_qty": good, "scrap_qty": scrap,
              "yield_pct": None, "scrap_cost": None, "status": status}
        if good is not None:
            wo["yield_pct"] = _round(good * 100 / (good + scrap), 1)
            wo["scrap_cost"] = _round(scrap * fg["unit_cost"], 2)
        orders.append(wo)
    for mc in machines:
        mine = [wo for wo in orders if wo["machine"] == mc["id"] and wo["status"] in ("released", "running")]
        mc["open_orders"] = len(mine)
        mc["load_hours"] = _round(sum(wo["planned_hours"] for wo in mine), 1)

    vendor_of = {v["id"]: v for v in vendors}
    buys: list[dict[str, Any]] = []
    for i, (code, qty, status, off) in enumerate(_BUY_ORDERS):
        mat = mat_of[code]
        vendor = vendor_of[mat["vendor"]]
        uc = _round(mat["unit_cost"] * (1 - vendor["discount_pct"] / 100), 2) + off
        uc = _round(uc, 2)
        fee = SMALL_ORDER_FEE if _round(qty * uc, 6) < _round(vendor["min_order"], 6) else 0
        buys.append({"id": f"BUY{i + 1:03d}", "vendor": vendor["id"], "material": mat["id"], "quantity": qty, "unit_cost": uc,
                     "amount": _round(qty * uc + fee, 2), "status": status})
    for v in vendors:
        v["open_po_value"] = _round(sum(b["amount"] for b in buys if b["vendor"] == v["id"] and b["status"] in ("draft", "sent")), 2)

    inspections: list[dict[str, Any]] = []
    for i, (w, stage, inspector, sample, defects) in enumerate(_INSPECTIONS):
        qi = {"id": f"QI{i + 1:03d}", "work_order": orders[w]["id"], "stage": stage, "inspector": inspector, "sample_size": sample,
              "defects": defects, "defect_rate": None, "result": "pending"}
        if defects is not None:
            qi["defect_rate"] = _round(defects * 100 / sample, 2)
            qi["result"] = "fail" if qi["defect_rate"] > DEFECT_LIMIT_A else "pass"
        inspections.append(qi)

    notices: list[dict[str, Any]] = []
    for fg in goods:
        if fg["active"] and fg["margin_pct"] < MIN_MARGIN:
            notices.append({"kind": "margin_review", "finished_good": fg["id"], "status": "open"})
    for mc in machines:
        if mc["status"] in ("down", "maintenance"):
            notices.append({"kind": "breakdown" if mc["status"] == "down" else "maintenance_due", "machine": mc["id"], "status": "open"})
    for qi in inspections:
        if qi["result"] == "fail":
            wo = next(w for w in orders if w["id"] == qi["work_order"])
            notices.append({"kind": "quality_alert", "work_order": wo["id"], "machine": wo["machine"], "status": "open"})
    notices.append({"kind": "safety", "machine": machines[3]["id"], "note": "Light curtain tested and signed off", "status": "closed"})
    notices.append({"kind": "policy", "note": "Hearing protection required in hall 2", "status": "open"})
    notices.append({"kind": "maintenance_due", "machine": machines[9]["id"], "note": "Serviced early during shutdown", "status": "closed"})
    notices.append({"kind": "safety", "machine": machines[4]["id"], "note": "Hot runner guard replaced", "status": "open"})
    notices.append({"kind": "quality_alert", "work_order": orders[2]["id"], "machine": orders[2]["machine"],
                    "note": "Burrs on flange faces, lot reworked", "status": "closed"})
    fields = TABLES["plant_notice"]["fields"]
    notices = [{"id": f"PN{j + 1:02d}", **{f: n.get(f) for f in fields}} for j, n in enumerate(notices)]
    return {"vendor": vendors, "material": materials, "machine": machines, "finished_good": goods, "bom_line": lines, "work_order": orders,
            "buy_order": buys, "inspection": inspections, "plant_notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if table == "material":
        on_hand, allocated = float(rec["on_hand"] or 0), float(rec["allocated"] or 0)
        point = float(rec["reorder_point"] or 0)
        if field == "on_hand":
            # a count that takes the available stock just below the reorder point, exactly to it, or well above
            values |= {point + allocated - 1, point + allocated, base + float(rec["reorder_qty"] or 0), _round(base * 0.9, 0)}
        elif field == "allocated":
            values |= {on_hand - point + 1, on_hand - point, base + rng.choice([5, 10, 25]), 0}
        elif field == "reorder_point":
            values |= {float(rec["available"] or 0) + 1, float(rec["available"] or 0), _round(base * 0.5, 0)}
        elif field == "unit_cost":
            values |= {_round(base * 1.08, 2), _round(base * 0.95, 2), base + 1}
        else:
            values |= {base + rng.choice([10, 50]), _round(base * 1.5, 0)}
    elif table == "finished_good":
        cost = float(rec["unit_cost"] or 0)
        if field == "list_price":
            # a price that takes the margin just below the review line, and a rise
            values |= {float(int(cost / (1 - MIN_MARGIN / 100) - 1)), _round(base * 1.1, 0), base + 20}
        elif field == "std_minutes":
            values |= {base + rng.choice([3, 6]), _round(base * 0.8, 0), base * 2}
        elif field in ("material_cost", "unit_cost"):
            values |= {_round(base + rng.choice([15, 40]), 2), _round(float(rec["list_price"] or 0) * 0.9, 2)}
        else:
            values |= {base + 10, 0}
    elif table == "bom_line":
        if field == "qty_per":
            values |= {base * 2, base + 1, _round(base * 0.5, 3)}
        elif field == "scrap_pct":
            values |= {0, base + 5}
        else:
            values |= {_round(base * 1.1, 2), _round(base + 1, 2)}
    elif table == "machine":
        interval, since = float(rec["service_interval"] or 0), float(rec["hours_since_service"] or 0)
        if field == "hours_since_service":
            values |= {interval, interval - 1, 0, base + 40}
        elif field == "service_interval":
            values |= {since, since + 1, base + 100}
        elif field in ("hourly_rate", "setup_hours"):
            values |= {base + rng.choice([0.5, 6]), _round(base * 1.2, 1)}
        else:
            values |= {base + 1, base + 8}
    elif table == "work_order":
        qty = float(rec["quantity"] or 0)
        if field == "quantity":
            values |= {qty + 20, qty * 2, _round(qty * 0.5, 0)}
        elif field == "good_qty":
            values |= {_round(qty * 0.95, 0), base + 5, qty}
        elif field == "scrap_qty":
            values |= {0, base + 3, _round(qty * 0.1, 0)}
        else:
            values |= {base + 2, _round(base * 1.5, 1)}
    elif table == "buy_order":
        vendor = state.get("vendor", rec["vendor"]) or {}
        uc = float(rec["unit_cost"] or 1)
        if field == "quantity":
            # double the order, and one small enough to pay the small-order charge
            values |= {base * 2, base + 100, _round(float(vendor.get("min_order") or 0) / uc * 0.5, 0)}
        elif field == "unit_cost":
            values |= {_round(base * 1.05, 2), _round(base * 0.9, 2)}
        else:
            values |= {base + 50}
    elif table == "inspection":
        sample = float(rec["sample_size"] or 0)
        if field == "defects":
            # a rate under B's limit, between B's and A's, exactly A's and above it
            values |= {0, base + 1} | {float(int(sample * r / 100)) for r in (2, 3.5, DEFECT_LIMIT_A, 6)}
        elif field == "sample_size":
            values |= {sample * 2, sample + 10, _round(sample * 0.5, 0)}
        else:
            values |= {base + 1, 3}
    elif table == "vendor":
        if field == "discount_pct":
            values |= {0, base + 2, 8}
        elif field == "min_order":
            values |= {base + 500, base * 2, 100}
        elif field == "lead_days":
            values |= {base + 7, max(base - 3, 1)}
        else:
            values |= {base + 1000, 0}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("vendor", "name"):
        return cur + " Ltd"
    if (table, field) == ("material", "description"):
        return cur + " (alt. spec)"
    if (table, field) == ("machine", "name"):
        return cur + " (rebuilt)"
    if (table, field) == ("finished_good", "name"):
        return cur + " Mk II"
    if (table, field) == ("work_order", "due"):
        return cur[:-2] + f"{min(int(cur[-2:]) + 7, 28):02d}" if cur else None
    if (table, field) == ("inspection", "inspector"):
        return ["R. Okafor", "M. Lindqvist", "J. Castell"][(idx + 1) % 3]
    if (table, field) == ("plant_notice", "note"):
        return cur + " - acknowledged" if cur else None
    return None


_NEW_VENDORS = [("Baltic Forge", "PL", 16, 2, 2000), ("Sunrise Electrics", "KR", 30, 3, 4000), ("Hartley Seals", "UK", 7, 0, 300)]
_NEW_MATERIALS = [("AL-BAR-30", "Aluminium bar 30 mm", "m", 6.4), ("GK-FLT-50", "Flat gasket DN50", "pcs", 1.85),
                  ("WR-CU-25", "Copper wire 2.5 mm2", "m", 1.2), ("LB-GRS-01", "Bearing grease", "kg", 15.5)]
_NEW_MACHINES = [("MC-CNC3", "CNC mill 3", "cnc", 96, 1.5, 500), ("MC-LSR1", "Laser cutter", "press", 110, 0.75, 600),
                 ("MC-PNT2", "Paint booth 2", "paint", 58, 1, 450)]
_NEW_GOODS = [("BV-25", "Ball valve DN25", 12, 68), ("CP-80", "Centrifugal pump 80 mm", 65, 1150), ("SV-15", "Safety valve DN15", 11, 95),
              ("MB-04", "Motor mount bracket large", 6, 42)]
_NOTES = ["Forklift route changed", "Fire drill on Friday", "Coolant top-up overdue", "New torque settings issued"]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "vendor":
        name, country, lead, disc, mo = _NEW_VENDORS[k % len(_NEW_VENDORS)]
        return {"name": name, "country": country, "lead_days": lead, "discount_pct": disc, "min_order": mo}
    if table == "material":
        code, desc, uom, cost = _NEW_MATERIALS[k % len(_NEW_MATERIALS)]
        vendor = pick("vendor", lambda v: not v["on_hold"])
        point = rng.choice([20, 50, 100])
        out: dict[str, Any] = {"code": code, "description": desc, "vendor": vendor["id"], "uom": uom, "unit_cost": cost,
                               "reorder_point": point, "reorder_qty": point * 3}
        if k % 3 != 2:  # first stock received with the record; sometimes less than the reorder point
            out["on_hand"] = point * rng.choice([0.5, 2, 4]) if k % 3 == 0 else point + rng.choice([-5, 10])
        if k % 4 == 1:
            out["allocated"] = rng.choice([10, 30])
        return out
    if table == "machine":
        code, name, kind, rate, setup, interval = _NEW_MACHINES[k % len(_NEW_MACHINES)]
        out = {"code": code, "name": name, "kind": kind, "hourly_rate": rate, "setup_hours": setup, "service_interval": interval}
        if k % 4 == 1:  # a used machine bought in, with hours on it
            out["status"] = "running"
            out["hours_since_service"] = rng.choice([interval - 20, interval, interval + 35])
        return out
    if table == "finished_good":
        sku, name, minutes, price = _NEW_GOODS[k % len(_NEW_GOODS)]
        routing = pick("machine", lambda m: m["status"] != "down")
        out = {"sku": sku, "name": name, "routing": routing["id"], "std_minutes": minutes, "list_price": price}
        if k % 3 == 1:
            out["material_cost"] = rng.choice([18.4, 240, 35.75])
        return out
    if table == "bom_line":
        fg = pick("finished_good")
        mat = pick("material")
        out = {"finished_good": fg["id"], "material": mat["id"], "qty_per": rng.choice([1, 2, 0.5, 4, 0.25])}
        if k % 3 == 1:
            out["scrap_pct"] = rng.choice([2, 5, 10])
        if k % 5 == 4:  # a negotiated cost for this product
            out["unit_cost"] = _round(float(mat["unit_cost"]) * 0.9, 2)
        return out
    if table == "work_order":
        fg = pick("finished_good", lambda g: g["active"])
        out = {"finished_good": fg["id"], "quantity": rng.choice([10, 25, 40, 120, 300]), "due": f"2027-04-{rng.randrange(1, 29):02d}"}
        if k % 3 == 1:
            out["status"] = "released"
        if k % 5 == 3:  # scheduled on another machine than the routing
            out["machine"] = pick("machine", lambda m: m["status"] in ("running", "idle"))["id"]
        return out
    if table == "buy_order":
        mat = pick("material")
        vendor = state.get("vendor", mat["vendor"]) or {}
        qty = float(mat["reorder_qty"] or 10) * rng.choice([0.1, 0.5, 1])
        out = {"vendor": vendor["id"], "material": mat["id"], "quantity": qty,
               "unit_cost": _round(float(mat["unit_cost"]) * (1 - float(vendor.get("discount_pct") or 0) / 100), 2)}
        if k % 3 == 0:
            out["status"] = "sent"
        return out
    if table == "inspection":
        wo = pick("work_order", lambda w: w["status"] in ("released", "running", "completed"))
        sample = rng.choice([13, 20, 32, 50, 80])
        out = {"work_order": wo["id"], "stage": _STAGES[k % 3], "inspector": ["R. Okafor", "M. Lindqvist", "J. Castell"][k % 3],
               "sample_size": sample}
        if k % 4 != 3:  # counted at once: none, a few, or too many defects
            out["defects"] = float(int(sample * rng.choice([0, 3, 3.5, 5, 8]) / 100))
        return out
    machine = pick("machine")
    return {"kind": ["safety", "policy"][k % 2], "machine": machine["id"] if k % 2 == 0 else None, "note": _NOTES[k % len(_NOTES)]}


FAMILY = WorldFamily("factory", "Factory", "production in a manufacturing plant (pumps and valves)", 61409, 60, TABLES, _records,
                     _rules_a, build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
