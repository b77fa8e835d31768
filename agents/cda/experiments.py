"""Systematic experiments over any world: no domain knowledge, only the schema and the records.

The sweep writes every field of every table with each class of value
(other choices, flipped booleans, numbers around and far from the current
ones, other references and null, empty and new text), inserts clones of
existing records and deletes records. Follow-up experiments generalise a
positive observation to other records and bisect numeric boundaries.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from memkit.rules import Action, Schema, State
from memkit.rules.schema import is_number
from memkit.rules.values import values_equal

from agents.cda.hypotheses import copied_fields

__all__ = ["sweep", "pick_records", "generalise", "bisect_pairs", "raised_fields", "status_fields_of", "is_aimed_number_write",
           "record_with_flags_raised", "choice_change_purpose"]


def _children(state: State, table: str) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(id of the ``table`` record referred to, referring table, its reference field, the referring
    row) for every record that refers to a record of ``table``."""
    for t2, spec in state.schema.tables.items():
        refs = [f for f, fs in spec.fields.items() if fs.type == "reference" and fs.ref == table]
        for row in state.rows(t2) if refs else ():
            for f in refs:
                parent = row.get(f)
                if isinstance(parent, str):
                    yield parent, t2, f, row


def _incoming_references(state: State, table: str) -> dict[str, dict[str, int]]:
    """For each record of ``table``: how many records refer to it, per referring ``table.field``."""
    counts: dict[str, dict[str, int]] = {}
    for parent, t2, f, _ in _children(state, table):
        per = counts.setdefault(parent, {})
        per[f"{t2}.{f}"] = per.get(f"{t2}.{f}", 0) + 1
    return counts


def pick_records(state: State, table: str, k: int, rng: random.Random) -> list[dict[str, Any]]:
    """Up to ``k`` records of ``table`` that differ from one another as much as possible."""
    rows = state.rows(table)
    if not rows:
        return []
    # the most referenced record first: writes on it reach the most related records, so
    # rules that act on children (reassign a user's tasks) show their effects
    incoming = _incoming_references(state, table)
    defaults = _defaults(state, table, "boolean")
    chosen = [max(rows, key=lambda r: sum(incoming.get(r["id"], {}).values()))]
    while len(chosen) < min(k, len(rows)):
        covered = {src for c in chosen for src in incoming.get(c["id"], {})}
        # flags every chosen record has raised: a rule that raises one (a manager becomes VIP)
        # shows nothing on any of the chosen records
        raised = [f for f, d in defaults.items() if all(c.get(f) not in (None, d) for c in chosen)]

        def distance(r: dict[str, Any]) -> tuple[int, int, int, float]:
            # first records referred to by kinds of records the chosen ones are not (a user with
            # tasks after one with approvals), then records unlike the chosen ones, and among
            # those the ones whose flags are at the defaults the chosen ones have left (ahead of
            # unlikeness, or with statuses counted too, this changed which claims and loans other
            # families wrote, and cost them more than it gave)
            fresh = len(set(incoming.get(r["id"], {})) - covered)
            at_default = sum(1 for f in raised if r.get(f) in (None, defaults[f]))
            return (fresh, min(sum(1 for f in r if f != "id" and r[f] != c.get(f)) for c in chosen), at_default, rng.random())

        best = max((r for r in rows if r not in chosen), key=distance)
        chosen.append(best)
    return chosen


def _record_away_from(state: State, table: str, field: str, value: Any) -> dict[str, Any] | None:
    """A record of ``table`` whose ``field`` holds another value than ``value``: one at the field's
    default where there is one (a draft lease is the one made active), else one at the commonest
    other value; None where every record holds ``value``."""
    others = [r for r in state.rows(table) if r.get(field) is not None and not values_equal(r.get(field), value)]
    if not others:
        return None
    spec = state.schema.tables[table].fields[field]
    counts = Counter(r[field] for r in others)
    # max keeps the earliest of equals: the table's order
    return max(others, key=lambda r: (spec.has_default and r[field] == spec.default, counts[r[field]]))


def record_with_flags_raised(state: State, table: str, first: dict[str, Any]) -> dict[str, Any] | None:
    """Another record of ``table`` with the most of the flags ``first`` has down raised (the
    earliest of equals), or None where no record raises one."""
    down = [f for f, spec in state.schema.tables[table].fields.items() if spec.type == "boolean" and not first.get(f)]
    raised = {r["id"]: sum(1 for f in down if r.get(f) is True) for r in state.rows(table) if r["id"] != first["id"]}
    best = max(raised, key=lambda rid: raised[rid], default=None)
    return state.get(table, best) if best is not None and raised[best] > 0 else None


def _parent_of_another_kind(state: State, table: str, current: Any) -> str | None:
    """The record of ``table`` whose choices and booleans differ most from ``current``'s."""
    base = state.get(table, current) if isinstance(current, str) else None
    if base is None:
        return None
    spec = state.schema.tables[table]
    kinds = spec.fields_of_type("choice", "boolean")
    if not kinds:
        return None
    best = max(state.rows(table), key=lambda r: (sum(1 for f in kinds if r.get(f) != base.get(f)), r["id"] == current))
    return best["id"] if best["id"] != current and any(best.get(f) != base.get(f) for f in kinds) else None


def _record_with_children_in_other_states(state: State, table: str, first: dict[str, Any]) -> str | None:
    """The record of ``table`` whose children (records referring to it) are in the most states
    that ``first``'s children are not in, or None where no record has any.

    A rule that deletes or voids the children a deleted record leaves behind often keeps to
    some of their states (the containers still on board of a cancelled call, the open charges
    of a dropped enrollment): deleting a record whose children have all moved on shows nothing.
    """
    states: dict[str, set[tuple[str, str, str, Any]]] = {}
    kinds = {t2: spec.fields_of_type("choice", "boolean") for t2, spec in state.schema.tables.items()}
    for parent, t2, f, row in _children(state, table):
        if kinds[t2]:
            states.setdefault(parent, set()).update((t2, f, k, row.get(k)) for k in kinds[t2])
    seen = states.get(first["id"], set())
    best = max((r["id"] for r in state.rows(table) if r["id"] != first["id"]),
               key=lambda rid: (len(states.get(rid, set()) - seen), len(states.get(rid, ()))), default=None)
    return best if best is not None and states.get(best, set()) - seen else None


def _defaults(state: State, table: str, kind: str) -> dict[str, Any]:
    """The default of every field of ``table`` of ``kind``: booleans without one default to False,
    choices without one are left out."""
    out: dict[str, Any] = {}
    for f, fs in state.schema.tables[table].fields.items():
        if fs.type == kind and (fs.has_default or kind == "boolean"):
            out[f] = fs.default if fs.has_default else False
    return out


def _choice_and_flag_defaults(state: State, table: str) -> dict[str, Any]:
    """The default of every choice (that has one) and every flag of ``table``."""
    return {**_defaults(state, table, "choice"), **_defaults(state, table, "boolean")}


def _record_at_defaults(state: State, table: str, first: dict[str, Any], kind: str) -> tuple[dict[str, Any], list[str]] | None:
    """A record whose fields of ``kind`` are at their defaults where ``first``'s are not, and those
    fields; or None.

    A rule that sets a flag (or a status) when a number crosses a threshold shows
    nothing on a record whose flag is already set (stock below 25 is 'low': nothing
    shows on stock that is low): the number sweep's first record may be one.
    """
    defaults = _defaults(state, table, kind)
    raised = [f for f, d in defaults.items() if first.get(f) not in (None, d)]
    if not raised:
        return None
    best = max((r for r in state.rows(table) if r["id"] != first["id"]),
               key=lambda r: sum(1 for f in raised if r.get(f) in (None, defaults[f])), default=None)
    if best is None:
        return None
    at_default = [f for f in raised if best.get(f) in (None, defaults[f])]
    return (best, at_default) if at_default else None


def _filled_at_defaults(state: State, table: str, first: dict[str, Any], field: str) -> dict[str, Any] | None:
    """The record to clone for an insert without ``field``: ``first`` unless another record that
    fills ``field`` has more of its choices and flags at their defaults; None where none fills it.

    The tests' inserts leave such a field out together with the status, which then takes its
    default, and a fill rule may hold only there (a claim's approver is set while it is
    submitted): a clone of an approved claim without its approver shows nothing.
    """
    defaults = _choice_and_flag_defaults(state, table)

    def at_defaults(r: dict[str, Any]) -> int:
        return sum(1 for f, d in defaults.items() if r.get(f) in (None, d))

    # max keeps the earliest of equals: ``first`` on a tie, else the table's order
    filled = [r for r in [first, *state.rows(table)] if r.get(field) is not None]
    return max(filled, key=at_defaults) if filled else None


def raised_fields(state: State, action: Action) -> tuple[str, ...]:
    """The choices of the record an update writes that are not at their defaults (() for inserts)."""
    rec = state.get(action.table, action.id) if action.op != "insert" else None
    if rec is None:
        return ()
    return tuple(f for f, d in _defaults(state, action.table, "choice").items() if rec.get(f) not in (None, d))


def choice_change_purpose(table: str, field: str, value: Any) -> str:
    """The purpose the sweep gives a change of one choice on its first records (``claim.status ->
    approved``); the policy finds those writes among its observations by it."""
    return f"{table}.{field} -> {value}"


def status_fields_of(purpose: str) -> list[str]:
    """The choices a sweep write on a record at its default status is for ([] for other writes)."""
    m = re.search(r"\(status ([\w,]+) at its default\)$", purpose)
    return m.group(1).split(",") if m else []


def _number_values(current: Any, column: list[float]) -> list[float]:
    cur = float(current) if is_number(current) else 0.0
    hi = max(column + [cur, 1.0])
    # 0 and a value far above the column first: any threshold lies between them, and bisection finds it
    vals = [0.0, round(hi * 10 + 7, 2), round(cur * 2 + 1, 2), round(cur / 2, 2) if cur else 1.0]
    out: list[float] = []
    for v in vals:
        if v != cur and v not in out:
            out.append(v)
    return out


def sweep(schema: Schema, state: State, rng: random.Random, *, records_per_table: int = 2, new_id=None,
          children_deletes: bool = True, omit_copies: bool = True) -> list[list[tuple[str, Action]]]:
    """The systematic pass, in phases of falling priority: lists of (purpose, action) from ``state``.

    Phase 0 changes every choice of a first record; phase 1 flips booleans,
    writes numbers (0 and far above the column), inserts and deletes; phase 2
    changes choices on a second, dissimilar record and references, numbers
    on a record whose flags are at their defaults when the first one's are not,
    and deletes a record whose children are in states the first one's are not
    (unless ``children_deletes`` is False), and inserts a clone without each
    number or reference the table's records mostly hold as a copy of a related
    record's, of the first record or of one with more choices and flags at their
    defaults (unless ``omit_copies`` is False); phase 3 the rest (third records,
    more numbers, null references, text). Within phases 2 and 3 the writes aimed
    at one kind of rule (numbers on a record at its defaults, inserts that leave
    fields to fill rules) come first, then the variations, the tables taking
    turns within each.
    """
    by_phase: dict[int, list[tuple[str, Action]]] = {}

    def add(phase: int, purpose: str, action: Action) -> None:
        by_phase.setdefault(phase, []).append((purpose, action))

    for table, spec in schema.tables.items():
        recs = pick_records(state, table, records_per_table, rng)
        if not recs:
            continue
        numeric_big = {
            f: round(max([float(r[f]) for r in state.rows(table) if is_number(r.get(f))] + [1.0]) * 10 + 7, 2)
            for f, fs in spec.fields.items() if fs.type == "number"
        }
        for n, rec in enumerate(recs):
            rid = rec["id"]
            for fname, fspec in spec.fields.items():
                cur = rec.get(fname)
                if fspec.type == "choice":
                    for choice in fspec.choices or ():
                        if choice != cur:
                            add(0 if n == 0 else 2 if n == 1 else 3, choice_change_purpose(table, fname, choice), Action("update", table, rid, {fname: choice}))
                            if n == 0 and numeric_big:
                                # the same change on a record whose numbers are all large: conditions that
                                # also need a threshold to hold show up here
                                add(2, f"{choice_change_purpose(table, fname, choice)} with large numbers", Action("update", table, rid, {fname: choice, **numeric_big}))
                    origin = _record_away_from(state, table, fname, cur) if n == 0 and cur is not None else None
                    if origin is not None:
                        # every write starts from the initial records, so the first record's own value is
                        # never a target above: the change into the state most records are in (a lease
                        # made active, a unit occupied) shows only on a record in another one
                        add(0, f"{choice_change_purpose(table, fname, cur)} on {origin['id']} (from {origin[fname]})",
                            Action("update", table, origin["id"], {fname: cur}))
                elif fspec.type == "boolean" and n <= 1:
                    add(1 if n == 0 else 2, f"{table}.{fname} flipped", Action("update", table, rid, {fname: not bool(cur)}))
                elif fspec.type == "number":
                    column = [float(r[fname]) for r in state.rows(table) if is_number(r.get(fname))]
                    values = _number_values(cur, column)
                    if n > 0:
                        values = values[2:3]
                    for k, v in enumerate(values):
                        phase = 1 if (n == 0 and k < 2) else 3
                        add(phase, f"{table}.{fname} = {v}", Action("update", table, rid, {fname: v}))
                elif fspec.type == "reference" and n == 0:
                    others = [r["id"] for r in pick_records(state, fspec.ref or "", 3, rng) if r["id"] != cur]
                    for other in others[:1]:
                        add(2, f"{table}.{fname} -> other {fspec.ref}", Action("update", table, rid, {fname: other}))
                    if cur is not None:
                        add(3, f"{table}.{fname} -> null", Action("update", table, rid, {fname: None}))
                elif fspec.type == "string" and n == 0:
                    add(3, f"{table}.{fname} edited", Action("update", table, rid, {fname: f"{cur or ''} (edited)"}))
                    if cur:
                        add(3, f"{table}.{fname} emptied", Action("update", table, rid, {fname: ""}))
        plain = _record_at_defaults(state, table, recs[0], "boolean") if numeric_big else None
        label = "flags at their defaults"
        if numeric_big and plain is None:
            plain = _record_at_defaults(state, table, recs[0], "choice")
            # kept only where a rule of the table sets one of these choices (see policy)
            label = f"status {','.join(plain[1])} at its default" if plain is not None else label
        if plain is not None:
            rec = plain[0]
            for fname, big in numeric_big.items():
                # both ends: a flag raised at one and not at the other is a threshold to bisect
                # (on a record already at 0 the policy writes 1 where the large value shows a rule)
                for v in (big, 0.0):
                    if rec.get(fname) != v:
                        add(2, f"{table}.{fname} = {v} on {rec['id']} ({label})", Action("update", table, rec["id"], {fname: v}))
        for n, rec in enumerate(recs):
            values = {k: v for k, v in rec.items() if k != "id" and v is not None}
            add(1 if n == 0 else 2, f"insert a clone of {table}/{rec['id']}", Action("insert", table, new_id(table) if new_id else f"{table}_probe{n}", values))
            if n == 0 and any(is_number(v) for v in values.values()):
                # new numbers everywhere: a field a before rule derives shows up as overridden
                varied = {k: (round(float(v) * 2 + 1, 2) if is_number(v) else v) for k, v in values.items()}
                add(1, f"insert a varied clone of {table}/{rec['id']}", Action("insert", table, new_id(table) if new_id else f"{table}_probe_v", varied))
            if n == 0 and numeric_big:
                # the tests' inserts leave the status out, and a rule on new records may hold only at
                # the default and above a threshold (an annual leave request, pending, for more days
                # than the balance): a clone with its choices and flags left to their defaults and
                # every number large
                defaulted = _choice_and_flag_defaults(state, table)
                if any(values.get(f) not in (None, d) for f, d in defaulted.items()):
                    big = {k: v for k, v in values.items() if k not in defaulted}
                    big.update({f: v for f, v in numeric_big.items() if f in values})
                    add(2, f"insert {table} at its defaults with large numbers",
                        Action("insert", table, new_id(table) if new_id else f"{table}_probe_d", big))
            if n == 0 and omit_copies:
                for f, path in copied_fields(state, table).items():
                    base = _filled_at_defaults(state, table, rec, f)
                    if base is not None:
                        add(2, f"insert {table} without {f} (it holds {path})",
                            Action("insert", table, new_id(table) if new_id else f"{table}_probe_o_{f}",
                                   {k: v for k, v in base.items() if k not in ("id", f) and v is not None}))
            add(1 if n == 0 else 3, f"delete {table}/{rec['id']}", Action("delete", table, rec["id"]))
            if n == 0:
                other = _record_with_children_in_other_states(state, table, rec) if children_deletes else None
                if other is not None:
                    add(2, f"delete {table}/{other} (children in other states)", Action("delete", table, other))
                # only the references: defaults and before rules fill the rest, and show what they derive
                refs = {k: v for k, v in values.items() if spec.fields[k].type == "reference"}
                add(2, f"insert {table} with references only", Action("insert", table, new_id(table) if new_id else f"{table}_probe_r", refs))
                # under a parent of another kind: a rule may look at the parent (a VIP opener)
                for k in refs:
                    parent = _parent_of_another_kind(state, spec.fields[k].ref or "", refs[k])
                    if parent is not None:
                        add(2, f"insert {table} under {k} {parent}",
                            Action("insert", table, new_id(table) if new_id else f"{table}_probe_p", {**refs, k: parent}))
                # every choice field cycled through its values, one insert per value index
                choice_fields = [k for k, fs in spec.fields.items() if fs.type == "choice"]
                width = max((len(spec.fields[k].choices or ()) for k in choice_fields), default=0)
                for j in range(min(width, 3)):
                    cycled = dict(values)
                    for k in choice_fields:
                        ch = spec.fields[k].choices or ()
                        cycled[k] = ch[-1 - (j % len(ch))]  # last values first: they are often the special ones
                    add(2 if j == 0 else 3, f"insert {table} with choices #{j}", Action("insert", table, new_id(table) if new_id else f"{table}_probe_c{j}", cycled))
    # the budget may run out inside a later phase: there the writes aimed at one kind of rule
    # come first (numbers on a record at its defaults; inserts that leave fields to the fill rules:
    # without a copied field, at the defaults, with references only, under another parent), then
    # the variations, and within each the tables take turns, so that a table late in the schema
    # does not lose its one insert that shows a fill rule (a claim without its approver) to
    # variations on the first tables
    return [by_phase[p] if p < 2 else _by_turns(by_phase[p]) for p in sorted(by_phase)]


_AIMED_NUMBER = re.compile(r" on \w+ \((flags|status [\w,]+) at (their|its) defaults?\)$")
_AIMED_INSERT = re.compile(r"^insert \w+ (without |at its defaults |with references only$|under \w+ \w+$)")


def is_aimed_number_write(purpose: str) -> bool:
    """Whether a sweep write's purpose is a number written on a record at its defaults (its flags,
    or its status where the table has no flags)."""
    return bool(_AIMED_NUMBER.search(purpose))


def _by_turns(planned: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
    """``planned`` with the aimed writes first, then the rest, each reordered so that every
    table's k-th write comes before any table's (k+1)-th; a table's aimed inserts (fill rules)
    alternate with its aimed numbers (thresholds), inserts first."""
    def turns(queues: Iterable[list[tuple[str, Action]]]) -> list[tuple[str, Action]]:
        queues = [q for q in queues if q]
        return [q[k] for k in range(max(map(len, queues), default=0)) for q in queues if k < len(q)]

    # per table: its aimed inserts, its aimed numbers, the rest (kind 0, 1, 2), in planned order
    by_table: dict[str, tuple[list[tuple[str, Action]], ...]] = {}
    for item in planned:
        kind = 0 if _AIMED_INSERT.search(item[0]) else 1 if _AIMED_NUMBER.search(item[0]) else 2
        by_table.setdefault(item[1].table, ([], [], []))[kind].append(item)
    return turns(turns(kinds[:2]) for kinds in by_table.values()) + turns(kinds[2] for kinds in by_table.values())


def generalise(action: Action, state: State, rng: random.Random, k: int = 3, new_id=None) -> list[Action]:
    """The same write applied to up to ``k`` other, dissimilar records (or inserted under other parents)."""
    out: list[Action] = []
    schema = state.schema
    if action.op in ("update", "delete"):
        base = state.get(action.table, action.id)
        candidates = [r for r in pick_records(state, action.table, k + 4, rng) if r["id"] != action.id]
        # prefer records unlike the original, but on which the write still changes something
        for rec in candidates:
            if action.op == "update" and all(rec.get(f) == v for f, v in action.values.items()):
                continue
            out.append(Action(action.op, action.table, rec["id"], dict(action.values)))
            if len(out) >= k:
                break
        _ = base
    else:
        spec = schema.tables[action.table]
        refs = [f for f, s in spec.fields.items() if s.type == "reference" and action.values.get(f) is not None]
        for i in range(k):
            values = dict(action.values)
            for f in refs:
                pool = [r["id"] for r in pick_records(state, spec.fields[f].ref or "", k + 2, rng)]
                if len(pool) > i + 1:
                    values[f] = pool[i + 1]
            out.append(Action("insert", action.table, new_id(action.table) if new_id else f"{action.table}_gen{i}", values))
    return out


def bisect_pairs(actions: Sequence[tuple[Action, bool]], state: State | None = None) -> list[tuple[Action, Action, str]]:
    """Pairs (negative, positive) of writes that differ only in one numeric value: bisection starts.

    An update that leaves a field out is read as writing the record's current
    value (from ``state``), so ``{state: submitted}`` on a record with total 40
    pairs with ``{state: submitted, total: 500}`` on the same record.
    """
    out: list[tuple[Action, Action, str]] = []
    seen: set[tuple[str, str, str, str]] = set()

    def effective(b: Action, keys: Sequence[str]) -> dict[str, Any] | None:
        if set(b.values) == set(keys):
            return dict(b.values)
        if b.op != "update" or state is None or not set(b.values) <= set(keys):
            return None
        rec = state.get(b.table, b.id)
        if rec is None:
            return None
        return {k: b.values.get(k, rec.get(k)) for k in keys}

    for a, pa in actions:
        if not pa:
            continue
        for b, pb in actions:
            if pb or a.op != b.op or a.table != b.table:
                continue
            # writes on two different records are no pair: the negative may only look negative
            # because its record already held the effect (see policy._cross_record_pairs)
            bvals = effective(b, list(a.values)) if (a.op == "insert" or a.id == b.id) else None
            if bvals is None:
                continue
            diff = [f for f in a.values if a.values[f] != bvals[f]]
            if len(diff) != 1 or not (is_number(a.values[diff[0]]) and is_number(bvals[diff[0]])):
                continue
            key = (a.op, a.table, a.id if a.op != "insert" else "", diff[0])
            if key in seen:
                continue
            seen.add(key)
            out.append((Action(b.op, b.table, b.id, bvals), a, diff[0]))
    return out
