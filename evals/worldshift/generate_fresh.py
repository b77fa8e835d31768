"""Generator of the fresh world family ``fresh-A`` ... ``fresh-D`` (package data).

A hospital admissions and bed management domain, unlike both the
EnterpriseWorldShift service desk and the held-out warehouse: 8 tables
(ward, physician, patient, bed, admission, prescription, invoice, ward_task), 194
initial records, 20 rules in world A. B modifies one rule (pharmacy reviews
daily doses above 2000 mg instead of 3000 mg: a threshold changes), C adds
one (an admission that overstays its ward's maximum stay opens a discharge
planning task), D deletes one (discharging a patient no longer stops the
stay's active prescriptions).

The family exists so that a rule-discovery agent can be measured on worlds
nobody tuned it on. It is built from the format spec and the engine only,
never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_fresh`` rewrites the four files; a test
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

from evals.worldshift._candidates import CandidateWrites, Limits, Row, near_thresholds, numbered_ids, pick_row
from evals.worldshift._fields import boolean, choice, number, reference, string, table
from evals.worldshift._world_writer import Shift, WorldFamily

__all__ = ["FAMILY", "REVIEW_MG_A", "REVIEW_MG_B", "build_shifts"]

REVIEW_MG_A = 3000
REVIEW_MG_B = 2000
CHILD_AGE = 12
CREDIT_HOLD = 10000

_SPECIALTIES = ["medicine", "surgery", "paediatrics", "maternity", "intensive_care"]

TABLES: dict[str, Any] = {
    "ward": table(name=string(), specialty=choice(_SPECIALTIES), capacity=number(), occupied=number(0), daily_rate=number(),
                  max_stay=number(), open=boolean(True), full=boolean(False)),
    "physician": table(name=string(), specialty=choice(_SPECIALTIES), on_duty=boolean(True), consultant=boolean(False)),
    "patient": table(name=string(), age=number(), insurance=choice(["public", "private", "self_pay"], "public"), balance=number(0),
                     credit_hold=boolean(False)),
    "bed": table(ward=reference("ward"), label=string(), kind=choice(["standard", "isolation", "monitored"], "standard"),
                 status=choice(["free", "occupied", "cleaning", "out_of_service"], "free")),
    "admission": table(patient=reference("patient"), ward=reference("ward"), bed=reference("bed"), physician=reference("physician"),
                       priority=choice(["elective", "urgent", "emergency"], "elective"),
                       state=choice(["planned", "admitted", "discharged", "cancelled"], "planned"), days=number(1), daily_rate=number(),
                       charge=number(0), over_stay=boolean(False)),
    "prescription": table(admission=reference("admission"), drug=string(), dose_mg=number(), doses_per_day=number(1), daily_mg=number(0),
                          active=boolean(True), review=boolean(False)),
    "invoice": table(admission=reference("admission"), patient=reference("patient"), amount=number(),
                     state=choice(["open", "sent", "paid", "void"], "open")),
    "ward_task": table(ward=reference("ward"), bed=reference("bed"), admission=reference("admission"),
                       kind=choice(["cleaning", "pharmacy_review", "discharge_planning", "transport"]), done=boolean(False)),
}

_ID_PREFIX = {"ward": "WRD", "physician": "DOC", "patient": "PAT", "bed": "BED", "admission": "ADM", "prescription": "RX",
              "invoice": "INV", "ward_task": "TSK"}


def _review_rule(limit: int, name: str) -> dict[str, Any]:
    """M16, whose dose threshold B changes."""
    return {"id": "M16", "name": name, "table": "prescription", "events": ["insert", "update"], "when": "before", "order": 20,
            "condition": f"changed(daily_mg) and current.daily_mg > {limit}", "actions": [{"set": {"review": True}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 20 rules of world A (ids M01..M20 stay the same across shifted worlds)."""
    return [
        {"id": "M01", "name": "A new admission without a daily rate takes its ward's rate", "table": "admission", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.daily_rate)",
         "actions": [{"set": {"daily_rate": "current.ward.daily_rate"}}]},
        {"id": "M02", "name": "Admission charge follows length of stay and daily rate", "table": "admission",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(days) or changed(daily_rate)",
         "actions": [{"set": {"charge": "round(current.days * current.daily_rate, 2)"}}]},
        {"id": "M03", "name": "A stay longer than the ward's maximum is flagged as an overstay", "table": "admission",
         "events": ["insert", "update"], "when": "before", "order": 30, "condition": "changed(days) and current.days > current.ward.max_stay",
         "actions": [{"set": {"over_stay": True}}]},
        {"id": "M04", "name": "Emergency admissions are admitted straight away", "table": "admission", "events": ["insert"],
         "when": "before", "order": 5, "condition": "current.priority == 'emergency'",
         "actions": [{"set": {"state": "'admitted'"}}]},
        {"id": "M05", "name": "A ward's occupancy counts its admitted patients", "table": "admission",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.ward", "set": {
             "occupied": "count(admission, row.ward == current.ward and row.state == 'admitted')"}}}]},
        {"id": "M06", "name": "A ward whose occupancy reaches its capacity is full", "table": "ward", "events": ["update"],
         "when": "before", "condition": "changed(occupied) and current.occupied >= current.capacity",
         "actions": [{"set": {"full": True}}]},
        {"id": "M07", "name": "Admitting a patient occupies the bed", "table": "admission", "events": ["insert", "update"],
         "when": "after", "condition": "changes_to(state, 'admitted')",
         "actions": [{"update": {"target": "current.bed", "set": {"status": "'occupied'"}}}]},
        {"id": "M08", "name": "Discharging a patient sends the bed to cleaning and raises the invoice", "table": "admission",
         "events": ["update"], "when": "after", "condition": "changes_to(state, 'discharged')",
         "actions": [{"update": {"target": "current.bed", "set": {"status": "'cleaning'"}}},
                     {"create": {"table": "invoice", "values": {"admission": "current.id", "patient": "current.patient",
                                                                 "amount": "current.charge"}}}]},
        {"id": "M09", "name": "A bed sent to cleaning opens a cleaning task", "table": "bed", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'cleaning')",
         "actions": [{"create": {"table": "ward_task", "values": {"ward": "current.ward", "bed": "current.id", "kind": "'cleaning'"}}}]},
        {"id": "M10", "name": "A finished cleaning task frees the bed", "table": "ward_task", "events": ["update"], "when": "after",
         "condition": "changes_to(done, true) and current.kind == 'cleaning'",
         "actions": [{"update": {"target": "current.bed", "set": {"status": "'free'"}}}]},
        {"id": "M11", "name": "Invoices of publicly insured patients go straight to the insurer", "table": "invoice", "events": ["insert"],
         "when": "before", "condition": "current.patient.insurance == 'public'",
         "actions": [{"set": {"state": "'sent'"}}]},
        {"id": "M12", "name": "A patient's balance is the sum of their open invoices", "table": "invoice",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.patient", "set": {
             "balance": "sum(invoice, amount, row.patient == current.patient and row.state == 'open')"}}}]},
        {"id": "M13", "name": f"A balance above {CREDIT_HOLD} puts the patient on credit hold", "table": "patient", "events": ["update"],
         "when": "before", "condition": f"changed(balance) and current.balance > {CREDIT_HOLD}",
         "actions": [{"set": {"credit_hold": True}}]},
        {"id": "M14", "name": "Daily dose follows dose and doses per day", "table": "prescription", "events": ["insert", "update"],
         "when": "before", "order": 10, "condition": "changed(dose_mg) or changed(doses_per_day)",
         "actions": [{"set": {"daily_mg": "current.dose_mg * current.doses_per_day"}}]},
        {"id": "M15", "name": f"New prescriptions for children under {CHILD_AGE} need a pharmacist review", "table": "prescription",
         "events": ["insert"], "when": "before", "order": 30, "condition": f"current.admission.patient.age < {CHILD_AGE}",
         "actions": [{"set": {"review": True}}]},
        _review_rule(REVIEW_MG_A, f"Daily doses above {REVIEW_MG_A} mg need a pharmacist review"),
        {"id": "M17", "name": "A prescription marked for review opens a pharmacy review task", "table": "prescription",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(review, true)",
         "actions": [{"create": {"table": "ward_task", "values": {"ward": "current.admission.ward", "admission": "current.admission",
                                                             "kind": "'pharmacy_review'"}}}]},
        {"id": "M18", "name": "Deleting an admission deletes its prescriptions and tasks", "table": "admission", "events": ["delete"],
         "when": "after",
         "actions": [{"delete_where": {"table": "prescription", "where": "row.admission == current.id"}},
                     {"delete_where": {"table": "ward_task", "where": "row.admission == current.id"}}]},
        {"id": "M19", "name": "Discharging a patient stops their active prescriptions", "table": "admission", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'discharged')",
         "actions": [{"update_where": {"table": "prescription", "where": "row.admission == current.id and row.active == true",
                                       "set": {"active": False}}}]},
        {"id": "M20", "name": "Closing a ward takes its free beds out of service", "table": "ward", "events": ["update"],
         "when": "after", "condition": "changes_to(open, false)",
         "actions": [{"update_where": {"table": "bed", "where": "row.ward == current.id and row.status == 'free'",
                                       "set": {"status": "'out_of_service'"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies M16 (review threshold), C adds M21 (overstay planning task), D deletes M19 (discharge stops prescriptions)."""
    m21 = {"id": "M21", "name": "An admission that overstays opens a discharge planning task", "table": "admission",
           "events": ["insert", "update"], "when": "after", "condition": "changes_to(over_stay, true)",
           "actions": [{"create": {"table": "ward_task", "values": {"ward": "current.ward", "admission": "current.id",
                                                               "kind": "'discharge_planning'"}}}]}
    m16_b = _review_rule(REVIEW_MG_B, f"Daily doses above {REVIEW_MG_B} mg need a pharmacist review (pharmacy policy tightened)")
    return {"B": Shift(f"pharmacy reviews daily doses above {REVIEW_MG_B} mg (was {REVIEW_MG_A} mg)", {"modify": [m16_b]}),
            "C": Shift("an admission that overstays its ward's maximum stay opens a discharge planning task", {"add": [m21]}),
            "D": Shift("discharging a patient no longer stops the stay's active prescriptions", {"delete": ["M19"]})}


# -- initial records -----------------------------------------------------------------------------

# name, specialty, capacity, daily rate, maximum stay in days, bed label prefix
_WARDS = [("General Medicine 3A", "medicine", 8, 650, 10, "3A"), ("Surgical 4B", "surgery", 6, 900, 7, "4B"),
          ("Paediatrics", "paediatrics", 5, 720, 7, "PD"), ("Maternity", "maternity", 6, 800, 4, "MT"),
          ("Intensive Care", "intensive_care", 4, 2400, 14, "IC"), ("Short Stay Unit", "medicine", 5, 550, 2, "SS")]
# admissions per ward: admitted, discharged, planned, cancelled (Surgical 4B and Intensive Care are full)
_MIX = [(6, 2, 1, 1), (6, 2, 1, 0), (3, 1, 1, 0), (4, 1, 1, 0), (4, 1, 0, 1), (2, 1, 1, 0)]
# status of each ward's beds beyond the occupied ones
_SPARE_BEDS = [["cleaning", "free"], [], ["cleaning", "free"], ["cleaning", "free"], [], ["free", "out_of_service", "cleaning"]]
_PHYSICIANS = [("Dr. Amara Okafor", "medicine", True), ("Dr. Lukas Brenner", "medicine", False), ("Dr. Sofia Marques", "surgery", True),
               ("Dr. Henrik Dahl", "surgery", False), ("Dr. Priya Raman", "paediatrics", True), ("Dr. Elena Vidal", "maternity", True),
               ("Dr. Tomas Novak", "intensive_care", True), ("Dr. Grace Whitfield", "intensive_care", False)]
_FIRST = ["Aisha", "Bruno", "Carmen", "Dmitri", "Esther", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Katya", "Liam", "Maya", "Nils",
          "Olga", "Pavel", "Rosa", "Samir", "Tara", "Umar", "Vera", "Wim"]
_LAST = ["Abbott", "Bauer", "Costa", "Dubois", "Eriksen", "Fontaine", "Gallo", "Horvat", "Ivanova", "Jensen", "Kowalski", "Lindqvist"]
# drug, dose in mg, doses per day
_DRUGS = [("Amoxicillin", 500, 3), ("Paracetamol", 1000, 4), ("Paracetamol", 500, 4), ("Ibuprofen", 400, 3), ("Metformin", 850, 2),
          ("Vancomycin", 1000, 2), ("Ceftriaxone", 2000, 1), ("Omeprazole", 20, 1), ("Enoxaparin", 40, 1), ("Cefazolin", 1000, 3),
          ("Levetiracetam", 500, 2), ("Morphine", 10, 6), ("Piperacillin", 4000, 3), ("Furosemide", 40, 2)]
_CHILD_DRUGS = [("Amoxicillin", 250, 3), ("Paracetamol", 240, 4), ("Ibuprofen", 100, 3)]


def _patient_name(i: int) -> str:
    """The i-th patient's name (deterministic)."""
    return f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 5 + 3) % len(_LAST)]}"


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """194 records, consistent with the rules of world A (occupancy, charges, daily doses, reviews, balances as the rules set them)."""
    wards = [{"id": f"WRD{i + 1:02d}", "name": n, "specialty": s, "capacity": c, "occupied": _MIX[i][0], "daily_rate": r,
              "max_stay": m, "open": True, "full": _MIX[i][0] >= c} for i, (n, s, c, r, m, _p) in enumerate(_WARDS)]
    physicians = [{"id": f"DOC{i + 1:02d}", "name": n, "specialty": s, "on_duty": i != 3, "consultant": c}
                  for i, (n, s, c) in enumerate(_PHYSICIANS)]
    beds: list[dict[str, Any]] = []
    for w, (_n, _s, cap, _r, _m, prefix) in enumerate(_WARDS):
        statuses = ["occupied"] * _MIX[w][0] + _SPARE_BEDS[w]
        for b, status in enumerate(statuses[:cap]):
            kind = "monitored" if _WARDS[w][1] == "intensive_care" else "isolation" if b == cap - 1 else "standard"
            beds.append({"id": f"BED{len(beds) + 1:03d}", "ward": wards[w]["id"], "label": f"{prefix}-{b + 1:02d}", "kind": kind,
                         "status": status})
    patients: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    admissions: list[dict[str, Any]] = []

    def new_patient(specialty: str) -> dict[str, Any]:
        i = len(patients)
        age = (rng.choice([2, 4, 6, 8, 9, 11, 12, 14]) if specialty == "paediatrics" else rng.randrange(23, 40)
               if specialty == "maternity" else rng.randrange(30, 90))
        insurance = ["public", "public", "private", "public", "self_pay"][i % 5]
        patients.append({"id": f"PAT{i + 1:03d}", "name": _patient_name(i), "age": age, "insurance": insurance, "balance": 0,
                         "credit_hold": False})
        by_id[patients[-1]["id"]] = patients[-1]
        return patients[-1]

    for w, ward in enumerate(wards):
        spec = ward["specialty"]
        ward_beds = [b for b in beds if b["ward"] == ward["id"]]
        free = [b for b in ward_beds if b["status"] == "free"]
        docs = [d for d in physicians if d["specialty"] == spec] or physicians[:2]
        admitted, discharged, planned, cancelled = _MIX[w]
        plan = ["admitted"] * admitted + ["discharged"] * discharged + ["planned"] * planned + ["cancelled"] * cancelled
        for k, state in enumerate(plan):
            # every other discharged stay is an earlier stay of a patient readmitted to the same ward now
            here = [a["patient"] for a in admissions if a["ward"] == ward["id"] and a["state"] == "admitted"]
            patient = by_id[here[k % len(here)]] if state == "discharged" and k % 2 and here else new_patient(spec)
            if state == "admitted":
                bed = ward_beds[k]["id"]
            elif state == "discharged":
                bed = ward_beds[(admitted + k) % len(ward_beds)]["id"]
            else:
                bed = free[k % len(free)]["id"] if free and state == "planned" else None
            days = rng.choice([1, 2, 3, 4, 5, 6, 8, 9, 12]) if spec != "maternity" else rng.choice([1, 2, 3, 4, 5])
            rate = ward["daily_rate"] if patient["insurance"] != "private" or k % 2 else round(ward["daily_rate"] * 1.2, 2)
            priority = "emergency" if state == "admitted" and k % 3 == 1 else "urgent" if k % 4 == 2 else "elective"
            admissions.append({"id": f"ADM{len(admissions) + 1:03d}", "patient": patient["id"], "ward": ward["id"], "bed": bed,
                               "physician": docs[k % len(docs)]["id"], "priority": priority, "state": state, "days": days,
                               "daily_rate": rate, "charge": round(days * rate, 2), "over_stay": days > ward["max_stay"]})
    prescriptions: list[dict[str, Any]] = []
    for i, adm in enumerate(a for a in admissions if a["state"] in ("admitted", "discharged")):
        child = by_id[adm["patient"]]["age"] < CHILD_AGE
        for j in range(1 + (i % 3 == 0)):
            drug, dose, per_day = (_CHILD_DRUGS if child else _DRUGS)[(i * 5 + j * 3 + rng.randrange(2)) % len(_CHILD_DRUGS if child else _DRUGS)]
            prescriptions.append({"id": f"RX{len(prescriptions) + 1:03d}", "admission": adm["id"], "drug": drug, "dose_mg": dose,
                                  "doses_per_day": per_day, "daily_mg": dose * per_day, "active": adm["state"] == "admitted",
                                  "review": child or dose * per_day > REVIEW_MG_A})
    invoices: list[dict[str, Any]] = []
    for i, adm in enumerate(a for a in admissions if a["state"] == "discharged"):
        insurance = by_id[adm["patient"]]["insurance"]
        state = "sent" if insurance == "public" else "paid" if i % 3 == 2 else "open"
        invoices.append({"id": f"INV{i + 1:03d}", "admission": adm["id"], "patient": adm["patient"], "amount": adm["charge"],
                         "state": state})
    for p in patients:
        p["balance"] = round(sum(v["amount"] for v in invoices if v["patient"] == p["id"] and v["state"] == "open"), 2)
        p["credit_hold"] = p["balance"] > CREDIT_HOLD
    ward_of = {a["id"]: a["ward"] for a in admissions}
    tasks = [{"id": "", "ward": b["ward"], "bed": b["id"], "admission": None, "kind": "cleaning", "done": False}
             for b in beds if b["status"] == "cleaning"]
    tasks += [{"id": "", "ward": ward_of[rx["admission"]], "bed": None, "admission": rx["admission"], "kind": "pharmacy_review",
               "done": k % 2 == 1} for k, rx in enumerate(r for r in prescriptions if r["review"])]
    tasks += [{"id": "", "ward": a["ward"], "bed": a["bed"], "admission": a["id"], "kind": "transport", "done": False}
              for a in admissions if a["state"] == "planned"][:3]
    for i, t in enumerate(tasks):
        t["id"] = f"TSK{i + 1:03d}"
    return {"ward": wards, "physician": physicians, "patient": patients, "bed": beds, "admission": admissions,
            "prescription": prescriptions, "invoice": invoices, "ward_task": tasks}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("ward", "occupied"):
        values |= {rec["capacity"] - 1, rec["capacity"], rec["capacity"] + 1, base + 1, base - 1}
    elif (table, field) == ("ward", "capacity"):
        values |= {rec["occupied"], base + 2, base - 1}
    elif (table, field) == ("admission", "days"):
        # the ward's maximum stay met exactly and just passed, and ordinary changes of the expected stay
        ward = state.get("ward", rec.get("ward"))
        if ward is not None:
            values |= {ward["max_stay"], ward["max_stay"] + 1}
        values |= {base + rng.choice([1, 2, 3]), max(1, base - 1)}
    elif (table, field) == ("prescription", "dose_mg"):
        values |= {base * 2, round(base / 2), round(base * 1.5)}
    elif (table, field) == ("prescription", "doses_per_day"):
        values |= {base + 1, max(1, base - 1), 4}
    elif (table, field) in (("ward", "max_stay"), ("patient", "age")):
        values |= {base + rng.choice([1, 2, 3]), max(1, base - 2)}
    elif field in ("balance", "amount"):
        values |= {round(base + rng.choice([500, 1500, 4000]), 2), round(base * 0.5, 2)}
    else:  # rates, charges, daily doses: a tariff or dose adjusted by a round share
        values |= {round(base * rng.choice([0.9, 1.1, 1.25])), base + rng.choice([50, 100])}
    return values


# the text some fields get appended when renamed
_RENAME_SUFFIX = {("ward", "name"): " (North Wing)", ("bed", "label"): "A", ("prescription", "drug"): " (generic)"}


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) in (("patient", "name"), ("physician", "name")):
        # a double-barrelled surname after a marriage, the way registration clerks update it
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 7 + 2) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}-{last}"
    return cur + _RENAME_SUFFIX[(table, field)] if (table, field) in _RENAME_SUFFIX else None


# new records' names and the like
_NEW_WARDS = [("Cardiology 5C", "medicine", 10, 980, 8), ("Orthopaedics 2D", "surgery", 8, 850, 6),
              ("Neonatal Unit", "paediatrics", 4, 1900, 21), ("Day Surgery", "surgery", 6, 600, 1)]
_NEW_PHYSICIANS = [("Dr. Ruth Adeyemi", "medicine"), ("Dr. Marco Bellini", "surgery"), ("Dr. Hana Sato", "paediatrics"),
                   ("Dr. Jakob Lind", "intensive_care")]
_NEW_DRUGS = [("Clopidogrel", 75, 1), ("Gabapentin", 600, 3), ("Meropenem", 1000, 3), ("Paracetamol", 1000, 3), ("Amoxicillin", 875, 2),
              ("Valproate", 750, 2), ("Acetylcysteine", 600, 2), ("Aciclovir", 800, 5)]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "ward":
        name, spec, cap, rate, stay = _NEW_WARDS[k % len(_NEW_WARDS)]
        out: dict[str, Any] = {"name": name, "specialty": spec, "capacity": cap, "daily_rate": rate, "max_stay": stay}
        if k % 5 == 4:
            out["open"] = False
        return out
    if table == "physician":
        name, spec = _NEW_PHYSICIANS[k % len(_NEW_PHYSICIANS)]
        return {"name": name, "specialty": spec, "consultant": k % 3 == 0}
    if table == "patient":
        out = {"name": _patient_name(40 + k * 3), "age": rng.choice([5, 11, 12, 34, 58, 71, 86])}
        if k % 3:
            out["insurance"] = rng.choice(["public", "private", "self_pay"])
        return out
    if table == "bed":
        ward = pick("ward")
        return {"ward": ward["id"], "label": f"{ward['name'][:2].upper()}-{20 + k}", "kind": rng.choice(["standard", "isolation", "monitored"])}
    if table == "admission":
        ward = pick("ward", lambda w: w["open"])
        free = [b for b in state.rows("bed") if b["ward"] == ward["id"] and b["status"] == "free"]
        out = {"patient": pick("patient")["id"], "ward": ward["id"], "physician": pick("physician", lambda d: d["on_duty"])["id"],
               "days": rng.choice([1, 2, 3, 5, 7, 10, 15])}
        if free:
            out["bed"] = free[k % len(free)]["id"]
        if k % 4 != 3:  # a quarter leave the priority to its default
            out["priority"] = ["emergency", "urgent", "elective"][k % 3]
        if k % 4 == 3:  # a negotiated rate, given explicitly
            out["daily_rate"] = round(ward["daily_rate"] * rng.choice([0.8, 1.2]))
        return out
    if table == "prescription":
        if k % 4 == 1:  # a share for children, whose prescriptions a rule treats apart
            adm = pick("admission", lambda a: a["state"] == "admitted" and state.get("patient", a["patient"])["age"] < 16)
        else:
            adm = pick("admission", lambda a: a["state"] in ("admitted", "planned"))
        drug, dose, per_day = _NEW_DRUGS[(k * 3 + rng.randrange(2)) % len(_NEW_DRUGS)]
        out = {"admission": adm["id"], "drug": drug, "dose_mg": dose}
        if k % 5:
            out["doses_per_day"] = per_day
        return out
    if table == "invoice":
        adm = pick("admission", lambda a: a["state"] in ("admitted", "discharged"))
        return {"admission": adm["id"], "patient": adm["patient"], "amount": rng.choice([450, 1200, adm["charge"], 6000, 11500])}
    adm = pick("admission", lambda a: a["state"] in ("admitted", "planned"))
    out = {"ward": adm["ward"], "admission": adm["id"], "kind": rng.choice(["cleaning", "pharmacy_review", "discharge_planning", "transport"])}
    if out["kind"] == "cleaning":
        out["bed"] = adm["bed"]
    return out


FAMILY = WorldFamily("fresh", "Fresh", "hospital admissions and bed management", 48213, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
