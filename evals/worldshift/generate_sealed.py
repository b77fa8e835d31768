"""Generator of the sealed world family ``sealed-A`` ... ``sealed-D`` (package data).

A property and casualty insurance claims domain, unlike the
EnterpriseWorldShift service desk, the held-out warehouse, the fresh
hospital and the novel library: 8 tables (plan, policyholder, policy,
adjuster, claim, claim_payment, diary, letter), 201 initial records, 22
rules in world A. B modifies one rule (claims are referred to the special
investigations unit from a lower fraud score: a threshold changes), C adds
one (a claim that becomes a large loss opens a large loss report diary), D
deletes one (denying a claim no longer writes a denial letter).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_sealed`` rewrites the four files; a test
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

__all__ = ["FAMILY", "SIU_SCORE_A", "SIU_SCORE_B", "build_shifts"]

# fraud score from which a claim is referred to the special investigations unit, before and after B's policy change
SIU_SCORE_A = 70
SIU_SCORE_B = 60
LARGE_LOSS = 25000
REVIEW_RATIO = 1.5
FULL_CASELOAD = 8

_LINES = ["auto", "home", "commercial", "travel"]
_PERILS = ["collision", "theft", "fire", "water", "storm", "liability"]
_OPEN = ["reported", "investigating", "approved"]

TABLES: dict[str, Any] = {
    "plan": table(name=string(), line=choice(_LINES), excess=number(), on_sale=boolean(True)),
    "policyholder": table(name=string(), segment=choice(["individual", "small_business", "corporate"], "individual"),
                          region=choice(["north", "south", "east", "west"]), fraud_flag=boolean(False)),
    "policy": table(number=string(), holder=reference("policyholder"), plan=reference("plan"),
                    status=choice(["active", "lapsed", "cancelled"], "active"), deductible=number(), coverage_limit=number(),
                    premium=number(), claims_paid=number(0), loss_ratio=number(0), underwriting_review=boolean(False)),
    "adjuster": table(name=string(), grade=choice(["trainee", "adjuster", "senior", "manager"], "adjuster"), authority_limit=number(),
                      caseload=number(0), available=boolean(True)),
    "claim": table(policy=reference("policy"), adjuster=reference("adjuster"), peril=choice(_PERILS),
                   status=choice(["reported", "investigating", "approved", "settled", "denied", "closed"], "reported"),
                   loss_amount=number(), deductible=number(), net_amount=number(), severity=choice(["low", "medium", "high"], "low"),
                   fraud_score=number(0), siu_referral=boolean(False), needs_authority=boolean(False), paid_total=number(0)),
    "claim_payment": table(claim=reference("claim"), payee=string(), amount=number(), kind=choice(["indemnity", "expense"], "indemnity"),
                           status=choice(["pending", "issued", "held", "void"], "pending")),
    "diary": table(claim=reference("claim"), adjuster=reference("adjuster"),
                   kind=choice(["authority_review", "siu_review", "large_loss_report", "follow_up"], "follow_up"),
                   state=choice(["open", "done"], "open")),
    "letter": table(holder=reference("policyholder"), policy=reference("policy"), claim=reference("claim"),
                    kind=choice(["acknowledgement", "denial", "settlement", "renewal_review"]), sent=boolean(False)),
}

_ID_PREFIX = {"plan": "PLN", "policyholder": "PH", "policy": "POL", "adjuster": "ADJ", "claim": "CLM", "claim_payment": "PAY",
              "diary": "DRY", "letter": "LTR"}
# new records' ids: PLN901, PH901, ...; claim numbers keep their four digits (CLM9901, ...)
_NEW_IDS = {**numbered_ids(_ID_PREFIX), "claim": "CLM99{:02d}"}


def _siu_rule(score: int, name: str) -> dict[str, Any]:
    """P06, whose fraud score threshold B lowers."""
    return {"id": "P06", "name": name, "table": "claim", "events": ["insert", "update"], "when": "before", "order": 60,
            "condition": f"changed(fraud_score) and current.fraud_score >= {score} and current.status != 'denied'",
            "actions": [{"set": {"siu_referral": True, "status": "'investigating'"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 22 rules of world A (ids P01..P22 stay the same across shifted worlds)."""
    open_claim = "row.status in ['reported', 'investigating', 'approved']"
    return [
        {"id": "P01", "name": "A new claim without a deductible takes its policy's deductible", "table": "claim", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.deductible)",
         "actions": [{"set": {"deductible": "current.policy.deductible"}}]},
        {"id": "P02", "name": "Storm claims on home policies carry a doubled deductible", "table": "claim", "events": ["insert"],
         "when": "before", "order": 20, "condition": "current.peril == 'storm' and current.policy.plan.line == 'home'",
         "actions": [{"set": {"deductible": "current.deductible * 2"}}]},
        {"id": "P03", "name": "A claim reported on a policy that is not active is denied", "table": "claim", "events": ["insert"],
         "when": "before", "order": 30, "condition": "current.policy.status != 'active'", "actions": [{"set": {"status": "'denied'"}}]},
        {"id": "P04", "name": "Net amount is the loss less the deductible, capped at the policy's coverage limit", "table": "claim",
         "events": ["insert", "update"], "when": "before", "order": 40, "condition": "changed(loss_amount) or changed(deductible)",
         "actions": [{"set": {"net_amount": "round(min(max(current.loss_amount - current.deductible, 0), "
                                            "current.policy.coverage_limit), 2)"}}]},
        {"id": "P05", "name": f"A claim whose net amount reaches {LARGE_LOSS} is high severity", "table": "claim",
         "events": ["insert", "update"], "when": "before", "order": 50,
         "condition": f"changed(net_amount) and current.net_amount >= {LARGE_LOSS}", "actions": [{"set": {"severity": "'high'"}}]},
        _siu_rule(SIU_SCORE_A, f"A claim with a fraud score of {SIU_SCORE_A} or more is referred to SIU and investigated"),
        {"id": "P07", "name": "A claim whose net amount exceeds its adjuster's authority limit needs authority", "table": "claim",
         "events": ["insert", "update"], "when": "before", "order": 70, "condition": "changed(net_amount) or changed(adjuster)",
         "actions": [{"set": {"needs_authority": "current.net_amount > current.adjuster.authority_limit"}}]},
        {"id": "P08", "name": "An approved claim paid in full is settled", "table": "claim", "events": ["update"], "when": "before",
         "order": 80, "condition": "changed(paid_total) and current.paid_total >= current.net_amount and current.status == 'approved'",
         "actions": [{"set": {"status": "'settled'"}}]},
        {"id": "P09", "name": "An adjuster's caseload counts their open claims", "table": "claim", "events": ["insert", "update", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.adjuster", "set": {
             "caseload": f"count(claim, row.adjuster == current.adjuster and {open_claim})"}}}]},
        {"id": "P10", "name": "A policy's claims paid is the sum of its claims' paid totals", "table": "claim",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.policy", "set": {
             "claims_paid": "round(sum(claim, paid_total, row.policy == current.policy), 2)"}}}]},
        {"id": "P11", "name": "A claim that comes to need authority opens an authority review diary", "table": "claim",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(needs_authority, true)",
         "actions": [{"create": {"table": "diary", "values": {"claim": "current.id", "adjuster": "current.adjuster",
                                                              "kind": "'authority_review'"}}}]},
        {"id": "P12", "name": "A claim referred to SIU opens an SIU review diary and flags the policyholder", "table": "claim",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(siu_referral, true)",
         "actions": [{"create": {"table": "diary", "values": {"claim": "current.id", "adjuster": "current.adjuster", "kind": "'siu_review'"}}},
                     {"update": {"target": "current.policy.holder", "set": {"fraud_flag": True}}}]},
        {"id": "P13", "name": "A denied claim sends the policyholder a denial letter", "table": "claim", "events": ["insert", "update"],
         "when": "after", "condition": "changes_to(status, 'denied')",
         "actions": [{"create": {"table": "letter", "values": {"holder": "current.policy.holder", "policy": "current.policy",
                                                               "claim": "current.id", "kind": "'denial'"}}}]},
        {"id": "P14", "name": "A claim that is settled, denied or closed closes its open diaries", "table": "claim", "events": ["update"],
         "when": "after", "condition": "changed(status) and current.status in ['settled', 'denied', 'closed']",
         "actions": [{"update_where": {"table": "diary", "where": "row.claim == current.id and row.state == 'open'",
                                       "set": {"state": "'done'"}}}]},
        {"id": "P15", "name": "Deleting a claim deletes its payments and diaries", "table": "claim", "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "claim_payment", "where": "row.claim == current.id"}},
                     {"delete_where": {"table": "diary", "where": "row.claim == current.id"}}]},
        {"id": "P16", "name": f"An adjuster whose caseload reaches {FULL_CASELOAD} is no longer available", "table": "adjuster",
         "events": ["update"], "when": "before", "condition": f"changed(caseload) and current.caseload >= {FULL_CASELOAD}",
         "actions": [{"set": {"available": False}}]},
        {"id": "P17", "name": "A policy's loss ratio is its claims paid over its premium", "table": "policy", "events": ["insert", "update"],
         "when": "before", "order": 10, "condition": "changed(claims_paid) or changed(premium)",
         "actions": [{"set": {"loss_ratio": "round(current.claims_paid / current.premium, 2)"}}]},
        {"id": "P18", "name": f"A policy whose loss ratio reaches {REVIEW_RATIO} goes to underwriting review", "table": "policy",
         "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": f"changed(loss_ratio) and current.loss_ratio >= {REVIEW_RATIO}", "actions": [{"set": {"underwriting_review": True}}]},
        {"id": "P19", "name": "Cancelling a policy voids the pending payments on its claims", "table": "policy", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'cancelled')",
         "actions": [{"update_where": {"table": "claim_payment", "where": "row.claim.policy == current.id and row.status == 'pending'",
                                       "set": {"status": "'void'"}}}]},
        {"id": "P20", "name": "A policy sent to underwriting review sends the policyholder a renewal review letter", "table": "policy",
         "events": ["update"], "when": "after", "condition": "changes_to(underwriting_review, true)",
         "actions": [{"create": {"table": "letter", "values": {"holder": "current.holder", "policy": "current.id",
                                                               "kind": "'renewal_review'"}}}]},
        {"id": "P21", "name": "A payment on a claim referred to SIU is held", "table": "claim_payment", "events": ["insert"],
         "when": "before", "condition": "current.claim.siu_referral == true", "actions": [{"set": {"status": "'held'"}}]},
        {"id": "P22", "name": "A claim's paid total is the sum of its issued indemnity payments", "table": "claim_payment",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.claim", "set": {
             "paid_total": "round(sum(claim_payment, amount, row.claim == current.claim and row.status == 'issued' and "
                           "row.kind == 'indemnity'), 2)"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies P06 (SIU fraud score), C adds P23 (large loss diary), D deletes P13 (denial letter)."""
    p23 = {"id": "P23", "name": "A claim that becomes high severity opens a large loss report diary", "table": "claim",
           "events": ["insert", "update"], "when": "after", "condition": "changes_to(severity, 'high')",
           "actions": [{"create": {"table": "diary", "values": {"claim": "current.id", "adjuster": "current.adjuster",
                                                                "kind": "'large_loss_report'"}}}]}
    p06_b = _siu_rule(SIU_SCORE_B, f"A claim with a fraud score of {SIU_SCORE_B} or more is referred to SIU and investigated "
                                   "(fraud policy tightened)")
    return {"B": Shift(f"claims are referred to SIU from a fraud score of {SIU_SCORE_B} (was {SIU_SCORE_A})", {"modify": [p06_b]}),
            "C": Shift("a claim that becomes high severity opens a large loss report diary", {"add": [p23]}),
            "D": Shift("denying a claim no longer sends a denial letter", {"delete": ["P13"]})}


# -- initial records -----------------------------------------------------------------------------

# name, line, excess
_PLANS = [("Motor Comprehensive", "auto", 500), ("Motor Third Party", "auto", 250), ("Home Buildings", "home", 1000),
          ("Home Contents", "home", 250), ("Commercial Property", "commercial", 2500), ("Travel Plus", "travel", 100)]
# plan index -> coverage limits and premiums a policy of that plan may have
_LIMITS = {0: [18000, 25000, 32000, 45000], 1: [15000, 20000], 2: [250000, 320000, 400000], 3: [40000, 60000, 75000],
           4: [500000, 1000000], 5: [10000]}
_PREMIUMS = {0: [540, 620, 780, 910, 1150], 1: [320, 410], 2: [380, 450, 520], 3: [160, 210, 260], 4: [4200, 6800, 9500, 12000],
             5: [85, 120]}
# plan's line -> perils its claims are for, and the losses they come to
_PERILS_OF = {"auto": ["collision", "collision", "theft", "liability"], "home": ["water", "storm", "fire", "theft"],
              "commercial": ["fire", "water", "storm", "liability"], "travel": ["theft"]}
_LOSSES = {("auto", "collision"): [1200, 2450.5, 3800, 6200, 9100, 14800, 27500], ("auto", "theft"): [8900, 16500, 31000],
           ("auto", "liability"): [4000, 12500, 38000], ("home", "fire"): [7500, 22000, 46000, 88000],
           ("home", "water"): [1850, 3400.75, 6100, 12900], ("home", "storm"): [2200, 4800, 9750, 31500],
           ("home", "theft"): [950, 2300, 5400], ("commercial", "fire"): [45000, 120000, 260000],
           ("commercial", "water"): [8400, 19000.4], ("commercial", "storm"): [15000, 42000], ("commercial", "liability"): [25000, 60000],
           ("travel", "theft"): [420, 780, 1650]}
_FIRST = ["Aoife", "Bram", "Celia", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Joel", "Kasia", "Luca", "Maren", "Nils",
          "Orla", "Pavel", "Rosa", "Soren", "Tilde", "Umar"]
_LAST = ["Ashworth", "Brennan", "Castillo", "Dahl", "Ekwueme", "Forsyth", "Galloway", "Haas", "Iqbal", "Jovanovic", "Kerr", "Lindqvist"]
_BUSINESSES = [("Harbour Bakery Ltd", "small_business"), ("Kestrel Logistics", "small_business"),
               ("Moss & Vale Architects", "small_business"), ("Brightwater Dental", "small_business"),
               ("Northline Foods plc", "corporate"), ("Corvid Engineering plc", "corporate")]
# name, grade, authority limit
_ADJUSTERS = [("Ruth Okafor", "trainee", 5000), ("Samir Haddad", "adjuster", 15000), ("Jenny Walsh", "adjuster", 15000),
              ("Marco Bellini", "adjuster", 15000), ("Priya Nair", "senior", 50000), ("Tomasz Zielinski", "senior", 50000),
              ("Helen Osei", "manager", 250000), ("Lars Berg", "adjuster", 15000)]
_AUTHORITY = {"trainee": 5000, "adjuster": 15000, "senior": 50000, "manager": 250000}
# the adjuster (index) who takes each open claim in turn: Samir ends one claim short of a full caseload, Lars is on leave
_OPEN_ROTA = [1, 2, 4, 1, 3, 5, 1, 0, 6, 1, 2, 4, 1, 3, 1, 5, 2, 6, 4, 3, 1, 5]
# status of claim k, in turn
_STATUSES = ["settled", "reported", "approved", "settled", "investigating", "closed", "approved", "settled", "reported", "denied",
             "settled", "approved", "investigating", "settled", "reported", "approved"]
_N_INDIVIDUALS = 16
_N_CLAIMS = 40
# claims whose fraud score is high enough for SIU (and policies lapsed or cancelled), by index
_SIU_CLAIMS = (4, 21, 33)
_LAPSED, _CANCELLED = (5, 14, 23), (9, 30)


def _person_name(i: int) -> str:
    """The i-th person's name (deterministic)."""
    return f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 5 + 3) % len(_LAST)]}"


def _net(loss: float, deductible: float, limit: float) -> float:
    return round(min(max(loss - deductible, 0), limit), 2)


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (nets, totals, counts, ratios and flags as the rules set them)."""
    plans = [{"id": f"PLN{i + 1:02d}", "name": n, "line": line, "excess": x, "on_sale": True} for i, (n, line, x) in enumerate(_PLANS)]
    plans[1]["on_sale"] = False  # third party only cover is no longer sold, its policies run on
    regions = ["north", "south", "east", "west"]
    holders = [{"id": f"PH{i + 1:02d}", "name": _person_name(i), "segment": "individual", "region": regions[(i * 3) % 4],
                "fraud_flag": False} for i in range(_N_INDIVIDUALS)]
    holders += [{"id": f"PH{_N_INDIVIDUALS + i + 1:02d}", "name": n, "segment": s, "region": regions[i % 4], "fraud_flag": False}
                for i, (n, s) in enumerate(_BUSINESSES)]
    # individuals hold motor cover, every other one home cover, a few travel cover; businesses property and (small ones) motor
    holdings: list[tuple[int, int]] = []
    for i in range(_N_INDIVIDUALS):
        holdings.append((i, 0 if i % 3 else 1))
        if i % 2 == 0:
            holdings.append((i, 2 if i % 4 == 0 else 3))
        if i % 5 == 2:
            holdings.append((i, 5))
    for j, (_n, seg) in enumerate(_BUSINESSES):
        holdings.append((_N_INDIVIDUALS + j, 4))
        if seg == "small_business":
            holdings.append((_N_INDIVIDUALS + j, 0))
    policies = []
    for k, (h, p) in enumerate(holdings):
        status = "lapsed" if k in _LAPSED else "cancelled" if k in _CANCELLED else "active"
        policies.append({"id": f"POL{k + 1:03d}", "number": f"{'MHCCCT'[p]}{_PLANS[p][1][0].upper()}-24-{10400 + k * 37}",
                         "holder": holders[h]["id"], "plan": plans[p]["id"], "status": status,
                         "deductible": _PLANS[p][2] * (2 if k % 5 == 3 else 1), "coverage_limit": rng.choice(_LIMITS[p]),
                         "premium": rng.choice(_PREMIUMS[p]), "claims_paid": 0, "loss_ratio": 0, "underwriting_review": False})
    plan_of = {p["id"]: p for p in plans}
    adjusters = [{"id": f"ADJ{i + 1:02d}", "name": n, "grade": g, "authority_limit": a, "caseload": 0, "available": True}
                 for i, (n, g, a) in enumerate(_ADJUSTERS)]
    # claims: most on active policies; two on lapsed ones (denied on arrival)
    active = [p for p in policies if p["status"] == "active"]
    claims: list[dict[str, Any]] = []
    rota = iter(_OPEN_ROTA)
    for k in range(_N_CLAIMS):
        if k in (17, 29):
            policy = next(p for p in policies if p["id"] == f"POL{_LAPSED[k % 2] + 1:03d}")
            status = "denied"
        else:
            policy = active[(k * 7 + 2) % len(active)]
            status = "investigating" if k in _SIU_CLAIMS else _STATUSES[k % len(_STATUSES)]
        line = plan_of[policy["plan"]]["line"]
        peril = _PERILS_OF[line][(k * 3 + 1) % len(_PERILS_OF[line])]
        loss = rng.choice(_LOSSES[(line, peril)])
        deductible = policy["deductible"] * (2 if peril == "storm" and line == "home" else 1)
        net = _net(loss, deductible, policy["coverage_limit"])
        adjuster = adjusters[next(rota) if status in _OPEN else (k * 5) % 7]
        fraud = rng.choice([72, 78, 85]) if k in _SIU_CLAIMS else rng.choice([4, 9, 12, 18, 23, 31, 37, 44, 52, 58, 66])
        claims.append({"id": f"CLM{k + 1:04d}", "policy": policy["id"], "adjuster": adjuster["id"], "peril": peril, "status": status,
                       "loss_amount": loss, "deductible": deductible, "net_amount": net,
                       "severity": "high" if net >= LARGE_LOSS else "medium" if net >= 5000 else "low", "fraud_score": fraud,
                       "siu_referral": fraud >= SIU_SCORE_A, "needs_authority": net > adjuster["authority_limit"], "paid_total": 0})
    # payments: settled claims paid in full (some in two parts), approved ones in part, some with a payment pending;
    # a few expense payments (assessors' fees), which do not count towards what a claim has paid
    payments: list[dict[str, Any]] = []
    holder_name = {h["id"]: h["name"] for h in holders}
    policy_of = {p["id"]: p for p in policies}

    def pay(claim: dict[str, Any], amount: float, status: str, kind: str = "indemnity") -> None:
        payee = "Loss Assessors Ltd" if kind == "expense" else holder_name[policy_of[claim["policy"]]["holder"]]
        payments.append({"id": f"PAY{len(payments) + 1:03d}", "claim": claim["id"], "payee": payee, "amount": amount, "kind": kind,
                         "status": status})

    for k, c in enumerate(claims):
        net = c["net_amount"]
        if c["status"] == "settled":
            if k % 2 and net > 1000:
                first = round(net * 0.6, 2)
                pay(c, first, "issued")
                pay(c, round(net - first, 2), "issued")
            else:
                pay(c, net, "issued")
        elif c["status"] == "approved":
            part = round(net * [0.5, 0.25, 0.8][k % 3], 2)
            pay(c, part, "issued")
            if k % 2 == 0:
                pay(c, round(net - part - 100, 2), "pending")
        if k % 6 == 4 and c["status"] in ("settled", "approved", "investigating"):
            pay(c, rng.choice([180, 240, 395.5]), "issued" if c["status"] != "investigating" else "pending", "expense")
    pay(claims[_SIU_CLAIMS[1]], 1500, "held")  # a payment asked for after the referral
    claims_of: dict[str, list[dict[str, Any]]] = {}
    for c in claims:
        c["paid_total"] = round(sum(p["amount"] for p in payments if p["claim"] == c["id"] and p["status"] == "issued"
                                    and p["kind"] == "indemnity"), 2)
        claims_of.setdefault(c["policy"], []).append(c)
    for p in policies:
        p["claims_paid"] = round(sum(c["paid_total"] for c in claims_of.get(p["id"], [])), 2)
        p["loss_ratio"] = round(p["claims_paid"] / p["premium"], 2)
        p["underwriting_review"] = p["loss_ratio"] >= REVIEW_RATIO
    for a in adjusters:
        a["caseload"] = sum(1 for c in claims if c["adjuster"] == a["id"] and c["status"] in _OPEN)
        a["available"] = a["caseload"] < FULL_CASELOAD and a["name"] != "Lars Berg"
    for c in claims:
        if c["siu_referral"]:
            next(h for h in holders if h["id"] == policy_of[c["policy"]]["holder"])["fraud_flag"] = True
    # diaries: authority and SIU reviews as the rules opened them (done once the claim is), and some follow-ups
    diaries: list[dict[str, Any]] = []
    for k, c in enumerate(claims):
        state = "open" if c["status"] in _OPEN else "done"
        if c["needs_authority"]:
            diaries.append({"claim": c["id"], "adjuster": c["adjuster"], "kind": "authority_review", "state": state})
        if c["siu_referral"]:
            diaries.append({"claim": c["id"], "adjuster": c["adjuster"], "kind": "siu_review", "state": state})
        if k % 5 == 1:
            diaries.append({"claim": c["id"], "adjuster": c["adjuster"], "kind": "follow_up", "state": state})
    diaries = [{"id": f"DRY{i + 1:02d}", **d} for i, d in enumerate(diaries)]
    # letters: denials and renewal reviews as the rules sent them, and acknowledgements of new claims
    letters: list[dict[str, Any]] = []
    for k, c in enumerate(claims):
        holder = policy_of[c["policy"]]["holder"]
        if c["status"] == "denied":
            letters.append({"holder": holder, "policy": c["policy"], "claim": c["id"], "kind": "denial", "sent": True})
        elif c["status"] == "reported" and k % 2 == 0:
            letters.append({"holder": holder, "policy": c["policy"], "claim": c["id"], "kind": "acknowledgement", "sent": k % 4 == 0})
        elif c["status"] == "settled" and k % 3 == 0:
            letters.append({"holder": holder, "policy": c["policy"], "claim": c["id"], "kind": "settlement", "sent": True})
    letters += [{"holder": p["holder"], "policy": p["id"], "claim": None, "kind": "renewal_review", "sent": i % 2 == 0}
                for i, p in enumerate(p for p in policies if p["underwriting_review"])]
    letters = [{"id": f"LTR{i + 1:02d}", **x} for i, x in enumerate(letters)]
    return {"plan": plans, "policyholder": holders, "policy": policies, "adjuster": adjusters, "claim": claims,
            "claim_payment": payments, "diary": diaries, "letter": letters}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("claim", "loss_amount"):
        # a revised estimate: up or down, one that brings the net to the large loss line or just short of it,
        # and one just over the adjuster's authority
        ded = float(rec.get("deductible") or 0)
        adjuster = state.get("adjuster", rec["adjuster"]) if rec.get("adjuster") else None
        values |= {round(base * 1.4, 2), round(base * 0.6, 2), LARGE_LOSS + ded, LARGE_LOSS + ded - 1}
        if adjuster is not None:
            values.add(adjuster["authority_limit"] + ded + rng.choice([1, 500]))
    elif (table, field) == ("claim", "fraud_score"):
        values |= {base + rng.choice([8, 15]), 65}
    elif (table, field) == ("claim", "paid_total"):
        net = float(rec.get("net_amount") or 0)
        values |= {net, round(net - 1, 2), base + 500}
    elif (table, field) == ("claim", "deductible"):
        values |= {base * 2, base + 250}
    elif (table, field) == ("claim", "net_amount"):
        values |= {float(rec.get("paid_total") or 0), round(base * 1.2, 2)}
    elif (table, field) == ("policy", "premium"):
        paid = float(rec.get("claims_paid") or 0)
        values |= {round(base * 1.08, 2), round(paid / REVIEW_RATIO, 2) if paid else base * 0.5}
    elif (table, field) == ("policy", "claims_paid"):
        values |= {round(float(rec["premium"]) * REVIEW_RATIO, 2), round(float(rec["premium"]) * REVIEW_RATIO - 1, 2), base + 1000}
    elif (table, field) == ("adjuster", "caseload"):
        values |= {base + 1}
    elif (table, field) == ("adjuster", "authority_limit"):
        values |= {base * 2, base * 0.5}
    elif (table, field) == ("claim_payment", "amount"):
        values |= {round(base * 0.5, 2), base + rng.choice([100, 250, 1000])}
    else:  # coverage limits, excesses, ratios and the like: up and down a little
        values |= {round(base * 1.25, 2), round(base * 0.8, 2)}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) in (("policyholder", "name"), ("adjuster", "name")) and " " in cur and not cur.endswith(("Ltd", "plc")):
        # a new surname after a marriage
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 7 + 1) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    if (table, field) == ("plan", "name"):
        return cur + " 2025"
    if (table, field) == ("claim_payment", "payee"):
        return cur + " c/o Hale Solicitors"
    return None


# new records' names and the like
_NEW_PLANS = [("Landlord Cover", "home", 750), ("Fleet Motor", "auto", 1000), ("Cyber Liability", "commercial", 5000),
              ("Backpacker Travel", "travel", 50)]
_NEW_ADJUSTERS = [("Nadia Rahman", "adjuster"), ("Owen Price", "senior"), ("Yuki Tanaka", "trainee"), ("Bea Lund", "manager")]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "plan":
        name, line, excess = _NEW_PLANS[k % len(_NEW_PLANS)]
        out: dict[str, Any] = {"name": name, "line": line, "excess": excess}
        if k % 5 == 4:
            out["on_sale"] = False
        return out
    if table == "policyholder":
        out = {"name": _person_name(30 + k * 3), "region": rng.choice(["north", "south", "east", "west"])}
        if k % 4 == 3:
            out["segment"] = "small_business"
        return out
    if table == "policy":
        p = [0, 2, 3, 0, 5, 4][k % 6]
        plan = state.get("plan", f"PLN{p + 1:02d}")
        return {"number": f"{'MHCCCT'[p]}{_PLANS[p][1][0].upper()}-25-{20100 + k * 53}", "holder": pick("policyholder")["id"],
                "plan": plan["id"], "deductible": plan["excess"], "coverage_limit": rng.choice(_LIMITS[p]), "premium": rng.choice(_PREMIUMS[p])}
    if table == "adjuster":
        name, grade = _NEW_ADJUSTERS[k % len(_NEW_ADJUSTERS)]
        out = {"name": name, "authority_limit": _AUTHORITY[grade]}
        if grade != "adjuster":
            out["grade"] = grade
        return out
    if table == "claim":
        # storm damage to homes, claims on lapsed policies, large losses and suspicious claims, which rules treat apart
        line_of = {p["id"]: p["line"] for p in state.rows("plan")}
        if k % 4 == 0:
            policy = pick("policy", lambda p: p["status"] == "active" and line_of[p["plan"]] == "home")
            peril = "storm"
        elif k % 4 == 1:
            policy = pick("policy", lambda p: p["status"] != "active")
            peril = _PERILS_OF[line_of[policy["plan"]]][k % 3 % len(_PERILS_OF[line_of[policy["plan"]]])]
        else:
            policy = pick("policy", lambda p: p["status"] == "active")
            peril = _PERILS_OF[line_of[policy["plan"]]][k % len(_PERILS_OF[line_of[policy["plan"]]])]
        if k % 5 == 3:  # the adjuster one claim short of a full caseload
            adjuster = max(state.rows("adjuster"), key=lambda a: (a["available"] is True, a["caseload"]))
        else:
            adjuster = pick("adjuster", lambda a: a["available"] is True)
        loss = LARGE_LOSS + policy["deductible"] + rng.choice([0, 4000, 12000]) if k % 4 == 2 else rng.choice([780, 2300, 5400, 9100, 16500])
        out = {"policy": policy["id"], "adjuster": adjuster["id"], "peril": peril, "loss_amount": loss}
        if k % 3 == 2:
            out["fraud_score"] = rng.choice([64, 72, 81]) if k % 6 == 5 else rng.choice([10, 25, 40])
        if k % 7 == 6:  # a deductible agreed with the policyholder, given explicitly
            out["deductible"] = policy["deductible"] + 250
        return out
    if table == "claim_payment":
        # the rest of an approved claim, a payment on a claim under SIU referral, an assessor's fee
        if k % 3 == 0:
            claim = pick("claim", lambda c: c["status"] == "approved")
            amount = round(float(claim["net_amount"] or 0) - float(claim["paid_total"] or 0), 2)
        elif k % 3 == 1:
            claim = pick("claim", lambda c: c["siu_referral"] is True) if k % 2 else pick("claim", lambda c: c["status"] in _OPEN)
            amount = rng.choice([500, 1250, 3000])
        else:
            claim = pick("claim")
            amount = rng.choice([150, 420, 2750.5])
        out = {"claim": claim["id"], "payee": "Loss Assessors Ltd" if k % 5 == 4 else "Claimant", "amount": amount}
        if k % 5 == 4:
            out["kind"] = "expense"
        if k % 2 == 0:
            out["status"] = "issued"
        return out
    if table == "diary":
        claim = pick("claim")
        out = {"claim": claim["id"], "adjuster": claim["adjuster"]}
        if k % 3 == 1:
            out["kind"] = "follow_up"
        return out
    claim = pick("claim")
    policy = state.get("policy", claim["policy"])
    out = {"holder": policy["holder"], "policy": policy["id"], "claim": claim["id"], "kind": rng.choice(["acknowledgement", "settlement"])}
    if k % 2:
        out["sent"] = True
    return out


FAMILY = WorldFamily("sealed", "Sealed", "property and casualty insurance claims", 47213, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, _NEW_IDS, rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
