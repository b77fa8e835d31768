"""Generator of the novel world family ``novel-A`` ... ``novel-D`` (package data).

A public library lending domain, unlike the EnterpriseWorldShift service
desk, the held-out warehouse and the fresh hospital: 8 tables (branch,
member, title, copy, loan, hold, fine, notice), 205 initial records, 21
rules in world A. B modifies one rule (the waiver of overdue fines is
widened from one member category to two: the scope of a condition changes),
C adds one (a member who reaches their loan limit is sent a notice), D
deletes one (a loan that becomes overdue no longer sends an overdue notice).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_novel`` rewrites the four files; a test
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

__all__ = ["FAMILY", "WAIVED_A", "WAIVED_B", "build_shifts"]

# member categories whose overdue fines are waived, before and after B's policy change
WAIVED_A = ["child"]
WAIVED_B = ["child", "senior"]
STUDENT_EXTRA_DAYS = 7
LOST_AFTER_DAYS = 30
BLOCK_BALANCE = 20

_CATEGORIES = ["adult", "student", "child", "senior"]
_KINDS = ["book", "dvd", "audiobook", "magazine"]

TABLES: dict[str, Any] = {
    "branch": table(name=string(), region=choice(["central", "north", "south", "east"]), daily_fine=number(), open=boolean(True)),
    "member": table(name=string(), category=choice(_CATEGORIES, "adult"), home_branch=reference("branch"), loan_limit=number(6),
                    loans_out=number(0), at_limit=boolean(False), balance=number(0), blocked=boolean(False)),
    "title": table(name=string(), author=string(), kind=choice(_KINDS, "book"), loan_days=number(), replacement_cost=number(),
                   holds_waiting=number(0)),
    "copy": table(title=reference("title"), branch=reference("branch"), barcode=string(),
                  status=choice(["available", "on_loan", "on_hold_shelf", "lost", "withdrawn"], "available"),
                  condition=choice(["good", "worn", "damaged"], "good")),
    "loan": table(member=reference("member"), copy=reference("copy"), branch=reference("branch"),
                  state=choice(["active", "overdue", "returned", "lost"], "active"), loan_days=number(), days_overdue=number(0),
                  accrued_fine=number(0), renewals=number(0)),
    "hold": table(member=reference("member"), title=reference("title"), pickup_branch=reference("branch"), copy=reference("copy"),
                  state=choice(["waiting", "ready", "collected", "cancelled"], "waiting")),
    "fine": table(member=reference("member"), loan=reference("loan"), amount=number(),
                  kind=choice(["overdue", "lost_item", "damage"], "overdue"), state=choice(["open", "paid", "waived"], "open")),
    "notice": table(member=reference("member"), loan=reference("loan"), hold=reference("hold"),
                    kind=choice(["overdue", "hold_ready", "blocked", "loan_limit"]), sent=boolean(False)),
}

_ID_PREFIX = {"branch": "BR", "member": "MEM", "title": "TTL", "copy": "CPY", "loan": "LN", "hold": "HLD", "fine": "FIN",
              "notice": "NTC"}


def _waiver_rule(categories: list[str], name: str) -> dict[str, Any]:
    """L17, whose member categories B widens."""
    who = f"== '{categories[0]}'" if len(categories) == 1 else "in [" + ", ".join(f"'{c}'" for c in categories) + "]"
    return {"id": "L17", "name": name, "table": "fine", "events": ["insert"], "when": "before",
            "condition": f"current.kind == 'overdue' and current.member.category {who}", "actions": [{"set": {"state": "'waived'"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 21 rules of world A (ids L01..L21 stay the same across shifted worlds)."""
    active = "row.state in ['active', 'overdue']"
    return [
        {"id": "L01", "name": "A new loan without a loan period takes the title's loan period", "table": "loan", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.loan_days)",
         "actions": [{"set": {"loan_days": "current.copy.title.loan_days"}}]},
        {"id": "L02", "name": f"Students borrow books for {STUDENT_EXTRA_DAYS} extra days", "table": "loan", "events": ["insert"],
         "when": "before", "order": 20, "condition": "current.member.category == 'student' and current.copy.title.kind == 'book'",
         "actions": [{"set": {"loan_days": f"current.loan_days + {STUDENT_EXTRA_DAYS}"}}]},
        {"id": "L03", "name": "Accrued fine is days overdue times the branch's daily fine, capped at the replacement cost",
         "table": "loan", "events": ["update"], "when": "before", "order": 30, "condition": "changed(days_overdue)",
         "actions": [{"set": {"accrued_fine": "round(min(current.days_overdue * current.branch.daily_fine, "
                                              "current.copy.title.replacement_cost), 2)"}}]},
        {"id": "L04", "name": "An active loan with days overdue becomes overdue", "table": "loan", "events": ["update"], "when": "before",
         "order": 40, "condition": "changed(days_overdue) and current.days_overdue > 0 and current.state == 'active'",
         "actions": [{"set": {"state": "'overdue'"}}]},
        {"id": "L05", "name": f"An overdue loan {LOST_AFTER_DAYS} or more days late is declared lost", "table": "loan",
         "events": ["update"], "when": "before", "order": 50,
         "condition": f"changed(days_overdue) and current.days_overdue >= {LOST_AFTER_DAYS} and current.state == 'overdue'",
         "actions": [{"set": {"state": "'lost'"}}]},
        {"id": "L06", "name": "A member's loans out counts their active and overdue loans", "table": "loan",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.member", "set": {
             "loans_out": f"count(loan, row.member == current.member and {active})"}}}]},
        {"id": "L07", "name": "A member whose loans out reach their loan limit is at limit", "table": "member", "events": ["update"],
         "when": "before", "condition": "changed(loans_out) and current.loans_out >= current.loan_limit",
         "actions": [{"set": {"at_limit": True}}]},
        {"id": "L08", "name": "Lending a copy puts it on loan", "table": "loan", "events": ["insert"], "when": "after",
         "condition": "current.state == 'active'", "actions": [{"update": {"target": "current.copy", "set": {"status": "'on_loan'"}}}]},
        {"id": "L09", "name": "Returning a loan makes the copy available", "table": "loan", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'returned')",
         "actions": [{"update": {"target": "current.copy", "set": {"status": "'available'"}}}]},
        {"id": "L10", "name": "Returning a loan with an accrued fine charges an overdue fine", "table": "loan", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'returned') and current.accrued_fine > 0",
         "actions": [{"create": {"table": "fine", "values": {"member": "current.member", "loan": "current.id",
                                                             "amount": "current.accrued_fine", "kind": "'overdue'"}}}]},
        {"id": "L11", "name": "A loan that becomes overdue sends an overdue notice", "table": "loan", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'overdue')",
         "actions": [{"create": {"table": "notice", "values": {"member": "current.member", "loan": "current.id", "kind": "'overdue'"}}}]},
        {"id": "L12", "name": "A lost loan marks the copy lost and charges its replacement cost", "table": "loan", "events": ["update"],
         "when": "after", "condition": "changes_to(state, 'lost')",
         "actions": [{"update": {"target": "current.copy", "set": {"status": "'lost'"}}},
                     {"create": {"table": "fine", "values": {"member": "current.member", "loan": "current.id",
                                                             "amount": "current.copy.title.replacement_cost", "kind": "'lost_item'"}}}]},
        {"id": "L13", "name": "A copy that comes back while its title has holds waiting goes to the hold shelf", "table": "copy",
         "events": ["update"], "when": "before", "condition": "changes_to(status, 'available') and current.title.holds_waiting > 0",
         "actions": [{"set": {"status": "'on_hold_shelf'"}}]},
        {"id": "L14", "name": "A copy put on the hold shelf readies the title's holds waiting at that branch", "table": "copy",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'on_hold_shelf')",
         "actions": [{"update_where": {"table": "hold", "where": "row.title == current.title and row.state == 'waiting' and "
                                                                  "row.pickup_branch == current.branch",
                                       "set": {"state": "'ready'", "copy": "current.id"}}}]},
        {"id": "L15", "name": "A hold that becomes ready sends a pickup notice", "table": "hold", "events": ["update"], "when": "after",
         "condition": "changes_to(state, 'ready')",
         "actions": [{"create": {"table": "notice", "values": {"member": "current.member", "hold": "current.id", "kind": "'hold_ready'"}}}]},
        {"id": "L16", "name": "A title's holds waiting counts its waiting holds", "table": "hold", "events": ["insert", "update", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.title", "set": {
             "holds_waiting": "count(hold, row.title == current.title and row.state == 'waiting')"}}}]},
        _waiver_rule(WAIVED_A, "Overdue fines of child members are waived"),
        {"id": "L18", "name": "A member's balance is the sum of their open fines", "table": "fine", "events": ["insert", "update", "delete"],
         "when": "after",
         "actions": [{"update": {"target": "current.member", "set": {
             "balance": "round(sum(fine, amount, row.member == current.member and row.state == 'open'), 2)"}}}]},
        {"id": "L19", "name": f"A balance of {BLOCK_BALANCE} or more blocks the member", "table": "member", "events": ["update"],
         "when": "before", "condition": f"changed(balance) and current.balance >= {BLOCK_BALANCE}",
         "actions": [{"set": {"blocked": True}}]},
        {"id": "L20", "name": "Blocking a member cancels their waiting holds and sends a notice", "table": "member", "events": ["update"],
         "when": "after", "condition": "changes_to(blocked, true)",
         "actions": [{"update_where": {"table": "hold", "where": "row.member == current.id and row.state == 'waiting'",
                                       "set": {"state": "'cancelled'"}}},
                     {"create": {"table": "notice", "values": {"member": "current.id", "kind": "'blocked'"}}}]},
        {"id": "L21", "name": "Deleting a member deletes their holds and notices", "table": "member", "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "hold", "where": "row.member == current.id"}},
                     {"delete_where": {"table": "notice", "where": "row.member == current.id"}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies L17 (waived categories), C adds L22 (loan limit notice), D deletes L11 (overdue notice)."""
    l22 = {"id": "L22", "name": "A member who reaches their loan limit is sent a notice", "table": "member", "events": ["update"],
           "when": "after", "condition": "changes_to(at_limit, true)",
           "actions": [{"create": {"table": "notice", "values": {"member": "current.id", "kind": "'loan_limit'"}}}]}
    l17_b = _waiver_rule(WAIVED_B, "Overdue fines of child and senior members are waived (fines policy widened)")
    return {"B": Shift("overdue fines are waived for child and senior members (was child members only)", {"modify": [l17_b]}),
            "C": Shift("a member who reaches their loan limit is sent a notice", {"add": [l22]}),
            "D": Shift("a loan that becomes overdue no longer sends an overdue notice", {"delete": ["L11"]})}


# -- initial records -----------------------------------------------------------------------------

# name, region, daily fine
_BRANCHES = [("Central Library", "central", 0.25), ("Northgate", "north", 0.2), ("Riverside", "south", 0.25),
             ("Eastfield", "east", 0.15), ("Old Town", "central", 0.3)]
_LOAN_DAYS = {"book": 21, "dvd": 7, "audiobook": 14, "magazine": 7}
# name, author, kind, replacement cost, number of copies
_TITLES = [("The Salt Road", "Mara Ellison", "book", 24, 3), ("Quiet Orbit", "Dev Anand Rao", "book", 19.5, 2),
           ("A History of Bridges", "Helen Gortz", "book", 45, 1), ("The Ninth Lantern", "K. O. Mbeki", "book", 22, 3),
           ("Cooking for One", "Lise Aubert", "book", 28, 2), ("Small Engines", "Tom Reyes", "book", 35, 1),
           ("Winter Harbour", "Ada Finch", "book", 18, 2), ("Garden Birds", "R. J. Holm", "book", 16.99, 2),
           ("The Glass Archive", "Noor Haddad", "book", 26, 2), ("Learn Python Fast", "J. Castellano", "book", 39.9, 3),
           ("Tidewater", "S. Okonkwo", "dvd", 20, 2), ("Mountain Rescue S1", "BBC", "dvd", 25, 1), ("Paper Moons", "Ines Vidal", "dvd", 15, 2),
           ("Deep Field", "Studio Arcos", "dvd", 18, 2), ("The Salt Road (audio)", "Mara Ellison", "audiobook", 32, 1),
           ("Stoic Mornings", "P. Lindgren", "audiobook", 30, 2), ("Kings of Rust", "D. Achterberg", "audiobook", 38, 2),
           ("National Geographic May", "NatGeo", "magazine", 6.5, 2), ("The Economist 14", "The Economist", "magazine", 7.5, 2),
           ("Wired 33", "Wired", "magazine", 6, 1), ("Dinosaurs for Kids", "Ben Toller", "book", 12.5, 3),
           ("The Lost Kite", "Yara Mendes", "book", 11, 2), ("Space Puzzles", "L. Okafor", "book", 9.99, 2),
           ("Knitting Patterns", "G. Svensson", "book", 21, 1)]
_FIRST = ["Alma", "Boris", "Chloe", "Dario", "Elin", "Felix", "Gita", "Hamid", "Iris", "Jakub", "Keiko", "Lorenzo", "Mina", "Nando",
          "Oona", "Pieter", "Quinn", "Rafa", "Sanne", "Teo", "Ulla", "Viktor"]
_LAST = ["Andersen", "Bianchi", "Carvalho", "Duarte", "Engel", "Fischer", "Grant", "Hoffmann", "Ilić", "Janssen", "Kaur", "Lemaire"]
_LIMITS = {"adult": 6, "student": 4, "child": 3, "senior": 6}
# active or overdue loans of member i (members past the list have none)
_ON_LOAN = [5, 3, 2, 2, 1, 4, 1, 2, 0, 1, 2, 1, 1, 1, 1, 0, 1, 1, 1, 0, 2]
_N_MEMBERS = 30


def _member_name(i: int) -> str:
    """The i-th member's name (deterministic)."""
    return f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 5 + 2) % len(_LAST)]}"


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (counts, fines, balances, statuses as the rules set them)."""
    branches = [{"id": f"BR{i + 1:02d}", "name": n, "region": r, "daily_fine": f, "open": True} for i, (n, r, f) in enumerate(_BRANCHES)]
    rate = {b["id"]: b["daily_fine"] for b in branches}
    titles = [{"id": f"TTL{i + 1:02d}", "name": n, "author": a, "kind": k, "loan_days": _LOAN_DAYS[k], "replacement_cost": c,
               "holds_waiting": 0} for i, (n, a, k, c, _n) in enumerate(_TITLES)]
    copies: list[dict[str, Any]] = []
    for i, (_n, _a, _k, _c, count) in enumerate(_TITLES):
        for j in range(count + (i % 2 == 0)):  # the central stock, plus one more copy of every other title
            copies.append({"id": f"CPY{len(copies) + 1:03d}", "title": titles[i]["id"], "branch": branches[(i + 2 * j) % 5]["id"],
                           "barcode": f"3100{4000 + len(copies) * 37}", "status": "available",
                           "condition": "worn" if len(copies) % 7 == 3 else "good"})
    # two damaged copies were taken out of circulation
    for c in (copies[8], copies[40]):
        c["status"], c["condition"] = "withdrawn", "damaged"
    title_of = {t["id"]: t for t in titles}
    copy_of = {c["id"]: c for c in copies}
    members = []
    for i in range(_N_MEMBERS):
        cat = ["adult", "student", "adult", "child", "senior", "student"][i % 6]
        members.append({"id": f"MEM{i + 1:03d}", "name": _member_name(i), "category": cat, "home_branch": branches[i % 5]["id"],
                        "loan_limit": _LIMITS[cat], "loans_out": 0, "at_limit": False, "balance": 0, "blocked": False})
    loans: list[dict[str, Any]] = []

    def lend(member: dict[str, Any], copy: dict[str, Any], state: str, days_overdue: int) -> dict[str, Any]:
        title = title_of[copy["title"]]
        days = title["loan_days"] + (STUDENT_EXTRA_DAYS if member["category"] == "student" and title["kind"] == "book" else 0)
        fine = round(min(days_overdue * rate[copy["branch"]], title["replacement_cost"]), 2)
        loan = {"id": f"LN{len(loans) + 1:03d}", "member": member["id"], "copy": copy["id"], "branch": copy["branch"], "state": state,
                "loan_days": days, "days_overdue": days_overdue, "accrued_fine": fine, "renewals": rng.choice([0, 0, 0, 1, 2])}
        loans.append(loan)
        return loan

    # returned loans first (history), then the copies out now
    for k in range(12):
        member = members[(k * 7 + 3) % _N_MEMBERS]
        copy = copies[(k * 11 + 5) % len(copies)]
        lend(member, copy, "returned", [0, 0, 4, 0, 9, 2, 0, 15, 0, 6, 0, 3][k])
    k = 0
    for m, n in enumerate(_ON_LOAN):
        for _ in range(n):
            free = [c for c in copies if c["status"] == "available"]
            copy = free[rng.randrange(len(free))]
            state = "overdue" if k % 4 == 3 else "active"
            lend(members[m], copy, state, rng.choice([2, 3, 5, 8, 12, 19, 26]) if state == "overdue" else 0)
            copy["status"] = "on_loan"
            k += 1
    for m in (22, 26):  # two items never came back
        free = [c for c in copies if c["status"] == "available"]
        copy = free[(m * 3) % len(free)]
        lend(members[m], copy, "lost", 30 + m % 12)
        copy["status"] = "lost"
    for mem in members:
        mem["loans_out"] = sum(1 for ln in loans if ln["member"] == mem["id"] and ln["state"] in ("active", "overdue"))
        mem["at_limit"] = mem["loans_out"] >= mem["loan_limit"]
    fines: list[dict[str, Any]] = []
    cat_of = {m["id"]: m["category"] for m in members}

    def charge(member: str, loan: str | None, amount: float, kind: str, state: str) -> None:
        if kind == "overdue" and cat_of[member] in WAIVED_A:
            state = "waived"
        fines.append({"id": f"FIN{len(fines) + 1:02d}", "member": member, "loan": loan, "amount": amount, "kind": kind, "state": state})

    for k, ln in enumerate(ln for ln in loans if ln["state"] == "returned" and ln["accrued_fine"] > 0):
        charge(ln["member"], ln["id"], ln["accrued_fine"], "overdue", "paid" if k % 3 == 0 else "open")
    for ln in loans:
        if ln["state"] == "lost":
            charge(ln["member"], ln["id"], title_of[copy_of[ln["copy"]]["title"]]["replacement_cost"], "lost_item", "open")
    # damage charges: a few open ones leave their members close to the blocking balance
    for m, amount, state in ((4, 15, "open"), (9, 8.5, "paid"), (13, 18, "open"), (17, 12, "open"), (25, 19.5, "open")):
        charge(members[m]["id"], None, amount, "damage", state)
    for mem in members:
        mem["balance"] = round(sum(f["amount"] for f in fines if f["member"] == mem["id"] and f["state"] == "open"), 2)
        mem["blocked"] = mem["balance"] >= BLOCK_BALANCE
    # holds: titles with no copy on the shelf have members waiting, mostly at a branch holding one of its copies
    holds: list[dict[str, Any]] = []
    eligible = [m for m in members if not m["blocked"]]
    for t in titles:
        own = [c for c in copies if c["title"] == t["id"]]
        if any(c["status"] == "available" for c in own) or not any(c["status"] == "on_loan" for c in own):
            continue
        out = [c for c in own if c["status"] == "on_loan"]
        used: set[str] = set()
        for j in range(1 + (len(holds) % 3 == 0)):
            member = eligible[(len(holds) * 7 + 4) % len(eligible)]
            pickup = out[j % len(out)]["branch"] if len(holds) % 4 != 2 else member["home_branch"]
            while pickup in used:  # one waiting hold per title and branch: the copy that comes back there serves it
                pickup = branches[(int(pickup[2:]) % 5)]["id"]
            used.add(pickup)
            holds.append({"id": "", "member": member["id"], "title": t["id"], "pickup_branch": pickup, "copy": None, "state": "waiting"})
    # two holds are ready on the hold shelf, and some older ones were collected or cancelled
    shelf = [c for c in copies if c["status"] == "available" and title_of[c["title"]]["kind"] == "book"]
    for j, c in enumerate(shelf[1:3]):
        c["status"] = "on_hold_shelf"
        holds.append({"id": "", "member": eligible[(j * 5 + 1) % len(eligible)]["id"], "title": c["title"], "pickup_branch": c["branch"],
                      "copy": c["id"], "state": "ready"})
    for j, state in enumerate(["collected", "collected", "cancelled", "collected"]):
        c = copies[(j * 13 + 2) % len(copies)]
        holds.append({"id": "", "member": members[(j * 9 + 6) % _N_MEMBERS]["id"], "title": c["title"], "pickup_branch": c["branch"],
                      "copy": c["id"] if state == "collected" else None, "state": state})
    for i, h in enumerate(holds):
        h["id"] = f"HLD{i + 1:02d}"
    for t in titles:
        t["holds_waiting"] = sum(1 for h in holds if h["title"] == t["id"] and h["state"] == "waiting")
    notices: list[dict[str, Any]] = []
    for k, ln in enumerate(ln for ln in loans if ln["state"] == "overdue"):
        notices.append({"member": ln["member"], "loan": ln["id"], "hold": None, "kind": "overdue", "sent": k % 3 != 0})
    notices += [{"member": h["member"], "loan": None, "hold": h["id"], "kind": "hold_ready", "sent": True}
                for h in holds if h["state"] == "ready"]
    notices += [{"member": m["id"], "loan": None, "hold": None, "kind": "blocked", "sent": True} for m in members if m["blocked"]]
    notices = [{"id": f"NTC{i + 1:02d}", **n} for i, n in enumerate(notices)]
    return {"branch": branches, "member": members, "title": titles, "copy": copies, "loan": loans, "hold": holds, "fine": fines,
            "notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("loan", "days_overdue"):
        values |= {base + rng.choice([3, 7, 14])}
    elif (table, field) == ("member", "loans_out"):
        # the member's limit met exactly and passed, and an ordinary change
        values |= {rec["loan_limit"] - 1, rec["loan_limit"], rec["loan_limit"] + 1, base + 1}
    elif (table, field) == ("member", "loan_limit"):
        values |= {rec["loans_out"], base + 2, max(1, base - 1)}
    elif (table, field) == ("title", "holds_waiting"):
        values |= {0, 1, base + 1}
    elif field == "loan_days":
        values |= {7, 14, 21, 28}
    elif field == "daily_fine":
        values |= {round(base + 0.05, 2), round(base * 2, 2)}
    elif field in ("amount", "replacement_cost", "balance", "accrued_fine"):
        values |= {round(base + rng.choice([2.5, 5, 10]), 2), round(base * 0.5, 2)}
    else:  # renewals and the like: one more
        values |= {base + 1}
    return values


# the text some fields get appended when renamed
_RENAME_SUFFIX = {("branch", "name"): " Branch", ("title", "name"): " (2nd edition)", ("copy", "barcode"): "R"}


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("member", "name"):
        # a new surname after a marriage, the way the circulation desk updates it
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 7 + 3) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    return cur + _RENAME_SUFFIX[(table, field)] if (table, field) in _RENAME_SUFFIX else None


# new records' names and the like
_NEW_BRANCHES = [("Harbourside", "south", 0.2), ("Hilltop", "north", 0.25), ("University Annex", "central", 0.1), ("Mill Lane", "east", 0.2)]
_NEW_TITLES = [("The Long Field", "Cara Dunne", "book", 23), ("Chess Openings", "V. Petrov", "book", 31), ("Blue Planet II", "BBC", "dvd", 22),
               ("Atomic Habits (audio)", "J. Clear", "audiobook", 29), ("Vogue June", "Condé Nast", "magazine", 7),
               ("My First Atlas", "Pia Lunde", "book", 14.5)]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "branch":
        name, region, fine = _NEW_BRANCHES[k % len(_NEW_BRANCHES)]
        out: dict[str, Any] = {"name": name, "region": region, "daily_fine": fine}
        if k % 5 == 4:
            out["open"] = False
        return out
    if table == "member":
        out = {"name": _member_name(40 + k * 3), "home_branch": pick("branch")["id"]}
        if k % 3:
            out["category"] = _CATEGORIES[k % 4]
            out["loan_limit"] = _LIMITS[out["category"]]
        return out
    if table == "title":
        name, author, kind, cost = _NEW_TITLES[k % len(_NEW_TITLES)]
        return {"name": name, "author": author, "kind": kind, "loan_days": _LOAN_DAYS[kind], "replacement_cost": cost}
    if table == "copy":
        return {"title": pick("title")["id"], "branch": pick("branch")["id"], "barcode": f"3100{9000 + k * 41}"}
    if table == "loan":
        # a share for members one loan short of their limit, and for students borrowing books, whom rules treat apart
        copy = pick("copy", lambda c: c["status"] == "available")
        if k % 4 == 1:
            member = pick("member", lambda m: not m["blocked"] and m["loans_out"] == m["loan_limit"] - 1)
        elif k % 2 == 0:
            member = pick("member", lambda m: not m["blocked"] and m["category"] == "student")
            if k % 8 != 6:
                copy = pick("copy", lambda c: c["status"] == "available" and state.get("title", c["title"])["kind"] == "book")
        else:
            member = pick("member", lambda m: not m["blocked"])
        out = {"member": member["id"], "copy": copy["id"], "branch": copy["branch"]}
        if k % 3 == 0:  # a loan period agreed at the desk, given explicitly
            out["loan_days"] = rng.choice([7, 14, 28])
        return out
    if table == "hold":
        title = pick("title")
        out = {"member": pick("member", lambda m: not m["blocked"])["id"], "title": title["id"], "pickup_branch": pick("branch")["id"]}
        if k % 6 == 5:
            out["state"] = "cancelled"
        return out
    if table == "fine":
        # every other one an overdue fine of a child or a senior, whose overdue fines a rule treats apart
        if k % 2 == 0:
            member = pick("member", lambda m: m["category"] == ("child" if k % 4 == 0 else "senior"))
            kind = "overdue"
        else:
            member = pick("member")
            kind = ["overdue", "damage", "lost_item"][(k // 2) % 3]
        out = {"member": member["id"], "amount": rng.choice([1.5, 4.25, 8, 12, 20, 25])}
        if kind != "overdue" or k % 6 == 4:  # most overdue fines leave the kind to its default
            out["kind"] = kind
        return out
    out = {"member": pick("member")["id"], "kind": rng.choice(["overdue", "hold_ready", "blocked", "loan_limit"])}
    if k % 2:
        out["sent"] = True
    return out


FAMILY = WorldFamily("novel", "Novel", "public library lending", 60917, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
