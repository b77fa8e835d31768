"""Generator of the lease world family ``lease-A`` ... ``lease-D`` (package data).

A residential property management domain (landlord operations), unlike the
EnterpriseWorldShift service desk, the held-out warehouse, the fresh
hospital, the novel library, the sealed insurance claims, the vault utility
billing and the harbor container terminal: 8 tables (property, unit,
tenant, lease, rent_charge, rent_payment, repair_request, lease_notice),
about 200 initial records and 22 rules in world A. Leases are priced from
the unit's floor area, screened against the tenant's credit and income and
notified of large rent rises; activating a lease lets its unit and welcomes the
tenant, ending it frees the unit and settles the deposit; rent charges fall
late after a grace period and pick up a late fee, payments settle them,
tenants with two late charges fall into arrears and are sent a late rent
notice; repairs above a property's limit need approval, and damage the
tenant caused is charged back when the repair is done. B modifies one rule
(the grace period before a charge is late is shorter: a threshold
changes), C adds one (a lease that ends books a move-out inspection),
D deletes one (a tenant who falls into arrears is no longer sent a late
rent notice).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent. (Its
failures were read on 2026-12-06, so it is no longer unseen; ``fleet`` is.)

``python -m evals.worldshift.generate_lease`` rewrites the four files; a test
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

__all__ = ["FAMILY", "GRACE_DAYS_A", "GRACE_DAYS_B", "LATE_FEE_RATE", "MIN_LATE_FEE", "build_shifts"]

# days a rent charge may stay unpaid before it is late, before and after B's policy change
GRACE_DAYS_A = 5
GRACE_DAYS_B = 3
LATE_FEE_RATE = 0.05
MIN_LATE_FEE = 50
RENT_CAP = 1.1  # an active lease's rent rising by more than this factor is notified
ARREARS_CHARGES = 2
CREDIT_FLOOR = 600
INCOME_MULTIPLE = 3

_PROPERTY_STATES = ["active", "under_renovation", "sold"]
_UNIT_STATES = ["vacant", "occupied", "offline"]
_TENANT_STATES = ["applicant", "active", "in_arrears", "former"]
_LEASE_STATES = ["draft", "active", "notice", "ended", "terminated"]
_CHARGE_STATES = ["open", "late", "paid", "written_off"]
_METHODS = ["bank_transfer", "card", "cash", "cheque"]
_CATEGORIES = ["plumbing", "electrical", "heating", "appliance", "pest", "general"]
_NOTICE_KINDS = ["welcome", "late_rent", "rent_change", "deposit_return", "inspection", "termination"]

TABLES: dict[str, Any] = {
    "property": table(name=string(), city=string(), rent_per_sqm=number(), repair_limit=number(500), occupied_units=number(0),
                      vacant_units=number(0), open_repairs=number(0), status=choice(_PROPERTY_STATES, "active")),
    "unit": table(property=reference("property"), label=string(), bedrooms=number(1), sqm=number(), furnished=boolean(False),
                  status=choice(_UNIT_STATES, "vacant")),
    "tenant": table(name=string(), email=string(), income=number(), credit_score=number(), balance=number(0), arrears_count=number(0),
                    status=choice(_TENANT_STATES, "applicant")),
    "lease": table(unit=reference("unit"), tenant=reference("tenant"), start=string(), monthly_rent=number(), deposit=number(),
                   pets=boolean(False), term_months=number(12), screening=choice(["approved", "referred"], "approved"),
                   status=choice(_LEASE_STATES, "draft")),
    "rent_charge": table(lease=reference("lease"), period=string(), amount=number(), late_fee=number(0), paid=number(0),
                         outstanding=number(), days_late=number(0), status=choice(_CHARGE_STATES, "open")),
    "rent_payment": table(charge=reference("rent_charge"), tenant=reference("tenant"), amount=number(), method=choice(_METHODS),
                          status=choice(["pending", "cleared", "returned"], "pending")),
    "repair_request": table(unit=reference("unit"), lease=reference("lease"), category=choice(_CATEGORIES),
                            priority=choice(["low", "normal", "urgent"], "normal"), cost_estimate=number(), tenant_caused=boolean(False),
                            approval=choice(["not_needed", "pending", "approved"], "not_needed"),
                            status=choice(["open", "scheduled", "completed", "cancelled"], "open")),
    "lease_notice": table(lease=reference("lease"), tenant=reference("tenant"), kind=choice(_NOTICE_KINDS), amount=number(),
                          sent=boolean(False)),
}

_ID_PREFIX = {"property": "PRP", "unit": "UNT", "tenant": "TNT", "lease": "LSE", "rent_charge": "RC", "rent_payment": "PAY",
              "repair_request": "REP", "lease_notice": "LN"}


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _round0(x: float) -> float:
    """Rounded half away from zero to a whole number (as the engine rounds)."""
    return float(round_half_away(x, 0))


def _late_fee(amount: float) -> float:
    """The late fee the rules charge on a rent charge of ``amount`` (the records use it too)."""
    return max(MIN_LATE_FEE, _round2(amount * LATE_FEE_RATE))


def _late_rule(days: int, name: str) -> dict[str, Any]:
    """L11, whose grace period B shortens."""
    return {"id": "L11", "name": name, "table": "rent_charge", "events": ["update"], "when": "before", "order": 15,
            "condition": f"changed(days_late) and current.days_late > {days} and current.status == 'open'",
            "actions": [{"set": {"status": "'late'", "late_fee": f"max({MIN_LATE_FEE}, round(current.amount * {LATE_FEE_RATE}, 2))"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 22 rules of world A (ids L01..L22 stay the same across shifted worlds)."""
    unpaid = "row.status in ['open', 'late']"
    return [
        {"id": "L01", "name": "A new lease without a rent is priced from the unit's floor area at the property's rate per sqm",
         "table": "lease", "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.monthly_rent)",
         "actions": [{"set": {"monthly_rent": "round(current.unit.sqm * current.unit.property.rent_per_sqm, 0)"}}]},
        {"id": "L02", "name": "A new lease without a deposit asks two months' rent, two and a half with pets", "table": "lease",
         "events": ["insert"], "when": "before", "order": 20, "condition": "is_empty(current.deposit)",
         "actions": [{"set": {"deposit": "round(current.monthly_rent * if(current.pets, 2.5, 2), 2)"}}]},
        {"id": "L03", "name": f"A new lease is referred when the tenant's credit score is under {CREDIT_FLOOR} or the rent is more "
                              f"than a third of their income", "table": "lease", "events": ["insert"], "when": "before", "order": 30,
         "condition": f"current.tenant.credit_score < {CREDIT_FLOOR} or current.monthly_rent * {INCOME_MULTIPLE} > current.tenant.income",
         "actions": [{"set": {"screening": "'referred'"}}]},
        {"id": "L04", "name": "A rise of more than 10% in an active lease's rent is notified to the tenant", "table": "lease",
         "events": ["update"], "when": "after",
         "condition": f"changed(monthly_rent) and current.status == 'active' and "
                      f"current.monthly_rent > round(previous.monthly_rent * {RENT_CAP}, 2)",
         "actions": [{"create": {"table": "lease_notice", "values": {
             "lease": "current.id", "tenant": "current.tenant", "kind": "'rent_change'",
             "amount": "round(current.monthly_rent - previous.monthly_rent, 2)"}}}]},
        {"id": "L05", "name": "Activating a lease lets its unit, makes an applicant an active tenant and sends a welcome notice",
         "table": "lease", "events": ["update"], "when": "after", "condition": "changes_to(status, 'active')",
         "actions": [{"update": {"target": "current.unit", "set": {"status": "'occupied'"}}},
                     {"update": {"target": "current.tenant",
                                 "set": {"status": "if(current.tenant.status == 'applicant', 'active', current.tenant.status)"}}},
                     {"create": {"table": "lease_notice", "values": {"lease": "current.id", "tenant": "current.tenant",
                                                                     "kind": "'welcome'", "amount": "current.deposit"}}}]},
        {"id": "L06", "name": "A lease that ends or is terminated frees its unit and returns the deposit less the unpaid rent",
         "table": "lease", "events": ["update"], "when": "after",
         "condition": "changed(status) and current.status in ['ended', 'terminated']",
         "actions": [{"update": {"target": "current.unit", "set": {"status": "'vacant'"}}},
                     {"create": {"table": "lease_notice", "values": {
                         "lease": "current.id", "tenant": "current.tenant", "kind": "'deposit_return'",
                         "amount": f"max(0, round(current.deposit - sum(rent_charge, outstanding, row.lease == current.id and {unpaid}), 2))"}}}]},
        {"id": "L07", "name": "Deleting a lease deletes its open rent charges and its notices", "table": "lease", "events": ["delete"],
         "when": "after",
         "actions": [{"delete_where": {"table": "rent_charge", "where": "row.lease == current.id and row.status == 'open'"}},
                     {"delete_where": {"table": "lease_notice", "where": "row.lease == current.id"}}]},
        {"id": "L08", "name": "A property's occupied and vacant units follow its units", "table": "unit",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.property", "set": {
             "occupied_units": "count(unit, row.property == current.property and row.status == 'occupied')",
             "vacant_units": "count(unit, row.property == current.property and row.status == 'vacant')"}}}]},
        {"id": "L09", "name": "A property going under renovation takes its vacant units offline", "table": "property",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'under_renovation')",
         "actions": [{"update_where": {"table": "unit", "where": "row.property == current.id and row.status == 'vacant'",
                                       "set": {"status": "'offline'"}}}]},
        {"id": "L10", "name": "A new rent charge without an amount charges the lease's monthly rent", "table": "rent_charge",
         "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.amount)",
         "actions": [{"set": {"amount": "current.lease.monthly_rent"}}]},
        _late_rule(GRACE_DAYS_A, f"An open rent charge more than {GRACE_DAYS_A} days late is late and charged a late fee of 5% "
                                 f"(at least {MIN_LATE_FEE})"),
        {"id": "L12", "name": "A rent charge's outstanding is its amount plus late fee less what was paid", "table": "rent_charge",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(amount) or changed(late_fee) or changed(paid)",
         "actions": [{"set": {"outstanding": "round(current.amount + current.late_fee - current.paid, 2)"}}]},
        {"id": "L13", "name": "An open or late rent charge whose payments cover it is paid", "table": "rent_charge", "events": ["update"],
         "when": "before", "order": 30, "condition": "changed(paid) and current.outstanding <= 0 and current.status in ['open', 'late']",
         "actions": [{"set": {"status": "'paid'"}}]},
        {"id": "L14", "name": "A tenant's balance and count of late charges follow the unpaid charges of their leases",
         "table": "rent_charge", "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.lease.tenant", "set": {
             "balance": f"round(sum(rent_charge, outstanding, row.lease.tenant == current.lease.tenant and {unpaid}), 2)",
             "arrears_count": "count(rent_charge, row.lease.tenant == current.lease.tenant and row.status == 'late')"}}}]},
        {"id": "L15", "name": "Bank transfers and card payments clear at once", "table": "rent_payment", "events": ["insert"],
         "when": "before", "condition": "current.method in ['bank_transfer', 'card']", "actions": [{"set": {"status": "'cleared'"}}]},
        {"id": "L16", "name": "A rent charge's paid amount is the sum of its cleared payments", "table": "rent_payment",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.charge", "set": {
             "paid": "round(sum(rent_payment, amount, row.charge == current.charge and row.status == 'cleared'), 2)"}}}]},
        {"id": "L17", "name": f"An active tenant with {ARREARS_CHARGES} or more late charges falls into arrears", "table": "tenant",
         "events": ["update"], "when": "before",
         "condition": f"changed(arrears_count) and current.arrears_count >= {ARREARS_CHARGES} and current.status == 'active'",
         "actions": [{"set": {"status": "'in_arrears'"}}]},
        {"id": "L18", "name": "A tenant in arrears who owes nothing any more is active again", "table": "tenant", "events": ["update"],
         "when": "before", "condition": "changed(balance) and current.balance <= 0 and current.status == 'in_arrears'",
         "actions": [{"set": {"status": "'active'"}}]},
        {"id": "L19", "name": "A tenant who falls into arrears is sent a late rent notice for their balance", "table": "tenant",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'in_arrears')",
         "actions": [{"create": {"table": "lease_notice", "values": {"tenant": "current.id", "kind": "'late_rent'",
                                                                    "amount": "current.balance"}}}]},
        {"id": "L20", "name": "A repair estimated above its property's repair limit needs approval", "table": "repair_request",
         "events": ["insert", "update"], "when": "before",
         "condition": "changed(cost_estimate) and current.cost_estimate > current.unit.property.repair_limit and "
                      "current.approval == 'not_needed'",
         "actions": [{"set": {"approval": "'pending'"}}]},
        {"id": "L21", "name": "A property's open repairs follow the open and scheduled repairs of its units", "table": "repair_request",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.unit.property", "set": {
             "open_repairs": "count(repair_request, row.unit.property == current.unit.property and row.status in ['open', 'scheduled'])"}}}]},
        {"id": "L22", "name": "A completed repair of damage the tenant caused is charged to their lease", "table": "repair_request",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'completed') and current.tenant_caused",
         "actions": [{"create": {"table": "rent_charge", "values": {"lease": "current.lease", "period": "'damage'",
                                                                   "amount": "current.cost_estimate"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies L11 (grace period), C adds L23 (move-out inspection), D deletes L19 (late rent notice)."""
    l23 = {"id": "L23", "name": "A lease that ends books a move-out inspection", "table": "lease", "events": ["update"],
           "when": "after", "condition": "changes_to(status, 'ended')",
           "actions": [{"create": {"table": "lease_notice", "values": {"lease": "current.id", "tenant": "current.tenant",
                                                                       "kind": "'inspection'"}}}]}
    l11_b = _late_rule(GRACE_DAYS_B, f"An open rent charge more than {GRACE_DAYS_B} days late is late and charged a late fee of 5% "
                                     f"(at least {MIN_LATE_FEE}; grace period shortened)")
    return {"B": Shift(f"a rent charge is late after {GRACE_DAYS_B} days (was {GRACE_DAYS_A}) and then charged its late fee",
                       {"modify": [l11_b]}),
            "C": Shift("a lease that ends books a move-out inspection", {"add": [l23]}),
            "D": Shift("a tenant who falls into arrears is no longer sent a late rent notice", {"delete": ["L19"]})}


# -- initial records -----------------------------------------------------------------------------

# name, city, rent per sqm, repair limit, status
_PROPERTIES = [("Linden Court", "Leeds", 14.5, 400, "active"), ("Harbour View", "Bristol", 19, 600, "active"),
               ("Mill Lane Flats", "Sheffield", 12.5, 350, "active"), ("Parkside House", "Manchester", 17, 500, "active"),
               ("Old Brewery Lofts", "Nottingham", 15.5, 450, "under_renovation"), ("Canal Wharf", "Birmingham", 16, 500, "active")]
_FIRST = ["Aisha", "Ben", "Chloe", "Dawit", "Elena", "Finn", "Grace", "Hamza", "Isla", "Jakub", "Kira", "Liam", "Maya", "Noah",
          "Olga", "Pavel", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wes", "Xenia", "Yara", "Zane"]
_LAST = ["Adeyemi", "Byrne", "Chen", "Doyle", "Evans", "Fischer", "Gupta", "Hughes", "Iqbal", "Jones", "Kaur", "Lewis", "Murphy",
         "Novak", "Okoro", "Patel"]
# each unit's story: its lease's status (a: active, n: on notice, e: ended then vacant, d: draft on a vacant unit, v: vacant,
# x: vacant and offline, t: terminated then vacant) and, for let units, its rent history oldest first: paid (p), open (o),
# open part paid (h), open with a pending cheque (c), late (l), late part paid (k)
_UNITS = ["a:po", "a:pp", "n:po", "a:lo", "e:", "a:pl", "a:ph", "a:pc", "d:", "a:pll", "a:po", "v:", "a:pk", "a:lko", "a:pp",
          "x:", "a:po", "x:", "a:ph", "t:", "a:pl", "n:pp", "a:po", "d:", "a:pc", "a:lo", "a:pp", "e:", "a:llo", "d:"]
_CHARGE_PERIODS = ["2026-09", "2026-10", "2026-11"]


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (rents, deposits, dues, balances, counts as the rules set them)."""
    properties = [{"id": f"PRP{i + 1:02d}", "name": n, "city": c, "rent_per_sqm": r, "repair_limit": lim, "occupied_units": 0,
                   "vacant_units": 0, "open_repairs": 0, "status": s} for i, (n, c, r, lim, s) in enumerate(_PROPERTIES)]
    units: list[dict[str, Any]] = []
    tenants: list[dict[str, Any]] = []
    leases: list[dict[str, Any]] = []
    charges: list[dict[str, Any]] = []
    payments: list[dict[str, Any]] = []
    repairs: list[dict[str, Any]] = []
    notices: list[dict[str, Any]] = []

    def new_tenant(status: str, rent: float) -> dict[str, Any]:
        i = len(tenants)
        first, last = _FIRST[i % len(_FIRST)], _LAST[(i * 7 + 3) % len(_LAST)]
        income = _round0(rent * rng.choice([2.6, 3.2, 3.6, 4.1, 5]) / 10) * 10
        score = rng.choice([560, 590, 620, 655, 690, 720, 760, 805])
        t = {"id": f"TNT{i + 1:03d}", "name": f"{first} {last}", "email": f"{first.lower()}.{last.lower()}@mail.example",
             "income": income, "credit_score": score, "balance": 0, "arrears_count": 0, "status": status}
        tenants.append(t)
        return t

    def pay(charge: dict[str, Any], tenant: dict[str, Any], amount: float, method: str, status: str) -> None:
        payments.append({"id": f"PAY{len(payments) + 1:03d}", "charge": charge["id"], "tenant": tenant["id"], "amount": amount,
                         "method": method, "status": status})
        if status == "cleared":
            charge["paid"] = _round2(charge["paid"] + amount)

    for u_idx, story in enumerate(_UNITS):
        prop = properties[u_idx // 5]
        sqm = rng.choice([38, 44, 52, 58, 63, 71, 78, 86, 95, 104])
        kind, history = story.split(":")
        status = {"a": "occupied", "n": "occupied", "x": "offline"}.get(kind, "vacant")
        unit = {"id": f"UNT{u_idx + 1:03d}", "property": prop["id"], "label": f"{u_idx % 5 + 1}{'ABCDE'[u_idx % 3]}",
                "bedrooms": 1 if sqm < 50 else 2 if sqm < 80 else 3, "sqm": sqm, "furnished": u_idx % 4 == 1, "status": status}
        units.append(unit)
        if kind in ("v", "x"):
            continue
        rent = _round0(sqm * prop["rent_per_sqm"])
        if u_idx % 6 == 2 and kind == "a":
            rent = _round2(rent * 1.05)  # a rent rise agreed at renewal
        pets = u_idx % 7 == 3
        tstatus = {"a": "active", "n": "active", "d": "applicant"}.get(kind, "former")
        tenant = new_tenant(tstatus, rent)
        lstatus = {"a": "active", "n": "notice", "d": "draft", "e": "ended", "t": "terminated"}[kind]
        referred = tenant["credit_score"] < CREDIT_FLOOR or rent * INCOME_MULTIPLE > tenant["income"]
        lease = {"id": f"LSE{len(leases) + 1:03d}", "unit": unit["id"], "tenant": tenant["id"],
                 "start": f"20{25 + (u_idx % 3 == 0)}-{1 + u_idx % 12:02d}-01", "monthly_rent": rent,
                 "deposit": _round2(rent * (2.5 if pets else 2)), "pets": pets, "term_months": [12, 12, 6, 24][u_idx % 4],
                 "screening": "referred" if referred else "approved", "status": lstatus}
        leases.append(lease)
        for period, code in zip(_CHARGE_PERIODS[3 - len(history):], history):
            late = code in "lk"
            days = rng.choice([9, 14, 21, 32]) if late else rng.choice([0, 2, 4]) if code != "p" else 0
            fee = _late_fee(rent) if late else 0
            charge = {"id": f"RC{len(charges) + 1:03d}", "lease": lease["id"], "period": period, "amount": rent, "late_fee": fee,
                      "paid": 0, "outstanding": 0, "days_late": days, "status": "late" if late else "paid" if code == "p" else "open"}
            charges.append(charge)
            if code == "p":
                pay(charge, tenant, _round2(rent + fee), _METHODS[len(payments) % 3], "cleared")
            elif code in "hk":
                pay(charge, tenant, _round2(rent * 0.4), "cash", "cleared")
            elif code == "c":
                pay(charge, tenant, rent, "cheque", "pending")
            charge["outstanding"] = _round2(charge["amount"] + charge["late_fee"] - charge["paid"])
    for rent in (850, 1100, 1250, 960, 1400, 1020):  # applicants on the waiting list, no lease yet
        new_tenant("applicant", rent)
    # returned cheques on open charges
    open_charges = [c for c in charges if c["status"] in ("open", "late")]
    tenant_of = {l["id"]: l["tenant"] for l in leases}
    for c in open_charges[3:12:4]:
        payments.append({"id": f"PAY{len(payments) + 1:03d}", "charge": c["id"], "tenant": tenant_of[c["lease"]],
                         "amount": c["outstanding"], "method": "cheque", "status": "returned"})
    for t in tenants:
        own = {l["id"] for l in leases if l["tenant"] == t["id"]}
        t["balance"] = _round2(sum(c["outstanding"] for c in charges if c["lease"] in own and c["status"] in ("open", "late")))
        t["arrears_count"] = sum(1 for c in charges if c["lease"] in own and c["status"] == "late")
        if t["arrears_count"] >= ARREARS_CHARGES and t["status"] == "active":
            t["status"] = "in_arrears"
            notices.append({"lease": None, "tenant": t["id"], "kind": "late_rent", "amount": t["balance"], "sent": True})
    for p in properties:
        p["occupied_units"] = sum(1 for u in units if u["property"] == p["id"] and u["status"] == "occupied")
        p["vacant_units"] = sum(1 for u in units if u["property"] == p["id"] and u["status"] == "vacant")
    # repairs: unit index, category, priority, cost, tenant caused, status
    lease_of_unit = {l["unit"]: l for l in leases if l["status"] in ("active", "notice")}
    limit_of = {p["id"]: p["repair_limit"] for p in properties}
    for u_idx, cat, prio, cost, caused, status in [
            (0, "plumbing", "normal", 180, False, "open"), (3, "heating", "urgent", 650, False, "scheduled"),
            (5, "appliance", "low", 240, True, "open"), (6, "electrical", "normal", 120, False, "completed"),
            (9, "pest", "normal", 300, False, "scheduled"), (12, "general", "low", 90, True, "scheduled"),
            (13, "heating", "urgent", 420, False, "open"), (15, "general", "normal", 2400, False, "scheduled"),
            (18, "plumbing", "urgent", 380, False, "completed"), (20, "appliance", "normal", 520, True, "open"),
            (22, "electrical", "urgent", 760, False, "open"), (25, "pest", "low", 210, False, "cancelled"),
            (26, "general", "low", 150, True, "completed"), (28, "plumbing", "normal", 460, False, "open")]:
        unit = units[u_idx]
        lease = lease_of_unit.get(unit["id"])
        over = cost > limit_of[unit["property"]]
        repairs.append({"id": f"REP{len(repairs) + 1:03d}", "unit": unit["id"], "lease": lease["id"] if lease else None, "category": cat,
                        "priority": prio, "cost_estimate": cost, "tenant_caused": caused,
                        "approval": ("approved" if status != "open" else "pending") if over else "not_needed", "status": status})
    unit_prop = {u["id"]: u["property"] for u in units}
    for p in properties:
        p["open_repairs"] = sum(1 for r in repairs if unit_prop[r["unit"]] == p["id"] and r["status"] in ("open", "scheduled"))
    for lease in leases:
        if lease["status"] == "active" and lease["start"].startswith("2026"):
            notices.append({"lease": lease["id"], "tenant": lease["tenant"], "kind": "welcome", "amount": lease["deposit"], "sent": True})
        elif lease["status"] in ("ended", "terminated"):
            notices.append({"lease": lease["id"], "tenant": lease["tenant"], "kind": "deposit_return", "amount": lease["deposit"],
                            "sent": lease["status"] == "ended"})
        elif lease["status"] == "notice":
            notices.append({"lease": lease["id"], "tenant": lease["tenant"], "kind": "termination", "amount": None, "sent": True})
    notices = [{"id": f"LN{i + 1:02d}", **n} for i, n in enumerate(notices)]
    return {"property": properties, "unit": units, "tenant": tenants, "lease": leases, "rent_charge": charges, "rent_payment": payments,
            "repair_request": repairs, "lease_notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("rent_charge", "days_late"):
        values |= {base + rng.choice([7, 10, 20])}
    elif (table, field) == ("rent_charge", "paid"):
        # the charge paid in full, and half of what is left
        values |= {_round2(rec["amount"] + rec["late_fee"]), _round2(base + (rec["outstanding"] or 0) / 2)}
    elif (table, field) == ("rent_payment", "amount"):
        charge = state.get("rent_charge", rec["charge"]) if rec.get("charge") else None
        values |= {_round2(base * 0.5), _round2(base + charge["outstanding"]) if charge else base + 100}
    elif (table, field) == ("lease", "monthly_rent"):
        # a rise within the cap, exactly at it, above it, and a cut
        values |= {_round2(base * 1.05), _round2(base * RENT_CAP), _round2(base * 1.25), base - 50}
    elif (table, field) == ("repair_request", "cost_estimate"):
        limit = state.get("property", state.get("unit", rec["unit"])["property"])["repair_limit"]
        values |= {limit, limit + 1, limit + 150, _round0(base * 0.5)}
    elif (table, field) == ("property", "repair_limit"):
        values |= {base + 100, base - 100}
    elif (table, field) == ("property", "rent_per_sqm"):
        values |= {base + 0.5, base + 1.5}
    elif (table, field) == ("tenant", "balance"):
        values |= {0, _round2(base * 0.5), base + 250}
    elif (table, field) == ("tenant", "credit_score"):
        values |= {CREDIT_FLOOR - 1, CREDIT_FLOOR, base + 40}
    elif field in ("occupied_units", "vacant_units", "open_repairs", "arrears_count", "bedrooms"):
        values |= {base + 1, base - 1}
    elif field == "term_months":
        values |= {6, 12, 24}
    elif field in ("sqm",):
        values |= {base + 8, base - 6}
    else:  # money: income, deposit, amount, late_fee, outstanding
        values |= {_round2(base + rng.choice([25, 60, 150])), _round2(base * 0.5)}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("tenant", "name"):
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 5 + 2) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    if (table, field) == ("tenant", "email"):
        return cur.replace("@mail.example", "@post.example")
    if (table, field) == ("property", "name"):
        return cur + " (Block B)"
    if (table, field) == ("unit", "label"):
        return "Flat " + cur
    return None


_NEW_PROPERTIES = [("Riverside Mews", "York", 15, 450), ("St Anne's Yard", "Norwich", 13.5, 400), ("Quayside Point", "Newcastle", 16.5, 550),
                   ("Beech Grove", "Cardiff", 14, 400)]
_NEW_TENANTS = ["Adele Moreau", "Bilal Hussain", "Carys Price", "Dorian Lee", "Esme Walsh", "Felix Braun", "Gita Rao", "Hollis Grant"]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "property":
        name, city, rate, limit = _NEW_PROPERTIES[k % len(_NEW_PROPERTIES)]
        out: dict[str, Any] = {"name": name, "city": city, "rent_per_sqm": rate}
        if k % 2:
            out["repair_limit"] = limit
        return out
    if table == "unit":
        prop = pick("property", lambda p: p["status"] != "sold")
        sqm = rng.choice([41, 55, 67, 82, 99])
        out = {"property": prop["id"], "label": f"{6 + k // 5}{'ABC'[k % 3]}", "sqm": sqm, "bedrooms": 1 if sqm < 50 else 2 if sqm < 80 else 3}
        if k % 4 == 1:
            out["status"] = "occupied"
        elif k % 4 == 3:
            out["status"] = "offline"
        if k % 3 == 0:
            out["furnished"] = True
        return out
    if table == "tenant":
        name = _NEW_TENANTS[k % len(_NEW_TENANTS)]
        first, last = name.split()
        return {"name": name, "email": f"{first.lower()}.{last.lower()}@mail.example", "income": rng.choice([2400, 3100, 3900, 5200]),
                "credit_score": rng.choice([570, 610, 680, 740])}
    if table == "lease":
        unit = pick("unit", lambda u: u["status"] == "vacant")
        tenant = pick("tenant", lambda t: t["status"] in ("applicant", "former"))
        out = {"unit": unit["id"], "tenant": tenant["id"], "start": f"2027-0{1 + k % 6}-01"}
        if k % 3 == 1:  # a rent agreed below or above the list price
            prop = state.get("property", unit["property"])
            out["monthly_rent"] = _round0(unit["sqm"] * prop["rent_per_sqm"] * rng.choice([0.9, 1.15]))
        if k % 5 == 4:
            out["deposit"] = 1000
        if k % 4 == 2:
            out["pets"] = True
        if k % 3 == 2:
            out["term_months"] = 6
        return out
    if table == "rent_charge":
        lease = pick("lease", lambda l: l["status"] in ("active", "notice"))
        out = {"lease": lease["id"], "period": "2026-12" if k % 4 else "2026-11"}
        if k % 3 == 1:
            out["amount"] = _round2(lease["monthly_rent"] * 0.5)  # a half month pro rata
        if k % 5 == 3:
            out["status"] = "late"
            out["late_fee"] = MIN_LATE_FEE
        return out
    if table == "rent_payment":
        charge = pick("rent_charge", lambda c: c["status"] in ("open", "late") and c["outstanding"] > 0)
        tenant = state.get("lease", charge["lease"])["tenant"]
        out = {"charge": charge["id"], "tenant": tenant, "method": _METHODS[k % 4],
               "amount": charge["outstanding"] if k % 3 != 2 else _round2(charge["outstanding"] * 0.5)}
        if k % 8 == 2:
            out["status"] = "cleared"  # cash banked at the office
        return out
    if table == "repair_request":
        unit = pick("unit", lambda u: u["status"] == "occupied")
        lease = next((l for l in state.rows("lease") if l["unit"] == unit["id"] and l["status"] in ("active", "notice")), None)
        limit = state.get("property", unit["property"])["repair_limit"]
        out = {"unit": unit["id"], "category": _CATEGORIES[k % len(_CATEGORIES)],
               "cost_estimate": limit + rng.choice([50, 200]) if k % 3 == 0 else rng.choice([80, 150, 260])}
        if lease is not None:
            out["lease"] = lease["id"]
        if k % 4 == 1:
            out["priority"] = "urgent"
        if k % 5 == 2:
            out["tenant_caused"] = True
        return out
    lease = pick("lease")
    out = {"lease": lease["id"], "tenant": lease["tenant"], "kind": _NOTICE_KINDS[k % len(_NOTICE_KINDS)]}
    if k % 2:
        out["sent"] = True
    return out


FAMILY = WorldFamily("lease", "Lease", "residential property management (landlord operations)", 52919, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
