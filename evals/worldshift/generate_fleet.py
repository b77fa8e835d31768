"""Generator of the fleet world family ``fleet-A`` ... ``fleet-D`` (package data).

A vehicle rental and fleet maintenance domain, unlike the EnterpriseWorldShift
service desk, the held-out warehouse, the fresh hospital, the novel library,
the sealed insurance claims, the vault utility billing, the harbor container
terminal and the lease property management: 8 tables (depot, vehicle, renter,
rental, rental_extra, service_order, spare_part, damage_report), 200 initial
records and 24 rules in world A. Rentals are priced from the vehicle's daily
rate, less a loyalty discount for silver and gold renters, plus their extras
and a mileage fee for the kilometres driven beyond a daily allowance; entering
the return reading of an active rental returns it, which puts the vehicle back
on the fleet at its new odometer reading; a vehicle past its service interval
needs a service, which opens a service order and takes an available vehicle
into the workshop; service orders are costed from their parts and labour and
need approval above their depot's limit, and a finished one resets the
vehicle's service clock and draws its parts from stock; damage reported on a
rental is charged to the renter up to an excess (lower with full cover), and
a moderate or major damage books a body repair; renters with too many licence
points are blocked and their reservations cancelled, which drops their
extras. B modifies one rule (vehicles are serviced every 12000 km, was 15000:
a threshold changes), C adds one (a rental returned after more than 2500 km
books its vehicle a safety inspection), D deletes one (a vehicle that comes
to need a service no longer gets a service order opened for it).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent. (Its
failures were read on 2026-12-06, so it is no longer unseen; ``campus`` was
next, and since its failures were read too, ``factory`` is: ``payroll``'s description was read in the eleventh session.)

``python -m evals.worldshift.generate_fleet`` rewrites the four files; a test
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

__all__ = ["FAMILY", "INSPECTION_KM", "KM_PER_DAY", "LABOUR_RATE", "MILEAGE_RATE", "SERVICE_KM_A", "SERVICE_KM_B", "build_shifts"]

# kilometres since the last service above which a vehicle needs one, before and after B's policy change
SERVICE_KM_A = 15000
SERVICE_KM_B = 12000
KM_PER_DAY = 250  # free kilometres per rental day
MILEAGE_RATE = 0.2  # per kilometre beyond the allowance
GOLD_DISCOUNT = 0.1
SILVER_DISCOUNT = 0.05
LABOUR_RATE = 65  # workshop labour per hour
SERVICE_HOURS = 2  # labour booked for a scheduled service
BLOCK_POINTS = 9  # licence points at which a renter is blocked
COVER_EXCESS = 150  # most a renter pays for damage with full cover
EXCESS = 1200  # ... and without
INSPECTION_KM = 2500  # C: a rental returned after more than this books a safety inspection

_CATEGORIES = ["economy", "compact", "estate", "suv", "van"]
_VEHICLE_STATES = ["available", "rented", "in_service", "retired"]
_TIERS = ["standard", "silver", "gold"]
_RENTAL_STATES = ["reserved", "active", "returned", "cancelled"]
_EXTRA_KINDS = ["gps", "child_seat", "extra_driver", "full_cover", "roadside"]
_ORDER_KINDS = ["scheduled_service", "body_repair", "tyres", "brakes", "inspection"]
_ORDER_STATES = ["open", "in_progress", "done", "cancelled"]
_SEVERITIES = ["minor", "moderate", "major"]

TABLES: dict[str, Any] = {
    "depot": table(name=string(), city=string(), approval_limit=number(500), available=number(0), in_workshop=number(0),
                   status=choice(["open", "closed"], "open")),
    "vehicle": table(depot=reference("depot"), plate=string(), model=string(), category=choice(_CATEGORIES), daily_rate=number(),
                     odometer=number(0), last_service_km=number(0), km_since_service=number(0), needs_service=boolean(False),
                     status=choice(_VEHICLE_STATES, "available")),
    "renter": table(name=string(), email=string(), licence_points=number(0), tier=choice(_TIERS, "standard"), lifetime_spend=number(0),
                    status=choice(["active", "blocked"], "active")),
    "rental": table(vehicle=reference("vehicle"), renter=reference("renter"), start=string(), days=number(1), daily_rate=number(),
                    km_out=number(), km_in=number(), km_driven=number(), discount=number(0), extras_total=number(0),
                    mileage_fee=number(0), total=number(), status=choice(_RENTAL_STATES, "reserved")),
    "rental_extra": table(rental=reference("rental"), kind=choice(_EXTRA_KINDS), daily_price=number(), amount=number()),
    "service_order": table(vehicle=reference("vehicle"), kind=choice(_ORDER_KINDS), part=reference("spare_part"), part_qty=number(0),
                           labour_hours=number(0), parts_cost=number(0), total=number(),
                           approval=choice(["not_needed", "pending", "approved"], "not_needed"), status=choice(_ORDER_STATES, "open")),
    "spare_part": table(name=string(), sku=string(), unit_cost=number(), stock=number(0)),
    "damage_report": table(rental=reference("rental"), vehicle=reference("vehicle"), severity=choice(_SEVERITIES), estimate=number(),
                           renter_charge=number(), status=choice(["reported", "charged", "closed"], "reported")),
}

_ID_PREFIX = {"depot": "DPT", "vehicle": "VEH", "renter": "RNR", "rental": "RA", "rental_extra": "EXT", "service_order": "WO",
              "spare_part": "PRT", "damage_report": "DMG"}


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _service_rule(km: int, name: str) -> dict[str, Any]:
    """F02, whose service interval B shortens."""
    return {"id": "F02", "name": name, "table": "vehicle", "events": ["insert", "update"], "when": "before", "order": 20,
            "condition": f"current.km_since_service > {km} and current.needs_service == false",
            "actions": [{"set": {"needs_service": True}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 24 rules of world A (ids F01..F24 stay the same across shifted worlds)."""
    return [
        # vehicles
        {"id": "F01", "name": "A vehicle's kilometres since service are its odometer less the reading at its last service",
         "table": "vehicle", "events": ["insert", "update"], "when": "before", "order": 10,
         "condition": "changed(odometer) or changed(last_service_km)",
         "actions": [{"set": {"km_since_service": "current.odometer - current.last_service_km"}}]},
        _service_rule(SERVICE_KM_A, f"A vehicle more than {SERVICE_KM_A} km past its last service needs a service"),
        {"id": "F03", "name": "A vehicle that comes to need a service gets a scheduled service order", "table": "vehicle",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(needs_service, true)",
         "actions": [{"create": {"table": "service_order", "values": {"vehicle": "current.id", "kind": "'scheduled_service'",
                                                                      "labour_hours": SERVICE_HOURS}}}]},
        {"id": "F04", "name": "A depot's available vehicles and vehicles in the workshop follow its vehicles", "table": "vehicle",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.depot", "set": {
             "available": "count(vehicle, row.depot == current.depot and row.status == 'available')",
             "in_workshop": "count(vehicle, row.depot == current.depot and row.status == 'in_service')"}}}]},
        # rentals
        {"id": "F05", "name": "A new rental without an agreed rate takes its vehicle's daily rate", "table": "rental",
         "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.daily_rate)",
         "actions": [{"set": {"daily_rate": "current.vehicle.daily_rate"}}]},
        {"id": "F06", "name": f"Silver renters get {SILVER_DISCOUNT:.0%} off a rental's base charge, gold renters {GOLD_DISCOUNT:.0%}",
         "table": "rental", "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": "(changed(days) or changed(daily_rate)) and current.renter.tier in ['silver', 'gold']",
         "actions": [{"set": {"discount": f"round(current.days * current.daily_rate * "
                                          f"if(current.renter.tier == 'gold', {GOLD_DISCOUNT}, {SILVER_DISCOUNT}), 2)"}}]},
        {"id": "F07", "name": f"A rental's return reading gives its kilometres driven and a fee of {MILEAGE_RATE} per km beyond "
                              f"{KM_PER_DAY} km a day", "table": "rental", "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(km_in) and current.km_in >= current.km_out",
         "actions": [{"set": {"km_driven": "current.km_in - current.km_out",
                              "mileage_fee": f"round(max(0, current.km_in - current.km_out - current.days * {KM_PER_DAY}) * {MILEAGE_RATE}, 2)"}}]},
        {"id": "F08", "name": "A rental's total is its days at the daily rate, less the discount, plus extras and the mileage fee",
         "table": "rental", "events": ["insert", "update"], "when": "before", "order": 40,
         "condition": "changed(days) or changed(daily_rate) or changed(discount) or changed(extras_total) or changed(mileage_fee)",
         "actions": [{"set": {"total": "round(current.days * current.daily_rate - current.discount + current.extras_total + "
                                       "current.mileage_fee, 2)"}}]},
        {"id": "F09", "name": "An active rental whose return reading is entered is returned", "table": "rental", "events": ["update"],
         "when": "before", "order": 50, "condition": "changed(km_in) and current.km_in >= current.km_out and current.status == 'active'",
         "actions": [{"set": {"status": "'returned'"}}]},
        {"id": "F10", "name": "A rental that starts puts its vehicle out on rent", "table": "rental", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'active')",
         "actions": [{"update": {"target": "current.vehicle", "set": {"status": "'rented'"}}}]},
        {"id": "F11", "name": "A returned rental's vehicle is available again, its odometer at the return reading", "table": "rental",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'returned')",
         "actions": [{"update": {"target": "current.vehicle", "set": {
             "status": "'available'",
             "odometer": "if(current.km_in > current.vehicle.odometer, current.km_in, current.vehicle.odometer)"}}}]},
        {"id": "F12", "name": "A renter's lifetime spend is the total of their returned rentals", "table": "rental",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.renter", "set": {
             "lifetime_spend": "round(sum(rental, total, row.renter == current.renter and row.status == 'returned'), 2)"}}}]},
        {"id": "F13", "name": "A cancelled rental drops its extras", "table": "rental", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'cancelled')",
         "actions": [{"delete_where": {"table": "rental_extra", "where": "row.rental == current.id"}}]},
        # renters
        {"id": "F14", "name": f"A renter with {BLOCK_POINTS} or more licence points is blocked", "table": "renter",
         "events": ["insert", "update"], "when": "before",
         "condition": f"changed(licence_points) and current.licence_points >= {BLOCK_POINTS}",
         "actions": [{"set": {"status": "'blocked'"}}]},
        {"id": "F15", "name": "A renter who is blocked has their reservations cancelled", "table": "renter", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'blocked')",
         "actions": [{"update_where": {"table": "rental", "where": "row.renter == current.id and row.status == 'reserved'",
                                       "set": {"status": "'cancelled'"}}}]},
        # rental extras
        {"id": "F16", "name": "An extra costs its daily price for every day of its rental", "table": "rental_extra",
         "events": ["insert", "update"], "when": "before", "condition": "changed(daily_price) or changed(rental)",
         "actions": [{"set": {"amount": "round(current.daily_price * current.rental.days, 2)"}}]},
        {"id": "F17", "name": "A rental's extras total follows its extras", "table": "rental_extra", "events": ["insert", "update", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.rental", "set": {
             "extras_total": "round(sum(rental_extra, amount, row.rental == current.rental), 2)"}}}]},
        # service orders
        {"id": "F18", "name": "A service order's parts cost is the quantity of its part at the part's unit cost", "table": "service_order",
         "events": ["insert", "update"], "when": "before", "order": 10,
         "condition": "(changed(part) or changed(part_qty)) and not is_empty(current.part)",
         "actions": [{"set": {"parts_cost": "round(current.part_qty * current.part.unit_cost, 2)"}}]},
        {"id": "F19", "name": f"A service order's total is its parts cost plus labour at {LABOUR_RATE} an hour", "table": "service_order",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(parts_cost) or changed(labour_hours)",
         "actions": [{"set": {"total": f"round(current.parts_cost + current.labour_hours * {LABOUR_RATE}, 2)"}}]},
        {"id": "F20", "name": "A service order above its vehicle's depot approval limit needs approval", "table": "service_order",
         "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(total) and current.total > current.vehicle.depot.approval_limit and current.approval == 'not_needed'",
         "actions": [{"set": {"approval": "'pending'"}}]},
        {"id": "F21", "name": "A new open service order takes an available vehicle into the workshop", "table": "service_order",
         "events": ["insert"], "when": "after", "condition": "current.status == 'open' and current.vehicle.status == 'available'",
         "actions": [{"update": {"target": "current.vehicle", "set": {"status": "'in_service'"}}}]},
        {"id": "F22", "name": "A finished service order resets its vehicle's service clock, releases it and draws its parts from stock",
         "table": "service_order", "events": ["update"], "when": "after", "condition": "changes_to(status, 'done')",
         "actions": [{"update": {"target": "current.vehicle", "set": {
             "status": "if(current.vehicle.status == 'in_service', 'available', current.vehicle.status)",
             "last_service_km": "current.vehicle.odometer", "needs_service": False}}},
                     {"update": {"target": "current.part", "set": {"stock": "current.part.stock - current.part_qty"}}}]},
        # damage
        {"id": "F23", "name": f"Damage is charged to the renter up to an excess of {EXCESS}, {COVER_EXCESS} with full cover",
         "table": "damage_report", "events": ["insert", "update"], "when": "before", "condition": "changed(estimate)",
         "actions": [{"set": {"renter_charge": "if(count(rental_extra, row.rental == current.rental and row.kind == 'full_cover') > 0, "
                                               f"min(current.estimate, {COVER_EXCESS}), min(current.estimate, {EXCESS}))"}}]},
        {"id": "F24", "name": "Moderate or major damage books a body repair for the vehicle, 3 hours or 8 for major damage",
         "table": "damage_report", "events": ["insert"], "when": "after", "condition": "current.severity in ['moderate', 'major']",
         "actions": [{"create": {"table": "service_order", "values": {
             "vehicle": "current.vehicle", "kind": "'body_repair'", "labour_hours": "if(current.severity == 'major', 8, 3)"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies F02 (service interval), C adds F25 (safety inspection), D deletes F03 (scheduled service order)."""
    f25 = {"id": "F25", "name": f"A rental returned after more than {INSPECTION_KM} km books its vehicle a safety inspection",
           "table": "rental", "events": ["update"], "when": "after",
           "condition": f"changes_to(status, 'returned') and current.km_driven > {INSPECTION_KM}",
           "actions": [{"create": {"table": "service_order", "values": {"vehicle": "current.vehicle", "kind": "'inspection'",
                                                                        "labour_hours": 1}}}]}
    f02_b = _service_rule(SERVICE_KM_B, f"A vehicle more than {SERVICE_KM_B} km past its last service needs a service "
                                        f"(interval shortened)")
    return {"B": Shift(f"vehicles need a service {SERVICE_KM_B} km after their last one (was {SERVICE_KM_A})", {"modify": [f02_b]}),
            "C": Shift(f"a rental returned after more than {INSPECTION_KM} km books its vehicle a safety inspection", {"add": [f25]}),
            "D": Shift("a vehicle that comes to need a service no longer gets a scheduled service order", {"delete": ["F03"]})}


# -- initial records -----------------------------------------------------------------------------

# name, city, approval limit for service orders
_DEPOTS = [("Airport North", "Leeds", 600), ("Central Station", "York", 500), ("Harbourside", "Hull", 450),
           ("Ring Road", "Sheffield", 700), ("Old Market", "Lincoln", 400)]
_MODELS = {"economy": ["Toyota Aygo X", "Kia Picanto", "Fiat 500"], "compact": ["VW Golf", "Ford Focus", "Toyota Corolla"],
           "estate": ["Skoda Octavia Estate", "Volvo V60"], "suv": ["Nissan Qashqai", "Kia Sportage", "Hyundai Tucson"],
           "van": ["Ford Transit Custom", "VW Transporter"]}
_RATES = {"economy": 35, "compact": 45, "estate": 55, "suv": 69, "van": 79}
# each depot's vehicles: a available, b available and 12000-15000 km since service, r rented, q rented and close to its service,
# s in the workshop for a repair, n in the workshop for its due service, m rented although its service is due, x retired
_STORIES = ["arqsabrn", "raarsqxa", "arbrnarm", "rasqarax", "aarrbsaq"]
_PARTS = [("Brake pads (front set)", "BP-220", 48.5, 40), ("Oil filter", "OF-118", 9.8, 120), ("Tyre 205/55 R16", "TY-2055", 72, 32),
          ("Wiper blade pair", "WB-600", 14.25, 60), ("12V battery 70Ah", "BT-070", 96, 12), ("Brake discs (pair)", "BD-310", 88, 16),
          ("Air filter", "AF-204", 12.4, 80), ("Headlamp bulb H7", "HB-007", 6.5, 150), ("Windscreen", "WS-100", 210, 6),
          ("Spark plug set", "SP-400", 22, 45)]
_PRICES = {"gps": 6, "child_seat": 8, "extra_driver": 12, "full_cover": 18, "roadside": 4.5}
_FIRST = ["Amara", "Bruno", "Celia", "Deepak", "Erin", "Farid", "Gemma", "Hugo", "Ines", "Jonas", "Keira", "Luca", "Mei", "Nils",
          "Orla", "Priya", "Rhys", "Saoirse", "Tomas", "Uma", "Viktor", "Wanda", "Yusuf", "Zoe"]
_LAST = ["Abbott", "Bianchi", "Carter", "Dunne", "Ellis", "Flores", "Garner", "Holt", "Ibrahim", "Jensen", "Kowalski", "Lindqvist",
         "Mensah", "Nakamura", "O'Neill", "Pereira"]


def _rental_total(r: dict[str, Any]) -> float:
    return _round2(r["days"] * r["daily_rate"] - r["discount"] + r["extras_total"] + r["mileage_fee"])


def _discount(days: int, rate: float, tier: str) -> float:
    return _round2(days * rate * {"gold": GOLD_DISCOUNT, "silver": SILVER_DISCOUNT}.get(tier, 0)) if tier != "standard" else 0


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (charges, totals, counts and flags as the rules set them)."""
    depots = [{"id": f"DPT{i + 1:02d}", "name": n, "city": c, "approval_limit": lim, "available": 0, "in_workshop": 0, "status": "open"}
              for i, (n, c, lim) in enumerate(_DEPOTS)]
    parts = [{"id": f"PRT{i + 1:02d}", "name": n, "sku": s, "unit_cost": c, "stock": st} for i, (n, s, c, st) in enumerate(_PARTS)]
    vehicles: list[dict[str, Any]] = []
    story_of: dict[str, str] = {}
    for d_idx, stories in enumerate(_STORIES):
        for code in stories:
            i = len(vehicles)
            cat = _CATEGORIES[(i * 3 + d_idx) % len(_CATEGORIES)]
            models = _MODELS[cat]
            odometer = rng.randint(18000, 135000)
            since = {"b": rng.randint(12200, 14700), "q": rng.randint(13600, 14900), "n": rng.randint(15100, 16800),
                     "m": rng.randint(15100, 16800)}.get(code, rng.randint(800, 11000))
            status = {"a": "available", "b": "available", "r": "rented", "q": "rented", "m": "rented", "x": "retired"}.get(code, "in_service")
            plate = f"{'YLHSN'[d_idx]}{'ABCDEFGHKLMN'[i % 12]}{21 + i % 4} {'KLMNPRSTVWXY'[i * 5 % 12]}{'ABCDEFGHJ'[i * 7 % 9]}{'RSTUVWXYZ'[i % 9]}"
            vehicles.append({"id": f"VEH{i + 1:03d}", "depot": depots[d_idx]["id"], "plate": plate, "model": models[i % len(models)],
                             "category": cat, "daily_rate": _RATES[cat] + rng.choice([0, 0, 4]), "odometer": odometer,
                             "last_service_km": odometer - since, "km_since_service": since, "needs_service": since > SERVICE_KM_A,
                             "status": status})
            story_of[vehicles[-1]["id"]] = code
    for d in depots:
        d["available"] = sum(1 for v in vehicles if v["depot"] == d["id"] and v["status"] == "available")
        d["in_workshop"] = sum(1 for v in vehicles if v["depot"] == d["id"] and v["status"] == "in_service")

    renters: list[dict[str, Any]] = []
    for i in range(35):
        first, last = _FIRST[i % len(_FIRST)], _LAST[(i * 5 + 1) % len(_LAST)]
        points = [0, 0, 0, 3, 0, 6, 3, 0, 8, 0, 0, 4][i % 12]
        if i in (13, 27):
            points = 9 + i % 4
        tier = "gold" if i % 6 == 1 else "silver" if i % 5 == 2 else "standard"
        renters.append({"id": f"RNR{i + 1:03d}", "name": f"{first} {last}",
                        "email": f"{first.lower()}.{last.lower().replace(chr(39), '')}@mail.example", "licence_points": points,
                        "tier": tier, "lifetime_spend": 0, "status": "blocked" if points >= BLOCK_POINTS else "active"})
    active_renters = [r for r in renters if r["status"] == "active"]
    tier_of = {r["id"]: r["tier"] for r in renters}

    rentals: list[dict[str, Any]] = []

    def rental(vehicle: dict[str, Any], renter: dict[str, Any], start: str, days: int, status: str) -> dict[str, Any]:
        rate = vehicle["daily_rate"]
        r = {"id": f"RA{len(rentals) + 1:04d}", "vehicle": vehicle["id"], "renter": renter["id"], "start": start, "days": days,
             "daily_rate": rate, "km_out": vehicle["odometer"], "km_in": None, "km_driven": None,
             "discount": _discount(days, rate, tier_of[renter["id"]]), "extras_total": 0, "mileage_fee": 0, "total": 0, "status": status}
        rentals.append(r)
        return r

    # out on rent now: every rented vehicle has one active rental
    k = 0
    for v in vehicles:
        if v["status"] == "rented":
            rental(v, active_renters[(k * 7 + 3) % len(active_renters)], f"2026-12-{1 + k % 6:02d}", rng.choice([2, 3, 4, 5, 7, 10]), "active")
            k += 1
    # reservations on available vehicles
    available = [v for v in vehicles if v["status"] == "available"]
    for j in range(12):
        v = available[(j * 5) % len(available)]
        rental(v, active_renters[(j * 11 + 5) % len(active_renters)], f"2026-12-{12 + j % 15:02d}", rng.choice([1, 2, 3, 4, 7, 8, 14]),
               "reserved")
    # past rentals, returned: their readings are below the vehicle's odometer now
    fleet = [v for v in vehicles if v["status"] != "retired"]
    for j in range(60 - len(rentals) - 6):
        v = fleet[(j * 7 + 2) % len(fleet)]
        days = rng.choice([1, 2, 3, 3, 4, 5, 7, 9])
        r = rental(v, renters[(j * 13 + 4) % len(renters)], f"2026-{7 + j % 5:02d}-{3 + j % 24:02d}", days, "returned")
        driven = days * KM_PER_DAY + rng.choice([-420, -250, -120, -60, 140, 380, 900])
        driven = max(35, driven)
        r["km_in"] = v["odometer"] - rng.randint(600, 9000)
        r["km_out"] = r["km_in"] - driven
        r["km_driven"] = driven
        r["mileage_fee"] = _round2(max(0, driven - days * KM_PER_DAY) * MILEAGE_RATE)
    # cancelled bookings
    for j in range(6):
        v = fleet[(j * 9 + 4) % len(fleet)]
        rental(v, renters[(j * 17 + 13) % len(renters)], f"2026-{10 + j % 3}-{5 + j * 3:02d}", rng.choice([2, 3, 5]), "cancelled")

    extras: list[dict[str, Any]] = []
    with_extras = [r for r in rentals if r["status"] != "cancelled"]
    for j in range(25):
        r = with_extras[(j * 7 + 1) % len(with_extras)]
        kind = _EXTRA_KINDS[(j * 3) % len(_EXTRA_KINDS)] if j % 4 else "full_cover"
        if any(e["rental"] == r["id"] and e["kind"] == kind for e in extras):
            kind = "roadside" if kind != "roadside" else "gps"
        price = _PRICES[kind]
        extras.append({"id": f"EXT{j + 1:03d}", "rental": r["id"], "kind": kind, "daily_price": price, "amount": _round2(price * r["days"])})
        r["extras_total"] = _round2(r["extras_total"] + extras[-1]["amount"])
    for r in rentals:
        r["total"] = _rental_total(r)
    for p in renters:
        p["lifetime_spend"] = _round2(sum(r["total"] for r in rentals if r["renter"] == p["id"] and r["status"] == "returned"))

    limit_of = {d["id"]: d["approval_limit"] for d in depots}
    orders: list[dict[str, Any]] = []

    def order(vehicle: dict[str, Any], kind: str, part: str | None, qty: int, hours: float, status: str) -> None:
        cost = _round2(qty * next(p["unit_cost"] for p in parts if p["id"] == part)) if part else 0
        total = _round2(cost + hours * LABOUR_RATE)
        over = total > limit_of[vehicle["depot"]]
        orders.append({"id": f"WO{len(orders) + 1:03d}", "vehicle": vehicle["id"], "kind": kind, "part": part, "part_qty": qty,
                       "labour_hours": hours, "parts_cost": cost, "total": total,
                       "approval": ("pending" if status == "open" else "approved") if over else "not_needed", "status": status})

    repairs = [("tyres", "PRT03", 4, 2), ("body_repair", "PRT09", 1, 6), ("brakes", "PRT06", 1, 3), ("body_repair", None, 0, 8)]
    n_rep = 0
    for v in vehicles:
        code = story_of[v["id"]]
        if code == "s":
            kind, part, qty, hours = repairs[n_rep % len(repairs)]
            order(v, kind, part, qty, hours, "open" if n_rep % 2 else "in_progress")
            n_rep += 1
        elif code in "nm":
            order(v, "scheduled_service", None, 0, SERVICE_HOURS, "open")
    done = [v for v in vehicles if story_of[v["id"]] in "ar"]
    for j in range(15 - len(orders)):
        v = done[(j * 3 + 1) % len(done)]
        kind, part, qty, hours = [("scheduled_service", "PRT02", 1, SERVICE_HOURS), ("brakes", "PRT01", 1, 1.5),
                                  ("scheduled_service", "PRT07", 1, SERVICE_HOURS), ("tyres", "PRT03", 4, 1)][j % 4]
        order(v, kind, part, qty, hours, "done" if j % 5 else "cancelled")

    damages: list[dict[str, Any]] = []
    returned = [r for r in rentals if r["status"] == "returned"]
    for j, (severity, estimate, status) in enumerate([("minor", 120, "charged"), ("minor", 85, "closed"), ("minor", 340, "charged"),
                                                      ("moderate", 780, "charged"), ("minor", 210, "reported"), ("minor", 60, "closed"),
                                                      ("major", 1850, "charged"), ("minor", 165, "reported"), ("minor", 430, "reported"),
                                                      ("moderate", 640, "closed")]):
        r = returned[(j * 5 + 2) % len(returned)]
        cover = any(e["rental"] == r["id"] and e["kind"] == "full_cover" for e in extras)
        damages.append({"id": f"DMG{j + 1:02d}", "rental": r["id"], "vehicle": r["vehicle"], "severity": severity, "estimate": estimate,
                        "renter_charge": min(estimate, COVER_EXCESS if cover else EXCESS), "status": status})
    return {"depot": depots, "vehicle": vehicles, "renter": renters, "rental": rentals, "rental_extra": extras, "service_order": orders,
            "spare_part": parts, "damage_report": damages}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("vehicle", "odometer"):
        # a short trip, and readings that take it just past either service interval or well between them
        last = float(rec["last_service_km"] or 0)
        values |= {v for v in (base + rng.choice([600, 1800]), last + SERVICE_KM_A + 1, last + SERVICE_KM_B + 1, last + 13500) if v > base}
    elif (table, field) == ("vehicle", "last_service_km"):
        values |= {base + 4000, float(rec["odometer"] or 0), float(rec["odometer"] or 0) - SERVICE_KM_A - 500}
    elif (table, field) == ("rental", "km_in"):
        # back within the allowance, a little over it, and after a long trip
        out, allowance = float(rec["km_out"] or 0), float(rec["days"] or 1) * KM_PER_DAY
        values |= {out + allowance - 150, out + allowance + 320, out + INSPECTION_KM + 400} if rec["km_in"] is None else {base + 200}
    elif (table, field) == ("rental", "days"):
        values |= {base + 1, base + 3, 7}
    elif (table, field) == ("renter", "licence_points"):
        values |= {base + 3}
    elif (table, field) == ("renter", "lifetime_spend"):
        values |= {_round2(base + 500)}
    elif (table, field) == ("service_order", "labour_hours"):
        values |= {base + 1, base + 4}
    elif (table, field) == ("service_order", "part_qty"):
        values |= {base + 1, base + 2}
    elif (table, field) == ("damage_report", "estimate"):
        values |= {100, 140, 160, 900, 1250, 1600}
    elif (table, field) == ("depot", "approval_limit"):
        values |= {base + 200, base - 200}
    elif (table, field) == ("spare_part", "stock"):
        values |= {base - 2, base + 10}
    elif field in ("available", "in_workshop", "km_since_service", "km_driven", "km_out"):
        values |= {base + 1, base - 1} if field in ("available", "in_workshop") else {base + 500}
    else:  # money: rates, prices, costs, totals, discounts, fees
        values |= {_round2(base + rng.choice([5, 12, 40])), _round2(base * 0.5)}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("renter", "name"):
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 3 + 5) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    if (table, field) == ("renter", "email"):
        return cur.replace("@mail.example", "@post.example")
    if (table, field) == ("vehicle", "plate"):
        return cur[:-1] + ("Z" if cur[-1] != "Z" else "Y")
    if (table, field) == ("depot", "name"):
        return cur + " (Express)"
    if (table, field) == ("spare_part", "name"):
        return cur + " - OEM"
    return None


_NEW_DEPOTS = [("Park and Ride", "Durham", 550), ("Riverside", "Chester", 450), ("Science Park", "Cambridge", 800)]
_NEW_RENTERS = ["Ada Quigley", "Basil Moreno", "Cleo Fairfax", "Dmitri Sokolov", "Effie Tanaka", "Gus Ferreira", "Hana Dvorak",
                "Ivo Marsh"]
_NEW_PARTS = [("Cabin filter", "CF-310", 15.9, 40), ("Coolant 5L", "CL-005", 24.5, 18), ("Wheel nut set", "WN-020", 11, 30)]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "depot":
        name, city, limit = _NEW_DEPOTS[k % len(_NEW_DEPOTS)]
        out: dict[str, Any] = {"name": name, "city": city}
        if k % 2:
            out["approval_limit"] = limit
        return out
    if table == "vehicle":
        depot = pick("depot")
        cat = _CATEGORIES[k % len(_CATEGORIES)]
        odometer = rng.choice([12, 3400, 18500, 27600, 41200])
        out = {"depot": depot["id"], "plate": f"NV{25 + k % 2} {'ABCDEFGHJKLM'[k % 12]}{'PQRSTUVWX'[k % 9]}{'KLMN'[k % 4]}",
               "model": _MODELS[cat][k % len(_MODELS[cat])], "category": cat, "daily_rate": _RATES[cat] + (4 if k % 3 == 2 else 0),
               "odometer": odometer}
        if k % 2 and odometer > 12000:
            out["last_service_km"] = odometer - rng.choice([2000, 9000, 13000])
        if k % 5 == 4:
            out["status"] = "in_service"
        return out
    if table == "renter":
        name = _NEW_RENTERS[k % len(_NEW_RENTERS)]
        first, last = name.split()
        out = {"name": name, "email": f"{first.lower()}.{last.lower()}@mail.example"}
        if k % 3 == 1:
            out["licence_points"] = rng.choice([3, 6, 9, 12])
        if k % 4 == 2:
            out["tier"] = "silver"
        return out
    if table == "rental":
        vehicle = pick("vehicle", lambda v: v["status"] == "available")
        renter = pick("renter", lambda r: r["status"] == "active")
        out = {"vehicle": vehicle["id"], "renter": renter["id"], "start": f"2027-01-{3 + k:02d}", "days": rng.choice([1, 2, 3, 5, 7, 10]),
               "km_out": vehicle["odometer"]}
        if k % 4 == 1:  # a corporate rate agreed below the list price
            out["daily_rate"] = vehicle["daily_rate"] - 5
        return out
    if table == "rental_extra":
        rental = pick("rental", lambda r: r["status"] in ("reserved", "active"))
        kind = _EXTRA_KINDS[k % len(_EXTRA_KINDS)]
        return {"rental": rental["id"], "kind": kind, "daily_price": _PRICES[kind]}
    if table == "service_order":
        vehicle = pick("vehicle", lambda v: v["status"] != "retired")
        kind = ["tyres", "brakes", "body_repair", "scheduled_service"][k % 4]
        part, qty = {"tyres": ("PRT03", rng.choice([2, 4])), "brakes": (rng.choice(["PRT01", "PRT06"]), 1),
                     "body_repair": ("PRT09", 1), "scheduled_service": ("PRT02", 1)}[kind]
        out = {"vehicle": vehicle["id"], "kind": kind, "labour_hours": rng.choice([1, 1.5, 2, 4, 6])}
        if k % 3 != 2:
            out["part"], out["part_qty"] = part, qty
        return out
    if table == "spare_part":
        name, sku, cost, stock = _NEW_PARTS[k % len(_NEW_PARTS)]
        return {"name": name, "sku": sku, "unit_cost": cost, "stock": stock}
    rental = pick("rental", lambda r: r["status"] in ("returned", "active"))
    severity = _SEVERITIES[k % 3]
    return {"rental": rental["id"], "vehicle": rental["vehicle"], "severity": severity,
            "estimate": {"minor": rng.choice([90, 180, 260]), "moderate": rng.choice([650, 980]), "major": rng.choice([1400, 2600])}[severity]}


FAMILY = WorldFamily("fleet", "Fleet", "vehicle rental and fleet maintenance", 61403, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
