"""Generator of the EnterpriseWorldShift worlds ``ews-A`` ... ``ews-D`` (package data).

An IT service-request and procurement domain modelled on ServiceNow: 9
tables, 252 initial records, 25 rules in world A; B modifies one rule (the
approval threshold drops), C adds one (critical requests need a finance
approval), D deletes one (cancelling no longer withdraws pending approvals).

``python -m evals.worldshift.generate_ews`` rewrites the four files; a test
checks that the shipped files are exactly its output. This module holds only
what is the service desk's own: its schema, records, rules, shifts and
candidate writes; ``_world_writer`` picks the tests (150 per world) and
writes the files as it does for every family. B's tests show the new
threshold at work, D's the deleted rule's effect gone.
"""

from __future__ import annotations

import math
import random
import sys
from typing import Any

from memkit.rules import State

from evals.worldshift._candidates import CandidateWrites, Limits, Row, pick_row
from evals.worldshift._fields import boolean, choice, number, reference, string, table
from evals.worldshift._world_writer import Shift, WorldFamily

__all__ = ["FAMILY", "build_shifts"]


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
    "department": table(name=string(), head=reference("user"), budget_limit=number(0)),
    "cost_center": table(code=string(), department=reference("department"), balance=number(0), frozen=boolean(False)),
    "user": table(name=string(), department=reference("department"), role=choice(["employee", "manager", "admin"], "employee"),
                  vip=boolean(False), active=boolean(True)),
    "catalog_item": table(name=string(), category=choice(["hardware", "software", "service"]), price=number(),
                          requires_approval=boolean(False), active=boolean(True)),
    "request": table(opened_by=reference("user"), cost_center=reference("cost_center"),
                     state=choice(["draft", "submitted", "approved", "rejected", "fulfilled", "cancelled"], "draft"),
                     priority=choice(["low", "normal", "high", "critical"], "normal"), total=number(0), item_count=number(0),
                     approval_required=boolean(False)),
    "request_item": table(request=reference("request"), catalog_item=reference("catalog_item"), quantity=number(1), unit_price=number(),
                          total=number(0), state=choice(["open", "ordered", "delivered", "cancelled"], "open")),
    "approval": table(request=reference("request"), approver=reference("user"),
                      state=choice(["requested", "approved", "rejected"], "requested"), level=choice(["manager", "finance"], "manager")),
    "task": table(request=reference("request"), assigned_to=reference("user"), kind=choice(["fulfil", "procure", "review"], "fulfil"),
                  state=choice(["open", "in_progress", "closed", "cancelled"], "open"), hours=number(0)),
    "budget": table(cost_center=reference("cost_center"), fiscal_year=number(), amount=number(), committed=number(0),
                    over_budget=boolean(False)),
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
         "when": "after",
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
        {"id": "R11", "name": "Cancelling a request cancels its unfinished tasks", "table": "request", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'cancelled')",
         "actions": [{"update_where": {"table": "task", "where": "row.request == current.id and row.state in ['open', 'in_progress']",
                                       "set": {"state": "'cancelled'"}}}]},
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
         "actions": [{"update_where": {"table": "task", "where": "row.assigned_to == current.id and row.state in ['open', 'in_progress']",
                                       "set": {"assigned_to": None}}}]},
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


def build_shifts() -> dict[str, Shift]:
    """The shift of B (modify R05), C (add R26) and D (delete R12)."""
    r05 = next(r for r in _rules_a() if r["id"] == "R05")
    r05_b = {**r05, "name": "Requests above 2000 need approval (policy tightened)", "condition": "changed(total) and current.total > 2000"}
    r26 = {"id": "R26", "name": "Escalating a request to critical asks finance for approval", "table": "request", "events": ["update"],
           "when": "after", "condition": "changes_to(priority, 'critical')",
           "actions": [{"create": {"table": "approval", "values": {"request": "current.id", "state": "'requested'", "level": "'finance'"}}}]}
    return {"B": Shift("requests above 2000 (was 5000) need approval", {"modify": [r05_b]}),
            "C": Shift("escalating a request to critical asks finance for approval", {"add": [r26]}),
            "D": Shift("cancelling a request no longer withdraws its pending approvals", {"delete": ["R12"]})}


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
    states = ["draft"] * 11 + ["submitted"] * 11 + ["approved"] * 6 + ["rejected"] * 3 + ["fulfilled"] * 6 + ["cancelled"] * 3
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


# -- ews candidate writes --------------------------------------------------------------------------

_DEPT_RENAMES = {"IT": "IT Services", "Finance": "Finance & Accounting", "Sales": "Sales EMEA", "Operations": "Business Operations",
                 "Legal": "Legal & Compliance", "Research": "Research & Development"}
_NEW_DEPTS = ["Marketing", "Human Resources", "Procurement", "Facilities", "Customer Support"]
_NEW_ITEMS = [("Webcam", "hardware", 85), ("Ergonomic chair", "hardware", 690), ("Video wall", "hardware", 7800),
              ("Password manager", "software", 40), ("ERP module", "software", 2600), ("Translation service", "service", 1300),
              ("Network survey", "service", 850), ("Backup appliance", "hardware", 1000), ("Data labelling", "service", 999),
              ("Conference phone", "hardware", 540)]
_NEW_ID = {"department": "DEP9{:02d}", "cost_center": "CC9{:02d}", "user": "USR9{:02d}", "catalog_item": "CAT9{:02d}",
           "request": "REQ9{:03d}", "request_item": "RITM9{:03d}", "approval": "APR9{:02d}", "task": "TASK9{:03d}", "budget": "BUD9{:02d}"}


def _ews_numbers(table: str, fname: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field; on both sides of the thresholds the rules use where they apply."""
    base = float(rec.get(fname) or 0)
    vals: set[float] = set()
    if (table, fname) == ("request_item", "quantity"):
        vals |= {1, 2, 3, 5, 10}
        req = state.get("request", rec["request"]) if rec.get("request") else None
        price = rec.get("unit_price") or 0
        if req is not None and price:
            # the quantity that just lifts the request's total over each threshold, and the one just below
            other = (req.get("total") or 0) - (rec.get("total") or 0)
            for t in limits.get(("request", "total"), ()):
                q = math.floor((t - other) / price) + 1
                vals |= {q, q - 1}
        vals = {v for v in vals if 1 <= v <= 50}
    elif (table, fname) == ("catalog_item", "price"):
        vals |= {round(base * 0.9), round(base * 1.1)}
        for t in limits.get((table, fname), ()):
            vals |= {t, t - 1, t + 50}
    elif (table, fname) == ("request", "total"):
        vals |= {round(base * 1.1, 2)}
        for t in limits.get((table, fname), ()):
            vals |= {t - 1, t, t + 1}
    elif (table, fname) in (("request_item", "unit_price"), ("request_item", "total")):
        vals |= {round(base * 0.9, 2), round(base * 1.1, 2)}
    elif (table, fname) == ("budget", "committed"):
        amount = float(rec.get("amount") or 0)
        vals |= {amount, amount + 500, base + 1500}
    elif (table, fname) == ("budget", "amount"):
        vals |= {float(rec.get("committed") or 0), base + 2500, base - 2500}
    elif fname == "fiscal_year":
        vals |= {2027, 2028}
    elif fname == "item_count":
        vals |= {base + 1}
    elif fname == "hours":
        vals |= {base + 1, base + 2, 8}
    elif fname == "budget_limit":
        vals |= {base + 10000, base - 10000}
    elif fname == "balance":
        vals |= {base + 1500, base - 1500}
    else:
        vals |= {round(base * 1.1, 2)}
    return vals


def _rename(table: str, fname: str, rec: dict[str, Any], idx: int) -> str | None:
    """A realistic new text for a name or code, or None for fields nobody renames."""
    cur = str(rec.get(fname) or "")
    if (table, fname) == ("user", "name"):
        first, last = cur.split(" ", 1)
        new_last = next(x for k in range(10) if (x := _LAST[(idx * 3 + 1 + k) % 10]) != last)
        return f"{first} {new_last}"
    if (table, fname) == ("department", "name"):
        return _DEPT_RENAMES.get(cur)
    if (table, fname) == ("catalog_item", "name"):
        return f"{cur} {dict(hardware='Pro', software='Enterprise', service='Plus')[rec['category']]}"
    if (table, fname) == ("cost_center", "code"):
        prefix, num = cur.split("-")
        return f"{prefix}-{int(num) + 100}"
    return None


def _ews_insert(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table``; some fields left to their defaults."""
    def pick(t: str, where: Any = None) -> str:
        return pick_row(state, rng, t, where)["id"]

    if table == "department":
        return {"name": _NEW_DEPTS[k % 5], "head": pick("user", lambda u: u["role"] == "manager"), "budget_limit": rng.choice([40000, 60000, 80000])}
    if table == "cost_center":
        dept = state.get("department", pick("department"))
        return {"code": f"{dept['name'][:3].upper()}-{300 + k}", "department": dept["id"], "balance": rng.choice([5000, 15000, 30000])}
    if table == "user":
        out = {"name": f"{_FIRST[(k * 3 + 1) % 20]} {_LAST[(k * 7 + 3) % 10]}", "department": pick("department")}
        if k % 3:
            out["role"] = rng.choice(["employee", "employee", "manager", "admin"])
        return out
    if table == "catalog_item":
        name, cat, price = _NEW_ITEMS[k % len(_NEW_ITEMS)]
        return {"name": name, "category": cat, "price": price}
    if table == "request":
        # a third opened by VIPs (priority left to the rules), some critical ones: both decide a new request's fate
        vip = k % 3 == 0
        out = {"opened_by": pick("user", lambda u: u["active"] and (u["vip"] or not vip)),
               "cost_center": pick("cost_center", lambda c: not c["frozen"])}
        if k % 5 == 2:
            out["opened_by"] = pick("user", lambda u: u["active"] and not u["vip"])
            out["priority"] = "critical"
        elif not vip and k % 4:
            out["priority"] = rng.choice(["low", "normal", "high"])
        return out
    if table == "request_item":
        item = state.get("catalog_item", pick("catalog_item", lambda c: c["active"]))
        out = {"request": pick("request", lambda r: r["state"] in ("draft", "submitted")), "catalog_item": item["id"],
               "quantity": rng.choice([1, 1, 2, 3, 5])}
        if k % 3 == 0:
            out["unit_price"] = round(item["price"] * rng.choice([0.85, 1.0]), 2)
        return out
    if table == "approval":
        return {"request": pick("request", lambda r: r["state"] == "submitted"), "approver": pick("user", lambda u: u["role"] == "manager"),
                "level": rng.choice(["manager", "finance"])}
    if table == "task":
        out = {"request": pick("request", lambda r: r["state"] in ("submitted", "approved")), "kind": rng.choice(["fulfil", "procure", "review"]),
               "hours": rng.choice([1, 2, 4, 8])}
        if k % 2:
            out["assigned_to"] = pick("user", lambda u: u["active"])
        return out
    return {"cost_center": pick("cost_center"), "fiscal_year": 2027, "amount": rng.choice([10000, 15000, 25000]),
            "committed": rng.choice([0, 0, 5000])}


def _references(table: str, fname: str, ref: str, cur: Any, state: State, rng: random.Random) -> list[Any]:
    """Another record (an active user, for a user), and no one at all for a task's assignee."""
    new = [pick_row(state, rng, ref, lambda r: r["id"] != cur and (ref != "user" or r["active"]))["id"]]
    return new + [None] if cur is not None and (table, fname) == ("task", "assigned_to") else new


FAMILY = WorldFamily("ews", "EnterpriseWorldShift", "IT service requests and procurement (ServiceNow-like)", 20260, 150, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_ews_numbers, _ews_insert, _NEW_ID, 20, _rename, _references),
                     held_out=False)

if __name__ == "__main__":
    sys.exit(FAMILY.main())
