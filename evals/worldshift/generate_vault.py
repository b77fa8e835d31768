"""Generator of the vault world family ``vault-A`` ... ``vault-D`` (package data).

A utility billing domain (electricity supply), unlike the EnterpriseWorldShift
service desk, the held-out warehouse, the fresh hospital and the novel
library: 8 tables (tariff, customer_account, meter, meter_reading, bill,
remittance, disconnection_notice, field_order), about 200 initial records
and 22 rules in world A. Meter readings bill the account, payments settle
bills, unpaid balances put accounts in arrears and lead, through notices
and field orders, towards disconnection. B modifies one rule (the late fee
rate rises: a computed value changes), C adds one (a meter reported faulty
raises a field order to exchange it), D deletes one (an account that goes
into arrears is no longer sent a final notice).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_vault`` rewrites the four files; a test
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

__all__ = ["FAMILY", "LATE_FEE_RATE_A", "LATE_FEE_RATE_B", "MIN_LATE_FEE", "build_shifts"]

# the share of a bill's amount charged as a late fee, before and after B's policy change, and the least fee
LATE_FEE_RATE_A = 0.02
LATE_FEE_RATE_B = 0.03
MIN_LATE_FEE = 5
LATE_FEE_DAYS = 14
CONCESSION_FACTOR = 0.8
FLAG_FACTOR = 3

_SEGMENTS = ["residential", "small_business", "commercial"]
_ACCOUNT_STATES = ["active", "arrears", "disconnect_pending", "disconnected", "closed"]
_METHODS = ["card", "direct_debit", "cash", "cheque"]
_NOTICE_KINDS = ["reminder", "final_notice", "disconnection", "reconnection"]
_ORDER_KINDS = ["meter_check", "disconnect", "reconnect", "meter_exchange"]

TABLES: dict[str, Any] = {
    "tariff": table(name=string(), segment=choice(_SEGMENTS), unit_rate=number(), standing_charge=number(), active=boolean(True)),
    "customer_account": table(holder=string(), segment=choice(_SEGMENTS, "residential"), tariff=reference("tariff"),
                              credit_limit=number(500), usage_estimate=number(), balance=number(0), overdue_bills=number(0),
                              autopay=boolean(False), concession=boolean(False), vulnerable=boolean(False),
                              status=choice(_ACCOUNT_STATES, "active")),
    "meter": table(account=reference("customer_account"), serial=string(), kind=choice(["smart", "analog"], "smart"),
                   multiplier=number(1), last_read=number(), status=choice(["in_service", "faulty", "removed"], "in_service")),
    "meter_reading": table(meter=reference("meter"), value=number(), kind=choice(["actual", "estimated", "customer"], "actual"),
                           usage=number(), flagged=boolean(False)),
    "bill": table(account=reference("customer_account"), reading=reference("meter_reading"), kwh=number(), amount=number(),
                  late_fee=number(0), amount_paid=number(0), due=number(),
                  status=choice(["draft", "issued", "paid", "overdue", "written_off"], "draft"), days_overdue=number(0)),
    "remittance": table(account=reference("customer_account"), bill=reference("bill"), amount=number(), method=choice(_METHODS),
                        status=choice(["pending", "cleared", "bounced"], "pending")),
    "disconnection_notice": table(account=reference("customer_account"), kind=choice(_NOTICE_KINDS),
                                  channel=choice(["post", "email", "sms"], "post"), sent=boolean(False)),
    "field_order": table(account=reference("customer_account"), meter=reference("meter"), kind=choice(_ORDER_KINDS),
                         priority=choice(["low", "normal", "urgent"], "normal"),
                         status=choice(["open", "scheduled", "done", "cancelled"], "open")),
}

_ID_PREFIX = {"tariff": "TRF", "customer_account": "ACC", "meter": "MTR", "meter_reading": "RDG", "bill": "BIL", "remittance": "RMT",
              "disconnection_notice": "DN", "field_order": "FO"}


def _late_fee(amount: float, rate: float) -> float:
    """The late fee the rules charge on a bill of ``amount`` (the records use it too)."""
    return max(MIN_LATE_FEE, _round2(amount * rate))


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _late_fee_rule(rate: float, name: str) -> dict[str, Any]:
    """V11, whose rate B raises."""
    return {"id": "V11", "name": name, "table": "bill", "events": ["update"], "when": "before", "order": 26,
            "condition": f"changed(days_overdue) and current.days_overdue >= {LATE_FEE_DAYS} and current.late_fee == 0 and "
                         "current.status == 'overdue'",
            "actions": [{"set": {"late_fee": f"max({MIN_LATE_FEE}, round(current.amount * {rate}, 2))"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 22 rules of world A (ids V01..V22 stay the same across shifted worlds)."""
    outstanding = "row.status in ['issued', 'overdue']"
    return [
        {"id": "V01", "name": "A reading without a value is estimated from the last read and the account's usage estimate",
         "table": "meter_reading", "events": ["insert"], "when": "before", "order": 10, "condition": "is_empty(current.value)",
         "actions": [{"set": {"value": "round(current.meter.last_read + "
                                       "current.meter.account.usage_estimate / current.meter.multiplier, 0)",
                              "kind": "'estimated'"}}]},
        {"id": "V02", "name": "A reading's usage is the advance on the meter's last read times its multiplier", "table": "meter_reading",
         "events": ["insert"], "when": "before", "order": 20,
         "actions": [{"set": {"usage": "round((current.value - current.meter.last_read) * current.meter.multiplier, 2)"}}]},
        {"id": "V03", "name": f"A reading that runs backwards or exceeds {FLAG_FACTOR} times the usage estimate is flagged",
         "table": "meter_reading", "events": ["insert"], "when": "before", "order": 30,
         "condition": f"current.usage < 0 or current.usage > current.meter.account.usage_estimate * {FLAG_FACTOR}",
         "actions": [{"set": {"flagged": True}}]},
        {"id": "V04", "name": "An accepted reading becomes the meter's last read", "table": "meter_reading", "events": ["insert"],
         "when": "after", "condition": "not current.flagged",
         "actions": [{"update": {"target": "current.meter", "set": {"last_read": "current.value"}}}]},
        {"id": "V05", "name": "An accepted reading of a meter in service raises a draft bill", "table": "meter_reading",
         "events": ["insert"], "when": "after", "condition": "not current.flagged and current.meter.status == 'in_service'",
         "actions": [{"create": {"table": "bill", "values": {"account": "current.meter.account", "reading": "current.id",
                                                            "kwh": "current.usage"}}}]},
        {"id": "V06", "name": "A flagged reading raises a meter check", "table": "meter_reading", "events": ["insert"], "when": "after",
         "condition": "current.flagged",
         "actions": [{"create": {"table": "field_order", "values": {"account": "current.meter.account", "meter": "current.meter",
                                                                   "kind": "'meter_check'"}}}]},
        {"id": "V07", "name": "A new bill's amount is its kWh at the tariff's unit rate plus the standing charge", "table": "bill",
         "events": ["insert"], "when": "before", "order": 10,
         "actions": [{"set": {"amount": "round(current.kwh * current.account.tariff.unit_rate + "
                                        "current.account.tariff.standing_charge, 2)"}}]},
        {"id": "V08", "name": "Concession holders' new bills are discounted by 20%", "table": "bill", "events": ["insert"],
         "when": "before", "order": 20, "condition": "current.account.concession",
         "actions": [{"set": {"amount": f"round(current.amount * {CONCESSION_FACTOR}, 2)"}}]},
        {"id": "V09", "name": "A bill's due is its amount plus late fee less what was paid", "table": "bill", "events": ["insert", "update"],
         "when": "before", "order": 30, "condition": "changed(amount) or changed(late_fee) or changed(amount_paid)",
         "actions": [{"set": {"due": "round(current.amount + current.late_fee - current.amount_paid, 2)"}}]},
        {"id": "V10", "name": "An issued bill with days overdue becomes overdue", "table": "bill", "events": ["update"], "when": "before",
         "order": 24, "condition": "changed(days_overdue) and current.days_overdue > 0 and current.status == 'issued'",
         "actions": [{"set": {"status": "'overdue'"}}]},
        _late_fee_rule(LATE_FEE_RATE_A, f"A bill {LATE_FEE_DAYS} or more days overdue is charged a late fee of 2% (at least {MIN_LATE_FEE})"),
        {"id": "V12", "name": "A bill whose payments cover what is due is paid", "table": "bill", "events": ["update"], "when": "before",
         "order": 40, "condition": "changed(amount_paid) and current.due <= 0 and current.status in ['issued', 'overdue']",
         "actions": [{"set": {"status": "'paid'"}}]},
        {"id": "V13", "name": "An account's balance and overdue bills follow its outstanding bills", "table": "bill",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.account", "set": {
             "balance": f"round(sum(bill, due, row.account == current.account and {outstanding}), 2)",
             "overdue_bills": "count(bill, row.account == current.account and row.status == 'overdue')"}}}]},
        {"id": "V14", "name": "Issuing a bill of an autopay account collects it by direct debit", "table": "bill", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'issued') and current.account.autopay and current.due > 0",
         "actions": [{"create": {"table": "remittance", "values": {"account": "current.account", "bill": "current.id",
                                                                  "amount": "current.due", "method": "'direct_debit'"}}}]},
        {"id": "V15", "name": "Card and direct debit payments clear at once", "table": "remittance", "events": ["insert"], "when": "before",
         "condition": "current.method in ['card', 'direct_debit']", "actions": [{"set": {"status": "'cleared'"}}]},
        {"id": "V16", "name": "A bill's amount paid is the sum of its cleared payments", "table": "remittance",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.bill", "set": {
             "amount_paid": "round(sum(remittance, amount, row.bill == current.bill and row.status == 'cleared'), 2)"}}}]},
        {"id": "V17", "name": "An active account whose balance exceeds its credit limit goes into arrears", "table": "customer_account",
         "events": ["update"], "when": "before",
         "condition": "changed(balance) and current.balance > current.credit_limit and current.status == 'active'",
         "actions": [{"set": {"status": "'arrears'"}}]},
        {"id": "V18", "name": "An account in arrears or pending disconnection whose balance is back within its limit is active again",
         "table": "customer_account", "events": ["update"], "when": "before",
         "condition": "changed(balance) and current.balance <= current.credit_limit and current.status in ['arrears', 'disconnect_pending']",
         "actions": [{"set": {"status": "'active'"}}]},
        {"id": "V19", "name": "An account that goes into arrears is sent a final notice, unless it is vulnerable", "table": "customer_account",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'arrears') and not current.vulnerable",
         "actions": [{"create": {"table": "disconnection_notice", "values": {"account": "current.id", "kind": "'final_notice'"}}}]},
        {"id": "V20", "name": "Sending a final notice to an account still in arrears orders its disconnection",
         "table": "disconnection_notice", "events": ["update"], "when": "after",
         "condition": "changes_to(sent, true) and current.kind == 'final_notice' and current.account.status == 'arrears' and "
                      "not current.account.vulnerable",
         "actions": [{"create": {"table": "field_order", "values": {"account": "current.account", "kind": "'disconnect'"}}},
                     {"update": {"target": "current.account", "set": {"status": "'disconnect_pending'"}}}]},
        {"id": "V21", "name": "Deleting an account deletes its open field orders and its notices", "table": "customer_account",
         "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "field_order", "where": "row.account == current.id and row.status in ['open', 'scheduled']"}},
                     {"delete_where": {"table": "disconnection_notice", "where": "row.account == current.id"}}]},
        {"id": "V22", "name": "An account no longer pending disconnection cancels its open disconnect orders", "table": "customer_account",
         "events": ["update"], "when": "after", "condition": "changes_from(status, 'disconnect_pending') and current.status == 'active'",
         "actions": [{"update_where": {"table": "field_order",
                                       "where": "row.account == current.id and row.kind == 'disconnect' and "
                                                "row.status in ['open', 'scheduled']",
                                       "set": {"status": "'cancelled'"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies V11 (late fee rate), C adds V23 (meter exchange order), D deletes V19 (final notice)."""
    v23 = {"id": "V23", "name": "A meter reported faulty raises a meter exchange", "table": "meter", "events": ["update"], "when": "after",
           "condition": "changes_to(status, 'faulty')",
           "actions": [{"create": {"table": "field_order", "values": {
               "account": "current.account", "meter": "current.id", "kind": "'meter_exchange'",
               "priority": "if(current.account.vulnerable, 'urgent', 'normal')"}}}]}
    v11_b = _late_fee_rule(LATE_FEE_RATE_B, f"A bill {LATE_FEE_DAYS} or more days overdue is charged a late fee of 3% "
                                            f"(at least {MIN_LATE_FEE}; late fee policy raised)")
    return {"B": Shift("the late fee on a bill 14 or more days overdue is 3% of its amount (was 2%), at least 5", {"modify": [v11_b]}),
            "C": Shift("a meter reported faulty raises a field order to exchange it", {"add": [v23]}),
            "D": Shift("an account that goes into arrears is no longer sent a final notice", {"delete": ["V19"]})}


# -- initial records -----------------------------------------------------------------------------

# name, segment, unit rate, standing charge, active
_TARIFFS = [("Home Standard", "residential", 0.28, 12.5, True), ("Home Economy 7", "residential", 0.24, 14, True),
            ("Business Fixed", "small_business", 0.31, 22, True), ("Commercial Flex", "commercial", 0.26, 45, True),
            ("Home Green", "residential", 0.3, 12, True), ("Legacy Flat Rate", "residential", 0.22, 10, False)]
_LIMITS = {"residential": 500, "small_business": 2000, "commercial": 8000}
_ESTIMATES = {"residential": (700, 1300), "small_business": (2500, 4500), "commercial": (12000, 20000)}
_FIRST = ["Amara", "Bastian", "Celia", "Dmitri", "Edda", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kemal", "Lotte", "Milan",
          "Nadia", "Oskar", "Priya", "Rui", "Selma", "Tobias", "Ursula", "Vikram", "Wanda"]
_LAST = ["Albers", "Brandt", "Costa", "Dekker", "Eriksen", "Falk", "Gruber", "Holm", "Ivanova", "Jurado", "Kowalski", "Lindqvist"]
_BUSINESSES = ["Corner Bakery", "Hillside Dental", "Print & Copy", "Lakeview Cafe", "Fixit Garage", "Bloom Florist",
               "Northside Gym", "Pixel Studio", "Riverside Cold Storage", "Atlas Logistics", "Meridian Hotel", "Greenway Foods"]
# each account's bill history, oldest bill first: paid (p), paid late with a fee (L), issued (i), overdue short (s: under the
# late fee days), overdue long (o), draft (d); then its state
_PROFILES = ["pd", "i", "i", "d", "s", "i", "p", "os", "i", "pd", "oos", "i", "p", "s", "i", "oo", "d", "i", "s", "os", "Lp", "i",
             "os", "p", "d", "o", "i", "p", "oos", "s", "ooo", "ooo"]
_STATE_OF = {7: "arrears", 10: "arrears", 19: "arrears", 22: "arrears", 28: "arrears", 15: "disconnect_pending",
             30: "disconnect_pending", 31: "disconnected", 23: "closed"}
_VULNERABLE = {4, 11, 17, 26, 28}
_N_ACCOUNTS = 32


def _segment(i: int) -> str:
    """The i-th account's segment."""
    return "commercial" if i % 8 == 5 else "small_business" if i % 4 == 2 else "residential"


def _holder(i: int, segment: str) -> str:
    """The i-th account holder's name (deterministic)."""
    if segment != "residential":
        return _BUSINESSES[i % len(_BUSINESSES)] if i < 24 else _BUSINESSES[(i + 5) % len(_BUSINESSES)] + " Ltd"
    return f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 5 + 1) % len(_LAST)]}"


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (usages, amounts, dues, balances, states as the rules set them)."""
    tariffs = [{"id": f"TRF{i + 1:02d}", "name": n, "segment": s, "unit_rate": r, "standing_charge": c, "active": a}
               for i, (n, s, r, c, a) in enumerate(_TARIFFS)]
    tariff_of = {t["id"]: t for t in tariffs}
    home = ["TRF01", "TRF02", "TRF05", "TRF01"]
    accounts: list[dict[str, Any]] = []
    for i in range(_N_ACCOUNTS):
        seg = _segment(i)
        tariff = "TRF03" if seg == "small_business" else "TRF04" if seg == "commercial" else "TRF06" if i == 27 else home[i % 4]
        lo, hi = _ESTIMATES[seg]
        estimate = lo + 100 * rng.randrange((hi - lo) // 100 + 1)
        profile = _PROFILES[i]
        accounts.append({"id": f"ACC{i + 1:03d}", "holder": _holder(i, seg), "segment": seg, "tariff": tariff,
                         "credit_limit": _LIMITS[seg], "usage_estimate": estimate, "balance": 0, "overdue_bills": 0,
                         "autopay": profile[-1] in "pd" and i % 3 != 1 and i not in _STATE_OF,
                         "concession": seg == "residential" and i % 5 in (1, 3), "vulnerable": i in _VULNERABLE,
                         "status": _STATE_OF.get(i, "active")})
    meters: list[dict[str, Any]] = []
    readings: list[dict[str, Any]] = []
    bills: list[dict[str, Any]] = []
    remittances: list[dict[str, Any]] = []

    def meter_for(acc: dict[str, Any], second: bool = False) -> dict[str, Any]:
        commercial = acc["segment"] == "commercial"
        m = {"id": f"MTR{len(meters) + 1:03d}", "account": acc["id"], "serial": f"E{19 + len(meters) % 6}K{40213 + len(meters) * 577}",
             "kind": "analog" if len(meters) % 5 == 3 else "smart", "multiplier": 10 if commercial and not second else 1,
             "last_read": rng.randrange(8000, 60000), "status": "removed" if acc["status"] == "closed" else "in_service"}
        meters.append(m)
        return m

    def pay(acc: dict[str, Any], bill: dict[str, Any], amount: float, method: str, status: str = "cleared") -> None:
        remittances.append({"id": "", "account": acc["id"], "bill": bill["id"], "amount": amount, "method": method, "status": status})
        if status == "cleared":
            bill["amount_paid"] = round(bill["amount_paid"] + amount, 2)

    def read_and_bill(acc: dict[str, Any], meter: dict[str, Any], kind: str) -> None:
        usage = acc["usage_estimate"] * rng.choice([0.8, 0.9, 1, 1.1, 1.25]) * (0.35 if meter["multiplier"] == 1 and
                                                                                acc["segment"] == "commercial" else 1)
        advance = max(1, round(usage / meter["multiplier"]))
        value = meter["last_read"] + advance
        rkind = "estimated" if len(readings) % 6 == 4 else "customer" if len(readings) % 6 == 1 else "actual"
        reading = {"id": f"RDG{len(readings) + 1:03d}", "meter": meter["id"], "value": value, "kind": rkind,
                   "usage": _round2((value - meter["last_read"]) * meter["multiplier"]), "flagged": False}
        readings.append(reading)
        meter["last_read"] = value
        tariff = tariff_of[acc["tariff"]]
        amount = _round2(reading["usage"] * tariff["unit_rate"] + tariff["standing_charge"])
        if acc["concession"]:
            amount = _round2(amount * CONCESSION_FACTOR)
        status = {"p": "paid", "L": "paid", "i": "issued", "s": "overdue", "o": "overdue", "d": "draft"}[kind]
        days = {"s": rng.choice([3, 5, 8, 11]), "o": rng.choice([18, 25, 33, 47]), "L": rng.choice([16, 21])}.get(kind, 0)
        fee = _late_fee(amount, LATE_FEE_RATE_A) if days >= LATE_FEE_DAYS else 0
        bill = {"id": f"BIL{len(bills) + 1:03d}", "account": acc["id"], "reading": reading["id"], "kwh": reading["usage"],
                "amount": amount, "late_fee": fee, "amount_paid": 0, "due": 0, "status": status, "days_overdue": days}
        bills.append(bill)
        if status == "paid":
            pay(acc, bill, round(amount + fee, 2), "direct_debit" if acc["autopay"] else ["card", "cash", "cheque"][len(bills) % 3])
        bill["due"] = round(bill["amount"] + bill["late_fee"] - bill["amount_paid"], 2)

    for i, acc in enumerate(accounts):
        meter = meter_for(acc)
        for kind in _PROFILES[i]:
            read_and_bill(acc, meter, kind)
        if acc["segment"] == "commercial" and i % 16 == 5:  # two sites with a second (sub) meter, billed and paid
            read_and_bill(acc, meter_for(acc, second=True), "p")
    # part payments: cleared ones leave a smaller due, pending cheques would settle the bill when they clear; two bounced
    open_bills = [b for b in bills if b["status"] in ("issued", "overdue")]
    acc_of = {a["id"]: a for a in accounts}
    for j, b in enumerate(open_bills[1::3]):
        acc = acc_of[b["account"]]
        if j % 2 == 0:
            pay(acc, b, _round2(b["due"] * 0.4), "cash")
            b["due"] = round(b["amount"] + b["late_fee"] - b["amount_paid"], 2)
        else:
            pay(acc, b, b["due"], "cheque", "pending")
    for j, b in enumerate(open_bills[2:9:5]):
        pay(acc_of[b["account"]], b, b["due"], "direct_debit" if j == 0 else "cheque", "bounced")
    in_debt = ("arrears", "disconnect_pending", "disconnected")
    for acc in accounts:
        while True:
            own = [b for b in bills if b["account"] == acc["id"]]
            acc["balance"] = round(sum(b["due"] for b in own if b["status"] in ("issued", "overdue")), 2)
            acc["overdue_bills"] = sum(1 for b in own if b["status"] == "overdue")
            if acc["status"] not in in_debt or acc["balance"] > acc["credit_limit"]:
                break
            read_and_bill(acc, next(m for m in meters if m["account"] == acc["id"]), "o")  # accounts in debt owe more than their limit
    # one reading typed in wrong was flagged (no bill, the meter kept its last read) and raised a meter check
    meter_of = {m["account"]: m for m in reversed(meters)}  # an account's main meter
    flagged, faulty, exchanged = meter_of["ACC015"], meter_of["ACC025"], meter_of["ACC004"]
    readings.append({"id": f"RDG{len(readings) + 1:03d}", "meter": flagged["id"], "value": flagged["last_read"] * 10, "kind": "customer",
                     "usage": flagged["last_read"] * 9 * flagged["multiplier"], "flagged": True})
    faulty["status"] = "faulty"
    notices: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = [
        {"account": flagged["account"], "meter": flagged["id"], "kind": "meter_check", "priority": "normal", "status": "open"},
        {"account": faulty["account"], "meter": faulty["id"], "kind": "meter_exchange", "priority": "normal", "status": "scheduled"},
        {"account": exchanged["account"], "meter": exchanged["id"], "kind": "meter_exchange", "priority": "low", "status": "done"}]
    for i, acc in enumerate(accounts):
        if acc["status"] == "arrears" and not acc["vulnerable"]:
            notices.append({"account": acc["id"], "kind": "final_notice", "channel": ["post", "email"][i % 2], "sent": False})
        elif acc["status"] in ("disconnect_pending", "disconnected"):
            notices.append({"account": acc["id"], "kind": "final_notice", "channel": "post", "sent": True})
            orders.append({"account": acc["id"], "meter": None, "kind": "disconnect", "priority": "normal",
                           "status": {"disconnect_pending": "scheduled" if i % 2 else "open"}.get(acc["status"], "done")})
            if acc["status"] == "disconnected":
                notices.append({"account": acc["id"], "kind": "disconnection", "channel": "post", "sent": True})
        elif acc["overdue_bills"] and i % 2 == 0:
            notices.append({"account": acc["id"], "kind": "reminder", "channel": ["email", "sms"][i % 4 // 2], "sent": True})
    # a reconnection done after an account in arrears paid up
    orders.append({"account": accounts[12]["id"], "meter": None, "kind": "reconnect", "priority": "urgent", "status": "done"})
    notices.append({"account": accounts[12]["id"], "kind": "reconnection", "channel": "sms", "sent": True})
    remittances = [{**r, "id": f"RMT{i + 1:03d}"} for i, r in enumerate(remittances)]
    notices = [{"id": f"DN{i + 1:02d}", **n} for i, n in enumerate(notices)]
    orders = [{"id": f"FO{i + 1:02d}", **o} for i, o in enumerate(orders)]
    return {"tariff": tariffs, "customer_account": accounts, "meter": meters, "meter_reading": readings, "bill": bills,
            "remittance": remittances, "disconnection_notice": notices, "field_order": orders}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("bill", "days_overdue"):
        values |= {base + rng.choice([7, 14, 30])}
    elif (table, field) == ("customer_account", "balance"):
        # the account's credit limit met exactly and passed, and a part payment
        limit = rec["credit_limit"]
        values |= {limit - 1, limit, limit + 1, round(base * 0.5, 2)}
    elif (table, field) == ("customer_account", "credit_limit"):
        values |= {rec["balance"], rec["balance"] - 1, base + 250, base * 2}
    elif (table, field) == ("bill", "amount_paid"):
        # the bill paid in full, and half of what is left
        values |= {round(rec["amount"] + rec["late_fee"], 2), round(base + (rec["due"] or 0) / 2, 2)}
    elif (table, field) == ("remittance", "amount"):
        bill = state.get("bill", rec["bill"]) if rec.get("bill") else None
        values |= {round(base * 0.5, 2), round(base + bill["due"], 2) if bill else base + 20}
    elif field in ("last_read", "value"):
        values |= {base + rng.choice([150, 400, 900])}
    elif field == "unit_rate":
        values |= {round(base + 0.02, 2), round(base * 1.1, 3)}
    elif field == "multiplier":
        values |= {1, 10}
    elif field in ("usage_estimate", "usage", "kwh"):
        values |= {round(base * 1.2), round(base * 0.8)}
    elif field in ("overdue_bills",):
        values |= {base + 1}
    else:  # money: amount, due, late_fee, standing_charge
        values |= {round(base + rng.choice([5, 12.5, 40]), 2), round(base * 0.5, 2)}
    return values


# the text some fields get appended when renamed
_RENAME_SUFFIX = {("tariff", "name"): " (2027)", ("meter", "serial"): "-R"}


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("customer_account", "holder"):
        if rec["segment"] != "residential":
            return cur + " Ltd" if not cur.endswith(" Ltd") else cur[:-4] + " Group"
        # a new surname after a marriage, the way the billing desk updates it
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 7 + 3) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    return cur + _RENAME_SUFFIX[(table, field)] if (table, field) in _RENAME_SUFFIX else None


_NEW_TARIFFS = [("Home Saver 2027", "residential", 0.27, 11), ("EV Night", "residential", 0.19, 15),
                ("Business Green", "small_business", 0.33, 20), ("Commercial Peak", "commercial", 0.29, 60)]
_NEW_HOLDERS = ["Yusuf Okafor", "Zofia Nowak", "Harbour Books", "Aino Virtanen", "Quarry Brewing", "Leila Haddad", "Tomasz Wrona",
                "Saffron Kitchen"]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "tariff":
        name, seg, rate, charge = _NEW_TARIFFS[k % len(_NEW_TARIFFS)]
        out: dict[str, Any] = {"name": name, "segment": seg, "unit_rate": rate, "standing_charge": charge}
        if k % 5 == 4:
            out["active"] = False
        return out
    if table == "customer_account":
        holder = _NEW_HOLDERS[k % len(_NEW_HOLDERS)]
        seg = "small_business" if holder.split()[-1] in ("Books", "Brewing", "Kitchen") else "residential"
        tariff = pick("tariff", lambda t: t["segment"] == seg and t["active"])
        lo, hi = _ESTIMATES[seg]
        out = {"holder": holder, "tariff": tariff["id"], "usage_estimate": lo + 100 * rng.randrange((hi - lo) // 100 + 1)}
        if seg != "residential":
            out["segment"], out["credit_limit"] = seg, _LIMITS[seg]
        if k % 3 == 1:
            out["autopay"] = True
        if k % 4 == 2 and seg == "residential":
            out["concession"] = True
        return out
    if table == "meter":
        acc = pick("customer_account", lambda a: a["status"] != "closed")
        return {"account": acc["id"], "serial": f"E2{k % 6}K{90117 + k * 613}", "last_read": rng.randrange(0, 500) if k % 2 else 0}
    if table == "meter_reading":
        # some left for the rules to estimate, some typed in wrong (far too high, or below the last read)
        meter = pick("meter", lambda m: m["status"] == "in_service" if k % 8 != 6 else m["status"] != "in_service")
        if k % 2 == 0 and k % 8 != 6:
            meter = pick("meter", lambda m: m["status"] == "in_service" and state.get("customer_account", m["account"])["concession"])
        estimate = state.get("customer_account", meter["account"])["usage_estimate"] / meter["multiplier"]
        out = {"meter": meter["id"]}
        if k % 4 == 1:
            return out
        if k % 4 == 3:
            out["value"] = meter["last_read"] + round(estimate * 4) if k % 8 == 3 else max(0, meter["last_read"] - rng.randrange(50, 400))
        else:
            out["value"] = meter["last_read"] + round(estimate * rng.choice([0.7, 0.95, 1.1, 1.4]))
        if k % 3 == 0:
            out["kind"] = "customer"
        return out
    if table == "bill":
        # a share for concession holders and for accounts near their credit limit, whom rules treat apart
        if k % 4 == 0:
            acc = pick("customer_account", lambda a: a["concession"])
        elif k % 4 == 1:
            acc = pick("customer_account", lambda a: a["status"] == "active" and a["credit_limit"] - a["balance"] < 400)
        else:
            acc = pick("customer_account", lambda a: a["status"] != "closed")
        out = {"account": acc["id"], "kwh": round(acc["usage_estimate"] * rng.choice([0.6, 0.9, 1.2, 1.5]))}
        if k % 3 != 2:
            out["status"] = "issued"
        return out
    if table == "remittance":
        bill = pick("bill", lambda b: b["status"] in ("issued", "overdue") and b["due"] > 0)
        out = {"account": bill["account"], "bill": bill["id"], "amount": bill["due"] if k % 3 != 2 else _round2(bill["due"] * 0.5),
               "method": _METHODS[k % 4]}
        if k % 8 == 2:
            out["status"] = "cleared"  # cash counted at the desk
        return out
    if table == "disconnection_notice":
        out = {"account": pick("customer_account")["id"], "kind": rng.choice(_NOTICE_KINDS)}
        if k % 2:
            out["sent"] = True
        if k % 3 == 0:
            out["channel"] = "email"
        return out
    meter = pick("meter")
    out = {"account": meter["account"], "kind": _ORDER_KINDS[k % 4]}
    if out["kind"] in ("meter_check", "meter_exchange"):
        out["meter"] = meter["id"]
    if k % 5 == 3:
        out["priority"] = "urgent"
    return out


FAMILY = WorldFamily("vault", "Vault", "utility billing (electricity supply)", 47213, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
