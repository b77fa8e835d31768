"""Generator of the payroll world family ``payroll-A`` ... ``payroll-D`` (package data).

A payroll and HR domain for a mid-sized company, unlike the
EnterpriseWorldShift service desk, the held-out warehouse, the fresh
hospital, the novel library, the sealed insurance claims, the vault utility
billing, the harbor container terminal, the lease property management, the
fleet vehicle rental and the campus administration: 9 tables (org_unit,
pay_grade, employee, timesheet, payslip, leave_request, bonus_award,
expense_claim, hr_notice), about 200 initial records and 24 rules in world
A. A new hire takes their grade's annual leave and, when no salary is
agreed, its minimum salary; an hourly rate follows the salary (a 2080-hour
year) and a salary above the grade's maximum flags the employee above band.
A weekly timesheet takes the employee's hourly rate; hours beyond 40 are
overtime for grades that pay it, at 1.5 times the rate, and more than 12
overtime hours alerts the employee's manager. An approved timesheet creates
a draft payslip, taxed by a bracket (20% up to 1000, 35% above), less a
pension contribution at the employee's own percentage; paying the timesheet
issues its payslip, which adds to the employee's year-to-date gross and tax,
and voiding a paid payslip sends its timesheet back to approved, which
reissues it. A unit's headcount (active employees), payroll total (salaries
of those not terminated) and committed bonuses (approved and paid, capped at
the grade's bonus cap) follow its employees and bonuses, and a unit that
goes over its budget puts its proposed bonuses on hold. Annual leave longer
than the balance is rejected at once, approved annual leave draws the
balance down (all approved leave counts as days absent), and approved
parental or unpaid leave puts an active employee on leave; terminating an
employee cancels their pending leave and open bonuses, pays their approved
timesheets (which issues their payslips) and deletes their draft timesheets.
An expense claim above 250 goes to the employee's manager for approval. B
modifies one rule (the tax rate above the bracket rises to 40%, was 35%: a
rate changes), C adds one (a pay rise of more than 10% opens a pay review
notice), D deletes one (approved parental or unpaid leave no longer puts the
employee on leave).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent. (This
description was read on 2026-12-06, eleventh session, while a new held-out
family was being briefed, so it is no longer unseen, though its failures have
not been looked at; ``factory`` is the held-out family now.)

``python -m evals.worldshift.generate_payroll`` rewrites the four files; a
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

__all__ = ["BAND_TAX", "EXPENSE_LIMIT", "FAMILY", "HOURS_PER_YEAR", "OVERTIME_ALERT", "OVERTIME_FACTOR", "PAY_REVIEW_RAISE",
           "STANDARD_WEEK", "TAX_BAND", "TOP_RATE_A", "TOP_RATE_B", "build_shifts"]

# tax rate on the weekly gross above the band, before and after B's policy change
TOP_RATE_A = 0.35
TOP_RATE_B = 0.4
TAX_BAND = 1000  # weekly gross taxed at the basic rate
BASIC_RATE = 0.2
BAND_TAX = 200  # the tax on a full band (TAX_BAND * BASIC_RATE)
STANDARD_WEEK = 40  # hours in a week beyond which hours are overtime
OVERTIME_FACTOR = 1.5  # overtime hours are paid at this multiple of the rate
OVERTIME_ALERT = 12  # more overtime hours than this in a week alert the manager
HOURS_PER_YEAR = 2080  # the hourly rate is the salary over this many hours
EXPENSE_LIMIT = 250  # an expense claim above this goes to the manager
PAY_REVIEW_RAISE = 1.1  # C: a salary raised above this multiple of the old one opens a pay review

_STATUSES = ["active", "on_leave", "terminated"]
_TIMESHEET_STATES = ["draft", "submitted", "approved", "paid", "rejected"]
_PAYSLIP_STATES = ["draft", "issued", "void"]
_LEAVE_KINDS = ["annual", "sick", "parental", "unpaid"]
_LEAVE_STATES = ["pending", "approved", "rejected", "cancelled"]
_BONUS_STATES = ["proposed", "approved", "on_hold", "paid", "cancelled"]
_EXPENSE_KINDS = ["travel", "meals", "equipment", "training"]
_EXPENSE_STATES = ["submitted", "approved", "rejected", "reimbursed"]
_NOTICE_KINDS = ["welcome", "overtime_alert", "pay_review", "exit", "policy"]

TABLES: dict[str, Any] = {
    "org_unit": table(name=string(), code=string(), location=string(), budget=number(), headcount=number(0), payroll_total=number(0),
                      bonus_committed=number(0), over_budget=boolean(False)),
    "pay_grade": table(code=string(), title=string(), min_salary=number(), max_salary=number(), overtime_eligible=boolean(False),
                       annual_leave=number(20), bonus_cap=number()),
    "employee": table(name=string(), email=string(), org_unit=reference("org_unit"), manager=reference("employee"),
                      pay_grade=reference("pay_grade"), base_salary=number(), hourly_rate=number(), pension_pct=number(5),
                      status=choice(_STATUSES, "active"), leave_balance=number(), days_absent=number(0), ytd_gross=number(0),
                      ytd_tax=number(0), above_band=boolean(False)),
    "timesheet": table(employee=reference("employee"), week=string(), hours=number(), overtime_hours=number(0), rate=number(),
                       pay=number(), status=choice(_TIMESHEET_STATES, "draft")),
    "payslip": table(employee=reference("employee"), timesheet=reference("timesheet"), period=string(), gross=number(), tax=number(),
                     pension=number(), net=number(), status=choice(_PAYSLIP_STATES, "draft")),
    "leave_request": table(employee=reference("employee"), kind=choice(_LEAVE_KINDS, "annual"), start=string(), days=number(),
                           status=choice(_LEAVE_STATES, "pending")),
    "bonus_award": table(employee=reference("employee"), reason=string(), amount=number(), capped=boolean(False),
                         status=choice(_BONUS_STATES, "proposed")),
    "expense_claim": table(employee=reference("employee"), category=choice(_EXPENSE_KINDS), description=string(), amount=number(),
                           approver=reference("employee"), status=choice(_EXPENSE_STATES, "submitted")),
    "hr_notice": table(employee=reference("employee"), recipient=reference("employee"), kind=choice(_NOTICE_KINDS),
                       status=choice(["open", "closed"], "open")),
}

_ID_PREFIX = {"org_unit": "OU", "pay_grade": "GR", "employee": "EMP", "timesheet": "TS", "payslip": "PS", "leave_request": "LV",
              "bonus_award": "BON", "expense_claim": "EXP", "hr_notice": "HRN"}


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _tax_expr(top_rate: float) -> str:
    return (f"round(if(current.gross > {TAX_BAND}, {BAND_TAX} + (current.gross - {TAX_BAND}) * {top_rate}, "
            f"current.gross * {BASIC_RATE}), 2)")


def _tax_rule(top_rate: float, name: str) -> dict[str, Any]:
    """P07, whose rate above the band B raises."""
    return {"id": "P07", "name": name, "table": "payslip", "events": ["insert", "update"], "when": "before", "order": 10,
            "condition": "changed(gross)", "actions": [{"set": {"tax": _tax_expr(top_rate)}}]}


def _tax(gross: float, top_rate: float = TOP_RATE_A) -> float:
    if gross > TAX_BAND:
        return _round2(BAND_TAX + (gross - TAX_BAND) * top_rate)
    return _round2(gross * BASIC_RATE)


def _rules_a() -> list[dict[str, Any]]:
    """The 24 rules of world A (ids P01..P24 stay the same across shifted worlds)."""
    same_employee = "row.employee == current.employee"
    return [
        # timesheets: before
        {"id": "P01", "name": "A new timesheet without a rate takes its employee's hourly rate", "table": "timesheet", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.rate)",
         "actions": [{"set": {"rate": "current.employee.hourly_rate"}}]},
        {"id": "P02", "name": f"Hours beyond {STANDARD_WEEK} in a week are overtime when the employee's grade pays overtime",
         "table": "timesheet", "events": ["insert", "update"], "when": "before", "order": 20,
         "condition": "changed(hours) and current.employee.pay_grade.overtime_eligible == true",
         "actions": [{"set": {"overtime_hours": f"max(current.hours - {STANDARD_WEEK}, 0)"}}]},
        {"id": "P03", "name": f"A timesheet pays its regular hours at its rate and its overtime hours at {OVERTIME_FACTOR} times the rate",
         "table": "timesheet", "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(hours) or changed(overtime_hours) or changed(rate)",
         "actions": [{"set": {"pay": "round((current.hours - current.overtime_hours) * current.rate + "
                                     f"current.overtime_hours * current.rate * {OVERTIME_FACTOR}, 2)"}}]},
        # timesheets: after
        {"id": "P04", "name": "An approved timesheet creates a draft payslip for its pay", "table": "timesheet",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'approved')",
         "actions": [{"create": {"table": "payslip", "values": {"employee": "current.employee", "timesheet": "current.id",
                                                                "period": "current.week", "gross": "current.pay"}}}]},
        {"id": "P05", "name": f"A timesheet whose overtime goes above {OVERTIME_ALERT} hours alerts the employee's manager",
         "table": "timesheet", "events": ["insert", "update"], "when": "after",
         "condition": f"current.overtime_hours > {OVERTIME_ALERT} and not previous.overtime_hours > {OVERTIME_ALERT}",
         "actions": [{"create": {"table": "hr_notice", "values": {"employee": "current.employee", "recipient": "current.employee.manager",
                                                                  "kind": "'overtime_alert'"}}}]},
        {"id": "P06", "name": "Paying a timesheet issues its draft payslips", "table": "timesheet", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'paid')",
         "actions": [{"update_where": {"table": "payslip", "where": "row.timesheet == current.id and row.status == 'draft'",
                                       "set": {"status": "'issued'"}}}]},
        # payslips
        _tax_rule(TOP_RATE_A, f"A payslip's tax is {BASIC_RATE:.0%} of its gross up to {TAX_BAND} and {TOP_RATE_A:.0%} above"),
        {"id": "P08", "name": "A payslip's pension contribution is the employee's pension percentage of its gross", "table": "payslip",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(gross)",
         "actions": [{"set": {"pension": "round(current.gross * current.employee.pension_pct / 100, 2)"}}]},
        {"id": "P09", "name": "A payslip's net pay is its gross less tax and pension", "table": "payslip", "events": ["insert", "update"],
         "when": "before", "order": 30, "condition": "changed(gross) or changed(tax) or changed(pension)",
         "actions": [{"set": {"net": "round(current.gross - current.tax - current.pension, 2)"}}]},
        {"id": "P10", "name": "An employee's year-to-date gross and tax are those of their issued payslips", "table": "payslip",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.employee", "set": {
             "ytd_gross": f"round(sum(payslip, gross, {same_employee} and row.status == 'issued'), 2)",
             "ytd_tax": f"round(sum(payslip, tax, {same_employee} and row.status == 'issued'), 2)"}}}]},
        {"id": "P11", "name": "Voiding the payslip of a paid timesheet sends the timesheet back to approved, to be paid again",
         "table": "payslip", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'void') and current.timesheet.status == 'paid'",
         "actions": [{"update": {"target": "current.timesheet", "set": {"status": "'approved'"}}}]},
        # employees: before
        {"id": "P12", "name": "A new employee starts with their grade's annual leave, and its minimum salary when none is agreed",
         "table": "employee", "events": ["insert"], "when": "before", "order": 10,
         "actions": [{"set": {"leave_balance": "current.pay_grade.annual_leave",
                              "base_salary": "if(is_empty(current.base_salary), current.pay_grade.min_salary, current.base_salary)"}}]},
        {"id": "P13", "name": f"An employee's hourly rate is their salary over {HOURS_PER_YEAR} hours", "table": "employee",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(base_salary)",
         "actions": [{"set": {"hourly_rate": f"round(current.base_salary / {HOURS_PER_YEAR}, 2)"}}]},
        {"id": "P14", "name": "An employee paid above their grade's maximum salary is above band", "table": "employee",
         "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "current.above_band != (current.base_salary > current.pay_grade.max_salary)",
         "actions": [{"set": {"above_band": "current.base_salary > current.pay_grade.max_salary"}}]},
        # employees: after
        {"id": "P15", "name": "A unit's headcount counts its active employees and its payroll total sums the salaries of those not "
                              "terminated; an employee who moves leaves their old unit's figures", "table": "employee",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.org_unit", "set": {
             "headcount": "count(employee, row.org_unit == current.org_unit and row.status == 'active')",
             "payroll_total": "round(sum(employee, base_salary, row.org_unit == current.org_unit and row.status != 'terminated'), 2)"}}},
             {"update_where": {"table": "org_unit", "where": "row.id == previous.org_unit and row.id != current.org_unit",
                               "set": {"headcount": "row.headcount - if(previous.status == 'active', 1, 0)",
                                       "payroll_total": "round(row.payroll_total - "
                                                        "if(previous.status == 'terminated', 0, previous.base_salary), 2)"}}}]},
        {"id": "P16", "name": "Terminating an employee cancels their pending leave and open bonuses, pays their approved timesheets in a "
                              "final settlement and deletes their draft timesheets", "table": "employee", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'terminated')",
         "actions": [{"update_where": {"table": "leave_request", "where": "row.employee == current.id and row.status == 'pending'",
                                       "set": {"status": "'cancelled'"}}},
                     {"update_where": {"table": "bonus_award",
                                       "where": "row.employee == current.id and row.status in ['proposed', 'on_hold']",
                                       "set": {"status": "'cancelled'"}}},
                     {"update_where": {"table": "timesheet", "where": "row.employee == current.id and row.status == 'approved'",
                                       "set": {"status": "'paid'"}}},
                     {"delete_where": {"table": "timesheet", "where": "row.employee == current.id and row.status == 'draft'"}}]},
        # units
        {"id": "P17", "name": "A unit is over budget when its payroll total and committed bonuses exceed its budget", "table": "org_unit",
         "events": ["insert", "update"], "when": "before",
         "condition": "changed(payroll_total) or changed(bonus_committed) or changed(budget)",
         "actions": [{"set": {"over_budget": "current.payroll_total + current.bonus_committed > current.budget"}}]},
        {"id": "P18", "name": "A unit that goes over budget puts its proposed bonuses on hold", "table": "org_unit", "events": ["update"],
         "when": "after", "condition": "changes_to(over_budget, true)",
         "actions": [{"update_where": {"table": "bonus_award", "where": "row.employee.org_unit == current.id and row.status == 'proposed'",
                                       "set": {"status": "'on_hold'"}}}]},
        # leave
        {"id": "P19", "name": "A new annual leave request for more days than the employee's balance is rejected", "table": "leave_request",
         "events": ["insert"], "when": "before",
         "condition": "current.kind == 'annual' and current.status == 'pending' and current.days > current.employee.leave_balance",
         "actions": [{"set": {"status": "'rejected'"}}]},
        {"id": "P20", "name": "An employee's leave balance is their grade's annual leave less their approved annual leave, and their "
                              "days absent are the days of all their approved leave", "table": "leave_request",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.employee", "set": {
             "leave_balance": "current.employee.pay_grade.annual_leave - "
                              f"sum(leave_request, days, {same_employee} and row.kind == 'annual' and row.status == 'approved')",
             "days_absent": f"sum(leave_request, days, {same_employee} and row.status == 'approved')"}}}]},
        {"id": "P21", "name": "Approved parental or unpaid leave puts an active employee on leave", "table": "leave_request",
         "events": ["insert", "update"], "when": "after",
         "condition": "changes_to(status, 'approved') and current.kind in ['parental', 'unpaid'] and current.employee.status == 'active'",
         "actions": [{"update": {"target": "current.employee", "set": {"status": "'on_leave'"}}}]},
        # bonuses
        {"id": "P22", "name": "A bonus above the employee's grade's bonus cap is cut to the cap and marked capped", "table": "bonus_award",
         "events": ["insert", "update"], "when": "before",
         "condition": "changed(amount) and current.amount > current.employee.pay_grade.bonus_cap",
         "actions": [{"set": {"amount": "current.employee.pay_grade.bonus_cap", "capped": True}}]},
        {"id": "P23", "name": "A unit's committed bonuses are the approved and paid bonuses of its employees", "table": "bonus_award",
         "events": ["insert", "update", "delete"], "when": "after",
         "condition": "current.status in ['approved', 'paid'] or previous.status in ['approved', 'paid']",
         "actions": [{"update": {"target": "current.employee.org_unit", "set": {
             "bonus_committed": "round(sum(bonus_award, amount, row.employee.org_unit == current.employee.org_unit "
                                "and row.status in ['approved', 'paid']), 2)"}}}]},
        # expenses
        {"id": "P24", "name": f"A new expense claim above {EXPENSE_LIMIT} goes to the employee's manager for approval",
         "table": "expense_claim", "events": ["insert"], "when": "before",
         "condition": f"current.status == 'submitted' and current.amount > {EXPENSE_LIMIT}",
         "actions": [{"set": {"approver": "current.employee.manager"}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies P07 (tax rate above the band), C adds P25 (pay review notice), D deletes P21 (leave puts on leave)."""
    p25 = {"id": "P25", "name": f"A pay rise of more than {PAY_REVIEW_RAISE - 1:.0%} opens a pay review notice for the employee's manager",
           "table": "employee", "events": ["update"], "when": "after",
           "condition": f"current.base_salary > previous.base_salary * {PAY_REVIEW_RAISE}",
           "actions": [{"create": {"table": "hr_notice", "values": {"employee": "current.id", "recipient": "current.manager",
                                                                    "kind": "'pay_review'"}}}]}
    p07_b = _tax_rule(TOP_RATE_B, f"A payslip's tax is {BASIC_RATE:.0%} of its gross up to {TAX_BAND} and {TOP_RATE_B:.0%} above "
                                  f"(top rate raised)")
    return {"B": Shift(f"a payslip's gross above {TAX_BAND} is taxed at {TOP_RATE_B:.0%} (was {TOP_RATE_A:.0%})", {"modify": [p07_b]}),
            "C": Shift(f"a pay rise of more than {PAY_REVIEW_RAISE - 1:.0%} opens a pay review notice", {"add": [p25]}),
            "D": Shift("approved parental or unpaid leave no longer puts the employee on leave", {"delete": ["P21"]})}


# -- initial records -----------------------------------------------------------------------------

# name, code, location, budget margin (budget less payroll and committed bonuses; negative: over budget)
_UNITS = [("Executive Office", "EXE", "HQ floor 9", 41000), ("Finance", "FIN", "HQ floor 6", 7500),
          ("Engineering", "ENG", "Dock building", 15500), ("Operations", "OPS", "Riverside depot", -3500),
          ("Sales", "SAL", "HQ floor 3", 4500), ("People and Culture", "PPL", "HQ floor 5", 26000)]
# code, title, min salary, max salary, overtime eligible, annual leave days, bonus cap
_GRADES = [("G1", "Associate", 32000, 42000, True, 20, 1500), ("G2", "Specialist", 40000, 55000, True, 22, 2500),
           ("G3", "Senior Specialist", 52000, 68000, True, 24, 4000), ("G4", "Lead", 65000, 85000, False, 25, 6000),
           ("G5", "Manager", 80000, 105000, False, 27, 9000), ("G6", "Director", 100000, 140000, False, 30, 15000)]
_FIRST = ["Amara", "Bruno", "Carmen", "Dmitri", "Esther", "Farid", "Gemma", "Hugo", "Isla", "Jonas", "Kira", "Leon", "Maya", "Nils",
          "Olga", "Pavel", "Rhea", "Silas", "Tanya", "Umar", "Vivian", "Wendell", "Yara", "Zane", "Alba", "Boris", "Celine", "Dario",
          "Edith", "Felix", "Greta", "Henrik", "Ines", "Joel", "Katya", "Lars", "Mina", "Noah", "Odile", "Piers"]
_LAST = ["Abbott", "Brennan", "Cortez", "Dahl", "Ekström", "Ferreira", "Gupta", "Holm", "Iwu", "Jansen", "Keller", "Lund", "Mensah",
         "Nakamura", "Ortiz", "Pike", "Quist", "Rahman", "Sorensen", "Tran"]
# per employee: unit, grade, manager (index, None for the top), salary step within the band (0..1, above 1: above band), status,
# pension percent
_STAFF = [(0, 5, None, 0.95, "active", 8), (1, 4, 0, 0.6, "active", 6), (2, 5, 0, 0.3, "active", 8), (3, 4, 0, 0.4, "active", 5),
          (4, 4, 0, 0.7, "active", 5), (5, 4, 0, 0.2, "active", 6), (0, 1, 0, 0.5, "active", 4),
          # finance
          (1, 3, 1, 0.5, "active", 5), (1, 2, 1, 0.8, "active", 5), (1, 1, 1, 0.3, "active", 4), (1, 1, 1, 0.9, "active", 3),
          (1, 0, 1, 0.4, "active", 5), (1, 2, 1, 0.1, "on_leave", 5),
          # engineering: a lead and their team, and the rest under the director
          (2, 3, 2, 1.08, "active", 6), (2, 2, 13, 0.6, "active", 5), (2, 2, 13, 0.2, "active", 5), (2, 1, 13, 0.75, "active", 4),
          (2, 1, 13, 0.5, "terminated", 4), (2, 0, 13, 0.3, "active", 3), (2, 3, 2, 0.55, "active", 6), (2, 2, 2, 0.95, "active", 5),
          (2, 1, 2, 0.15, "active", 5), (2, 0, 2, 0.8, "active", 4),
          # operations
          (3, 2, 3, 0.7, "active", 5), (3, 1, 3, 0.4, "active", 4), (3, 0, 3, 0.9, "active", 3), (3, 0, 3, 0.2, "on_leave", 3),
          (3, 0, 3, 0.6, "active", 5), (3, 1, 3, 1.12, "active", 4), (3, 0, 3, 0.05, "active", 3),
          # sales
          (4, 3, 4, 0.35, "active", 6), (4, 2, 4, 0.85, "active", 5), (4, 1, 4, 0.55, "active", 4), (4, 1, 4, 0.25, "terminated", 4),
          (4, 0, 4, 0.65, "active", 3), (4, 0, 4, 0.45, "active", 5),
          # people and culture
          (5, 2, 5, 0.5, "active", 5), (5, 1, 5, 0.3, "active", 4), (5, 0, 5, 0.7, "active", 5), (5, 1, 5, 0.6, "active", 6)]
# hours worked in week 5 by overtime-eligible staff, in turn; others work 40 (an occasional 42 or 45 they are not paid overtime on)
_HOURS = [40, 42.5, 40, 46, 38, 40, 44, 53.5, 40, 37.5, 48, 40, 55, 40, 41]
# week 6 timesheets: employee index, hours, status
_WEEK6 = [(8, 40, "draft"), (9, 45, "submitted"), (14, 52, "submitted"), (16, 40, "draft"), (18, 36, "draft"), (21, 44, "submitted"),
          (24, 40, "draft"), (25, 57, "submitted"), (27, 40, "rejected"), (31, 47.5, "submitted"), (34, 40, "draft"), (38, 30, "draft")]
# week 5 timesheets still approved, not yet paid (the others are paid): employee index
_W5_APPROVED = {4, 11, 15, 20, 23, 29, 32, 36}
# paid timesheets whose first payslip was voided and reissued
_REISSUED = {10, 24}
# leave: employee index, kind, start, days, status
_LEAVE = [(1, "annual", "2027-03-01", 5, "approved"), (2, "annual", "2027-04-12", 10, "pending"),
          (7, "annual", "2027-02-15", 3, "approved"), (8, "sick", "2027-01-20", 2, "approved"),
          (9, "annual", "2027-05-03", 8, "pending"), (10, "annual", "2027-01-04", 12, "approved"),
          (11, "parental", "2027-06-01", 60, "pending"), (12, "parental", "2027-01-11", 90, "approved"),
          (14, "annual", "2027-02-22", 4, "approved"), (15, "unpaid", "2027-04-05", 20, "pending"),
          (16, "annual", "2027-03-15", 6, "rejected"), (18, "annual", "2027-02-08", 15, "approved"),
          (19, "sick", "2027-02-01", 1, "approved"), (20, "parental", "2027-07-19", 40, "pending"),
          (21, "annual", "2027-03-29", 5, "pending"), (23, "annual", "2027-01-25", 9, "approved"),
          (24, "unpaid", "2027-05-10", 15, "pending"), (26, "unpaid", "2027-01-18", 30, "approved"),
          (27, "annual", "2027-04-19", 2, "cancelled"), (28, "annual", "2027-02-01", 16, "approved"),
          (30, "parental", "2027-08-02", 80, "pending"), (31, "annual", "2027-03-08", 7, "pending"),
          (35, "annual", "2027-02-15", 18, "approved"), (36, "sick", "2027-03-01", 3, "pending"),
          (37, "unpaid", "2027-06-14", 10, "pending"), (39, "annual", "2027-04-26", 4, "approved")]
# bonuses: employee index, reason, amount, status (an amount of None: the grade's cap, capped)
_BONUSES = [(1, "Year-end close", 7000, "paid"), (8, "Audit support", 1200, "approved"), (13, "Platform migration", None, "approved"),
            (14, "On-call cover", 900, "proposed"), (19, "Release delivery", 3000, "proposed"), (22, "Referral", 500, "paid"),
            (23, "Peak season", 1800, "on_hold"), (27, "Peak season", 800, "on_hold"), (4, "Quarter target", 5000, "approved"),
            (30, "Key account", 3500, "proposed"), (31, "Quarter target", 2000, "approved"), (34, "Trade fair", 600, "proposed"),
            (36, "Engagement survey", 1000, "proposed"), (33, "Quarter target", 1500, "cancelled"),
            (10, "Month-end automation", 700, "proposed"), (6, "Board pack", 450, "proposed")]
# expenses: employee index, category, description, amount, status
_EXPENSES = [(8, "travel", "Client visit Lyon", 412.6, "approved"), (9, "meals", "Team lunch", 86.4, "reimbursed"),
             (14, "equipment", "Monitor", 329, "submitted"), (16, "training", "Cloud certification", 1150, "submitted"),
             (19, "travel", "Conference trip", 1840.25, "reimbursed"), (21, "meals", "Late shift dinner", 32.5, "submitted"),
             (23, "equipment", "Safety boots", 145, "approved"), (25, "travel", "Depot visit", 268.8, "rejected"),
             (30, "travel", "Sales roadshow", 2210, "approved"), (31, "meals", "Client dinner", 240, "submitted"),
             (34, "training", "Negotiation course", 695, "submitted"), (37, "equipment", "Headset", 79.99, "reimbursed"),
             (2, "travel", "Board offsite", 980, "reimbursed"), (38, "meals", "Onboarding lunch", 54.2, "submitted")]


def _salary(grade: tuple[Any, ...], step: float) -> float:
    lo, hi = grade[2], grade[3]
    return float(round((lo + (hi - lo) * step) / 500) * 500)


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (rates, pay, tax, balances, counts, totals and flags as the rules set)."""
    grades = [{"id": f"GR{i + 1}", "code": c, "title": t, "min_salary": lo, "max_salary": hi, "overtime_eligible": ot, "annual_leave": al,
               "bonus_cap": cap} for i, (c, t, lo, hi, ot, al, cap) in enumerate(_GRADES)]
    units = [{"id": f"OU{i + 1:02d}", "name": n, "code": c, "location": loc, "budget": 0, "headcount": 0, "payroll_total": 0,
              "bonus_committed": 0, "over_budget": False} for i, (n, c, loc, _m) in enumerate(_UNITS)]

    employees: list[dict[str, Any]] = []
    for i, (u, g, mgr, step, status, pension) in enumerate(_STAFF):
        first, last = _FIRST[i], _LAST[(i * 7 + 3) % len(_LAST)]
        salary = _salary(_GRADES[g], step)
        employees.append({"id": f"EMP{i + 1:03d}", "name": f"{first} {last}",
                          "email": f"{first.lower()}.{last.lower().replace('ö', 'o')}@corp.example", "org_unit": units[u]["id"],
                          "manager": None if mgr is None else f"EMP{mgr + 1:03d}", "pay_grade": grades[g]["id"], "base_salary": salary,
                          "hourly_rate": _round2(salary / HOURS_PER_YEAR), "pension_pct": pension, "status": status,
                          "leave_balance": _GRADES[g][5], "days_absent": 0, "ytd_gross": 0, "ytd_tax": 0,
                          "above_band": salary > _GRADES[g][3]})
    eligible = [_GRADES[g][4] for (_u, g, *_rest) in _STAFF]

    timesheets: list[dict[str, Any]] = []

    def timesheet(i: int, week: str, hours: float, status: str) -> dict[str, Any]:
        emp = employees[i]
        rate = emp["hourly_rate"]
        overtime = max(hours - STANDARD_WEEK, 0) if eligible[i] else 0
        pay = _round2((hours - overtime) * rate + overtime * rate * OVERTIME_FACTOR)
        ts = {"id": f"TS{len(timesheets) + 1:03d}", "employee": emp["id"], "week": week, "hours": hours, "overtime_hours": overtime,
              "rate": rate, "pay": pay, "status": status}
        timesheets.append(ts)
        return ts

    k = 0
    week5: list[tuple[int, dict[str, Any]]] = []
    for i, emp in enumerate(employees):
        if emp["status"] == "on_leave":
            continue
        if eligible[i]:
            hours = _HOURS[k % len(_HOURS)]
            k += 1
        else:
            hours = rng.choice([40, 40, 40, 42, 45])
        week5.append((i, timesheet(i, "2027-W05", hours, "approved" if i in _W5_APPROVED else "paid")))
    for i, hours, status in _WEEK6:
        timesheet(i, "2027-W06", hours, status)

    payslips: list[dict[str, Any]] = []

    def payslip(ts: dict[str, Any], status: str) -> None:
        emp = next(e for e in employees if e["id"] == ts["employee"])
        gross = ts["pay"]
        tax = _tax(gross)
        pension = _round2(gross * emp["pension_pct"] / 100)
        payslips.append({"id": f"PS{len(payslips) + 1:03d}", "employee": emp["id"], "timesheet": ts["id"], "period": ts["week"],
                         "gross": gross, "tax": tax, "pension": pension, "net": _round2(gross - tax - pension), "status": status})

    for i, ts in week5:
        if i in _REISSUED:
            payslip(ts, "void")
        payslip(ts, "issued" if ts["status"] == "paid" else "draft")
    for p in payslips:
        if p["status"] == "void":  # the voided payslip had a wrong gross, since corrected
            p["gross"] = _round2(p["gross"] + 120)
            p["tax"] = _tax(p["gross"])
            pct = next(e for e in employees if e["id"] == p["employee"])["pension_pct"]
            p["pension"] = _round2(p["gross"] * pct / 100)
            p["net"] = _round2(p["gross"] - p["tax"] - p["pension"])

    notices: list[dict[str, Any]] = []
    for ts in timesheets:
        if ts["overtime_hours"] > OVERTIME_ALERT:
            emp = next(e for e in employees if e["id"] == ts["employee"])
            notices.append({"employee": emp["id"], "recipient": emp["manager"], "kind": "overtime_alert", "status": "open"})

    leaves = [{"id": f"LV{j + 1:03d}", "employee": employees[i]["id"], "kind": kind, "start": start, "days": days, "status": status}
              for j, (i, kind, start, days, status) in enumerate(_LEAVE)]
    bonuses = []
    for j, (i, reason, amount, status) in enumerate(_BONUSES):
        cap = _GRADES[_STAFF[i][1]][6]
        bonuses.append({"id": f"BON{j + 1:02d}", "employee": employees[i]["id"], "reason": reason,
                        "amount": cap if amount is None else amount, "capped": amount is None, "status": status})
    expenses = []
    for j, (i, cat, desc, amount, status) in enumerate(_EXPENSES):
        expenses.append({"id": f"EXP{j + 1:02d}", "employee": employees[i]["id"], "category": cat, "description": desc, "amount": amount,
                         "approver": employees[i]["manager"] if amount > EXPENSE_LIMIT else None, "status": status})

    for i, emp in enumerate(employees):
        taken = sum(lv["days"] for lv in leaves if lv["employee"] == emp["id"] and lv["kind"] == "annual" and lv["status"] == "approved")
        emp["leave_balance"] = _GRADES[_STAFF[i][1]][5] - taken
        emp["days_absent"] = sum(lv["days"] for lv in leaves if lv["employee"] == emp["id"] and lv["status"] == "approved")
        mine = [p for p in payslips if p["employee"] == emp["id"] and p["status"] == "issued"]
        emp["ytd_gross"] = _round2(sum(p["gross"] for p in mine))
        emp["ytd_tax"] = _round2(sum(p["tax"] for p in mine))
    unit_of = {e["id"]: e["org_unit"] for e in employees}
    for u, (_n, _c, _loc, margin) in zip(units, _UNITS):
        staff = [e for e in employees if e["org_unit"] == u["id"]]
        u["headcount"] = sum(1 for e in staff if e["status"] == "active")
        u["payroll_total"] = _round2(sum(e["base_salary"] for e in staff if e["status"] != "terminated"))
        u["bonus_committed"] = _round2(sum(b["amount"] for b in bonuses
                                           if unit_of[b["employee"]] == u["id"] and b["status"] in ("approved", "paid")))
        u["budget"] = float(round((u["payroll_total"] + u["bonus_committed"] + margin) / 500) * 500)
        u["over_budget"] = u["payroll_total"] + u["bonus_committed"] > u["budget"]

    notices.append({"employee": employees[17]["id"], "recipient": employees[13]["id"], "kind": "exit", "status": "closed"})
    notices.append({"employee": employees[33]["id"], "recipient": employees[4]["id"], "kind": "exit", "status": "open"})
    notices.append({"employee": employees[38]["id"], "recipient": employees[5]["id"], "kind": "welcome", "status": "closed"})
    notices.append({"employee": employees[29]["id"], "recipient": employees[3]["id"], "kind": "welcome", "status": "open"})
    notices.append({"employee": employees[13]["id"], "recipient": employees[2]["id"], "kind": "pay_review", "status": "closed"})
    notices.append({"employee": employees[6]["id"], "recipient": None, "kind": "policy", "status": "open"})
    notices = [{"id": f"HRN{j + 1:02d}", **n} for j, n in enumerate(notices)]
    return {"org_unit": units, "pay_grade": grades, "employee": employees, "timesheet": timesheets, "payslip": payslips,
            "leave_request": leaves, "bonus_award": bonuses, "expense_claim": expenses, "hr_notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("timesheet", "hours"):
        # a correction, a short week, a long week with overtime above the alert line
        values |= {STANDARD_WEEK, base + rng.choice([2, 4.5, 6]), base - 2.5, rng.choice([53, 54.5, 56])}
    elif (table, field) == ("timesheet", "overtime_hours"):
        values |= {0, base + 2}
    elif (table, field) == ("timesheet", "rate"):
        values |= {_round2(base + 1.5), _round2(base * 1.1)}
    elif (table, field) == ("payslip", "gross"):
        # below the band, at it, just above and well above it
        values |= {rng.choice([640, 880, 950]), TAX_BAND, TAX_BAND + 1, _round2(base + rng.choice([150, 420])), _round2(base * 0.5)}
    elif (table, field) == ("employee", "base_salary"):
        grade = state.get("pay_grade", rec["pay_grade"]) or {}
        values |= {float(round(base * 1.04 / 500) * 500), float(round(base * 1.15 / 500) * 500), base - 2000,
                   float(grade.get("max_salary") or base) + 1000}
    elif (table, field) == ("employee", "pension_pct"):
        values |= {base + 1, 0, 10}
    elif (table, field) == ("employee", "days_absent"):
        values |= {base + 5}
    elif (table, field) == ("employee", "leave_balance"):
        values |= {0, base + 3, max(base - 5, 0)}
    elif (table, field) == ("employee", "hourly_rate"):
        values |= {_round2(base + 1)}
    elif (table, field) == ("org_unit", "budget"):
        spent = float(rec["payroll_total"] or 0) + float(rec["bonus_committed"] or 0)
        values |= {spent - 1, spent, spent + 5000, base + 20000}
    elif (table, field) in (("org_unit", "payroll_total"), ("org_unit", "bonus_committed")):
        values |= {base + 5000, max(base - 5000, 0)}
    elif (table, field) == ("org_unit", "headcount"):
        values |= {base + 1, base - 1}
    elif (table, field) in (("pay_grade", "min_salary"), ("pay_grade", "max_salary")):
        values |= {base + 2000, base - 2000}
    elif (table, field) == ("pay_grade", "annual_leave"):
        values |= {base + 2, base - 1}
    elif (table, field) == ("pay_grade", "bonus_cap"):
        values |= {base + 500, base - 500}
    elif (table, field) == ("leave_request", "days"):
        values |= {base + 3, 1, base + 10}
    elif (table, field) == ("bonus_award", "amount"):
        emp = state.get("employee", rec["employee"]) or {}
        grade = state.get("pay_grade", emp.get("pay_grade")) or {}
        cap = float(grade.get("bonus_cap") or base)
        values |= {base + 250, cap, cap + rng.choice([500, 1500]), _round2(base * 0.5)}
    elif (table, field) == ("expense_claim", "amount"):
        values |= {_round2(base + 100), _round2(base * 0.5)}
    else:  # money on payslips and year-to-date figures
        values |= {_round2(base + rng.choice([10, 50, 100]))}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("employee", "name"):
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 5 + 2) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    if (table, field) == ("employee", "email"):
        return cur.replace("@corp.example", "@group.corp.example")
    if (table, field) == ("org_unit", "name"):
        return cur + " Division"
    if (table, field) == ("org_unit", "location"):
        return cur + " (annex)"
    if (table, field) == ("pay_grade", "title"):
        return cur + " II"
    if (table, field) == ("bonus_award", "reason"):
        return cur + " (revised)"
    if (table, field) == ("expense_claim", "description"):
        return cur + " - receipts attached"
    return None


_NEW_UNITS = [("Legal", "LEG", "HQ floor 7", 240000), ("Customer Support", "SUP", "Riverside depot", 380000),
              ("Procurement", "PRC", "HQ floor 4", 150000)]
_NEW_GRADES = [("G7", "Principal", 125000, 170000, False, 30, 20000), ("G0", "Apprentice", 24000, 31000, True, 20, 500)]
_NEW_STAFF = ["Ada Morrow", "Bastian Roe", "Clara Vance", "Diego Sola", "Elin Strand", "Fatima Noor", "Gus Hale", "Hana Mori"]
_REASONS = ["Spot award", "Project delivery", "Retention", "Referral"]
_EXPENSE_TEXT = {"travel": "Train to head office", "meals": "Working lunch", "equipment": "Laptop stand", "training": "Excel course"}


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    active = partial(pick, "employee", lambda e: e["status"] == "active")
    if table == "org_unit":
        name, code, loc, budget = _NEW_UNITS[k % len(_NEW_UNITS)]
        return {"name": name, "code": code, "location": loc, "budget": budget}
    if table == "pay_grade":
        code, title, lo, hi, ot, leave, cap = _NEW_GRADES[k % len(_NEW_GRADES)]
        out: dict[str, Any] = {"code": code, "title": title, "min_salary": lo, "max_salary": hi, "annual_leave": leave, "bonus_cap": cap}
        if ot:
            out["overtime_eligible"] = True
        return out
    if table == "employee":
        name = _NEW_STAFF[k % len(_NEW_STAFF)]
        first, last = name.split()
        unit = pick("org_unit")
        head = next((e for e in state.rows("employee") if e["org_unit"] == unit["id"] and e["manager"] in (None, "EMP001")), None)
        grade = pick("pay_grade")
        out = {"name": name, "email": f"{first.lower()}.{last.lower()}@corp.example", "org_unit": unit["id"],
               "manager": head["id"] if head else None, "pay_grade": grade["id"]}
        if k % 3 == 1:  # an agreed salary, sometimes above the band
            out["base_salary"] = float(grade["max_salary"]) + 1500 if k % 6 == 4 else float(grade["min_salary"]) + 3000
        if k % 4 == 2:
            out["pension_pct"] = rng.choice([3, 8])
        return out
    if table == "timesheet":
        if k % 4 == 3:  # a long week of someone paid overtime, entered after the fact and approved at once
            emp = pick("employee", lambda e: e["status"] == "active" and e["pay_grade"] in ("GR1", "GR2", "GR3"))
            return {"employee": emp["id"], "week": "2027-W06", "hours": rng.choice([46, 54, 56]), "status": "approved"}
        emp = active()
        out = {"employee": emp["id"], "week": "2027-W06", "hours": rng.choice([32, 40, 40, 44, 49.5, 54])}
        if k % 4 == 1:
            out["status"] = "submitted"
        if k % 7 == 6:  # an agreed rate for the week
            out["rate"] = _round2(float(emp["hourly_rate"] or 20) + 2)
        return out
    if table == "payslip":
        emp = pick("employee", lambda e: e["status"] != "terminated")
        out = {"employee": emp["id"], "period": "2027-W05-adj", "gross": rng.choice([85.5, 240, 760, 1180, 1525.4])}
        if k % 3 == 2:
            out["status"] = "issued"
        return out
    if table == "leave_request":
        emp = active()
        if k % 4 in (1, 2):  # long leave agreed beforehand, recorded as approved
            return {"employee": emp["id"], "kind": ["parental", "unpaid"][k % 2], "start": "2027-09-06", "days": rng.choice([20, 45, 90]),
                    "status": "approved"}
        if k % 4 == 3 or k % 8 == 0:  # a long holiday, more than the balance allows
            return {"employee": emp["id"], "start": "2027-08-02", "days": float(emp["leave_balance"] or 0) + rng.choice([2, 3, 8])}
        return {"employee": emp["id"], "kind": "sick", "start": "2027-05-17", "days": rng.choice([1, 2, 5])}
    if table == "bonus_award":
        emp = active()
        out = {"employee": emp["id"], "reason": _REASONS[k % len(_REASONS)], "amount": rng.choice([400, 1200, 2800, 5000, 12000])}
        if k % 3 == 1:
            out["status"] = "approved"
        return out
    if table == "expense_claim":
        emp = pick("employee", lambda e: e["status"] != "terminated")
        cat = _EXPENSE_KINDS[k % len(_EXPENSE_KINDS)]
        return {"employee": emp["id"], "category": cat, "description": _EXPENSE_TEXT[cat],
                "amount": rng.choice([42.8, 180, 249.99, 250, 318.5, 1275])}
    emp = pick("employee", lambda e: e["manager"] is not None)
    return {"employee": emp["id"], "recipient": emp["manager"], "kind": ["policy", "welcome"][k % 2]}


FAMILY = WorldFamily("payroll", "Payroll", "payroll and HR for a mid-sized company", 83527, 60, TABLES, _records, _rules_a, build_shifts,
                     CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
