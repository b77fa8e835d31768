"""Generator of the harbor world family ``harbor-A`` ... ``harbor-D`` (package data).

A port container terminal domain, unlike the EnterpriseWorldShift service
desk, the held-out warehouse, the fresh hospital, the novel library, the
sealed insurance claims and the vault utility billing: 8 tables
(shipping_line, berth, vessel, port_call, container, customs_hold,
terminal_invoice, gate_transaction), about 200 initial records and 22 rules
in world A. Vessels call at berths and discharge boxes; a call whose boxes
are all off the ship is completed and invoiced for its port dues; boxes
that are dangerous or declared too heavy are held, released holds are
invoiced, boxes leave through the gate once released, paying for the days
they stayed beyond their free days; a line whose unpaid invoices pass its
credit limit is put on stop and its trucks are refused at the gate. B
modifies one rule (boxes are weight-checked from a lower declared gross
weight: a threshold changes), C adds one (a reefer box that is released is
invoiced for its power), D deletes one (a dangerous box discharged is no
longer held for a dangerous goods check).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_harbor`` rewrites the four files; a test
checks that the shipped files are exactly its output. ``_world_writer`` picks
the tests (60 per world) from this module's candidate writes, as for every
family; D's show that the deleted rule's effect is gone.
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

__all__ = ["FAMILY", "REEFER_DAILY", "STORAGE_RATE", "WEIGHT_CHECK_A", "WEIGHT_CHECK_B", "build_shifts"]

# declared gross weight (tonnes) above which a box is held for a weight check, before and after B's policy change
WEIGHT_CHECK_A = 30
WEIGHT_CHECK_B = 28
# storage per TEU and day beyond a box's free days, the key account discount on port dues, the inspection fee per TEU
STORAGE_RATE = 18.5
KEY_ACCOUNT_FACTOR = 0.85
INSPECTION_PER_TEU = 85
# reefer power per day in the yard (C's rule; the records' reefer power invoices were billed by hand at this rate)
REEFER_DAILY = 32

_ALLIANCES = ["meridian", "polaris", "independent"]
_TIERS = ["standard", "preferred", "key_account"]
_TERMINALS = ["north_quay", "south_quay", "river_terminal"]
_CLASSES = ["feeder", "feedermax", "panamax", "neo_panamax"]
_CALL_STATES = ["planned", "arrived", "alongside", "working", "completed", "cancelled"]
_SIZES = ["20ft", "40ft", "45ft"]
_TEU = {"20ft": 1, "40ft": 2, "45ft": 2.25}
_BOX_STATES = ["on_board", "discharged", "in_yard", "held", "released", "gated_out"]
_REASONS = ["documents", "x_ray", "dangerous_goods", "weight_check"]
_INVOICE_KINDS = ["port_dues", "storage", "inspection", "reefer_power"]

TABLES: dict[str, Any] = {
    "shipping_line": table(name=string(), alliance=choice(_ALLIANCES), tier=choice(_TIERS, "standard"), free_days=number(5),
                           credit_limit=number(20000), outstanding=number(0), open_invoices=number(0), on_stop=boolean(False)),
    "berth": table(name=string(), terminal=choice(_TERMINALS), max_loa=number(), dues_rate=number(), cranes=number(2),
                   status=choice(["available", "occupied", "maintenance"], "available")),
    "vessel": table(name=string(), imo=string(), line=reference("shipping_line"), vessel_class=choice(_CLASSES), loa=number(),
                    gross_tonnage=number(), status=choice(["at_sea", "at_anchor", "alongside"], "at_sea")),
    "port_call": table(vessel=reference("vessel"), berth=reference("berth"), voyage=string(), status=choice(_CALL_STATES, "planned"),
                       moves_planned=number(0), moves_done=number(0), port_dues=number(), delay_hours=number(0)),
    "container": table(box_no=string(), call=reference("port_call"), line=reference("shipping_line"), size=choice(_SIZES, "40ft"),
                       teu=number(2), gross_weight=number(), reefer=boolean(False), hazardous=boolean(False),
                       status=choice(_BOX_STATES, "on_board"), free_days=number(), dwell_days=number(0), storage_charge=number(0)),
    "customs_hold": table(container=reference("container"), reason=choice(_REASONS), status=choice(["open", "released"], "open"),
                          inspection_fee=number()),
    "terminal_invoice": table(line=reference("shipping_line"), call=reference("port_call"), container=reference("container"),
                              kind=choice(_INVOICE_KINDS), amount=number(), status=choice(["open", "paid", "disputed", "void"], "open"),
                              days_overdue=number(0)),
    "gate_transaction": table(container=reference("container"), direction=choice(["gate_in", "gate_out"]), truck_plate=string(),
                              status=choice(["pending", "approved", "refused"], "pending")),
}

_ID_PREFIX = {"shipping_line": "SL", "berth": "BTH", "vessel": "VSL", "port_call": "PC", "container": "CNT", "customs_hold": "CH",
              "terminal_invoice": "INV", "gate_transaction": "GT"}


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _storage(dwell: float, free: float, teu: float) -> float:
    """The storage charge the rules keep on a box."""
    return _round2(max(dwell - free, 0) * teu * STORAGE_RATE)


def _weight_rule(limit: int, name: str) -> dict[str, Any]:
    """Q06, whose weight threshold B lowers."""
    return {"id": "Q06", "name": name, "table": "container", "events": ["insert", "update"], "when": "after",
            "condition": f"changed(gross_weight) and current.gross_weight > {limit} and current.status != 'gated_out'",
            "actions": [{"create": {"table": "customs_hold", "values": {"container": "current.id", "reason": "'weight_check'"}}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 22 rules of world A (ids Q01..Q22 stay the same across shifted worlds)."""
    outstanding = "row.status in ['open', 'disputed']"
    return [
        {"id": "Q01", "name": "A box without a shipping line takes the line of its call's vessel", "table": "container",
         "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.line)",
         "actions": [{"set": {"line": "current.call.vessel.line"}}]},
        {"id": "Q02", "name": "A box without free days takes its line's free days", "table": "container", "events": ["insert"],
         "when": "before", "order": 20, "condition": "is_empty(current.free_days)",
         "actions": [{"set": {"free_days": "current.line.free_days"}}]},
        {"id": "Q03", "name": f"A box's storage charge is {STORAGE_RATE} per TEU for every day it stays beyond its free days",
         "table": "container", "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(dwell_days) or changed(free_days) or changed(teu)",
         "actions": [{"set": {"storage_charge": f"round(max(current.dwell_days - current.free_days, 0) * current.teu * {STORAGE_RATE}, 2)"}}]},
        {"id": "Q04", "name": "A call's moves done count its boxes that are off the ship", "table": "container",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.call", "set": {
             "moves_done": "count(container, row.call == current.call and row.status != 'on_board')"}}}]},
        {"id": "Q05", "name": "A dangerous box that is discharged is held for a dangerous goods check", "table": "container",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'discharged') and current.hazardous",
         "actions": [{"create": {"table": "customs_hold", "values": {"container": "current.id", "reason": "'dangerous_goods'"}}}]},
        _weight_rule(WEIGHT_CHECK_A, f"A box declared heavier than {WEIGHT_CHECK_A} t is held for a weight check"),
        {"id": "Q07", "name": "Deleting a box deletes its holds and its pending gate transactions", "table": "container",
         "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "customs_hold", "where": "row.container == current.id"}},
                     {"delete_where": {"table": "gate_transaction", "where": "row.container == current.id and row.status == 'pending'"}}]},
        {"id": "Q08", "name": "A call's port dues are its vessel's gross tonnage at the berth's dues rate", "table": "port_call",
         "events": ["insert", "update"], "when": "before", "order": 10, "condition": "changed(vessel) or changed(berth)",
         "actions": [{"set": {"port_dues": "round(current.vessel.gross_tonnage * current.berth.dues_rate, 2)"}}]},
        {"id": "Q09", "name": "Key account lines pay 15% less port dues", "table": "port_call", "events": ["insert", "update"],
         "when": "before", "order": 20, "condition": "changed(port_dues) and current.vessel.line.tier == 'key_account'",
         "actions": [{"set": {"port_dues": f"round(current.port_dues * {KEY_ACCOUNT_FACTOR}, 2)"}}]},
        {"id": "Q10", "name": "A working call whose moves are all done is completed", "table": "port_call", "events": ["update"],
         "when": "before", "order": 30,
         "condition": "(changed(moves_done) or changed(moves_planned)) and current.moves_done >= current.moves_planned and "
                      "current.status == 'working'",
         "actions": [{"set": {"status": "'completed'"}}]},
        {"id": "Q11", "name": "A call that comes alongside occupies its berth and puts its vessel alongside", "table": "port_call",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'alongside')",
         "actions": [{"update": {"target": "current.berth", "set": {"status": "'occupied'"}}},
                     {"update": {"target": "current.vessel", "set": {"status": "'alongside'"}}}]},
        {"id": "Q12", "name": "A completed call is invoiced for its port dues, frees its berth and sends its vessel to sea",
         "table": "port_call", "events": ["update"], "when": "after", "condition": "changes_to(status, 'completed')",
         "actions": [{"create": {"table": "terminal_invoice", "values": {"line": "current.vessel.line", "call": "current.id",
                                                                        "kind": "'port_dues'", "amount": "current.port_dues"}}},
                     {"update": {"target": "current.berth", "set": {"status": "'available'"}}},
                     {"update": {"target": "current.vessel", "set": {"status": "'at_sea'"}}}]},
        {"id": "Q13", "name": "Deleting a call deletes the boxes still on board and voids its open invoices", "table": "port_call",
         "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "container", "where": "row.call == current.id and row.status == 'on_board'"}},
                     {"update_where": {"table": "terminal_invoice", "where": "row.call == current.id and row.status == 'open'",
                                       "set": {"status": "'void'"}}}]},
        {"id": "Q14", "name": f"A new hold without an inspection fee charges {INSPECTION_PER_TEU} per TEU of its box",
         "table": "customs_hold", "events": ["insert"], "when": "before", "condition": "is_empty(current.inspection_fee)",
         "actions": [{"set": {"inspection_fee": f"round(current.container.teu * {INSPECTION_PER_TEU}, 2)"}}]},
        {"id": "Q15", "name": "A new open hold on a box in the yard holds the box", "table": "customs_hold", "events": ["insert"],
         "when": "after", "condition": "current.status == 'open' and current.container.status in ['discharged', 'in_yard', 'released']",
         "actions": [{"update": {"target": "current.container", "set": {"status": "'held'"}}}]},
        {"id": "Q16", "name": "Releasing a box's last open hold releases the box and invoices the inspection", "table": "customs_hold",
         "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'released') and current.container.status == 'held' and "
                      "count(customs_hold, row.container == current.container and row.status == 'open') == 0",
         "actions": [{"update": {"target": "current.container", "set": {"status": "'released'"}}},
                     {"create": {"table": "terminal_invoice", "values": {"line": "current.container.line", "container": "current.container",
                                                                        "kind": "'inspection'", "amount": "current.inspection_fee"}}}]},
        {"id": "Q17", "name": "A line's outstanding and open invoices follow its unpaid invoices", "table": "terminal_invoice",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.line", "set": {
             "outstanding": f"round(sum(terminal_invoice, amount, row.line == current.line and {outstanding}), 2)",
             "open_invoices": "count(terminal_invoice, row.line == current.line and row.status == 'open')"}}}]},
        {"id": "Q18", "name": "A line is on stop while its outstanding exceeds its credit limit", "table": "shipping_line",
         "events": ["update"], "when": "before", "condition": "changed(outstanding) or changed(credit_limit)",
         "actions": [{"set": {"on_stop": "current.outstanding > current.credit_limit"}}]},
        {"id": "Q19", "name": "A line put on stop has its pending gate-outs refused", "table": "shipping_line", "events": ["update"],
         "when": "after", "condition": "changes_to(on_stop, true)",
         "actions": [{"update_where": {"table": "gate_transaction",
                                       "where": "row.container.line == current.id and row.direction == 'gate_out' and row.status == 'pending'",
                                       "set": {"status": "'refused'"}}}]},
        {"id": "Q20", "name": "A gate-out of a box that is not released, or whose line is on stop, is refused", "table": "gate_transaction",
         "events": ["insert"], "when": "before",
         "condition": "current.direction == 'gate_out' and (current.container.status != 'released' or current.container.line.on_stop)",
         "actions": [{"set": {"status": "'refused'"}}]},
        {"id": "Q21", "name": "An approved gate-out of a released box gates the box out", "table": "gate_transaction",
         "events": ["insert", "update"], "when": "after",
         "condition": "changes_to(status, 'approved') and current.direction == 'gate_out' and current.container.status == 'released'",
         "actions": [{"update": {"target": "current.container", "set": {"status": "'gated_out'"}}}]},
        {"id": "Q22", "name": "A box gated out with a storage charge is invoiced for its storage", "table": "gate_transaction",
         "events": ["insert", "update"], "when": "after",
         "condition": "changes_to(status, 'approved') and current.container.status == 'gated_out' and current.container.storage_charge > 0",
         "actions": [{"create": {"table": "terminal_invoice", "values": {
             "line": "current.container.line", "container": "current.container", "kind": "'storage'",
             "amount": "current.container.storage_charge"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies Q06 (weight check threshold), C adds Q23 (reefer power invoice), D deletes Q05 (dangerous goods hold)."""
    q23 = {"id": "Q23", "name": f"A reefer box that is released is invoiced {REEFER_DAILY} a day for its power", "table": "container",
           "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'released') and current.reefer",
           "actions": [{"create": {"table": "terminal_invoice", "values": {
               "line": "current.line", "container": "current.id", "kind": "'reefer_power'",
               "amount": f"round(current.dwell_days * {REEFER_DAILY}, 2)"}}}]}
    q06_b = _weight_rule(WEIGHT_CHECK_B, f"A box declared heavier than {WEIGHT_CHECK_B} t is held for a weight check "
                                         "(weight policy tightened)")
    return {"B": Shift(f"boxes are held for a weight check when declared heavier than {WEIGHT_CHECK_B} t (was {WEIGHT_CHECK_A} t)",
                       {"modify": [q06_b]}),
            "C": Shift(f"a reefer box that is released is invoiced for its power, {REEFER_DAILY} a day in the yard", {"add": [q23]}),
            "D": Shift("a dangerous box that is discharged is no longer held for a dangerous goods check", {"delete": ["Q05"]})}


# -- initial records -----------------------------------------------------------------------------

# name, alliance, tier, free days, credit limit, box owner code
_LINES = [("Nordvik Container Line", "meridian", "key_account", 7, 120000, "NVKU"),
          ("Polaris Ocean Carriers", "polaris", "key_account", 7, 100000, "PLRU"),
          ("Baltic Feeder Services", "independent", "preferred", 5, 30000, "BFSU"),
          ("Cape Meridian Shipping", "meridian", "preferred", 5, 40000, "CMSU"),
          ("Azul Transatlantica", "polaris", "standard", 4, 10000, "AZTU"),
          ("Kestrel Short Sea", "independent", "standard", 3, 2500, "KSSU")]
# name, terminal, max length overall, dues rate per gross ton, cranes, status
_BERTHS = [("North Quay 1", "north_quay", 400, 0.16, 6, "occupied"), ("North Quay 2", "north_quay", 400, 0.16, 5, "occupied"),
           ("North Quay 3", "north_quay", 350, 0.15, 4, "occupied"), ("South Quay 4", "south_quay", 300, 0.14, 3, "occupied"),
           ("South Quay 5", "south_quay", 300, 0.14, 3, "available"), ("River Berth 6", "river_terminal", 180, 0.12, 2, "occupied"),
           ("River Berth 7", "river_terminal", 160, 0.12, 1, "occupied"), ("Ro-Ro Berth 8", "south_quay", 240, 0.1, 0, "maintenance")]
# name, line (index), class, length overall, gross tonnage
_VESSELS = [("Nordvik Aurora", 0, "neo_panamax", 366, 141000), ("Nordvik Borealis", 0, "neo_panamax", 366, 141000),
            ("Nordvik Tundra", 0, "panamax", 294, 52000), ("Polaris Vega", 1, "neo_panamax", 334, 118000),
            ("Polaris Rigel", 1, "panamax", 300, 66000), ("Polaris Deneb", 1, "feedermax", 220, 28000),
            ("Baltic Tern", 2, "feeder", 152, 9900), ("Baltic Skua", 2, "feeder", 140, 8400),
            ("Cape Agulhas", 3, "panamax", 294, 54000), ("Cape Verde Trader", 3, "feedermax", 212, 25500),
            ("Azul Marina", 4, "panamax", 281, 48000), ("Kestrel Dawn", 5, "feeder", 134, 7800)]
# vessel (index), berth (index), status, delay in hours, voyage; then the boxes of the call, one letter each:
# on board (b), discharged (d), in the yard (y), held (h), released (r), gated out (g)
_CALLS = [(0, 0, "completed", 0, "NV311W", "yyrgghgr"), (3, 1, "completed", 6, "PL208E", "ygrhygy"),
          (6, 5, "completed", 0, "BF077N", "gyrgyr"), (8, 3, "completed", 14, "CM140W", "ryghgyg"),
          (1, 0, "working", 0, "NV312W", "bbdyhybd"), (4, 1, "working", 3, "PL209E", "bdyydbr"),
          (7, 5, "working", 0, "BF078S", "bdhyby"), (9, 3, "alongside", 0, "CM141E", "bbbbbb"),
          (11, 6, "working", 9, "KS052N", "ydrbr"), (2, 2, "alongside", 2, "NV090E", "bbbbb"),
          (5, 4, "arrived", 18, "PL310W", "bbbbb"), (10, 4, "arrived", 31, "AZ044E", "bbbb"),
          (0, 1, "planned", 0, "NV313W", "bbb"), (6, 5, "planned", 0, "BF079N", "bbb"),
          (3, 0, "planned", 12, "PL211E", "bbbb"), (8, 3, "cancelled", 0, "CM142W", "")]
# a call still loading after its last discharge: its moves planned count two more than its boxes
_LOADING_CALL = 5
# boxes by their number (1-based, in file order): dangerous ones (never just discharged or in the yard: held or released by their
# check), reefers, ones declared too heavy, ones carried for another line
_HAZARDOUS = {5, 12, 27, 30, 34, 41, 44, 50, 53, 58, 62, 66, 70}
_REEFERS = {2, 8, 14, 16, 21, 25, 29, 31, 36, 38, 45, 47, 52, 57, 61, 64, 68, 73, 79}
_HEAVY = {4: 31.2, 26: 30.6, 48: 32}
_SLOT_CHARTER = {9: 4, 23: 5, 39: 2, 55: 5, 71: 1}
_PLATES = ["HB-4821-K", "HB-1177-T", "LX-3090-A", "HB-7734-M", "DN-5512-R", "HB-2268-P", "LX-8841-B", "DN-0396-S", "HB-6610-C",
           "HB-9025-L", "LX-4473-D", "DN-7158-F"]


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (dues, charges, counts, holds, stops as the rules leave them)."""
    lines = [{"id": f"SL{i + 1:02d}", "name": n, "alliance": a, "tier": t, "free_days": f, "credit_limit": c, "outstanding": 0,
              "open_invoices": 0, "on_stop": False} for i, (n, a, t, f, c, _o) in enumerate(_LINES)]
    owner = {ln["id"]: _LINES[i][5] for i, ln in enumerate(lines)}
    berths = [{"id": f"BTH{i + 1:02d}", "name": n, "terminal": t, "max_loa": m, "dues_rate": r, "cranes": c, "status": s}
              for i, (n, t, m, r, c, s) in enumerate(_BERTHS)]
    vessels = [{"id": f"VSL{i + 1:02d}", "name": n, "imo": f"IMO{9412036 + i * 7919}", "line": lines[li]["id"], "vessel_class": cls,
                "loa": loa, "gross_tonnage": gt, "status": "at_sea"} for i, (n, li, cls, loa, gt) in enumerate(_VESSELS)]
    calls: list[dict[str, Any]] = []
    boxes: list[dict[str, Any]] = []
    status_of = {"b": "on_board", "d": "discharged", "y": "in_yard", "h": "held", "r": "released", "g": "gated_out"}
    for k, (vi, bi, status, delay, voyage, plan) in enumerate(_CALLS):
        vessel, berth = vessels[vi], berths[bi]
        dues = _round2(vessel["gross_tonnage"] * berth["dues_rate"])
        if _LINES[_VESSELS[vi][1]][2] == "key_account":
            dues = _round2(dues * KEY_ACCOUNT_FACTOR)
        call = {"id": f"PC{k + 1:02d}", "vessel": vessel["id"], "berth": berth["id"], "voyage": voyage, "status": status,
                "moves_planned": len(plan) + (2 if k == _LOADING_CALL else 0), "moves_done": sum(1 for c in plan if c != "b"),
                "port_dues": dues, "delay_hours": delay}
        calls.append(call)
        if status in ("alongside", "working"):
            vessel["status"] = "alongside"
        elif status == "arrived":
            vessel["status"] = "at_anchor"
        for code in plan:
            n = len(boxes) + 1
            line = lines[_SLOT_CHARTER[n]]["id"] if n in _SLOT_CHARTER else vessel["line"]
            size = "20ft" if n % 3 == 1 else "45ft" if n % 11 == 6 else "40ft"
            teu = _TEU[size]
            weight = _HEAVY.get(n, round(rng.uniform(6, 21) if size == "20ft" else rng.uniform(9, 28.5), 1))
            box_status = status_of[code]
            if n in _HAZARDOUS and code in "dy":  # a dangerous box off the ship was held (and maybe released) by its check
                box_status = "held" if n % 2 else "released"
            free = _LINES[int(line[2:]) - 1][3]
            dwell = 0 if code == "b" else rng.choice([0, 1]) if code == "d" else rng.randrange(1, 26)
            boxes.append({"id": f"CNT{n:03d}", "box_no": f"{owner[line]}{4100273 + n * 8167 % 900000}", "call": call["id"],
                          "line": line, "size": size, "teu": teu, "gross_weight": weight, "reefer": n in _REEFERS,
                          "hazardous": n in _HAZARDOUS, "status": box_status, "free_days": free, "dwell_days": dwell,
                          "storage_charge": _storage(dwell, free, teu)})
    # export boxes brought in by truck, waiting for a call to be assigned
    for j in range(6):
        n = len(boxes) + 1
        line = lines[[0, 1, 3, 0, 2, 4][j]]["id"]
        free = _LINES[int(line[2:]) - 1][3]
        dwell = [2, 4, 9, 1, 6, 3][j]
        size = "20ft" if j % 2 else "40ft"
        boxes.append({"id": f"CNT{n:03d}", "box_no": f"{owner[line]}{4100273 + n * 8167 % 900000}", "call": None, "line": line,
                      "size": size, "teu": _TEU[size], "gross_weight": round(rng.uniform(8, 26), 1), "reefer": n in _REEFERS,
                      "hazardous": False, "status": "in_yard", "free_days": free, "dwell_days": dwell,
                      "storage_charge": _storage(dwell, free, _TEU[size])})
    # holds: every held box has an open one (dangerous goods, weight, else documents or x-ray); boxes declared too heavy have a weight
    # check, dangerous boxes off the ship a dangerous goods check; some released boxes were released from a customs hold
    holds: list[dict[str, Any]] = []
    invoices: list[dict[str, Any]] = []

    def hold(box: dict[str, Any], reason: str, status: str, fee: float | None = None) -> None:
        fee = _round2(box["teu"] * INSPECTION_PER_TEU) if fee is None else fee
        holds.append({"container": box["id"], "reason": reason, "status": status, "inspection_fee": fee})
        if status == "released" and box["status"] in ("released", "gated_out"):
            invoices.append({"line": box["line"], "call": None, "container": box["id"], "kind": "inspection", "amount": fee,
                             "status": "paid" if len(invoices) % 3 else "open", "days_overdue": 0})

    for n, box in enumerate(boxes, 1):
        off = box["status"] != "on_board"
        done = "open" if box["status"] in ("held", "on_board") else "released"
        if box["hazardous"] and off:
            hold(box, "dangerous_goods", done)
        if box["gross_weight"] > WEIGHT_CHECK_A:
            hold(box, "weight_check", done)
        if box["status"] == "held" and not (box["hazardous"] or box["gross_weight"] > WEIGHT_CHECK_A):
            hold(box, "documents" if n % 2 else "x_ray", "open", None if n % 2 else 240)
        elif box["status"] == "released" and not box["hazardous"] and n % 2 == 0:
            hold(box, "x_ray" if n % 4 == 0 else "documents", "released", 240 if n % 4 == 0 else None)
    # invoices: port dues of completed calls, older unpaid dues of the small lines, storage of boxes gated out with a charge,
    # reefer power of reefers gated out (billed by hand)
    for k, call in enumerate(calls):
        if call["status"] == "completed":
            line = next(v["line"] for v in vessels if v["id"] == call["vessel"])
            invoices.append({"line": line, "call": call["id"], "container": None, "kind": "port_dues", "amount": call["port_dues"],
                             "status": ["paid", "open", "paid", "open"][k], "days_overdue": [0, 12, 0, 34][k]})
    for line, amount, overdue in (("SL06", 936, 62), ("SL06", 936, 31), ("SL06", 1010.4, 3), ("SL05", 7200, 45)):
        invoices.append({"line": line, "call": None, "container": None, "kind": "port_dues", "amount": amount, "status": "open",
                         "days_overdue": overdue})
    gates: list[dict[str, Any]] = []

    def gate(box: dict[str, Any], direction: str, status: str) -> None:
        gates.append({"container": box["id"], "direction": direction, "truck_plate": _PLATES[len(gates) % len(_PLATES)], "status": status})

    for n, box in enumerate(boxes, 1):
        if box["call"] is None:
            gate(box, "gate_in", "approved")
        elif box["status"] == "gated_out":
            gate(box, "gate_out", "approved")
            if box["storage_charge"] > 0:
                invoices.append({"line": box["line"], "call": None, "container": box["id"], "kind": "storage",
                                 "amount": box["storage_charge"], "status": ["paid", "open", "disputed"][n % 3], "days_overdue": 0})
            if box["reefer"]:
                invoices.append({"line": box["line"], "call": None, "container": box["id"], "kind": "reefer_power",
                                 "amount": _round2(box["dwell_days"] * REEFER_DAILY), "status": "paid", "days_overdue": 0})
        elif box["status"] == "released" and n % 3 != 1:
            gate(box, "gate_out", "refused" if box["line"] == "SL06" else "pending")
        elif box["status"] == "held" and n % 2:
            gate(box, "gate_out", "refused")
    for inv in invoices:
        if inv["status"] == "open" and inv["kind"] != "port_dues" and inv["amount"] > 200:
            inv["days_overdue"] = 8
    for ln in lines:
        own = [i for i in invoices if i["line"] == ln["id"]]
        ln["outstanding"] = _round2(sum(i["amount"] for i in own if i["status"] in ("open", "disputed")))
        ln["open_invoices"] = sum(1 for i in own if i["status"] == "open")
        ln["on_stop"] = ln["outstanding"] > ln["credit_limit"]
    holds = [{"id": f"CH{i + 1:02d}", **h} for i, h in enumerate(holds)]
    invoices = [{"id": f"INV{i + 1:03d}", **v} for i, v in enumerate(invoices)]
    gates = [{"id": f"GT{i + 1:02d}", **g} for i, g in enumerate(gates)]
    return {"shipping_line": lines, "berth": berths, "vessel": vessels, "port_call": calls, "container": boxes, "customs_hold": holds,
            "terminal_invoice": invoices, "gate_transaction": gates}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("container", "gross_weight"):
        values |= {round(base + 1.5, 1), round(base * 0.8, 1)}
    elif (table, field) == ("container", "dwell_days"):
        free = rec["free_days"] or 0
        values |= {free - 1, free, free + 1, base + rng.choice([3, 7, 12])}
    elif (table, field) == ("container", "free_days"):
        values |= {rec["dwell_days"], base + 2, base - 2}
    elif (table, field) == ("container", "teu"):
        values |= {1, 2, 2.25}
    elif (table, field) == ("port_call", "moves_done"):
        planned = rec["moves_planned"]
        values |= {planned, planned - 1, base + 1}
    elif (table, field) == ("port_call", "moves_planned"):
        done = rec["moves_done"]
        values |= {done, done + 1, base + 10}
    elif field in ("delay_hours", "days_overdue"):
        values |= {base + rng.choice([6, 12, 30])}
    elif (table, field) == ("shipping_line", "outstanding"):
        # the line's credit limit met exactly and passed, and half paid off
        limit = rec["credit_limit"]
        values |= {limit - 1, limit, limit + 1, round(base * 0.5, 2)}
    elif (table, field) == ("shipping_line", "credit_limit"):
        values |= {rec["outstanding"], rec["outstanding"] - 1, base * 1.5, base * 0.5}
    elif field in ("free_days", "cranes", "open_invoices"):
        values |= {base + 1, base - 1}
    elif field == "dues_rate":
        values |= {round(base + 0.01, 2), round(base * 1.1, 3)}
    elif field in ("max_loa", "loa"):
        values |= {base + 20}
    elif field == "gross_tonnage":
        values |= {round(base * 1.1), round(base * 0.9)}
    else:  # money: port dues, storage charge, inspection fee, amount
        values |= {round(base + rng.choice([50, 120.5, 400]), 2), round(base * 0.5, 2)}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("port_call", "voyage") and cur:
        # the voyage turned round: the same number in the other direction
        return cur[:-1] + {"W": "E", "E": "W", "N": "S", "S": "N"}[cur[-1]]
    if (table, field) == ("vessel", "name"):
        return cur + " II" if idx % 2 else "MV " + cur
    if (table, field) == ("gate_transaction", "truck_plate"):
        return _PLATES[(idx * 5 + 3) % len(_PLATES)]
    return None


_NEW_LINES = [("Fjord Express Line", "independent", 4, 15000), ("Orion Global Shipping", "polaris", 7, 90000),
              ("Sundial Reefer Carriers", "meridian", 5, 30000), ("Tidewater Feeders", "independent", 3, 6000)]
_NEW_BERTHS = [("South Quay 9", "south_quay", 320, 0.14, 3), ("River Berth 10", "river_terminal", 170, 0.12, 2),
               ("North Quay 11", "north_quay", 420, 0.17, 7)]
_NEW_VESSELS = [("Nordvik Solstice", "neo_panamax", 366, 152000), ("Baltic Plover", "feeder", 148, 9200),
                ("Cape Horn Express", "panamax", 294, 56500), ("Polaris Antares", "feedermax", 222, 29800),
                ("Azul Coral", "panamax", 281, 47400)]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "shipping_line":
        name, alliance, free, limit = _NEW_LINES[k % len(_NEW_LINES)]
        out: dict[str, Any] = {"name": name, "alliance": alliance, "credit_limit": limit}
        if k % 3 == 1:
            out["tier"] = "preferred" if k % 2 else "key_account"
        if k % 2 == 0:
            out["free_days"] = free
        return out
    if table == "berth":
        name, terminal, loa, rate, cranes = _NEW_BERTHS[k % len(_NEW_BERTHS)]
        out = {"name": name, "terminal": terminal, "max_loa": loa, "dues_rate": rate, "cranes": cranes}
        if k % 4 == 3:
            out["status"] = "maintenance"
        return out
    if table == "vessel":
        name, cls, loa, gt = _NEW_VESSELS[k % len(_NEW_VESSELS)]
        line = pick("shipping_line")
        out = {"name": name, "imo": f"IMO{9700000 + k * 4111}", "line": line["id"], "vessel_class": cls, "loa": loa, "gross_tonnage": gt}
        if k % 4 == 1:
            out["status"] = "at_anchor"
        return out
    if table == "port_call":
        # a share for key account lines, whose dues the rules discount
        if k % 3 == 0:
            vessel = pick("vessel", lambda v: state.get("shipping_line", v["line"])["tier"] == "key_account")
        else:
            vessel = pick("vessel")
        berth = pick("berth", lambda b: b["status"] != "maintenance" and b["max_loa"] >= vessel["loa"])
        code = state.get("shipping_line", vessel["line"])["name"][:2].upper()
        out = {"vessel": vessel["id"], "berth": berth["id"], "voyage": f"{code}{400 + k * 3}{'WE'[k % 2]}",
               "moves_planned": rng.choice([40, 120, 350, 900])}
        if k % 4 == 2:
            out["status"] = "arrived"
            out["delay_hours"] = rng.choice([4, 20, 36])
        return out
    if table == "container":
        # boxes expected on calls still to come or being worked; some discharged straight away (dangerous ones are held),
        # some declared heavy, some carried for another line; most leave the line and free days to the rules
        call = pick("port_call", lambda c: c["status"] in (("working",) if k % 4 == 1 else ("working", "alongside", "arrived", "planned")))
        size = _SIZES[(k * 2) % 3] if k % 5 else "20ft"
        out = {"call": call["id"], "box_no": f"{['TGHU', 'MSCU', 'NVKU', 'PLRU'][k % 4]}{5301847 + k * 7331}", "size": size,
               "teu": _TEU[size]}
        if k % 5 == 2:
            out["gross_weight"] = rng.choice([28.4, 29.1, 29.8, 30.5, 33.2])
        else:
            out["gross_weight"] = round(rng.uniform(6, 20) if size == "20ft" else rng.uniform(10, 27.5), 1)
        if k % 3 == 0:
            out["reefer"] = True
        if k % 4 in (1, 2) and k % 8 != 6:
            out["hazardous"] = True
        if k % 4 == 1:
            out["status"] = "discharged"
        if k % 6 == 5:
            out["line"] = pick("shipping_line")["id"]
        if k % 5 == 4:
            out["free_days"] = rng.choice([3, 10, 14])
        return out
    if table == "customs_hold":
        if k % 4 == 3:
            box = pick("container", lambda b: b["status"] == "on_board")
        else:
            box = pick("container", lambda b: b["status"] in ("discharged", "in_yard", "released", "held"))
        out = {"container": box["id"], "reason": _REASONS[k % 4] if k % 4 != 2 else "x_ray"}
        if out["reason"] == "x_ray" and k % 3:
            out["inspection_fee"] = 240
        if k % 7 == 6:
            out["status"] = "released"
        return out
    if table == "terminal_invoice":
        # a share for the lines close to their credit limit, whom the rules may put on stop
        if k % 3 == 0:
            line = pick("shipping_line", lambda ln: not ln["on_stop"] and ln["credit_limit"] - ln["outstanding"] < 3000)
        else:
            line = pick("shipping_line")
        kind = _INVOICE_KINDS[k % 4]
        out = {"line": line["id"], "kind": kind}
        if kind == "port_dues":
            call = pick("port_call", lambda c: c["status"] == "completed")
            out["call"], out["amount"] = call["id"], call["port_dues"]
        else:
            box = pick("container", lambda b: b["line"] == line["id"]) if k % 2 else pick("container")
            out["container"] = box["id"]
            out["amount"] = {"storage": 555, "inspection": 170, "reefer_power": 224}[kind] + 37 * (k % 5)
        if k % 4 == 3:
            out["status"] = "paid"
        elif k % 5 == 1:
            out["days_overdue"] = 30
        return out
    # gate transactions: trucks collecting released boxes (some approved at once), trying to collect held ones, delivering exports
    if k % 4 == 3:
        box = pick("container", lambda b: b["status"] == "in_yard")
        return {"container": box["id"], "direction": "gate_in", "truck_plate": _PLATES[k % len(_PLATES)], "status": "approved"}
    if k % 4 == 1:
        box = pick("container", lambda b: b["status"] in ("held", "in_yard"))
    else:
        box = pick("container", lambda b: b["status"] == "released")
    out = {"container": box["id"], "direction": "gate_out", "truck_plate": _PLATES[(k * 7) % len(_PLATES)]}
    if k % 2 == 0:
        out["status"] = "approved"
    return out


FAMILY = WorldFamily("harbor", "Harbor", "port container terminal (vessel calls, boxes, customs holds, gate)", 61807, 60, TABLES,
                     _records, _rules_a, build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX),
                                                                       rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
