"""Generator of the campus world family ``campus-A`` ... ``campus-D`` (package data).

A university campus administration domain (registrar and bursar), unlike the
EnterpriseWorldShift service desk, the held-out warehouse, the fresh
hospital, the novel library, the sealed insurance claims, the vault utility
billing, the harbor container terminal, the lease property management and
the fleet vehicle rental: 8 tables (faculty, course, section, student,
enrollment, tuition_charge, scholarship, advising_notice), about 200 initial
records and 24 rules in world A. An enrollment takes its course's credits
and is priced per credit at its faculty's fee (advanced courses cost more);
an enrollment in a full section is waitlisted at the back of its queue, and
a seat freed by a drop goes to the first student waiting, the queue moving
up; enrolling charges tuition (and a lab fee for lab courses), dropping
voids the open charges; a section's enrolled and waitlisted counts follow
its enrollments and make it full or open again; a student's credits in
progress set their load (full-time from 12), their open charges less their
scholarships give their balance, and a balance above 4000 puts a hold on
them; entering a grade completes an enrollment, which recomputes the
student's GPA, and a GPA that falls below 2.0 puts them on probation, which
sends a notice and suspends their merit scholarships; a cancelled section
drops its enrollments and a retired course cancels its sections. B modifies
one rule (probation below a GPA of 2.2, was 2.0: a threshold changes), C adds
one (a waitlisted student who gets a seat is sent a seat offered notice),
D deletes one (lab courses no longer charge a lab fee).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent. (Its
failures were read on 2026-12-06, tenth session, so it is no longer unseen;
``factory`` is: ``payroll``'s description was read in the eleventh session.)

``python -m evals.worldshift.generate_campus`` rewrites the four files; a
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

__all__ = ["ADVANCED_FACTOR", "FAMILY", "FULL_TIME_CREDITS", "HOLD_BALANCE", "PROBATION_GPA_A", "PROBATION_GPA_B", "build_shifts"]

# GPA below which a student in good standing is put on probation, before and after B's policy change
PROBATION_GPA_A = 2.0
PROBATION_GPA_B = 2.2
FULL_TIME_CREDITS = 12  # credits in progress from which a student is full-time (and a scholarship's base)
HOLD_BALANCE = 4000  # a balance above this puts a hold on the student
ADVANCED_FACTOR = 1.1  # advanced courses cost this much more per credit

_LEVELS = ["intro", "intermediate", "advanced"]
_SECTION_STATES = ["open", "full", "closed", "cancelled"]
_ENROLLMENT_STATES = ["enrolled", "waitlisted", "dropped", "completed"]
_STANDINGS = ["good", "probation", "suspended"]
_CHARGE_KINDS = ["tuition", "lab_fee", "housing", "other"]
_SCHOLARSHIP_KINDS = ["merit", "need", "athletic"]
_NOTICE_KINDS = ["seat_offered", "probation", "advising", "registration"]

TABLES: dict[str, Any] = {
    "faculty": table(name=string(), code=string(), fee_per_credit=number(), lab_fee=number(0)),
    "course": table(faculty=reference("faculty"), code=string(), title=string(), credits=number(3), level=choice(_LEVELS, "intro"),
                    lab=boolean(False), status=choice(["active", "retired"], "active")),
    "section": table(course=reference("course"), term=string(), room=string(), capacity=number(), enrolled=number(0), waitlisted=number(0),
                     status=choice(_SECTION_STATES, "open")),
    "student": table(name=string(), email=string(), major=reference("faculty"), year=number(1), credits=number(0),
                     load=choice(["part_time", "full_time"], "part_time"), gpa=number(), standing=choice(_STANDINGS, "good"),
                     charges_total=number(0), scholarship_total=number(0), balance=number(0), hold=boolean(False)),
    "enrollment": table(student=reference("student"), section=reference("section"), status=choice(_ENROLLMENT_STATES, "enrolled"),
                        waitlist_pos=number(), credits=number(), tuition=number(), grade=number(), quality_points=number()),
    "tuition_charge": table(student=reference("student"), enrollment=reference("enrollment"), kind=choice(_CHARGE_KINDS), amount=number(),
                            status=choice(["open", "paid", "void"], "open")),
    "scholarship": table(student=reference("student"), name=string(), kind=choice(_SCHOLARSHIP_KINDS), percent=number(), amount=number(),
                         status=choice(["active", "suspended", "ended"], "active")),
    "advising_notice": table(student=reference("student"), section=reference("section"), kind=choice(_NOTICE_KINDS),
                             status=choice(["unread", "read"], "unread")),
}

_ID_PREFIX = {"faculty": "FAC", "course": "CRS", "section": "SEC", "student": "STU", "enrollment": "ENR", "tuition_charge": "CHG",
              "scholarship": "SCH", "advising_notice": "ADV"}


def _round2(x: float) -> float:
    """Rounded half away from zero to 2 decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, 2))


def _round0(x: float) -> float:
    """Rounded half away from zero to a whole number (as the engine rounds)."""
    return float(round_half_away(x, 0))


def _probation_rule(gpa: float, name: str) -> dict[str, Any]:
    """U20, whose GPA threshold B raises."""
    return {"id": "U20", "name": name, "table": "student", "events": ["insert", "update"], "when": "before", "order": 40,
            "condition": f"changed(gpa) and current.gpa < {gpa} and current.standing == 'good'",
            "actions": [{"set": {"standing": "'probation'"}}]}


def _rules_a() -> list[dict[str, Any]]:
    """The 24 rules of world A (ids U01..U24 stay the same across shifted worlds)."""
    seat_freed = "changes_from(status, 'enrolled') and current.status == 'dropped'"
    return [
        # enrollments: before
        {"id": "U01", "name": "A new enrollment without credits takes its course's credits", "table": "enrollment", "events": ["insert"],
         "when": "before", "order": 10, "condition": "is_empty(current.credits)",
         "actions": [{"set": {"credits": "current.section.course.credits"}}]},
        {"id": "U02", "name": "A new enrollment in a full section is waitlisted at the back of the queue", "table": "enrollment",
         "events": ["insert"], "when": "before", "order": 20,
         "condition": "current.status == 'enrolled' and current.section.enrolled >= current.section.capacity",
         "actions": [{"set": {"status": "'waitlisted'", "waitlist_pos": "current.section.waitlisted + 1"}}]},
        {"id": "U03", "name": f"An enrollment's tuition is its credits at its faculty's fee per credit, {ADVANCED_FACTOR} times that "
                              f"for advanced courses", "table": "enrollment", "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": "changed(credits) or changed(section)",
         "actions": [{"set": {"tuition": "round(current.credits * current.section.course.faculty.fee_per_credit * "
                                         f"if(current.section.course.level == 'advanced', {ADVANCED_FACTOR}, 1), 2)"}}]},
        {"id": "U04", "name": "Entering a grade completes an enrollment and gives its quality points (grade times credits)",
         "table": "enrollment", "events": ["update"], "when": "before", "order": 40,
         "condition": "changed(grade) and not is_empty(current.grade) and current.status in ['enrolled', 'completed']",
         "actions": [{"set": {"quality_points": "round(current.grade * current.credits, 2)", "status": "'completed'"}}]},
        # enrollments: after
        {"id": "U05", "name": "A section's enrolled and waitlisted counts follow its enrollments", "table": "enrollment",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.section", "set": {
             "enrolled": "count(enrollment, row.section == current.section and row.status == 'enrolled')",
             "waitlisted": "count(enrollment, row.section == current.section and row.status == 'waitlisted')"}}}]},
        {"id": "U06", "name": "A student's credits are the credits of their enrolled enrollments", "table": "enrollment",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.student", "set": {
             "credits": "sum(enrollment, credits, row.student == current.student and row.status == 'enrolled')"}}}]},
        {"id": "U07", "name": "A seat freed by a drop goes to the first student on the waitlist, and the queue moves up",
         "table": "enrollment", "events": ["update"], "when": "after",
         "condition": f"{seat_freed} and current.section.status != 'cancelled'",
         "actions": [{"update_where": {"table": "enrollment", "where": "row.section == current.section and row.status == 'waitlisted' "
                                                                       "and row.waitlist_pos == 1",
                                       "set": {"status": "'enrolled'", "waitlist_pos": None}}},
                     {"update_where": {"table": "enrollment", "where": "row.section == current.section and row.status == 'waitlisted'",
                                       "set": {"waitlist_pos": "row.waitlist_pos - 1"}}}]},
        {"id": "U08", "name": "A dropped enrollment voids its open charges", "table": "enrollment", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'dropped')",
         "actions": [{"update_where": {"table": "tuition_charge", "where": "row.enrollment == current.id and row.status == 'open'",
                                       "set": {"status": "'void'"}}}]},
        {"id": "U09", "name": "An enrollment that becomes enrolled is charged its tuition", "table": "enrollment",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'enrolled')",
         "actions": [{"create": {"table": "tuition_charge", "values": {"student": "current.student", "enrollment": "current.id",
                                                                       "kind": "'tuition'", "amount": "current.tuition"}}}]},
        {"id": "U10", "name": "An enrollment in a lab course that becomes enrolled is charged its faculty's lab fee", "table": "enrollment",
         "events": ["insert", "update"], "when": "after",
         "condition": "changes_to(status, 'enrolled') and current.section.course.lab == true",
         "actions": [{"create": {"table": "tuition_charge", "values": {"student": "current.student", "enrollment": "current.id",
                                                                       "kind": "'lab_fee'",
                                                                       "amount": "current.section.course.faculty.lab_fee"}}}]},
        {"id": "U11", "name": "A deleted enrollment takes its open charges with it", "table": "enrollment", "events": ["delete"],
         "when": "after",
         "actions": [{"delete_where": {"table": "tuition_charge", "where": "row.enrollment == current.id and row.status == 'open'"}}]},
        {"id": "U12", "name": "A student's GPA is the quality points over the credits of their completed enrollments",
         "table": "enrollment", "events": ["update"], "when": "after", "condition": "changed(quality_points)",
         "actions": [{"update": {"target": "current.student", "set": {
             "gpa": "round(sum(enrollment, quality_points, row.student == current.student and row.status == 'completed') / "
                    "sum(enrollment, credits, row.student == current.student and row.status == 'completed'), 2)"}}}]},
        # sections
        {"id": "U13", "name": "An open section whose enrolled count reaches its capacity is full", "table": "section",
         "events": ["insert", "update"], "when": "before", "order": 10,
         "condition": "current.enrolled >= current.capacity and current.status == 'open'",
         "actions": [{"set": {"status": "'full'"}}]},
        {"id": "U14", "name": "A full section with a seat free is open again", "table": "section", "events": ["update"], "when": "before",
         "order": 20, "condition": "current.enrolled < current.capacity and current.status == 'full'",
         "actions": [{"set": {"status": "'open'"}}]},
        {"id": "U15", "name": "A cancelled section drops its enrolled and waitlisted students", "table": "section", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'cancelled')",
         "actions": [{"update_where": {"table": "enrollment",
                                       "where": "row.section == current.id and row.status in ['enrolled', 'waitlisted']",
                                       "set": {"status": "'dropped'"}}}]},
        # courses
        {"id": "U16", "name": "A retired course cancels its open and full sections", "table": "course", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'retired')",
         "actions": [{"update_where": {"table": "section", "where": "row.course == current.id and row.status in ['open', 'full']",
                                       "set": {"status": "'cancelled'"}}}]},
        # students
        {"id": "U17", "name": f"A student with {FULL_TIME_CREDITS} or more credits in progress is full-time, otherwise part-time",
         "table": "student", "events": ["insert", "update"], "when": "before", "order": 10, "condition": "changed(credits)",
         "actions": [{"set": {"load": f"if(current.credits >= {FULL_TIME_CREDITS}, 'full_time', 'part_time')"}}]},
        {"id": "U18", "name": "A student's balance is their open charges less their scholarships", "table": "student",
         "events": ["insert", "update"], "when": "before", "order": 20, "condition": "changed(charges_total) or changed(scholarship_total)",
         "actions": [{"set": {"balance": "round(current.charges_total - current.scholarship_total, 2)"}}]},
        {"id": "U19", "name": f"A student whose balance rises above {HOLD_BALANCE} gets a hold", "table": "student",
         "events": ["insert", "update"], "when": "before", "order": 30,
         "condition": f"changed(balance) and current.balance > {HOLD_BALANCE} and current.hold == false",
         "actions": [{"set": {"hold": True}}]},
        _probation_rule(PROBATION_GPA_A, f"A student in good standing whose GPA falls below {PROBATION_GPA_A} is put on probation"),
        {"id": "U21", "name": "A student put on probation is sent a notice and their merit scholarships are suspended", "table": "student",
         "events": ["update"], "when": "after", "condition": "changes_to(standing, 'probation')",
         "actions": [{"create": {"table": "advising_notice", "values": {"student": "current.id", "kind": "'probation'"}}},
                     {"update_where": {"table": "scholarship",
                                       "where": "row.student == current.id and row.kind == 'merit' and row.status == 'active'",
                                       "set": {"status": "'suspended'"}}}]},
        # charges
        {"id": "U22", "name": "A student's charges total is the sum of their open charges", "table": "tuition_charge",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.student", "set": {
             "charges_total": "round(sum(tuition_charge, amount, row.student == current.student and row.status == 'open'), 2)"}}}]},
        # scholarships
        {"id": "U23", "name": f"A scholarship is worth its percent of {FULL_TIME_CREDITS} credits at the fee of the student's major, "
                              f"rounded to a whole amount", "table": "scholarship", "events": ["insert", "update"], "when": "before",
         "condition": "changed(percent) or changed(student)",
         "actions": [{"set": {"amount": f"round(current.percent * {FULL_TIME_CREDITS} * current.student.major.fee_per_credit / 100, 0)"}}]},
        {"id": "U24", "name": "A student's scholarship total is the sum of their active scholarships", "table": "scholarship",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.student", "set": {
             "scholarship_total": "round(sum(scholarship, amount, row.student == current.student and row.status == 'active'), 2)"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies U20 (probation GPA), C adds U25 (seat offered notice), D deletes U10 (lab fee)."""
    u25 = {"id": "U25", "name": "A waitlisted student who gets a seat is sent a seat offered notice", "table": "enrollment",
           "events": ["update"], "when": "after", "condition": "changes_from(status, 'waitlisted') and current.status == 'enrolled'",
           "actions": [{"create": {"table": "advising_notice", "values": {"student": "current.student", "section": "current.section",
                                                                          "kind": "'seat_offered'"}}}]}
    u20_b = _probation_rule(PROBATION_GPA_B, f"A student in good standing whose GPA falls below {PROBATION_GPA_B} is put on probation "
                                             f"(bar raised)")
    return {"B": Shift(f"students in good standing are put on probation below a GPA of {PROBATION_GPA_B} (was {PROBATION_GPA_A})",
                       {"modify": [u20_b]}),
            "C": Shift("a waitlisted student who gets a seat is sent a seat offered notice", {"add": [u25]}),
            "D": Shift("lab courses no longer charge a lab fee on enrollment", {"delete": ["U10"]})}


# -- initial records -----------------------------------------------------------------------------

# name, code, fee per credit, lab fee
_FACULTIES = [("Engineering", "ENG", 412.5, 180), ("Natural Sciences", "SCI", 398.75, 145), ("Humanities", "HUM", 356, 60),
              ("Business", "BUS", 430.25, 95), ("Health Sciences", "HSC", 405, 160)]
# faculty index, code, title, credits, level, lab, status
_COURSES = [(0, "ENG101", "Engineering Mechanics", 4, "intro", True, "active"),
            (0, "ENG215", "Circuit Analysis", 4, "intermediate", True, "active"),
            (0, "ENG340", "Control Systems", 3, "advanced", False, "active"),
            (1, "CHM110", "General Chemistry", 4, "intro", True, "active"),
            (1, "BIO205", "Cell Biology", 4, "intermediate", True, "active"),
            (1, "PHY301", "Quantum Physics", 3, "advanced", False, "active"),
            (1, "MTH120", "Linear Algebra", 3, "intro", False, "active"),
            (2, "HIS101", "World History", 3, "intro", False, "active"),
            (2, "PHL230", "Ethics", 3, "intermediate", False, "active"),
            (2, "LIT350", "Modernist Fiction", 3, "advanced", False, "active"),
            (2, "HIS290", "Medieval Studies", 3, "intermediate", False, "retired"),
            (3, "ACC101", "Financial Accounting", 3, "intro", False, "active"),
            (3, "MKT220", "Marketing Principles", 3, "intermediate", False, "active"),
            (3, "FIN410", "Corporate Finance", 4, "advanced", False, "active"),
            (4, "NUR110", "Anatomy and Physiology", 4, "intro", True, "active"),
            (4, "NUR250", "Clinical Skills", 2, "intermediate", True, "active"),
            (4, "PUB330", "Epidemiology", 3, "advanced", False, "active")]
# current term sections: course code, room, students enrolled, spare seats (0: full), students waiting
_CURRENT = [("ENG101", "Kelvin 102", 4, 0, 2), ("ENG215", "Kelvin 210", 2, 3, 0), ("ENG340", "Kelvin 305", 2, 9, 0),
            ("CHM110", "Dalton 1.04", 4, 0, 2), ("CHM110", "Dalton 1.06", 2, 1, 0), ("BIO205", "Darwin G12", 3, 2, 0),
            ("PHY301", "Curie 220", 1, 14, 0), ("MTH120", "Noether 3", 3, 0, 1), ("HIS101", "Gibbon Hall", 3, 25, 0),
            ("PHL230", "Arendt 14", 2, 1, 0), ("ACC101", "Smith 1.1", 3, 0, 1), ("MKT220", "Smith 2.4", 2, 8, 0),
            ("FIN410", "Keynes 5", 1, 2, 0), ("NUR110", "Nightingale L1", 3, 0, 1), ("NUR250", "Nightingale S3", 1, 1, 0),
            ("PUB330", "Snow 12", 1, 11, 0)]
_PAST = ["ENG101", "CHM110", "MTH120", "HIS101", "ACC101", "NUR110"]
_FIRST = ["Aisha", "Ben", "Chiara", "Dev", "Elif", "Finn", "Grace", "Hamid", "Ingrid", "Jun", "Kofi", "Lena", "Mateo", "Nadia",
          "Oscar", "Pia", "Quinn", "Rosa", "Sami", "Tara", "Ugo", "Vera", "Wes", "Ximena"]
_LAST = ["Adeyemi", "Baker", "Castro", "Dubois", "Eriksen", "Fischer", "Gallo", "Haddad", "Ito", "Jovanovic", "Khan", "Larsen",
         "Moreau", "Novak", "Okafor", "Petrov"]
# per student: how many current courses, and the grades of their completed courses (last term)
_LOADS = [4, 3, 1, 0, 2, 3, 0, 4, 1, 0, 2, 3, 1, 0, 2, 1, 0, 3, 1, 1, 3, 0, 1, 1]
_GRADES = [(3.7, 3.3), (2.3,), (), (1.3, 2.0), (2.7,), (), (4.0,), (3.0,), (), (1.7,), (2.0, 2.7), (), (3.3,), (2.3, 2.0), (), (),
           (1.7, 2.3), (2.7,), (), (4.0,), (2.0, 2.3), (1.0,), (3.0,), ()]
_SUSPENDED = {21}
_PAYS = "pooppmopmooppompoompopom"  # per student: p paid everything, o owes everything, m paid tuition, owes the lab fees
# student index, name, kind, percent, status
_SCHOLARSHIPS = [(0, "Dean's Merit Award", "merit", 25, "active"), (3, "Founders' Merit Award", "merit", 20, "suspended"),
                 (6, "Engineering Excellence", "merit", 40, "active"), (7, "Access Bursary", "need", 30, "active"),
                 (11, "Rowing Blue", "athletic", 15, "active"), (13, "Access Bursary", "need", 50, "active"),
                 (17, "Dean's Merit Award", "merit", 10, "active"), (20, "Science Merit Award", "merit", 20, "active"),
                 (23, "Track Scholarship", "athletic", 25, "ended")]


def _tuition(credits: float, fee: float, level: str) -> float:
    return _round2(credits * fee * (ADVANCED_FACTOR if level == "advanced" else 1))


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (counts, charges, totals, GPAs and flags as the rules set them)."""
    faculties = [{"id": f"FAC{i + 1:02d}", "name": n, "code": c, "fee_per_credit": fee, "lab_fee": lab}
                 for i, (n, c, fee, lab) in enumerate(_FACULTIES)]
    courses = [{"id": f"CRS{i + 1:02d}", "faculty": faculties[f]["id"], "code": code, "title": title, "credits": cr, "level": lvl,
                "lab": lab, "status": st} for i, (f, code, title, cr, lvl, lab, st) in enumerate(_COURSES)]
    course_of = {c["code"]: c for c in courses}
    course_by_id = {c["id"]: c for c in courses}
    fac_by_id = {f["id"]: f for f in faculties}

    sections: list[dict[str, Any]] = []
    for code in _PAST:
        sections.append({"id": f"SEC{len(sections) + 1:03d}", "course": course_of[code]["id"], "term": "2026-autumn",
                         "room": None, "capacity": 30, "enrolled": 0, "waitlisted": 0, "status": "closed"})
    current: list[dict[str, Any]] = []
    for code, room, _n, _spare, _wait in _CURRENT:
        s = {"id": f"SEC{len(sections) + 1:03d}", "course": course_of[code]["id"], "term": "2027-spring", "room": room,
             "capacity": None, "enrolled": 0, "waitlisted": 0, "status": "open"}
        sections.append(s)
        current.append(s)
    past_of = {code: sections[i] for i, code in enumerate(_PAST)}
    section_by_id = {s["id"]: s for s in sections}
    for i, s in enumerate(sections[:len(_PAST)]):
        s["room"] = _CURRENT[[c[0] for c in _CURRENT].index(_PAST[i])][1]

    students: list[dict[str, Any]] = []
    for i in range(len(_LOADS)):
        first, last = _FIRST[i], _LAST[(i * 7 + 3) % len(_LAST)]
        students.append({"id": f"STU{i + 1:03d}", "name": f"{first} {last}", "email": f"{first.lower()}.{last.lower()}@uni.example",
                         "major": faculties[(i * 3) % len(faculties)]["id"], "year": 1 if not _GRADES[i] else 2 + i % 3, "credits": 0,
                         "load": "part_time", "gpa": None, "standing": "good", "charges_total": 0, "scholarship_total": 0,
                         "balance": 0, "hold": False})

    enrollments: list[dict[str, Any]] = []

    def enroll(student: dict[str, Any], section: dict[str, Any], status: str) -> dict[str, Any]:
        course = course_by_id[section["course"]]
        fee = fac_by_id[course["faculty"]]["fee_per_credit"]
        e = {"id": f"ENR{len(enrollments) + 1:03d}", "student": student["id"], "section": section["id"], "status": status,
             "waitlist_pos": None, "credits": course["credits"], "tuition": _tuition(course["credits"], fee, course["level"]),
             "grade": None, "quality_points": None}
        enrollments.append(e)
        return e

    # last term: completed courses with their grades
    for i, grades in enumerate(_GRADES):
        for k, grade in enumerate(grades):
            e = enroll(students[i], past_of[_PAST[(i + k * 2) % len(_PAST)]], "completed")
            e["grade"], e["quality_points"] = grade, _round2(grade * e["credits"])
    # this term: each section's students, taken in turn from those with courses still to take, never two sections of one course
    left = list(_LOADS)
    taken: dict[str, set[str]] = {st["id"]: set() for st in students}
    p = 0
    for s, (_code, _room, n, spare, _wait) in zip(current, _CURRENT):
        for _ in range(n):
            while left[p % len(students)] == 0 or s["course"] in taken[students[p % len(students)]["id"]]:
                p += 1
            student = students[p % len(students)]
            left[p % len(students)] -= 1
            taken[student["id"]].add(s["course"])
            enroll(student, s, "enrolled")
            p += 1
        s["enrolled"], s["capacity"], s["status"] = n, n + spare, "open" if spare else "full"
    # waitlists on the full sections, in queue order
    k = 0
    for s, (_code, _room, _n, _spare, wait) in zip(current, _CURRENT):
        for pos in range(wait):
            while True:
                student = students[(k * 7 + 2) % len(students)]
                k += 1
                if not any(e["student"] == student["id"] and section_by_id[e["section"]]["course"] == s["course"] for e in enrollments):
                    break
            e = enroll(student, s, "waitlisted")
            e["waitlist_pos"] = pos + 1
            s["waitlisted"] += 1
    # drops this term (their charges voided)
    for j in range(4):
        enroll(students[(j * 11 + 5) % len(students)], current[(j * 5 + 3) % len(current)], "dropped")

    charges: list[dict[str, Any]] = []

    def charge(e: dict[str, Any], kind: str, amount: float, status: str) -> None:
        charges.append({"id": f"CHG{len(charges) + 1:03d}", "student": e["student"], "enrollment": e["id"], "kind": kind, "amount": amount,
                        "status": status})

    idx_of = {s["id"]: i for i, s in enumerate(students)}
    for e in enrollments:
        if e["status"] not in ("enrolled", "dropped"):
            continue
        course = course_by_id[section_by_id[e["section"]]["course"]]
        pays = _PAYS[idx_of[e["student"]]]
        if e["status"] == "dropped":
            charge(e, "tuition", e["tuition"], "void")
            continue
        charge(e, "tuition", e["tuition"], "paid" if pays in "pm" else "open")
        if course["lab"]:
            charge(e, "lab_fee", fac_by_id[course["faculty"]]["lab_fee"], "paid" if pays == "p" else "open")

    scholarships: list[dict[str, Any]] = []
    for i, (s_idx, name, kind, pct, status) in enumerate(_SCHOLARSHIPS):
        fee = fac_by_id[students[s_idx]["major"]]["fee_per_credit"]
        scholarships.append({"id": f"SCH{i + 1:02d}", "student": students[s_idx]["id"], "name": name, "kind": kind, "percent": pct,
                             "amount": _round0(pct * FULL_TIME_CREDITS * fee / 100), "status": status})

    notices: list[dict[str, Any]] = []
    for i, st in enumerate(students):
        mine = [e for e in enrollments if e["student"] == st["id"]]
        done = [e for e in mine if e["status"] == "completed"]
        if done:
            st["gpa"] = _round2(sum(e["quality_points"] for e in done) / sum(e["credits"] for e in done))
        st["credits"] = sum(e["credits"] for e in mine if e["status"] == "enrolled")
        st["load"] = "full_time" if st["credits"] >= FULL_TIME_CREDITS else "part_time"
        if i in _SUSPENDED:
            st["standing"] = "suspended"
        elif st["gpa"] is not None and st["gpa"] < PROBATION_GPA_A:
            st["standing"] = "probation"
            notices.append({"student": st["id"], "section": None, "kind": "probation", "status": "read"})
        st["charges_total"] = _round2(sum(c["amount"] for c in charges if c["student"] == st["id"] and c["status"] == "open"))
        st["scholarship_total"] = _round2(sum(s["amount"] for s in scholarships if s["student"] == st["id"] and s["status"] == "active"))
        st["balance"] = _round2(st["charges_total"] - st["scholarship_total"])
        st["hold"] = st["balance"] > HOLD_BALANCE
    for e in enrollments[::9]:
        if e["status"] == "enrolled":
            notices.append({"student": e["student"], "section": e["section"], "kind": "registration", "status": "read"})
    notices.append({"student": students[4]["id"], "section": None, "kind": "advising", "status": "unread"})
    notices = [{"id": f"ADV{i + 1:02d}", **n} for i, n in enumerate(notices)]
    return {"faculty": faculties, "course": courses, "section": sections, "student": students, "enrollment": enrollments,
            "tuition_charge": charges, "scholarship": scholarships, "advising_notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if (table, field) == ("enrollment", "grade"):
        # a grade entered for a course in progress, or a completed course regraded
        values |= {rng.choice([0, 1.0, 1.3]), 2.0, rng.choice([3.0, 3.3, 3.7]), 4.0} if rec["grade"] is None else {max(0, base - 1),
                                                                                                                    min(4, base + 0.3)}
    elif (table, field) == ("enrollment", "credits"):
        values |= {base + 1, base - 1}
    elif (table, field) == ("enrollment", "waitlist_pos"):
        values |= {base + 1} if rec["waitlist_pos"] is not None else set()
    elif (table, field) == ("student", "gpa"):
        # below the probation bar, between the bar and B's, and well above it
        values |= {1.75, 2.1, rng.choice([2.6, 3.1, 3.5])}
    elif (table, field) == ("student", "credits"):
        values |= {FULL_TIME_CREDITS - 1, FULL_TIME_CREDITS, base + 3}
    elif (table, field) == ("student", "balance"):
        values |= {_round2(base + 800), 0}
    elif (table, field) == ("student", "charges_total"):
        values |= {_round2(base + rng.choice([1200, 2500])), _round2(base * 0.5)}
    elif (table, field) == ("student", "scholarship_total"):
        values |= {_round2(base + 500), 0}
    elif (table, field) == ("student", "year"):
        values |= {base + 1}
    elif (table, field) == ("section", "capacity"):
        enrolled = float(rec["enrolled"] or 0)
        values |= {enrolled, enrolled + 1, base + 5} | ({enrolled - 1} if enrolled else set())
    elif (table, field) in (("section", "enrolled"), ("section", "waitlisted")):
        values |= {base + 1, base - 1}
    elif (table, field) == ("scholarship", "percent"):
        values |= {base + 10, base - 5, 100}
    elif (table, field) == ("course", "credits"):
        values |= {base + 1, base - 1}
    elif (table, field) == ("faculty", "fee_per_credit"):
        values |= {base + 12.5}
    elif (table, field) == ("tuition_charge", "amount"):
        values |= {_round2(base + rng.choice([40, 250])), _round2(base + 2500), _round2(base * 0.5)}
    else:  # money: tuition, quality points, lab fees, scholarship amounts
        values |= {_round2(base + rng.choice([5, 20, 60])), _round2(base * 0.5)}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("student", "name"):
        first, last = cur.rsplit(" ", 1)
        added = _LAST[(idx * 5 + 2) % len(_LAST)]
        return f"{first} {added if added != last else _LAST[0]}"
    if (table, field) == ("student", "email"):
        return cur.replace("@uni.example", "@alumni.uni.example")
    if (table, field) == ("section", "room"):
        return cur + " (annex)"
    if (table, field) == ("course", "title"):
        return cur + " I"
    if (table, field) == ("faculty", "name"):
        return "School of " + cur
    if (table, field) == ("scholarship", "name"):
        return cur + " (renewed)"
    return None


_NEW_FACULTIES = [("Law", "LAW", 445, 0), ("Fine Arts", "ART", 362.5, 120), ("Computing", "CMP", 420.75, 150)]
_NEW_COURSES = [("Data Structures", "CMP210", 4, "intermediate", False), ("Organic Chemistry", "CHM240", 4, "intermediate", True),
                ("Public Speaking", "COM105", 2, "intro", False), ("Advanced Robotics", "ENG460", 4, "advanced", True),
                ("Game Theory", "ECO330", 3, "advanced", False)]
_NEW_STUDENTS = ["Abel Varga", "Bea Lindgren", "Cyrus Obi", "Dana Kaur", "Emil Hart", "Fay Morales", "Gil Santos", "Hope Ncube"]
_NEW_SCHOLARSHIPS = {"merit": "Dean's Merit Award", "need": "Access Bursary", "athletic": "Rowing Blue"}
_ROOMS = ["Kelvin 110", "Dalton 2.01", "Gibbon Hall", "Smith 3.3", "Snow 4"]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "faculty":
        name, code, fee, lab = _NEW_FACULTIES[k % len(_NEW_FACULTIES)]
        out: dict[str, Any] = {"name": name, "code": code, "fee_per_credit": fee}
        if lab:
            out["lab_fee"] = lab
        return out
    if table == "course":
        title, code, credits, level, lab = _NEW_COURSES[k % len(_NEW_COURSES)]
        out = {"faculty": pick("faculty")["id"], "code": code, "title": title, "level": level}
        if credits != 3:
            out["credits"] = credits
        if lab:
            out["lab"] = True
        return out
    if table == "section":
        course = pick("course", lambda c: c["status"] == "active")
        out = {"course": course["id"], "term": "2027-spring", "room": _ROOMS[k % len(_ROOMS)], "capacity": rng.choice([12, 20, 30, 45])}
        if k % 5 == 4:  # a section opened to absorb a waitlist, its places all taken at once
            out["enrolled"] = out["capacity"]
        return out
    if table == "student":
        name = _NEW_STUDENTS[k % len(_NEW_STUDENTS)]
        first, last = name.split()
        out = {"name": name, "email": f"{first.lower()}.{last.lower()}@uni.example", "major": pick("faculty")["id"]}
        if k % 3 == 1:  # a transfer student, with their GPA from elsewhere
            out["year"], out["gpa"] = 2, rng.choice([1.6, 2.1, 2.9, 3.6])
        return out
    if table == "enrollment":
        student = pick("student", lambda s: s["standing"] != "suspended")
        # every fourth into a full section (the waitlist), the others into any section open for the term
        wanted = ("full",) if k % 4 == 0 else ("open", "full")
        section = pick("section", lambda s: s["status"] in wanted)
        out = {"student": student["id"], "section": section["id"]}
        if k % 6 == 5:  # put straight on the waitlist by the registrar
            out["status"], out["waitlist_pos"] = "waitlisted", section["waitlisted"] + 1
        elif k % 7 == 3:  # a variable-credit arrangement
            out["credits"] = 2
        return out
    if table == "tuition_charge":
        student = pick("student")
        kind = ["housing", "other", "housing", "other"][k % 4]
        return {"student": student["id"], "kind": kind, "amount": rng.choice([75, 120, 1850, 2400, 3200])}
    if table == "scholarship":
        student = pick("student", lambda s: s["standing"] != "suspended")
        kind = _SCHOLARSHIP_KINDS[k % 3]
        return {"student": student["id"], "name": _NEW_SCHOLARSHIPS[kind], "kind": kind, "percent": rng.choice([10, 15, 25, 50])}
    student = pick("student")
    return {"student": student["id"], "kind": ["advising", "registration"][k % 2]}


FAMILY = WorldFamily("campus", "Campus", "university campus administration (registrar and bursar)", 70463, 60, TABLES, _records, _rules_a,
                     build_shifts, CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
