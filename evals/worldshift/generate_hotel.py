"""Generator of the hotel world family ``hotel-A`` ... ``hotel-D`` (package data).

A hotel chain's property-management system (four hotels, their rooms,
guests with loyalty tiers, rate plans, reservations, folios, payments,
housekeeping and maintenance), unlike the EnterpriseWorldShift service
desk, the held-out warehouse, the fresh hospital, the novel library, the
sealed insurance claims, the vault utility billing, the harbor container
terminal, the lease property management, the fleet vehicle rental, the
campus administration, the payroll and the factory: 10 tables (hotel, room,
guest, rate_plan, reservation, folio_charge, guest_payment,
housekeeping_task, maintenance_ticket, guest_notice), 200 initial records
and 24 rules in world A. Dates are day numbers (the business day is 100). A
reservation's nights follow its arrival and departure; a new one without a
nightly rate takes its room's base rate less its rate plan's discount; its
room total is its nights at that rate, less 5% for gold and 10% for
platinum guests; its balance is its posted charges less its captured
payments. Checking a guest in marks the room occupied and posts the room
charge and the city tax (nights times adults at the hotel's rate per person
and night), and welcomes a VIP guest with a notice; a balance that rises
above the hotel's credit limit while the guest is in house opens a notice
for the front office. Checking out frees the room and leaves it dirty,
credits the guest with loyalty points (more for gold and platinum), a stay
and its nights, and sends a payment reminder when a balance is left open;
the guest's tier follows their lifetime nights, and an upgrade sends the
guest a notice. Cancelling a non-refundable booking charges its room total;
a no-show is charged one night, at most 250. Deleting a reservation deletes
its folio charges and notices; its payments stay. A folio charge is its
quantity at its unit price, plus a 10% service charge on restaurant and
spa, and a reservation's charges total sums its posted charges (its paid
total its captured payments). A captured points payment takes 100 points
per unit of currency from the guest (a refund gives them back). A room that
turns dirty gets a cleaning task (a deep clean after it was out of order)
unless one is open; finishing a task makes a dirty room clean. An urgent
maintenance ticket takes its room out of order; resolving the last urgent
ticket of an out-of-order room leaves it dirty; a hotel counts its out-of-
order rooms. B modifies one rule (gold guests get 8% off their room total,
was 5%: a rate changes), C adds one (checking in for 4 nights or more books
a stayover clean of the room), D deletes one (a room that turns dirty no
longer gets a cleaning task).

The family exists so that a rule-discovery agent can be measured once on a
family nobody tuned it on. It is built from the format spec and the engine
only, never from agent code, and must never be used to tune an agent.

``python -m evals.worldshift.generate_hotel`` rewrites the four files; a
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

__all__ = ["FAMILY", "GOLD_DISCOUNT_A", "GOLD_DISCOUNT_B", "NO_SHOW_CAP", "PLATINUM_DISCOUNT", "STAYOVER_NIGHTS", "TIER_NIGHTS",
           "build_shifts"]

# percent off a reservation's room total for gold guests, before and after B's policy change; platinum guests get more
GOLD_DISCOUNT_A = 5
GOLD_DISCOUNT_B = 8
PLATINUM_DISCOUNT = 10
NO_SHOW_CAP = 250  # a no-show is charged one night at the nightly rate, at most this
SERVICE_CHARGE = 1.1  # restaurant and spa charges carry a 10% service charge
POINTS_PER_UNIT = 100  # loyalty points per unit of currency paid with points
STAYOVER_NIGHTS = 4  # C: a check-in for at least this many nights books a stayover clean
TIER_NIGHTS = (("platinum", 50), ("gold", 25), ("silver", 10))  # lifetime nights from which a guest holds a tier
TODAY = 100  # the business day: arrivals and departures are day numbers

_ROOM_TYPES = ["single", "double", "twin", "family", "suite"]
_ROOM_STATES = ["clean", "dirty", "out_of_order"]
_TIERS = ["basic", "silver", "gold", "platinum"]
_RES_STATES = ["booked", "checked_in", "checked_out", "cancelled", "no_show"]
_CHANNELS = ["direct", "web", "travel_agent", "corporate"]
_CHARGE_KINDS = ["room", "city_tax", "minibar", "restaurant", "spa", "parking", "laundry", "cancellation_fee", "no_show_fee"]
_PAY_METHODS = ["card", "cash", "bank_transfer", "points"]
_TASK_KINDS = ["departure_clean", "stayover", "deep_clean", "turndown", "inspection"]
_TASK_STATES = ["open", "done", "cancelled"]
_CATEGORIES = ["plumbing", "electrical", "hvac", "furniture", "appliance", "other"]
_PRIORITIES = ["low", "normal", "high", "urgent"]
_TICKET_STATES = ["open", "in_progress", "resolved", "cancelled"]
_NOTICE_KINDS = ["booking_confirmation", "welcome", "tier_upgrade", "payment_reminder", "credit_limit", "void_review", "complaint"]

TABLES: dict[str, Any] = {
    "hotel": table(code=string(), name=string(), city=string(), stars=number(), city_tax=number(0), credit_limit=number(1000),
                   rooms_out_of_order=number(0)),
    "room": table(hotel=reference("hotel"), number=string(), room_type=choice(_ROOM_TYPES, "double"), floor=number(),
                  base_rate=number(), max_guests=number(2), status=choice(_ROOM_STATES, "clean"), occupied=boolean(False)),
    "guest": table(name=string(), email=string(), tier=choice(_TIERS, "basic"), points=number(0), lifetime_nights=number(0),
                   stays=number(0), vip=boolean(False)),
    "rate_plan": table(code=string(), name=string(), discount_pct=number(0), refundable=boolean(True),
                       breakfast_included=boolean(False), active=boolean(True)),
    "reservation": table(guest=reference("guest"), room=reference("room"), rate_plan=reference("rate_plan"), arrival=number(),
                         departure=number(), nights=number(), adults=number(1), nightly_rate=number(), room_total=number(),
                         charges_total=number(0), paid_total=number(0), balance=number(0), channel=choice(_CHANNELS, "direct"),
                         status=choice(_RES_STATES, "booked")),
    "folio_charge": table(reservation=reference("reservation"), kind=choice(_CHARGE_KINDS), description=string(), quantity=number(),
                          unit_price=number(), amount=number(), status=choice(["posted", "void"], "posted")),
    "guest_payment": table(reservation=reference("reservation"), method=choice(_PAY_METHODS, "card"), amount=number(),
                           reference=string(), status=choice(["captured", "refunded"], "captured")),
    "housekeeping_task": table(room=reference("room"), kind=choice(_TASK_KINDS), attendant=string(), minutes=number(),
                               status=choice(_TASK_STATES, "open")),
    "maintenance_ticket": table(room=reference("room"), category=choice(_CATEGORIES, "other"), priority=choice(_PRIORITIES, "normal"),
                                description=string(), cost=number(), status=choice(_TICKET_STATES, "open")),
    "guest_notice": table(guest=reference("guest"), reservation=reference("reservation"), kind=choice(_NOTICE_KINDS),
                          audience=choice(["guest", "staff"], "guest"), note=string(), status=choice(["open", "sent", "closed"], "open")),
}

_ID_PREFIX = {"hotel": "HTL", "room": "RM", "guest": "GST", "rate_plan": "RP", "reservation": "RES", "folio_charge": "FOL",
              "guest_payment": "PAY", "housekeeping_task": "HK", "maintenance_ticket": "MT", "guest_notice": "GN"}

_OPEN_TICKET = "['open', 'in_progress']"


def _round(x: float, places: int) -> float:
    """Rounded half away from zero to ``places`` decimals, on the shortest decimal form (as the engine rounds)."""
    return float(round_half_away(x, places))


def _room_total_rule(gold: float, name: str) -> dict[str, Any]:
    """H03, whose gold discount B raises."""
    return {"id": "H03", "name": name, "table": "reservation", "events": ["insert", "update"], "when": "before", "order": 30,
            "condition": "changed(nights) or changed(nightly_rate)",
            "actions": [{"set": {"room_total": "round(current.nights * current.nightly_rate * (100 - if(current.guest.tier == "
                                               f"'platinum', {PLATINUM_DISCOUNT}, if(current.guest.tier == 'gold', {gold:g}, 0))) "
                                               "/ 100, 2)"}}]}


def _tier_expr() -> str:
    out = "'basic'"
    for tier, nights in reversed(TIER_NIGHTS):
        out = f"if(current.lifetime_nights >= {nights}, '{tier}', {out})"
    return out


def _rules_a() -> list[dict[str, Any]]:
    """The 24 rules of world A (ids H01..H24 stay the same across shifted worlds)."""
    return [
        # reservations: figures
        {"id": "H01", "name": "A reservation's nights are its departure day less its arrival day", "table": "reservation",
         "events": ["insert", "update"], "when": "before", "order": 10, "condition": "changed(arrival) or changed(departure)",
         "actions": [{"set": {"nights": "current.departure - current.arrival"}}]},
        {"id": "H02", "name": "A new reservation without a nightly rate takes its room's base rate less its rate plan's discount",
         "table": "reservation", "events": ["insert"], "when": "before", "order": 20, "condition": "is_empty(current.nightly_rate)",
         "actions": [{"set": {"nightly_rate": "round(current.room.base_rate * (1 - current.rate_plan.discount_pct / 100), 2)"}}]},
        _room_total_rule(GOLD_DISCOUNT_A, f"A reservation's room total is its nights at its nightly rate, less {GOLD_DISCOUNT_A}% for "
                                          f"gold and {PLATINUM_DISCOUNT}% for platinum guests"),
        {"id": "H04", "name": "A reservation's balance is its posted charges less its captured payments", "table": "reservation",
         "events": ["insert", "update"], "when": "before", "order": 40, "condition": "changed(charges_total) or changed(paid_total)",
         "actions": [{"set": {"balance": "round(current.charges_total - current.paid_total, 2)"}}]},
        # reservations: the stay
        {"id": "H05", "name": "Checking a guest in marks the room occupied", "table": "reservation", "events": ["insert", "update"],
         "when": "after", "condition": "changes_to(status, 'checked_in')",
         "actions": [{"update": {"target": "current.room", "set": {"occupied": True}}}]},
        {"id": "H06", "name": "Checking a guest in posts the room total and the city tax (nights times adults at the hotel's rate per "
                              "person and night) to the folio", "table": "reservation", "events": ["insert", "update"],
         "when": "after", "condition": "changes_to(status, 'checked_in')",
         "actions": [{"create": {"table": "folio_charge", "values": {"reservation": "current.id", "kind": "'room'",
                                                                     "amount": "current.room_total"}}},
                     {"create": {"table": "folio_charge", "values": {"reservation": "current.id", "kind": "'city_tax'",
                                                                     "quantity": "current.nights * current.adults",
                                                                     "unit_price": "current.room.hotel.city_tax"}}}]},
        {"id": "H07", "name": "Checking in a VIP guest sends them a welcome notice", "table": "reservation",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'checked_in') and current.guest.vip == true",
         "actions": [{"create": {"table": "guest_notice", "values": {"guest": "current.guest", "reservation": "current.id",
                                                                     "kind": "'welcome'"}}}]},
        {"id": "H08", "name": "Checking a guest out frees the room and leaves it dirty", "table": "reservation", "events": ["update"],
         "when": "after", "condition": "changes_to(status, 'checked_out')",
         "actions": [{"update": {"target": "current.room", "set": {"occupied": False, "status": "'dirty'"}}}]},
        {"id": "H09", "name": "Checking a guest out credits them 10 points per unit of the room total (15 for gold and platinum), a "
                              "stay and its nights", "table": "reservation", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'checked_out')",
         "actions": [{"update": {"target": "current.guest", "set": {
             "points": "round(current.guest.points + current.room_total * if(current.guest.tier in ['gold', 'platinum'], 15, 10), 0)",
             "stays": "current.guest.stays + 1",
             "lifetime_nights": "current.guest.lifetime_nights + current.nights"}}}]},
        {"id": "H10", "name": "A guest who checks out with a balance still open is sent a payment reminder", "table": "reservation",
         "events": ["update"], "when": "after", "condition": "changes_to(status, 'checked_out') and current.balance > 0",
         "actions": [{"create": {"table": "guest_notice", "values": {"guest": "current.guest", "reservation": "current.id",
                                                                     "kind": "'payment_reminder'"}}}]},
        {"id": "H11", "name": f"A no-show is charged one night at the nightly rate, at most {NO_SHOW_CAP}; cancelling a booking on a "
                              "non-refundable rate plan is charged its room total", "table": "reservation", "events": ["update"],
         "when": "after",
         "condition": "changes_to(status, 'no_show') or (changes_to(status, 'cancelled') and current.rate_plan.refundable == false)",
         "actions": [{"create": {"table": "folio_charge", "values": {
             "reservation": "current.id", "kind": "if(current.status == 'no_show', 'no_show_fee', 'cancellation_fee')",
             "amount": f"if(current.status == 'no_show', min(current.nightly_rate, {NO_SHOW_CAP}), current.room_total)"}}}]},
        {"id": "H12", "name": "A balance that rises above the hotel's credit limit while the guest is checked in opens a notice for "
                              "the front office", "table": "reservation", "events": ["update"], "when": "after",
         "condition": "current.status == 'checked_in' and current.balance > current.room.hotel.credit_limit and "
                      "not previous.balance > current.room.hotel.credit_limit",
         "actions": [{"create": {"table": "guest_notice", "values": {"guest": "current.guest", "reservation": "current.id",
                                                                     "kind": "'credit_limit'", "audience": "'staff'"}}}]},
        {"id": "H13", "name": "Deleting a reservation deletes its folio charges and its notices; its payments stay",
         "table": "reservation", "events": ["delete"], "when": "after",
         "actions": [{"delete_where": {"table": "folio_charge", "where": "row.reservation == current.id"}},
                     {"delete_where": {"table": "guest_notice", "where": "row.reservation == current.id"}}]},
        # guests
        {"id": "H14", "name": "A guest's loyalty tier follows their lifetime nights: silver from 10, gold from 25, platinum from 50",
         "table": "guest", "events": ["insert", "update"], "when": "before", "condition": "changed(lifetime_nights)",
         "actions": [{"set": {"tier": _tier_expr()}}]},
        {"id": "H15", "name": "A guest who moves up a tier by staying more nights is sent a tier upgrade notice", "table": "guest",
         "events": ["update"], "when": "after", "condition": "changed(tier) and current.lifetime_nights > previous.lifetime_nights",
         "actions": [{"create": {"table": "guest_notice", "values": {"guest": "current.id", "kind": "'tier_upgrade'"}}}]},
        # folio
        {"id": "H16", "name": "A folio charge is its quantity at its unit price, plus a 10% service charge on restaurant and spa",
         "table": "folio_charge", "events": ["insert", "update"], "when": "before",
         "condition": "changed(quantity) or changed(unit_price)",
         "actions": [{"set": {"amount": f"round(current.quantity * current.unit_price * "
                                        f"if(current.kind in ['restaurant', 'spa'], {SERVICE_CHARGE}, 1), 2)"}}]},
        {"id": "H17", "name": "A reservation's charges total sums its posted folio charges", "table": "folio_charge",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.reservation", "set": {
             "charges_total": "round(sum(folio_charge, amount, row.reservation == current.reservation and row.status == 'posted'), 2)"}}}]},
        # payments
        {"id": "H18", "name": "A reservation's paid total sums its captured payments", "table": "guest_payment",
         "events": ["insert", "update", "delete"], "when": "after",
         "actions": [{"update": {"target": "current.reservation", "set": {
             "paid_total": "round(sum(guest_payment, amount, row.reservation == current.reservation and row.status == 'captured'), 2)"}}}]},
        {"id": "H19", "name": f"A captured points payment takes {POINTS_PER_UNIT} points per unit of currency from the guest; "
                              "refunding it gives them back", "table": "guest_payment", "events": ["insert", "update"],
         "when": "after",
         "condition": "current.method == 'points' and (changes_to(status, 'captured') or changes_from(status, 'captured'))",
         "actions": [{"update": {"target": "current.reservation.guest", "set": {
             "points": f"current.reservation.guest.points + if(current.status == 'captured', -{POINTS_PER_UNIT}, {POINTS_PER_UNIT}) "
                       "* current.amount"}}}]},
        # rooms, housekeeping and maintenance
        {"id": "H20", "name": "A room that turns dirty gets a cleaning task (a deep clean after being out of order) unless one is "
                              "open", "table": "room", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'dirty') and count(housekeeping_task, row.room == current.id and row.status == 'open') == 0",
         "actions": [{"create": {"table": "housekeeping_task", "values": {
             "room": "current.id", "kind": "if(previous.status == 'out_of_order', 'deep_clean', 'departure_clean')",
             "minutes": "if(current.room_type == 'suite', 60, if(current.room_type == 'family', 45, 30))"}}}]},
        {"id": "H21", "name": "A hotel counts its rooms that are out of order", "table": "room", "events": ["insert", "update", "delete"],
         "when": "after", "condition": "current.status == 'out_of_order' or previous.status == 'out_of_order'",
         "actions": [{"update": {"target": "current.hotel", "set": {
             "rooms_out_of_order": "count(room, row.hotel == current.hotel and row.status == 'out_of_order')"}}}]},
        {"id": "H22", "name": "An open maintenance ticket that is or becomes urgent takes its room out of order",
         "table": "maintenance_ticket", "events": ["insert", "update"], "when": "after",
         "condition": f"changes_to(priority, 'urgent') and current.status in {_OPEN_TICKET}",
         "actions": [{"update": {"target": "current.room", "set": {"status": "'out_of_order'"}}}]},
        {"id": "H23", "name": "Resolving a ticket of an out-of-order room with no other urgent ticket open leaves the room dirty",
         "table": "maintenance_ticket", "events": ["update"], "when": "after",
         "condition": "changes_to(status, 'resolved') and current.room.status == 'out_of_order' and count(maintenance_ticket, "
                      f"row.room == current.room and row.priority == 'urgent' and row.status in {_OPEN_TICKET}) == 0",
         "actions": [{"update": {"target": "current.room", "set": {"status": "'dirty'"}}}]},
        {"id": "H24", "name": "Finishing a housekeeping task makes its room clean if it was dirty", "table": "housekeeping_task",
         "events": ["insert", "update"], "when": "after", "condition": "changes_to(status, 'done')",
         "actions": [{"update_where": {"table": "room", "where": "row.id == current.room and row.status == 'dirty'",
                                       "set": {"status": "'clean'"}}}]},
    ]


def build_shifts() -> dict[str, Shift]:
    """The shifts: B modifies H03 (gold discount), C adds H25 (stayover clean on a long check-in), D deletes H20 (cleaning task)."""
    h25 = {"id": "H25", "name": f"Checking a guest in for {STAYOVER_NIGHTS} nights or more books a stayover clean of the room",
           "table": "reservation", "events": ["insert", "update"], "when": "after",
           "condition": f"changes_to(status, 'checked_in') and current.nights >= {STAYOVER_NIGHTS}",
           "actions": [{"create": {"table": "housekeeping_task", "values": {"room": "current.room", "kind": "'stayover'",
                                                                             "minutes": 20}}}]}
    h03_b = _room_total_rule(GOLD_DISCOUNT_B, f"A reservation's room total is its nights at its nightly rate, less {GOLD_DISCOUNT_B}% "
                                              f"for gold and {PLATINUM_DISCOUNT}% for platinum guests (gold discount raised)")
    return {"B": Shift(f"gold guests get {GOLD_DISCOUNT_B}% off their room total (was {GOLD_DISCOUNT_A}%)", {"modify": [h03_b]}),
            "C": Shift(f"checking a guest in for {STAYOVER_NIGHTS} nights or more books a stayover clean of the room", {"add": [h25]}),
            "D": Shift("a room that turns dirty no longer gets a cleaning task", {"delete": ["H20"]})}


# -- initial records -----------------------------------------------------------------------------

# code, name, city, stars, city tax per person and night, credit limit, rate factor (on the chain's base rates)
_HOTELS = [("LIS", "Harbourview Grand Lisbon", "Lisbon", 5, 2, 1500, 1.2),
           ("AMS", "Canal House Amsterdam", "Amsterdam", 4, 3.5, 1200, 1.3),
           ("VIE", "Ringstrasse Hotel Vienna", "Vienna", 4, 2.5, 1000, 1.0),
           ("MAD", "Barajas Airport Inn", "Madrid", 3, 1, 800, 0.75)]
_BASE_RATE = {"single": 85, "double": 120, "twin": 115, "family": 165, "suite": 290}
_MAX_GUESTS = {"single": 1, "double": 2, "twin": 2, "family": 4, "suite": 3}
# every hotel's rooms: number and type (room index = hotel index * 9 + position)
_LAYOUT = [("101", "single"), ("102", "double"), ("103", "twin"), ("104", "double"), ("201", "double"), ("202", "family"),
           ("203", "twin"), ("204", "suite"), ("205", "double")]
_OUT_OF_ORDER = (6, 12, 32)  # rooms under an urgent ticket
# name, lifetime nights, points, stays, vip
_GUESTS = [("Ana Ferreira", 62, 48200, 31, True), ("Lukas Brandt", 27, 18650, 14, False), ("Sofia Marques", 4, 1320, 2, False),
           ("James Whitfield", 31, 22400, 19, False), ("Emma de Vries", 12, 6900, 8, False), ("Kenji Watanabe", 55, 51020, 22, True),
           ("Olivia Bennett", 0, 0, 0, False), ("Mateo Alvarez", 9, 4150, 5, False), ("Chloe Dubois", 24, 12800, 11, False),
           ("Noah Fischer", 18, 9700, 9, False), ("Isabella Rossi", 38, 27300, 20, True), ("Liam Connolly", 2, 640, 1, False),
           ("Hanna Nowak", 49, 39800, 25, False), ("Daniel Kim", 7, 2900, 4, False), ("Zoe Papadopoulos", 15, 8100, 7, False),
           ("Arjun Mehta", 26, 15500, 12, False), ("Freya Larsen", 1, 310, 1, False), ("Marco Bianchi", 71, 66400, 40, True),
           ("Leila Haddad", 11, 5200, 6, False), ("Tomasz Zielinski", 3, 980, 2, False), ("Grace Okafor", 33, 24100, 17, False),
           ("Pierre Lambert", 20, 11300, 10, False), ("Yuki Tanaka", 8, 3600, 3, False), ("Carlos Mendes", 45, 35800, 23, True),
           ("Ingrid Solberg", 13, 7400, 6, False), ("Ahmed Karim", 0, 0, 0, False), ("Elena Popescu", 29, 19900, 15, False),
           ("Oliver Grant", 6, 2100, 3, False)]
# code, name, discount percent, refundable, breakfast included, active
_RATE_PLANS = [("BAR", "Best available rate", 0, True, False, True), ("ADV", "Advance purchase, prepaid", 15, False, False, True),
               ("CORP", "Corporate negotiated rate", 10, True, False, True), ("WKD", "Weekend getaway", 12, False, True, True),
               ("LSR", "Long stay rate", 20, True, False, True), ("FLASH", "Spring flash sale", 25, False, False, False)]
# guest, room index, rate plan, arrival, departure, adults, status, channel, negotiated nightly rate (None: the plan's)
_RESERVATIONS = [
    # in house
    (0, 7, 0, 97, 104, 2, "checked_in", "direct", None), (1, 1, 2, 99, 102, 1, "checked_in", "corporate", None),
    (4, 10, 0, 98, 101, 2, "checked_in", "web", None), (5, 16, 4, 95, 103, 2, "checked_in", "direct", None),
    (9, 20, 0, 100, 102, 2, "checked_in", "web", None), (14, 23, 3, 99, 101, 3, "checked_in", "travel_agent", None),
    (20, 28, 2, 96, 101, 1, "checked_in", "corporate", 79), (27, 27, 0, 100, 101, 1, "checked_in", "direct", None),
    # departed
    (3, 3, 0, 94, 97, 2, "checked_out", "direct", None), (10, 2, 2, 96, 100, 1, "checked_out", "corporate", None),
    (7, 9, 0, 97, 99, 1, "checked_out", "web", None), (12, 13, 1, 95, 100, 2, "checked_out", "web", None),
    (17, 25, 0, 92, 96, 2, "checked_out", "direct", None), (21, 19, 2, 98, 100, 1, "checked_out", "corporate", 99),
    (2, 29, 3, 98, 100, 2, "checked_out", "travel_agent", None), (15, 30, 0, 93, 95, 1, "checked_out", "web", None),
    # arriving
    (8, 4, 0, 100, 103, 2, "booked", "web", None), (11, 0, 1, 103, 105, 1, "booked", "web", None),
    (13, 5, 3, 104, 106, 3, "booked", "travel_agent", None), (15, 8, 2, 101, 105, 1, "booked", "corporate", None),
    (23, 11, 0, 100, 104, 2, "booked", "direct", None), (26, 14, 1, 102, 109, 2, "booked", "web", None),
    (18, 15, 4, 105, 115, 3, "booked", "direct", None), (6, 17, 0, 101, 102, 1, "booked", "web", None),
    (19, 18, 0, 100, 101, 1, "booked", "web", None), (22, 21, 1, 103, 107, 2, "booked", "web", None),
    (24, 22, 2, 102, 104, 1, "booked", "corporate", None), (10, 24, 3, 104, 106, 2, "booked", "travel_agent", None),
    (1, 25, 0, 100, 105, 2, "booked", "direct", None), (25, 31, 0, 100, 103, 2, "booked", "web", None),
    (16, 34, 1, 101, 104, 2, "booked", "web", None), (3, 35, 2, 102, 106, 1, "booked", "corporate", None),
    (17, 7, 4, 104, 112, 2, "booked", "direct", None), (20, 33, 0, 101, 108, 1, "booked", "travel_agent", None),
    # cancelled and no-shows
    (2, 1, 1, 106, 108, 2, "cancelled", "web", None), (9, 11, 0, 110, 112, 2, "cancelled", "web", None),
    (13, 26, 2, 101, 103, 1, "cancelled", "corporate", None), (22, 4, 0, 98, 100, 1, "no_show", "web", None),
    (19, 15, 0, 99, 101, 2, "no_show", "travel_agent", None), (11, 25, 0, 98, 100, 2, "no_show", "web", None)]
# extras on the folios: reservation index, kind, description, quantity, unit price, status
_EXTRAS = [(0, "spa", "Hot stone massage", 1, 180, "posted"), (0, "restaurant", "Dinner at Mar Azul", 2, 64.5, "posted"),
           (3, "minibar", "Minibar", 3, 6.5, "posted"), (2, "parking", "Valet parking", 3, 25, "posted"),
           (8, "restaurant", "Room service", 1, 88, "posted"), (12, "spa", "Couples treatment (posted twice)", 2, 120, "void"),
           (6, "laundry", "Shirt service", 1, 18.5, "posted"), (11, "minibar", "Minibar", 4, 5, "posted")]
# payments beyond settling the departed folios: reservation index, method, amount (None: the room total), reference, status
_PAYMENTS = [(11, None, None, "PRE-5011", "captured"), (0, "card", 1000, "DEP-4471", "captured"), (3, "card", 1200, "DEP-4502", "captured"),
             (36, "card", 150, "DEP-4519", "refunded"), (17, None, None, "PRE-5130", "captured"), (21, None, None, "PRE-5168", "captured"),
             (25, None, None, "PRE-5177", "captured"), (30, None, None, "PRE-5181", "captured"), (34, None, None, "PRE-5102", "captured")]
_UNPAID = {15: 50}  # departed reservations that left part of their balance open
_ATTENDANTS = ["M. Santos", "K. Visser", "B. Huber", "R. Ortega"]


def _tier(nights: float) -> str:
    return next((tier for tier, least in TIER_NIGHTS if nights >= least), "basic")


def _charge(rid: str, kind: str, *, amount: float | None = None, qty: float | None = None, unit: float | None = None,
            description: str | None = None, status: str = "posted") -> dict[str, Any]:
    if qty is not None and unit is not None:
        amount = _round(qty * unit * (SERVICE_CHARGE if kind in ("restaurant", "spa") else 1), 2)
    return {"reservation": rid, "kind": kind, "description": description, "quantity": qty, "unit_price": unit, "amount": amount,
            "status": status}


def _records(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The initial records, consistent with the rules of world A (nights, rates, totals, balances, tiers, rooms and counters)."""
    hotels = [{"id": f"HTL{i + 1:02d}", "code": code, "name": name, "city": city, "stars": stars, "city_tax": tax, "credit_limit": limit,
               "rooms_out_of_order": 0} for i, (code, name, city, stars, tax, limit, _f) in enumerate(_HOTELS)]
    rooms = []
    for h, (*_rest, factor) in enumerate(_HOTELS):
        for number_, kind in _LAYOUT:
            idx = len(rooms)
            rooms.append({"id": f"RM{idx + 1:03d}", "hotel": hotels[h]["id"], "number": number_, "room_type": kind,
                          "floor": int(number_[0]), "base_rate": _round(_BASE_RATE[kind] * factor, 0), "max_guests": _MAX_GUESTS[kind],
                          "status": "out_of_order" if idx in _OUT_OF_ORDER else "clean", "occupied": False})
    for hotel in hotels:
        hotel["rooms_out_of_order"] = sum(1 for r in rooms if r["hotel"] == hotel["id"] and r["status"] == "out_of_order")
    hotel_of = {h["id"]: h for h in hotels}
    guests = [{"id": f"GST{i + 1:02d}", "name": name, "email": name.lower().replace(" ", ".") + "@mail.example",
               "tier": _tier(nights), "points": points, "lifetime_nights": nights, "stays": stays, "vip": vip}
              for i, (name, nights, points, stays, vip) in enumerate(_GUESTS)]
    plans = [{"id": f"RP{i + 1:02d}", "code": code, "name": name, "discount_pct": disc, "refundable": refundable,
              "breakfast_included": breakfast, "active": active}
             for i, (code, name, disc, refundable, breakfast, active) in enumerate(_RATE_PLANS)]

    reservations = []
    for i, (g, r, p, arrival, departure, adults, status, channel, rate) in enumerate(_RESERVATIONS):
        room, plan, guest = rooms[r], plans[p], guests[g]
        nightly = rate if rate is not None else _round(room["base_rate"] * (1 - plan["discount_pct"] / 100), 2)
        nights = departure - arrival
        off = {"platinum": PLATINUM_DISCOUNT, "gold": GOLD_DISCOUNT_A}.get(guest["tier"], 0)
        reservations.append({"id": f"RES{i + 1:03d}", "guest": guest["id"], "room": room["id"], "rate_plan": plan["id"],
                             "arrival": arrival, "departure": departure, "nights": nights, "adults": adults, "nightly_rate": nightly,
                             "room_total": _round(nights * nightly * (100 - off) / 100, 2), "charges_total": 0, "paid_total": 0,
                             "balance": 0, "channel": channel, "status": status})
        if status == "checked_in":
            room["occupied"] = True
    plan_of = {p["id"]: p for p in plans}

    charges: list[dict[str, Any]] = []
    for res in reservations:
        if res["status"] in ("checked_in", "checked_out"):
            room = next(r for r in rooms if r["id"] == res["room"])
            charges.append(_charge(res["id"], "room", amount=res["room_total"]))
            charges.append(_charge(res["id"], "city_tax", qty=res["nights"] * res["adults"], unit=hotel_of[room["hotel"]]["city_tax"]))
        elif res["status"] == "cancelled" and not plan_of[res["rate_plan"]]["refundable"]:
            charges.append(_charge(res["id"], "cancellation_fee", amount=res["room_total"]))
        elif res["status"] == "no_show":
            charges.append(_charge(res["id"], "no_show_fee", amount=min(res["nightly_rate"], NO_SHOW_CAP)))
    for r, kind, desc, qty, unit, status in _EXTRAS:
        charges.append(_charge(reservations[r]["id"], kind, qty=qty, unit=unit, description=desc, status=status))
    charges = [{"id": f"FOL{j + 1:03d}", **c} for j, c in enumerate(charges)]
    for res in reservations:
        res["charges_total"] = _round(sum(c["amount"] for c in charges if c["reservation"] == res["id"] and c["status"] == "posted"), 2)

    payments: list[dict[str, Any]] = []
    for r, method, amount, ref, status in _PAYMENTS:
        res = reservations[r]
        payments.append({"reservation": res["id"], "method": method or "card", "amount": res["room_total"] if amount is None else amount,
                         "reference": ref, "status": status})
    for r, res in enumerate(reservations):
        if res["status"] != "checked_out":
            continue
        paid = _round(sum(p["amount"] for p in payments if p["reservation"] == res["id"] and p["status"] == "captured"), 2)
        due = _round(res["charges_total"] - paid - _UNPAID.get(r, 0), 2)
        if r == 12:  # a platinum guest paid part of the stay with points
            payments.append({"reservation": res["id"], "method": "points", "amount": 100, "reference": "LOY-20931", "status": "captured"})
            due = _round(due - 100, 2)
        payments.append({"reservation": res["id"], "method": ["card", "cash", "bank_transfer"][r % 3],
                         "amount": due, "reference": f"SET-{6100 + r * 7}", "status": "captured"})
    payments = [{"id": f"PAY{j + 1:03d}", **p} for j, p in enumerate(payments)]
    for res in reservations:
        res["paid_total"] = _round(sum(p["amount"] for p in payments if p["reservation"] == res["id"] and p["status"] == "captured"), 2)
        res["balance"] = _round(res["charges_total"] - res["paid_total"], 2)

    # rooms of guests who left today are dirty with a departure clean open; earlier departures were cleaned
    tasks: list[dict[str, Any]] = []
    minutes = {"suite": 60, "family": 45}
    for res in reservations:
        if res["status"] != "checked_out":
            continue
        room = next(r for r in rooms if r["id"] == res["room"])
        today = res["departure"] == TODAY
        if today:
            room["status"] = "dirty"
        tasks.append({"room": room["id"], "kind": "departure_clean", "attendant": None if today else _ATTENDANTS[len(tasks) % 4],
                      "minutes": minutes.get(room["room_type"], 30), "status": "open" if today else "done"})
    tasks.append({"room": reservations[3]["room"], "kind": "stayover", "attendant": _ATTENDANTS[1], "minutes": 20, "status": "open"})
    tasks.append({"room": rooms[6]["id"], "kind": "deep_clean", "attendant": _ATTENDANTS[0], "minutes": 90, "status": "cancelled"})
    tasks = [{"id": f"HK{j + 1:02d}", **t} for j, t in enumerate(tasks)]

    # room index, category, priority, description, cost, status
    ticket_rows = [(6, "plumbing", "urgent", "Burst pipe under the washbasin", None, "open"),
                   (12, "hvac", "urgent", "Air conditioning leaking onto the carpet", None, "in_progress"),
                   (32, "electrical", "urgent", "Sparking socket by the bed", None, "open"),
                   (0, "furniture", "low", "Desk chair wobbles", None, "open"),
                   (21, "appliance", "normal", "Kettle does not heat", None, "open"),
                   (34, "hvac", "high", "Noisy fan coil unit", None, "in_progress"),
                   (9, "plumbing", "normal", "Slow shower drain", 85, "resolved"),
                   (25, "electrical", "urgent", "Tripped circuit in the bathroom", 240, "resolved")]
    tickets = [{"id": f"MT{j + 1:02d}", "room": rooms[r]["id"], "category": cat, "priority": prio, "description": desc, "cost": cost,
                "status": status} for j, (r, cat, prio, desc, cost, status) in enumerate(ticket_rows)]

    notices = [{"guest": guests[12]["id"], "kind": "tier_upgrade", "audience": "guest", "status": "sent"}]
    for res in reservations:  # the notices the rules sent when the VIPs in house checked in and when departed guests left owing
        guest = next(g for g in guests if g["id"] == res["guest"])
        if res["status"] == "checked_in" and guest["vip"]:
            notices.append({"guest": guest["id"], "reservation": res["id"], "kind": "welcome", "audience": "guest", "status": "sent"})
        if res["status"] == "checked_out" and res["balance"] > 0:
            notices.append({"guest": guest["id"], "reservation": res["id"], "kind": "payment_reminder", "audience": "guest",
                            "status": "sent"})
    notices.append({"guest": reservations[12]["guest"], "reservation": reservations[12]["id"], "kind": "void_review",
                    "audience": "staff", "note": "Treatment posted twice", "status": "closed"})
    if reservations[0]["balance"] > hotel_of["HTL01"]["credit_limit"]:
        notices.append({"guest": reservations[0]["guest"], "reservation": reservations[0]["id"], "kind": "credit_limit",
                        "audience": "staff", "status": "open"})
    fields = TABLES["guest_notice"]["fields"]
    notices = [{"id": f"GN{j + 1:02d}", **{f: n.get(f) for f in fields}} for j, n in enumerate(notices)]
    return {"hotel": hotels, "room": rooms, "guest": guests, "rate_plan": plans, "reservation": reservations, "folio_charge": charges,
            "guest_payment": payments, "housekeeping_task": tasks, "maintenance_ticket": tickets, "guest_notice": notices}


# -- candidate writes ----------------------------------------------------------------------------

def _number_values(table: str, field: str, rec: Row, state: State, limits: Limits, rng: random.Random) -> set[float]:
    """Plausible new values of a number field: around its value, and on both sides of every threshold the rules compare it with."""
    base = float(rec.get(field) or 0)
    values = near_thresholds(limits, table, field)
    if table == "reservation":
        arrival, departure = float(rec["arrival"] or 0), float(rec["departure"] or 0)
        if field == "arrival":
            values |= {arrival - 1, arrival + 1, departure - 1}  # an earlier arrival, a later one, a single night
        elif field == "departure":
            values |= {departure + 1, departure + rng.choice([2, 3, 7]), arrival + 1}
        elif field == "nightly_rate":
            values |= {_round(base * 1.1, 2), base - 10, _round(base * 0.85, 2)}
        elif field == "adults":
            values |= {1, 2, 3}
        elif field == "charges_total":
            values |= {_round(base + rng.choice([150, 600]), 2)}
        elif field == "paid_total":
            values |= {float(rec["charges_total"] or 0), _round(base + 100, 2)}
        else:
            values |= {_round(base + 1, 2) if field == "nights" else _round(base + 50, 2)}
    elif table == "folio_charge":
        if field == "quantity" and rec["unit_price"] is not None:
            values |= {base + 1, base * 2}
        elif field == "unit_price" and rec["quantity"] is not None:
            values |= {_round(base * 1.2, 2), base + 10}
        elif field == "amount":
            values |= {_round(base + 25, 2), _round(base * 0.5, 2)}
    elif table == "guest_payment":
        values |= {_round(base * 0.5, 2), base + 100}
    elif table == "guest":
        if field == "lifetime_nights":
            # on both sides of each tier's line, and a few more nights
            values |= {v for _t, least in TIER_NIGHTS for v in (least - 1, least)} | {base + 2, base + rng.choice([5, 8])}
        elif field == "points":
            values |= {base + 500, 0}
        else:
            values |= {base + 1}
    elif table == "hotel":
        if field == "city_tax":
            values |= {base + 0.5, 0, base * 2}
        elif field == "credit_limit":
            values |= {base - 300, base + 500}
        elif field == "stars":
            values |= {min(base + 1, 5), base - 1}
        else:
            values |= {base + 1}
    elif table == "room":
        if field == "base_rate":
            values |= {_round(base * 1.1, 0), base - 10}
        else:
            values |= {base + 1}
    elif table == "rate_plan":
        values |= {0, base + 5, 30}
    elif table == "housekeeping_task":
        values |= {base + 15, 20}
    elif table == "maintenance_ticket":
        values |= {base + 100 if base else 150}
    return values


def _rename(table: str, field: str, rec: Row, idx: int) -> str | None:
    """A realistic new text for a name-like field, or None for fields nobody renames."""
    cur = str(rec.get(field) or "")
    if (table, field) == ("hotel", "name"):
        return cur + " & Spa"
    if (table, field) == ("guest", "email"):
        return cur.replace("@mail.example", "@work.example")
    if (table, field) == ("rate_plan", "name"):
        return cur + " (revised)"
    if (table, field) == ("folio_charge", "description"):
        return cur + " (corrected)" if cur else "Adjusted at the front desk"
    if (table, field) == ("guest_payment", "reference"):
        return cur + "-R"
    if (table, field) == ("housekeeping_task", "attendant"):
        return _ATTENDANTS[(idx + 2) % len(_ATTENDANTS)]
    if (table, field) == ("maintenance_ticket", "description"):
        return cur + " - parts ordered"
    if (table, field) == ("guest_notice", "note"):
        return cur + " - acknowledged" if cur else None
    return None


_NEW_HOTELS = [("POR", "Douro Riverside Porto", "Porto", 4, 2, 1000), ("BER", "Spree Loft Berlin", "Berlin", 3, 5, 900),
               ("ROM", "Villa Aurelia Rome", "Rome", 5, 6, 2000)]
_NEW_ROOMS = [("301", "double", 3), ("302", "suite", 3), ("303", "single", 3), ("304", "family", 3), ("305", "twin", 3)]
_NEW_GUESTS = ["Nadia Rahman", "Sean Murphy", "Paula Jimenez", "Viktor Petrov", "Mia Schneider", "Tariq Aziz"]
_NEW_PLANS = [("MEMB", "Members' rate", 8, True), ("NRF", "Non-refundable saver", 18, False), ("SEN", "Seniors' rate", 12, True)]
_EXTRA_KINDS = [("minibar", "Minibar", [3.5, 6, 7.5]), ("restaurant", "Dinner", [42, 58.5, 96]), ("spa", "Massage", [95, 140, 180]),
                ("laundry", "Laundry service", [12, 18.5]), ("parking", "Garage", [25, 30])]
_TICKET_TEXT = [("plumbing", "Toilet keeps running"), ("electrical", "Bedside lamp flickers"), ("hvac", "Room too warm"),
                ("appliance", "Safe will not open"), ("furniture", "Wardrobe door off its hinge")]


def _insert_values(table: str, state: State, rng: random.Random, k: int) -> dict[str, Any]:
    """A realistic new record of ``table`` (some fields left to their defaults or to the rules)."""
    pick = partial(pick_row, state, rng)
    if table == "hotel":
        code, name, city, stars, tax, limit = _NEW_HOTELS[k % len(_NEW_HOTELS)]
        return {"code": code, "name": name, "city": city, "stars": stars, "city_tax": tax, "credit_limit": limit}
    if table == "room":
        number_, kind, floor = _NEW_ROOMS[k % len(_NEW_ROOMS)]
        hotel = pick("hotel")
        out: dict[str, Any] = {"hotel": hotel["id"], "number": number_, "room_type": kind, "floor": floor,
                               "base_rate": _BASE_RATE[kind] + rng.choice([0, 10, 25]), "max_guests": _MAX_GUESTS[kind]}
        if k % 5 == 2:  # handed over with a snag list
            out["status"] = "out_of_order"
        elif k % 5 == 4:
            out["status"] = "dirty"
        return out
    if table == "guest":
        name = _NEW_GUESTS[k % len(_NEW_GUESTS)]
        out = {"name": name, "email": name.lower().replace(" ", ".") + "@mail.example"}
        if k % 3 == 0:  # a guest moved over from a partner chain with their history
            out["lifetime_nights"] = rng.choice([6, 12, 30, 55])
            out["points"] = rng.choice([2000, 9000, 30000])
        elif k % 3 == 1:
            out["vip"] = True
        return out
    if table == "rate_plan":
        code, name, disc, refundable = _NEW_PLANS[k % len(_NEW_PLANS)]
        return {"code": code, "name": name, "discount_pct": disc, "refundable": refundable}
    if table == "reservation":
        if k % 4 == 0:
            guest = pick("guest", lambda g: g["tier"] in ("gold", "platinum"))
        else:
            guest = pick("guest")
        walk_in = k % 4 == 2
        if walk_in:  # a guest without a booking takes a free room that is ready
            room = pick("room", lambda r: r["status"] == "clean" and not r["occupied"])
        else:
            room = pick("room", lambda r: r["status"] != "out_of_order")
        plan = pick("rate_plan", lambda p: p["active"])
        nights = rng.choice([1, 2, 3, 4, 5, 7, 10])
        arrival = TODAY if walk_in else TODAY + rng.randrange(0, 12)
        out = {"guest": guest["id"], "room": room["id"], "rate_plan": plan["id"], "arrival": arrival, "departure": arrival + nights,
               "adults": min(rng.choice([1, 2, 2, 3]), int(room["max_guests"] or 1)), "channel": _CHANNELS[k % 4]}
        if walk_in:
            out["status"] = "checked_in"
        if k % 5 == 3:  # a rate agreed by the sales team
            out["nightly_rate"] = float(_round(float(room["base_rate"] or 100) * 0.8, 0))
        return out
    if table == "folio_charge":
        res = pick("reservation", lambda r: r["status"] == "checked_in")
        kind, desc, prices = _EXTRA_KINDS[k % len(_EXTRA_KINDS)]
        if k % 4 == 3:  # a flat charge keyed in by hand
            return {"reservation": res["id"], "kind": kind, "description": desc, "amount": rng.choice([45, 120, 260])}
        return {"reservation": res["id"], "kind": kind, "description": desc, "quantity": rng.choice([1, 2, 3]),
                "unit_price": rng.choice(prices)}
    if table == "guest_payment":
        if k % 4 == 3:  # paid with loyalty points, by a guest who has enough of them
            amount = rng.choice([20, 50, 80])
            res = pick("reservation", lambda r: r["status"] in ("checked_in", "booked")
                       and float((state.get("guest", r["guest"]) or {}).get("points") or 0) >= amount * POINTS_PER_UNIT)
            return {"reservation": res["id"], "method": "points", "amount": amount, "reference": f"LOY-{21000 + k}"}
        res = pick("reservation", lambda r: r["status"] in ("checked_in", "booked", "checked_out"))
        balance = float(res["balance"] or 0)
        amount = balance if balance > 0 and k % 2 == 0 else rng.choice([100, 250, 500])
        return {"reservation": res["id"], "method": ["card", "cash", "bank_transfer"][k % 3], "amount": amount,
                "reference": f"TX-{7300 + k}"}
    if table == "housekeeping_task":
        if k % 4 == 1:  # a task logged after the fact, already done
            room = pick("room", lambda r: r["status"] == "dirty")
            return {"room": room["id"], "kind": "departure_clean", "attendant": _ATTENDANTS[k % 4], "minutes": 30, "status": "done"}
        room = pick("room")
        return {"room": room["id"], "kind": ["turndown", "inspection", "stayover"][k % 3], "attendant": _ATTENDANTS[k % 4],
                "minutes": rng.choice([10, 15, 20])}
    if table == "maintenance_ticket":
        room = pick("room")
        cat, desc = _TICKET_TEXT[k % len(_TICKET_TEXT)]
        return {"room": room["id"], "category": cat, "priority": _PRIORITIES[k % 4], "description": desc}
    guest = pick("guest")
    return {"guest": guest["id"], "kind": ["complaint", "welcome"][k % 2], "audience": ["staff", "guest"][k % 2],
            "note": ["Noise from the street", "Flowers on arrival"][k % 2]}


FAMILY = WorldFamily("hotel", "Hotel", "a hotel chain's property-management system (reservations, folios, housekeeping)", 73211, 60,
                     TABLES, _records, _rules_a, build_shifts,
                     CandidateWrites(_number_values, _insert_values, numbered_ids(_ID_PREFIX), rename=_rename))

if __name__ == "__main__":
    sys.exit(FAMILY.main())
