"""Generator of the EnterpriseWorldShift worlds ``ews-A`` ... ``ews-D`` (package data).

An IT service-request and procurement domain modelled on ServiceNow: 9
tables, 252 initial records, 25 rules in world A; B modifies one rule (the
approval threshold drops), C adds one (critical requests need a finance
approval), D deletes one (cancelling no longer withdraws pending approvals).

Everything is deterministic (fixed seed, no clock): ``python -m
evals.worldshift.generate_ews`` rewrites the four files, and a test checks
that the shipped files are exactly this script's output.

Tests (150 per world) are picked from candidate writes by running the true
rules: about half trigger rules (every rule of a world fires in at least 3
tests), a quarter are near misses (a write on a rule's trigger whose
condition just fails: a threshold met exactly, another choice value), a
quarter are unrelated writes. B, C and D each have at least 10 tests on the
trigger of their changed, added or deleted rule.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import yaml

from memkit.rules import Action, Engine, World, parse_world

__all__ = ["build_base", "build_shifts", "generate", "main", "WORLD_DIR"]

WORLD_DIR = Path(__file__).parent / "worlds"
SEED = 20260
TESTS_PER_WORLD = 150

_FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia", "Oz", "Pia",
          "Quin", "Rui", "Sol", "Tess"]
_LAST = ["Alvarez", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Gupta", "Hale", "Ito", "Jansen"]
_DEPTS = ["IT", "Finance", "Sales", "Operations", "Legal", "Research"]
_ITEMS = [
    ("Laptop", "hardware", 1450), ("Monitor", "hardware", 320), ("Docking station", "hardware", 210), ("Keyboard", "hardware", 45),
    ("Headset", "hardware", 95), ("Phone", "hardware", 880), ("Tablet", "hardware", 640), ("Server rack", "hardware", 5200),
    ("Office licence", "software", 240), ("Design suite", "software", 1100), ("IDE licence", "software", 300), ("VPN seat", "software", 60),
    ("Antivirus", "software", 35), ("Database licence", "software", 4200), ("BI dashboard", "software", 780), ("CRM seat", "software", 150),
    ("Onboarding", "service", 400), ("Data recovery", "service", 950), ("Cabling", "service", 700), ("Training day", "service", 600),
    ("Security audit", "service", 3500), ("Desk move", "service", 120), ("Printer service", "service", 180), ("Cloud setup", "service", 1600),
]

TABLES: dict[str, Any] = {
    "department": {"fields": {
        "name": {"type": "string"},
        "head": {"type": "reference", "ref": "user"},
        "budget_limit": {"type": "number", "default": 0},
    }},
    "cost_center": {"fields": {
        "code": {"type": "string"},
        "department": {"type": "reference", "ref": "department"},
        "balance": {"type": "number", "default": 0},
        "frozen": {"type": "boolean", "default": False},
    }},
    "user": {"fields": {
        "name": {"type": "string"},
        "department": {"type": "reference", "ref": "department"},
        "role": {"type": "choice", "choices": ["employee", "manager", "admin"], "default": "employee"},
        "vip": {"type": "boolean", "default": False},
        "active": {"type": "boolean", "default": True},
    }},
    "catalog_item": {"fields": {
        "name": {"type": "string"},
        "category": {"type": "choice", "choices": ["hardware", "software", "service"]},
        "price": {"type": "number"},
        "requires_approval": {"type": "boolean", "default": False},
        "active": {"type": "boolean", "default": True},
    }},
    "request": {"fields": {
        "opened_by": {"type": "reference", "ref": "user"},
        "cost_center": {"type": "reference", "ref": "cost_center"},
        "state": {"type": "choice", "choices": ["draft", "submitted", "approved", "rejected", "fulfilled", "cancelled"], "default": "draft"},
        "priority": {"type": "choice", "choices": ["low", "normal", "high", "critical"], "default": "normal"},
        "total": {"type": "number", "default": 0},
        "item_count": {"type": "number", "default": 0},
        "approval_required": {"type": "boolean", "default": False},
    }},
    "request_item": {"fields": {
        "request": {"type": "reference", "ref": "request"},
        "catalog_item": {"type": "reference", "ref": "catalog_item"},
        "quantity": {"type": "number", "default": 1},
        "unit_price": {"type": "number"},
        "total": {"type": "number", "default": 0},
        "state": {"type": "choice", "choices": ["open", "ordered", "delivered", "cancelled"], "default": "open"},
    }},
    "approval": {"fields": {
        "request": {"type": "reference", "ref": "request"},
        "approver": {"type": "reference", "ref": "user"},
        "state": {"type": "choice", "choices": ["requested", "approved", "rejected"], "default": "requested"},
        "level": {"type": "choice", "choices": ["manager", "finance"], "default": "manager"},
    }},
    "task": {"fields": {
        "request": {"type": "reference", "ref": "request"},
        "assigned_to": {"type": "reference", "ref": "user"},
        "kind": {"type": "choice", "choices": ["fulfil", "procure", "review"], "default": "fulfil"},
        "state": {"type": "choice", "choices": ["open", "in_progress", "closed"], "default": "open"},
        "hours": {"type": "number", "default": 0},
    }},
    "budget": {"fields": {
        "cost_center": {"type": "reference", "ref": "cost_center"},
        "fiscal_year": {"type": "number"},
        "amount": {"type": "number"},
        "committed": {"type": "number", "default": 0},
        "over_budget": {"type": "boolean", "default": False},
    }},
}


def _rules_a() -> list[dict[str, Any]]:
    """The 25 rules of world A (ids R01..R25 stay the same across shifted worlds)."""
    return [
        {"id": "R01", "name": "Line total follows quantity and unit price", "table": "request_item", "events": ["insert", "update"],
         "when": "before", "order": 20, "condition": "changed(quantity) or changed(unit_price)",
         "actions": [{"set": {"total": "round(current.quantity * current.unit_price, 2)"}}]},
        {"id": "R02", "name": "A new line without a price takes the catalog price", "table": "request_item", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.unit_price)",
         "actions": [{"set": {"unit_price": "current.catalog_item.price"}}]},
        {"id": "R03", "name": "Request total is the sum of its lines", "table": "request_item", "events": ["insert", "update", "delete"],
         "when": "after", "condition": "changed(total) or changed(request)",
         "actions": [{"update": {"target": "current.request", "set": {"total": "sum(request_item, total, row.request == current.request)"}}}]},
        {"id": "R04", "name": "Request counts its lines", "table": "request_item", "events": ["insert", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.request", "set": {"item_count": "count(request_item, row.request == current.request)"}}}]},
        {"id": "R05", "name": "Large requests need approval", "table": "request", "events": ["update"], "when": "before",
         "condition": "changed(total) and current.total > 5000",
         "actions": [{"set": {"approval_required": True}}]},
        {"id": "R06", "name": "Submitting a request that needs approval asks the department head", "table": "request", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'submitted') and current.approval_required",
         "actions": [{"create": {"table": "approval", "values": {"request": "current.id", "approver": "current.opened_by.department.head",
                                                                  "state": "'requested'", "level": "'manager'"}}}]},
        {"id": "R07", "name": "Submitting a request that needs no approval creates a fulfilment task", "table": "request", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'submitted') and current.approval_required == false",
         "actions": [{"create": {"table": "task", "values": {"request": "current.id", "kind": "'fulfil'", "hours": 2}}}]},
        {"id": "R08", "name": "An approved approval approves its request", "table": "approval", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'approved')",
         "actions": [{"update": {"target": "current.request", "set": {"state": "'approved'"}}}]},
        {"id": "R09", "name": "An approved request gets a procurement task for its requester", "table": "request", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'approved')",
         "actions": [{"create": {"table": "task", "values": {"request": "current.id", "assigned_to": "current.opened_by", "kind": "'procure'", "hours": 4}}}]},
        {"id": "R10", "name": "A rejected approval rejects its request", "table": "approval", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'rejected')",
         "actions": [{"update": {"target": "current.request", "set": {"state": "'rejected'"}}}]},
        {"id": "R11", "name": "Cancelling a request closes its open tasks", "table": "request", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'cancelled')",
         "actions": [{"update_where": {"table": "task", "where": "row.request == current.id and row.state != 'closed'", "set": {"state": "'closed'"}}}]},
        {"id": "R12", "name": "Cancelling a request withdraws its pending approvals", "table": "request", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'cancelled')",
         "actions": [{"delete_where": {"table": "approval", "where": "row.request == current.id and row.state == 'requested'"}}]},
        {"id": "R13", "name": "Requests opened by VIPs start at high priority", "table": "request", "events": ["insert"], "when": "before",
         "condition": "current.opened_by.vip",
         "actions": [{"set": {"priority": "'high'"}}]},
        {"id": "R14", "name": "Starting an unassigned task assigns the requester", "table": "task", "events": ["update"], "when": "before",
         "condition": "changes_to(state, 'in_progress') and is_empty(current.assigned_to)",
         "actions": [{"set": {"assigned_to": "current.request.opened_by"}}]},
        {"id": "R15", "name": "Closing a fulfilment task fulfils the request", "table": "task", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'closed') and current.kind == 'fulfil'",
         "actions": [{"update": {"target": "current.request", "set": {"state": "'fulfilled'"}}}]},
        {"id": "R16", "name": "A fulfilled request delivers its lines", "table": "request", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'fulfilled')",
         "actions": [{"update_where": {"table": "request_item", "where": "row.request == current.id and row.state != 'cancelled'", "set": {"state": "'delivered'"}}}]},
        {"id": "R17", "name": "Approval commits the request total to the cost center's budgets", "table": "request", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'approved')",
         "actions": [{"update_where": {"table": "budget", "where": "row.cost_center == current.cost_center", "set": {"committed": "row.committed + current.total"}}}]},
        {"id": "R18", "name": "A budget committed beyond its amount is flagged", "table": "budget", "events": ["update"], "when": "before",
         "condition": "changed(committed) and current.committed > current.amount",
         "actions": [{"set": {"over_budget": True}}]},
        {"id": "R19", "name": "Expensive catalog items need approval", "table": "catalog_item", "events": ["insert", "update"], "when": "before",
         "condition": "changed(price) and current.price >= 1000",
         "actions": [{"set": {"requires_approval": True}}]},
        {"id": "R20", "name": "Retiring a catalog item cancels its open lines", "table": "catalog_item", "events": ["update"], "when": "after",
         "condition": "changes_to(active, false)",
         "actions": [{"update_where": {"table": "request_item", "where": "row.catalog_item == current.id and row.state == 'open'", "set": {"state": "'cancelled'"}}}]},
        {"id": "R21", "name": "Deactivating a user unassigns their unfinished tasks", "table": "user", "events": ["update"], "when": "after",
         "condition": "changes_to(active, false)",
         "actions": [{"update_where": {"table": "task", "where": "row.assigned_to == current.id and row.state != 'closed'", "set": {"assigned_to": None}}}]},
        {"id": "R22", "name": "Managers are VIPs", "table": "user", "events": ["update"], "when": "before",
         "condition": "changes_to(role, 'manager')",
         "actions": [{"set": {"vip": True}}]},
        {"id": "R23", "name": "Deleting a request deletes its lines", "table": "request", "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "request_item", "where": "row.request == current.id"}}]},
        {"id": "R24", "name": "Critical requests get a review task for the department head", "table": "request", "events": ["insert"],
         "when": "after", "condition": "current.priority == 'critical'",
         "actions": [{"create": {"table": "task", "values": {"request": "current.id", "assigned_to": "current.opened_by.department.head", "kind": "'review'", "hours": 1}}}]},
        {"id": "R25", "name": "A cancelled line no longer counts towards the total", "table": "request_item", "events": ["update"], "when": "before",
         "order": 30, "condition": "changes_to(state, 'cancelled')",
         "actions": [{"set": {"total": 0}}]},
    ]


def build_shifts() -> dict[str, dict[str, Any]]:
    """The shift of B (modify R05), C (add R26) and D (delete R12)."""
    r05 = next(r for r in _rules_a() if r["id"] == "R05")
    r05_b = {**r05, "name": "Requests above 2000 need approval (policy tightened)", "condition": "changed(total) and current.total > 2000"}
    r26 = {"id": "R26", "name": "Escalating a request to critical asks finance for approval", "table": "request", "events": ["update"],
           "when": "after", "condition": "changes_to(priority, 'critical')",
           "actions": [{"create": {"table": "approval", "values": {"request": "current.id", "state": "'requested'", "level": "'finance'"}}}]}
    return {"B": {"modify": [r05_b]}, "C": {"add": [r26]}, "D": {"delete": ["R12"]}}


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    users = []
    for i in range(40):
        dept = f"DEP{(i % 6) + 1:03d}"
        role = "manager" if i < 6 else ("admin" if i % 13 == 0 else "employee")
        users.append({"id": f"USR{i + 1:03d}", "name": f"{_FIRST[i % 20]} {_LAST[(i * 7) % 10]}", "department": dept,
                      "role": role, "vip": i < 6 or i % 11 == 0, "active": i % 17 != 16})
    departments = [{"id": f"DEP{i + 1:03d}", "name": name, "head": f"USR{i + 1:03d}", "budget_limit": 50000 + 10000 * i}
                   for i, name in enumerate(_DEPTS)]
    cost_centers = [{"id": f"CC{i + 1:03d}", "code": f"{_DEPTS[i % 6][:3].upper()}-{100 + i}", "department": f"DEP{(i % 6) + 1:03d}",
                     "balance": 20000 + 2500 * i, "frozen": i == 11} for i in range(12)]
    items = [{"id": f"CAT{i + 1:03d}", "name": name, "category": cat, "price": price, "requires_approval": price >= 1000,
              "active": i != 23} for i, (name, cat, price) in enumerate(_ITEMS)]
    requests, lines = [], []
    states = ["draft"] * 14 + ["submitted"] * 8 + ["approved"] * 6 + ["rejected"] * 3 + ["fulfilled"] * 6 + ["cancelled"] * 3
    rng.shuffle(states)
    line_no = 0
    for i in range(40):
        rid = f"REQ{i + 1:04d}"
        opener = f"USR{rng.randrange(7, 41):03d}"
        n_lines = 1 if i % 3 == 0 else 2 if i < 20 else 1 + (i % 2)
        total = 0.0
        req_lines = []
        for _ in range(n_lines):
            if line_no >= 60:
                break
            line_no += 1
            item = items[rng.randrange(len(items) - 1)]
            qty = rng.choice([1, 1, 2, 3, 5])
            line_total = round(qty * item["price"], 2)
            state = {"fulfilled": "delivered", "approved": "ordered", "cancelled": "cancelled"}.get(states[i], "open")
            if state == "cancelled":
                line_total = 0
            req_lines.append({"id": f"RITM{line_no:04d}", "request": rid, "catalog_item": item["id"], "quantity": qty,
                              "unit_price": item["price"], "total": line_total, "state": state})
            total += line_total
        lines.extend(req_lines)
        requests.append({"id": rid, "opened_by": opener, "cost_center": f"CC{(i % 12) + 1:03d}", "state": states[i],
                         "priority": ["low", "normal", "normal", "high"][i % 4] if i != 7 else "critical", "total": round(total, 2),
                         "item_count": len(req_lines), "approval_required": total > 5000})
    while line_no < 60:  # any lines left go to the last drafts
        line_no += 1
        req = requests[-1 - (line_no % 5)]
        item = items[line_no % 20]
        lines.append({"id": f"RITM{line_no:04d}", "request": req["id"], "catalog_item": item["id"], "quantity": 1,
                      "unit_price": item["price"], "total": item["price"], "state": "open"})
        req["total"] = round(req["total"] + item["price"], 2)
        req["item_count"] += 1
        req["approval_required"] = req["total"] > 5000
    approvals = []
    candidates = [r for r in requests if r["state"] in ("submitted", "approved", "rejected")]
    for i in range(20):
        req = candidates[i % len(candidates)]
        state = {"submitted": "requested", "approved": "approved", "rejected": "rejected"}[req["state"]]
        head = f"USR{int(next(u for u in users if u['id'] == req['opened_by'])['department'][3:]):03d}"
        approvals.append({"id": f"APR{i + 1:03d}", "request": req["id"], "approver": head, "state": state,
                          "level": "finance" if i % 5 == 4 else "manager"})
    tasks = []
    task_reqs = [r for r in requests if r["state"] in ("submitted", "approved", "fulfilled", "draft")]
    for i in range(30):
        req = task_reqs[i % len(task_reqs)]
        state = "closed" if req["state"] == "fulfilled" else ["open", "in_progress", "open"][i % 3]
        assigned = None if i % 4 == 0 else f"USR{7 + (i * 3) % 33:03d}"
        tasks.append({"id": f"TASK{i + 1:04d}", "request": req["id"], "assigned_to": assigned,
                      "kind": ["fulfil", "procure", "review"][i % 3], "state": state, "hours": [1, 2, 3, 4, 6, 8][i % 6]})
    budgets = []
    for i in range(20):
        cc = f"CC{(i % 12) + 1:03d}"
        amount = 10000 + 2500 * (i % 7)
        committed = [0, 2500, 6000, 9500, 12000][i % 5]
        budgets.append({"id": f"BUD{i + 1:03d}", "cost_center": cc, "fiscal_year": 2026 if i < 12 else 2027,
                        "amount": amount, "committed": committed, "over_budget": committed > amount})
    return {"department": departments, "cost_center": cost_centers, "user": users, "catalog_item": items,
            "request": requests, "request_item": lines, "approval": approvals, "task": tasks, "budget": budgets}


def build_base() -> dict[str, Any]:
    """World A without tests."""
    rng = random.Random(SEED)
    return {"format": "worldshift/1", "name": "ews-A",
            "description": "EnterpriseWorldShift world A: IT service requests and procurement (ServiceNow-like), 9 tables, 25 rules.",
            "tables": TABLES, "records": _records(rng), "rules": _rules_a()}


# -- tests ---------------------------------------------------------------------------------------

def _numbers_in(rules: list[dict[str, Any]]) -> list[float]:
    out: set[float] = set()
    for r in rules:
        for m in re.finditer(r"[<>]=?\s*(\d+(?:\.\d+)?)", r.get("condition", "") or ""):
            out.add(float(m.group(1)))
    return sorted(out)


def _candidates(world: World, rng: random.Random) -> list[Action]:
    """Many deterministic candidate writes, of every kind, on every table."""
    state = world.initial_state()
    rules = [r.to_dict() for r in world.rules]
    thresholds = _numbers_in(rules)
    out: list[Action] = []
    n_new = 0
    for table, spec in world.schema.tables.items():
        rows = state.rows(table)
        sample = rng.sample(rows, min(len(rows), 10))
        for rec in rows:
            for fname, fs in spec.fields.items():
                cur = rec.get(fname)
                if fs.type not in ("choice", "boolean") and rec not in sample:
                    continue
                if fs.type == "choice":
                    for c in fs.choices or ():
                        if c != cur:
                            out.append(Action("update", table, rec["id"], {fname: c}))
                elif fs.type == "boolean":
                    out.append(Action("update", table, rec["id"], {fname: not bool(cur)}))
                elif fs.type == "number":
                    values = {rng.choice([0, 1, 2, 3, 7, 12]), round((float(cur or 0) + 1) * rng.choice([0.5, 1.5, 3]), 2)}
                    for t in thresholds:
                        values |= {t, t + 1, t - 1, round(t / float(cur), 2) if cur else t}
                    for v in sorted(values):
                        if v != cur and v >= 0:
                            out.append(Action("update", table, rec["id"], {fname: v}))
                elif fs.type == "reference":
                    pool = state.rows(fs.ref or "")
                    other = rng.choice(pool)["id"]
                    if other != cur:
                        out.append(Action("update", table, rec["id"], {fname: other}))
                    if cur is not None and rng.random() < 0.3:
                        out.append(Action("update", table, rec["id"], {fname: None}))
                else:
                    out.append(Action("update", table, rec["id"], {fname: f"{cur} v2"}))
            if rec in sample:
                out.append(Action("delete", table, rec["id"]))
        for k in range(150):
            base = rng.choice(rows)
            values = {f: v for f, v in base.items() if f != "id" and v is not None}
            for f in list(values):
                if rng.random() < 0.35:
                    del values[f]
            for f, fs in spec.fields.items():
                if fs.type == "choice" and rng.random() < 0.4:
                    values[f] = rng.choice(list(fs.choices or ()))
                elif fs.type == "reference" and f in values and rng.random() < 0.5:
                    values[f] = rng.choice(state.rows(fs.ref or ""))["id"]
            n_new += 1
            out.append(Action("insert", table, f"T{table[:3].upper()}{n_new:04d}", values))
        # multi-field writes that reach conditions needing two things at once
        for rec in rng.sample(rows, min(len(rows), 4)):
            for fname, fs in spec.fields.items():
                if fs.type == "choice":
                    extra = {f: (not rec.get(f)) for f, s in spec.fields.items() if s.type == "boolean"}
                    c = rng.choice(list(fs.choices or ()))
                    if c != rec.get(fname) and extra:
                        out.append(Action("update", table, rec["id"], {fname: c, **extra}))
    return out


def _condition_fields(world: World) -> dict[tuple[str, str], set[str]]:
    """(table, event) -> fields that rule conditions of that trigger mention."""
    out: dict[tuple[str, str], set[str]] = {}
    for r in world.rules:
        text = r.to_dict().get("condition", "")
        names = set(re.findall(r"(?:current|previous)\.([A-Za-z_]+)", text)) | set(re.findall(r"changes?_?(?:to|from)?\(([A-Za-z_]+)", text))
        for e in r.events:
            out.setdefault((r.table, e), set()).update(names)
    return out


def _select_tests(world: World, focus: str | None, seed: int, prefer: list[Action] | None = None) -> list[Action]:
    rng = random.Random(seed)
    engine = Engine(world.schema, world.rules)
    initial = world.initial_state()
    cond_fields = _condition_fields(world)
    triggers: list[tuple[Action, list[str]]] = []
    near: list[Action] = []
    unrelated: list[Action] = []
    seen: set[str] = set()
    pool_counts: dict[str, int] = {r.id: 0 for r in world.rules}
    for _round in range(6):
        # more rounds of candidates only while some rule has fewer than 3 triggering candidates
        if _round and min(pool_counts.values()) >= 3:
            break
        for a in _candidates(world, rng):
            key = repr(a.to_dict())
            if key in seen:
                continue
            seen.add(key)
            try:
                result = engine.run(initial, a, validate=True)
            except Exception:  # noqa: BLE001 - a candidate that breaks the schema is simply not a test
                continue
            if result.error:
                continue
            if result.fired and result.effects:
                triggers.append((a, sorted(set(result.fired))))
                for rid in set(result.fired):
                    pool_counts[rid] += 1
            elif (a.table, a.op) in cond_fields and (a.op != "update" or set(a.values) & cond_fields[(a.table, a.op)]):
                near.append(a)
            else:
                unrelated.append(a)
    chosen: list[Action] = []
    used: set[str] = set()
    counts: dict[str, int] = {r.id: 0 for r in world.rules}

    def take(a: Action, fired: list[str] | None) -> None:
        chosen.append(a)
        used.add(repr(a.to_dict()))
        for rid in fired or []:
            counts[rid] += 1

    for a in prefer or []:
        take(a, sorted(set(engine.run(initial, a).fired)))
    if focus is not None:
        focus_rule = focus
        focus_trigger = [(a, f) for a, f in triggers if focus_rule in f]
        for a, f in focus_trigger[:12]:
            take(a, f)
    rng.shuffle(triggers)
    for rid in counts:
        for a, f in triggers:
            if counts[rid] >= 3:
                break
            if rid in f and repr(a.to_dict()) not in used:
                take(a, f)
    n_trigger = TESTS_PER_WORLD // 2
    for a, f in triggers:
        if len(chosen) >= n_trigger:
            break
        if repr(a.to_dict()) not in used:
            take(a, f)
    rng.shuffle(near)
    rng.shuffle(unrelated)
    n_near = (TESTS_PER_WORLD - len(chosen)) // 2
    for a in near[:n_near]:
        take(a, None)
    for a in unrelated:
        if len(chosen) >= TESTS_PER_WORLD:
            break
        take(a, None)
    for a in near[n_near:]:
        if len(chosen) >= TESTS_PER_WORLD:
            break
        take(a, None)
    rng.shuffle(chosen)
    return chosen


def _focus_tests_deleted(world_before: World, world: World, rule_id: str, seed: int) -> list[Action]:
    """Tests on the trigger of a rule deleted in ``world``: they fire it in the world before."""
    rng = random.Random(seed)
    engine = Engine(world_before.schema, world_before.rules)
    initial = world_before.initial_state()
    out = []
    for a in _candidates(world_before, rng):
        try:
            r = engine.run(initial, a, validate=True)
        except Exception:  # noqa: BLE001
            continue
        if rule_id in r.fired and not r.error and a not in out:
            out.append(a)
        if len(out) >= 12:
            break
    return out


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=200)


def generate() -> dict[str, str]:
    """File name -> YAML text of the four worlds."""
    base = build_base()
    shifts = build_shifts()
    files: dict[str, str] = {}
    world_a = parse_world(base, WORLD_DIR / "ews-A.yaml")
    base["tests"] = [t.to_dict() for t in _select_tests(world_a, None, SEED + 1)]
    files["ews-A.yaml"] = _dump(base)
    prev_name, prev_world = "ews-A", world_a
    descriptions = {
        "B": "EnterpriseWorldShift world B: a policy change - requests above 2000 (was 5000) need approval.",
        "C": "EnterpriseWorldShift world C: an extension - escalating a request to critical asks finance for approval.",
        "D": "EnterpriseWorldShift world D: a retirement - cancelling a request no longer withdraws its pending approvals.",
    }
    focus = {"B": "R05", "C": "R26", "D": None}
    for i, key in enumerate("BCD"):
        raw = {"format": "worldshift/1", "name": f"ews-{key}", "description": descriptions[key], "extends": f"{prev_name}.yaml",
               "shift": shifts[key]}
        world = _parse_shifted(raw, files, key)
        if key == "D":
            focus_tests = _focus_tests_deleted(prev_world, world, "R12", SEED + 10)
            tests = _select_tests(world, None, SEED + 2 + i, prefer=focus_tests)
        else:
            tests = _select_tests(world, focus[key], SEED + 2 + i)
        raw["tests"] = [t.to_dict() for t in tests]
        files[f"ews-{key}.yaml"] = _dump(raw)
        prev_name, prev_world = f"ews-{key}", world
    return files


def _parse_shifted(raw: dict[str, Any], files: dict[str, str], key: str) -> World:
    """Parse a shifted world against the files generated so far (written to a temp dir, never to WORLD_DIR)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            (Path(tmp) / name).write_text(text)
        path = Path(tmp) / f"ews-{key}.yaml"
        path.write_text(_dump(raw))
        from memkit.rules import load_world

        return load_world(path)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the four world files in evals/worldshift/worlds/."""
    files = generate()
    for name, text in files.items():
        (WORLD_DIR / name).write_text(text)
        print(f"wrote {WORLD_DIR / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
