"""The default discovery policy: systematic experiments and enumerative induction, no LLM.

Phases, in order: read rules (``definitions`` access only), replay the
evidence of inherited rules (the audit; taking turns with the sweep's first
phase, without ``definitions`` access), the systematic sweep, then
follow-ups for every rule learned or revised (generalisation to other
records, bisection of numeric boundaries), until nothing is left to try.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from memkit.errors import MemkitError
from memkit.rules import Action, Engine, Rule, Schema, effect_key, parse_rule
from memkit.rules.ast import Literal
from memkit.rules.rule import SetAction
from memkit.rules.schema import TableSpec, is_number
from memkit.rules.values import value_key, values_equal

from agents.cda.experiments import (bisect_pairs, choice_change_purpose, generalise, is_aimed_number_write, raised_fields,
                                    record_with_flags_raised, status_fields_of, sweep)
from agents.cda.hypotheses import nice_between, significant_digits
from agents.cda.induction import Inducer, InsertFill, induce_until_stable, kept_rule_rivals
from agents.cda.predictions import mispredicted, predictions_of
from agents.cda.session import DiscoverySession, Observation
from agents.cda.slots import Slot, effects_in_slot, slot_of_rule, slots_of_effects

__all__ = ["SystematicPolicy"]

_REFILLS = 8  # refills one plan may try before it gives up (each is a phase or a round of follow-ups)
# a condition's test of one of the rule's own record's choices: current.method == 'card' (not
# current.charge.status == ..., whose field is not the record's own)
_OWN_CHOICE = re.compile(r"(?<![\w.])current\.(\w+) == '([^']*)'")


class SystematicPolicy:
    """Systematic sweep + follow-ups; induction by enumerative search (see agents.cda.induction)."""

    name = "systematic"

    def __init__(self, *, batch: int = 12, records_per_table: int = 3, generalise_k: int = 1, bisect_steps: int = 8) -> None:
        self.batch = batch
        self.records_per_table = records_per_table
        self.generalise_k = generalise_k
        self.bisect_steps = bisect_steps

    # -- planning ---------------------------------------------------------------
    def _scratch(self, session: DiscoverySession) -> dict[str, Any]:
        s = session.scratch
        if "queue" not in s:
            s["queue"] = []
            s["rng"] = random.Random(session.seed)
            s["phase"] = "start"
            s["generalised"] = set()
            s["bisected"] = set()
            s["bisections"] = []
        return s

    def plan(self, session: DiscoverySession) -> list[Action]:
        """Next batch of experiments; refills the queue phase by phase."""
        s = self._scratch(session)
        # the platform starts every write from the same records, so a write seen before in this
        # world (an audit replay the sweep plans again) would only show the same effects
        done = {_write_key(o.action) for o in session.observations}
        batch: list[tuple[str, Action]] = []
        for _ in range(_REFILLS):  # a refill of only repeated writes moves on to the next phase
            self._refill(session, s)
            if s["phase"] in ("sweep", "followup"):
                # a low end costs one write and is tried at once: the follow-ups wait for the
                # phase's queue, and a large world's budget may end inside it
                s["queue"][:0] = self._low_ends(session)
            while s["queue"] and len(batch) < self.batch:
                item = s["queue"].pop(0)
                key = _write_key(item[1])
                if key not in done:
                    done.add(key)
                    batch.append(item)
            if batch or not s["queue"] and s["phase"] == "done":
                break
        session.scratch["purposes"] = {id(a): p for p, a in batch}
        return [a for _, a in batch]

    def _refill(self, session: DiscoverySession, s: dict[str, Any]) -> None:
        """Refill an empty queue with the next phase's experiments."""
        if s["phase"] == "start":
            s["phase"] = "audit"
            if session.audit and session.model.active():
                replays = self._audit_replays(session)
                if session.scratch.get("definitions_synced"):
                    s["queue"].extend(replays)
                else:
                    # a changed or deleted rule shows on its replays, an added one only on a write no
                    # rule's evidence holds: the sweep's first phase takes turns with the replays, so
                    # that neither waits for the other (an added rule's trigger came after 87 writes)
                    s["phases"] = self._sweep_phases(session)
                    s["queue"].extend(_take_turns(replays, self._prioritise(session, s["phases"][0]) if s["phases"] else []))
        if not s["queue"] and s["phase"] == "audit" and session.scratch.get("definitions_synced"):
            s["phase"] = "done"  # the rules were read: experiments would only confirm them
        if not s["queue"] and s["phase"] == "audit" and session.observations:
            # a threshold the replays contradicted is bisected again at once, before the sweep:
            # an inherited model whose one changed rule is a moved threshold is right again early
            s["queue"].extend(self._bisections(session))
        if not s["queue"] and s["phase"] == "audit":
            s["phase"] = "sweep"
            # phase 0's writes that took turns with the replays are not written again (see plan)
            phases = s.pop("phases", None) or self._sweep_phases(session)
            phases = [self._prioritise(session, ph) for ph in phases]
            # phases 0 and 1 first, then follow-ups, then the later phases one at a time
            s["queue"].extend(phases[0] + (phases[1] if len(phases) > 1 else []))
            s["later"] = phases[2:]
        if not s["queue"] and s["phase"] in ("sweep", "followup"):
            s["phase"] = "followup"
            # numbers on a record at its default status, once a rule of the table is seen setting
            # that status, come before any follow-up: its thresholds show only there (days overdue
            # on a returned loan show nothing), and follow-ups can take the rest of the budget
            s["queue"].extend(self._status_writes_now_due(session, s))
            s["queue"].extend(self._followups(session))
            if not s["queue"] and s.get("later"):
                phase = s["later"].pop(0)
                # the status writes wait for the rest of their phase (and its follow-ups): a write
                # there may be the first to show a rule of the table setting that status
                rest = [it for it in phase if not status_fields_of(it[0])]
                deferred = [it for it in phase if status_fields_of(it[0])]
                if rest and deferred:
                    s["later"].insert(0, deferred)
                    phase = rest
                s["queue"].extend(self._status_writes_that_matter(session, phase))

    def _sweep_phases(self, session: DiscoverySession) -> list[list[tuple[str, Action]]]:
        """The systematic sweep's phases from the initial records (see agents.cda.experiments.sweep)."""
        # the deletes of records whose children are in other states show a cascade's filter once,
        # and the inserts without a copied field a fill rule; an inherited model has had them in
        # its first world, and they cost a write per table (per copied field)
        inherited = _inherited(session)
        return sweep(session.platform.schema(), session.platform_initial, self._scratch(session)["rng"],
                     records_per_table=self.records_per_table, new_id=session.platform.new_id,
                     children_deletes=not inherited, omit_copies=not inherited)

    def _status_writes_now_due(self, session: DiscoverySession, s: dict[str, Any]) -> list[tuple[str, Action]]:
        """The later phases' status writes that matter by now, taken out of those phases."""
        later: list[list[tuple[str, Action]]] = s.get("later", [])
        status = [it for phase in later for it in phase if status_fields_of(it[0])]
        due = self._status_writes_that_matter(session, status) if status else []
        if due:
            taken = {id(it[1]) for it in due}
            s["later"] = [kept for phase in later if (kept := [it for it in phase if id(it[1]) not in taken])]
        return due

    def _status_writes_that_matter(self, session: DiscoverySession, planned: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
        """A later sweep phase without the number writes on a record at its default status where
        no write of the table has shown a rule of the table setting that status: they cost budget
        and would show nothing new."""
        set_by_own_rule = {(o.action.table, e[3]) for o in session.observations
                           for e in o.effects if e[0] == "set" and e[1] == o.action.table and e[2] == o.action.id}
        # a written field that ended up with another value was set by a before rule, though the
        # side effects leave the action's own fields out (a loan written 'active' that ends 'lost')
        set_by_own_rule |= {(o.action.table, f) for o in session.observations if o.action.op == "update" for f in _overridden(o)}
        return [(p, a) for p, a in planned
                if not (fields := status_fields_of(p)) or any((a.table, f) in set_by_own_rule for f in fields)]

    def _prioritise(self, session: DiscoverySession, planned: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
        """Order (and, with a rule listing, prune) the sweep.

        With ``listing`` or ``definitions`` access a write on a (table, event)
        that no listed rule triggers cannot have side effects, so it is
        skipped; triggers the listing has but the model does not cover come
        first. With an inherited model (any access), writes whose kind no
        rule's evidence has exercised come first: a new rule is likelier there.
        """
        covered: set[tuple[str, str]] = set()
        for lr in session.model.active():
            for ev in lr.evidence:
                a = ev.action
                covered.add((a.get("table", ""), a.get("op", "")))
        listed: dict[tuple[str, str], int] | None = None
        if getattr(session.platform, "access", "blind") != "blind":
            listed = {}
            for info in session.platform.list_rules():
                for event in info["events"]:
                    listed[(info["table"], event)] = listed.get((info["table"], event), 0) + 1
            modelled: dict[tuple[str, str], int] = {}
            for lr in session.model.active():
                for event in lr.rule.get("events", []):
                    modelled[(lr.rule["table"], event)] = modelled.get((lr.rule["table"], event), 0) + 1

        def key(item: tuple[str, Action]) -> int:
            a = item[1]
            trig = (a.table, a.op)
            if listed is not None:
                return 0 if listed.get(trig, 0) > modelled.get(trig, 0) else 1
            return 0 if trig not in covered else 1

        kept = [it for it in planned if listed is None or listed.get((it[1].table, it[1].op), 0) > 0]
        if listed is not None and len(kept) < len(planned):
            session.note(f"listing: skipped {len(planned) - len(kept)} writes on triggers that no rule has")
        return sorted(kept, key=key)

    def _audit_replays(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """Evidence of every active inherited rule, to be run again in this world (deduplicated)."""
        out: list[tuple[str, Action]] = []
        seen: set[str] = set()
        for lr in session.model.active():
            pos = [e for e in lr.evidence if e.supports][-2:]
            neg = [e for e in lr.evidence if not e.supports][-2:]
            for ev in pos + neg:
                try:
                    action = Action.from_dict(ev.action)
                except (KeyError, TypeError):
                    continue
                key = repr(action.to_dict())
                if key in seen:
                    continue
                seen.add(key)
                if action.op == "insert":
                    action = Action("insert", action.table, session.platform.new_id(action.table), dict(action.values))
                out.append((f"audit {lr.id}", action))
        return out

    def _followups(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        s = self._scratch(session)
        out: list[tuple[str, Action]] = []
        state = session.platform_initial
        # generalise each positive trigger (an observation whose effects a rule explains) once
        for obs in session.observations:
            if obs.purpose.startswith(("generalise", "bisect")):
                continue
            # a field the write set that the record does not hold afterwards is a before rule's
            # effect too, though side effects leave it out (an emergency admission inserted as
            # cancelled that comes out admitted): such an outcome is generalised like any other
            slots = sorted(_shown_slots(obs))
            if not slots:
                continue
            # one generalisation per kind of outcome: the same slots from the same kind of write
            key = repr((obs.action.op, obs.action.table, slots))
            if key in s["generalised"]:
                continue
            s["generalised"].add(key)
            for a in generalise(obs.action, state, s["rng"], self.generalise_k, new_id=session.platform.new_id):
                out.append((f"generalise {obs.action}", a))
        # a field a before rule derives on update may be derived on insert too: insert without it
        for lr in session.model.active():
            rule = lr.rule
            if rule.get("when") != "before":
                continue
            t = rule["table"]
            for act in rule["actions"]:
                for fname in act.get("set", {}):
                    key = ("omit", t, fname)
                    if key in s["generalised"]:
                        continue
                    s["generalised"].add(key)
                    default = state.schema.tables[t].fields[fname].default
                    if any(_derived_on_insert(o, t, fname, default) for o in session.observations):
                        continue
                    # the record of an update the field was derived on, as written: an insert of it
                    # meets the rule's condition too (a new student with a low GPA), where the
                    # first record may not (a clone of a student in good standing shows nothing)
                    values = _written_where_derived(session.observations, t, fname, default)
                    rows = state.rows(t)
                    if values is None and rows:
                        values = {k: v for k, v in rows[0].items() if k not in ("id", fname) and v is not None}
                    if values is not None:
                        out.append((f"insert {t} without {fname}", Action("insert", t, session.platform.new_id(t), values)))
        out.extend(self._flags_raised_repeats(session))
        out.extend(self._intermediate_probes(session))
        out.extend(self._cascade_probes(session))
        out.extend(self._zeros_kept_probes(session))
        out.extend(self._other_choice_inserts(session))
        out.extend(self._created_probes(session))
        out.extend(self._recount_events(session))
        out.extend(self._disambiguations(session))
        out.extend(self._bisections(session))
        return out

    def _flags_raised_repeats(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """A sweep's change of a choice that showed nothing, written again on a record with the most
        of the flags the first record has down raised, once per write and world.

        A rule on a change and a flag (a reefer box that is released is invoiced its power) shows
        nothing on a first record with the flag down, and a write that shows nothing is not followed
        up. Only such writes, and only in a later world, whose model is inherited: there the sweep
        mostly confirms the rules, and a rule added since may hinge on a flag; in a first world
        the 7-10 writes this costs took rules from ews-A (1.000 to 0.980) and lease-A.
        """
        if not _inherited(session):
            return []
        s = self._scratch(session)
        done: set[str] = s.setdefault("flags_raised", set())
        initial = session.platform_initial
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            a = o.action
            if a.op != "update" or len(a.values) != 1 or o.effects or _overridden(o) or o.rolled_back:
                continue
            [(f, v)] = a.values.items()
            if o.purpose != choice_change_purpose(a.table, f, v) or o.purpose in done:
                continue
            done.add(o.purpose)
            first = initial.get(a.table, a.id)
            flagged = record_with_flags_raised(initial, a.table, first) if first is not None else None
            if flagged is not None and not values_equal(flagged.get(f), v):
                out.append((f"{o.purpose} on {flagged['id']} (flags raised)", Action("update", a.table, flagged["id"], {f: v})))
        return out

    def _intermediate_probes(self, session: DiscoverySession, limit: int = 6) -> list[tuple[str, Action]]:
        """Where the model has a write set another record's field to ``v`` and the world shows ``w``
        there, ``v`` written on that record directly.

        A rule of the record in the middle may turn ``v`` into ``w`` (a copy made available goes
        to the hold shelf when its title has holds): learned from the first write instead, it
        would be a shortcut that knows nothing of the middle record. The direct write shows that
        rule on its own trigger. One probe per (table, field, v, w); numbers are left out.
        """
        s = self._scratch(session)
        done: set[tuple[str, ...]] = s.setdefault("intermediate", set())
        cache = predictions_of(session)
        engine = cache.engine(session.model.active_rules())
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            if o.rolled_back or not o.effects or len(out) >= limit:
                continue
            try:
                predicted = cache.run(engine, o).effects
            except MemkitError:
                continue
            shown = {(e[1], e[2], e[3]): e[4] for e in o.effects if e[0] == "set"}
            for e in predicted:
                if e[0] != "set" or (e[1], e[2]) == (o.action.table, o.action.id) or (e[1], e[2], e[3]) not in shown:
                    continue
                w = shown[(e[1], e[2], e[3])]
                if is_number(w) and is_number(e[4]):
                    continue  # a number off is a wrong expression (a balance summed wrongly), not a state a rule moved on
                key = (e[1], e[3], repr(value_key(e[4])), repr(value_key(w)))
                if values_equal(w, e[4]) or key in done:
                    continue
                done.add(key)
                out.append((f"intermediate {e[1]}.{e[3]} = {e[4]!r} (the world showed {w!r})", Action("update", e[1], e[2], {e[3]: e[4]})))
        return out

    def _cascade_probes(self, session: DiscoverySession, limit: int = 4) -> list[tuple[str, Action]]:
        """Where a write set a state (a choice or flag) of another record along with other fields of
        it, and no before rule of the model on that record's table's updates sets the state, those
        other fields written on that record directly, at the values the write gave them.

        A rule of the record in the middle may derive the state from them (a port call whose
        moves done reach the moves planned is completed): learned from the first write alone, the
        state change is a shortcut of the write's table (a container insert completes its call)
        that knows nothing of the middle record's condition. The direct write shows that rule on
        its own trigger. One probe per (table, fields written, states) and world, on a record of
        the initial records.
        """
        s = self._scratch(session)
        done: set[tuple[str, ...]] = s.setdefault("cascade", set())
        schema = session.platform.schema()
        initial = session.platform_initial
        # fields a before rule of the model derives on update: a state among them is explained on its
        # own record already, and a number among them is no input (a line total written directly
        # would only contradict the rule that derives it)
        derived: set[tuple[str, str]] = set()
        for lr in session.model.active():
            if "update" in lr.rule.get("events", []) and lr.rule.get("when") == "before":
                for act in lr.rule.get("actions", []):
                    derived.update((lr.rule["table"], f) for f in act.get("set", {}))
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            if o.rolled_back or len(out) >= limit:
                continue
            written: dict[tuple[str, str], dict[str, Any]] = {}
            for e in o.effects:
                if e[0] == "set" and (e[1], e[2]) != (o.action.table, o.action.id):
                    written.setdefault((e[1], e[2]), {})[e[3]] = e[4]
            for (t2, rid), fields in sorted(written.items()):
                if initial.get(t2, rid) is None:
                    continue
                kinds = set(schema.tables[t2].fields_of_type("choice", "boolean"))
                states = sorted(f for f in fields if f in kinds and (t2, f) not in derived)
                inputs = {f: v for f, v in fields.items() if f not in kinds and (t2, f) not in derived}
                key = (t2, *sorted(inputs), "->", *states)
                if not states or not inputs or key in done:
                    continue
                done.add(key)
                out.append((f"cascade {t2} {sorted(inputs)} (the world set {states} along)", Action("update", t2, rid, inputs)))
        return out

    def _zeros_kept_probes(self, session: DiscoverySession, limit: int = 4) -> list[tuple[str, Action]]:
        """Where an update of three fields or more set a field of its own record it did not write
        (or ended with another state than it wrote), the same write without one of the numbers it
        raised from 0, one probe per (table, number) and world.

        A sweep write that sets every number of a record large (an issued bill's days overdue, with
        its late fee and amount paid too) also breaks the guards that ask a number to stay 0 (a
        late fee is charged while the bill's late fee is 0): the rule behind such a guard never
        fires on those writes, and nothing else writes the trigger without the number.
        """
        s = self._scratch(session)
        done: set[tuple[str, str]] = s.setdefault("zeros_kept", set())
        schema = session.platform.schema()
        initial = session.platform_initial
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            a = o.action
            if len(out) >= limit or o.rolled_back or a.op != "update" or len(a.values) < 3:
                continue
            states = set(schema.tables[a.table].fields_of_type("choice", "boolean"))
            if not any(e[0] == "set" and (e[1], e[2]) == (a.table, a.id) and e[3] not in a.values for e in o.effects) \
                    and not states.intersection(_overridden(o)):
                continue  # no rule of its own record showed (a derived number written over is no sign)
            rec = initial.get(a.table, a.id)
            if rec is None:
                continue
            for f, v in sorted(a.values.items()):
                if len(out) >= limit or (a.table, f) in done or not (is_number(v) and float(v) != 0 and is_number(rec.get(f)) and float(rec[f]) == 0):
                    continue
                done.add((a.table, f))
                out.append((f"zeros kept {a.table}.{f}", Action("update", a.table, a.id, {g: w for g, w in a.values.items() if g != f})))
        return out

    def _other_choice_inserts(self, session: DiscoverySession, limit: int = 6) -> list[tuple[str, Action]]:
        """Where a rule fired on insert reads one of its record's choices (``current.method ==
        'bank_transfer'``), the last insert it fired on again with each other choice of that field
        no insert of this world has written, once per (table, field) and world.

        The writes that follow an insert up (generalisations, the same insert under other parents,
        with a field left out) keep its choices: a rule that holds for two of them (bank transfers
        and card payments clear at once) is learned for the one the first insert carried.
        """
        s = self._scratch(session)
        done: set[tuple[str, str]] = s.setdefault("other_choices", set())
        schema = session.platform.schema()
        inserts: dict[str, list[Observation]] = {}
        for o in session.observations:
            if o.action.op == "insert" and not o.rolled_back:
                inserts.setdefault(o.action.table, []).append(o)
        out: list[tuple[str, Action]] = []
        for rule in session.model.active_rules():
            if "insert" not in rule.events:
                continue
            spec = schema.tables[rule.table]
            slots = slot_of_rule(rule)
            for f, v in _OWN_CHOICE.findall(rule.to_dict().get("condition") or ""):
                if len(out) >= limit or (rule.table, f) in done or spec.fields.get(f) is None or spec.fields[f].type != "choice":
                    continue
                seen = inserts.get(rule.table, [])
                fired = [o for o in seen if _fired(slots, o) and o.action.values.get(f, spec.fields[f].default) == v]
                if not fired:
                    continue
                done.add((rule.table, f))
                written = {o.action.values.get(f, spec.fields[f].default) for o in seen}
                for c in spec.fields[f].choices or ():
                    if c not in written:
                        values = {**fired[-1].action.values, f: c}
                        out.append((f"insert {rule.table} with {f} = {c!r}", Action("insert", rule.table, session.platform.new_id(rule.table), values)))
        return out[:limit]

    def _created_probes(self, session: DiscoverySession, limit: int = 4) -> list[tuple[str, Action]]:
        """Where a write created a record whose choice or flag is off its default and no insert
        rule of the model sets that value, the created record inserted directly with the field at
        its default.

        A before rule of the created record's table may have set it (an overdue fine of a child
        member is waived as it is created): learned from the first write alone, the create would
        carry the value for the kinds of record seen and know nothing of that rule. The direct
        insert shows the rule on its own trigger, as an override of the written default, or shows
        that the create itself sets the value. One probe per (table, field, value) and world, the
        first record the model's insert rules do not explain: in a later world that is one a
        changed rule now covers (a senior's fine waived too).
        """
        s = self._scratch(session)
        done: set[tuple[str, ...]] = s.setdefault("created", set())
        schema = session.platform.schema()
        fills: dict[str, InsertFill | None] = {}
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            if len(out) >= limit:
                break
            if o.rolled_back or o.after is None or not any(e[0] == "create" for e in o.effects):
                continue
            for t2 in sorted({e[1] for e in o.effects if e[0] == "create"}):
                spec = schema.tables[t2]
                if t2 not in fills:
                    fills[t2] = InsertFill.of(session.model, t2)
                fill = fills[t2]
                new_ids = o.created_ids(t2)
                around = None  # the records after the write less those it created, made when first needed
                for rid in new_ids:
                    rec = o.after.tables[t2][rid]
                    for f in spec.fields_of_type("choice", "boolean"):
                        fspec, v = spec.fields[f], rec.get(f)
                        if not fspec.has_default or v is None or values_equal(v, fspec.default):
                            continue
                        key = (t2, f, repr(value_key(v)))
                        if key in done:
                            continue
                        if fill is not None and f in fill.fields:
                            if around is None:
                                around = o.after.copy()
                                for nid in new_ids:
                                    around.remove(t2, nid)
                            if fill.sets(rec, f, around):
                                continue  # a rule of the model sets it on insert
                        done.add(key)
                        values = {k: x for k, x in rec.items() if k != "id" and x is not None and not _new_reference(spec, k, x, o)}
                        values[f] = fspec.default
                        out.append((f"created {t2}.{f} = {v!r} inserted at its default", Action("insert", t2, session.platform.new_id(t2), values)))
        return out

    def _bisections(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """The next probe of every open bisection, after starting bisections for new threshold rules."""
        s = self._scratch(session)
        state = session.platform_initial
        out: list[tuple[str, Action]] = []
        # bisect numeric boundaries between a negative and a positive that differ in one number
        # only where a learned condition has a numeric threshold: other numeric differences
        # (a total that follows a quantity) need no boundary
        threshold_slots: dict[tuple[str, ...], set[str]] = {}
        # a rule revised in this world keeps the thresholds of its earlier version in view: the
        # audit may have dropped a moved threshold for want of negatives, and bisection finds it again
        earlier: dict[str, list[str]] = {}
        for h in session.model.history:
            if h.op == "revise" and h.world == session.world and h.before:
                earlier.setdefault(h.rule_id, []).append(h.before.get("condition", "") or "")
        # where rules set one field of the written record to different values (a loan overdue from
        # 1 day, lost from 30), a write that shows the field set to the other value is a negative
        # for each: their bisections look at the value, not at the field alone
        rule_slots: dict[str, tuple[list[Slot], str | None]] = {}
        constants: dict[Slot, set[str]] = {}
        for lr in session.model.active():
            try:
                parsed = parse_rule(lr.rule, session.platform.schema())
            except MemkitError:
                continue
            rule_slots[lr.id] = (slot_of_rule(parsed), _set_constant(parsed))
            if (value := rule_slots[lr.id][1]) is not None:
                for slot in rule_slots[lr.id][0]:
                    constants.setdefault(slot, set()).add(value)
        for lr in session.model.active():
            slots, value = rule_slots.get(lr.id, ([], None))
            for condition in [lr.rule.get("condition", "") or "", *earlier.get(lr.id, [])]:
                if not re.search(r"[<>]=? -?\d", condition):
                    continue
                for slot in slots:
                    if slot[0] == "own" and value is not None and len(constants.get(slot, ())) > 1:
                        slot = (*slot, "=", value)
                    threshold_slots.setdefault(slot, set()).update(re.findall(r"current\.(\w+) [<>]=? -?\d", condition))
        for slot in sorted(threshold_slots):
            # positive: the write shows this slot's effect; negative: it does not
            labelled = [(o.action, _shows(slot, o)) for o in session.observations
                        if not o.rolled_back and o.action.table == slot[1] and o.action.op == slot[2]]
            pairs = [(*p, False) for p in bisect_pairs(labelled, state)]
            pairs += [(*p, True) for p in _cross_record_pairs(labelled, state, threshold_slots[slot])]
            for neg, pos, fname, unverified in pairs:
                # a rule that sets a field shows nothing on a record where the field is already set
                # (stock below 25 is 'low': no boundary shows on stock that is low), so a record with
                # the field at its default gets a bisection of its own
                hidden = slot[0] == "own" and slot[3] in raised_fields(state, pos)
                key = repr((slot, fname, sorted(pos.values), hidden))
                if key in s["bisected"]:
                    continue
                s["bisected"].add(key)
                # a pair across two records starts from a negative no write has shown (the positive's
                # record at the other's number): the other record may differ in what matters (its
                # state), so that end is probed first, and a positive there ends the bisection
                s["bisections"].append({"neg": neg, "pos": pos, "field": fname, "steps": 0, "slot": slot, "verify": unverified})
        # a probe written before (by the sweep, or by another slot's bisection) needs no write again
        seen = {_write_key(o.action): o for o in session.observations if not o.rolled_back}
        for b in list(s["bisections"]):
            while True:
                probe = self._bisect_step(session, b)
                earlier = seen.get(_write_key(probe)) if probe is not None else None
                if probe is None:
                    s["bisections"].remove(b)
                elif earlier is not None:
                    _narrow(b, earlier)
                    continue
                else:
                    out.append((f"bisect {b['pos'].table}.{b['field']}", probe))
                break
        return out

    def _bisect_step(self, session: DiscoverySession, b: dict[str, Any]) -> Action | None:
        if b["steps"] >= self.bisect_steps or b.get("overwritten"):
            return None
        if b.get("verify"):
            b["steps"] += 1
            b["pending"] = b["neg"]
            return b["neg"]
        f = b["field"]
        lo, hi = float(b["neg"].values[f]), float(b["pos"].values[f])
        a, z = min(lo, hi), max(lo, hi)
        # whole ends on a field the records hold fractions in (a GPA of 3.41 bisected from 0 to 47)
        # still have a boundary between them (gpa < 2: 1.99 is below it), so the unit is a cent there
        unit = 1.0 if a.is_integer() and z.is_integer() and _whole_column(session.platform_initial, b["pos"].table, f) else 0.01
        # once a probe past an end was made, the boundary is wanted to the unit, not finer
        if z - a <= 0.01 or b.get("edges") and z - a <= unit:
            return None
        # an update that writes the number its record holds changes nothing, so a rule on the
        # number's change shows nothing there, whatever the boundary: such a probe would read as a
        # negative (days late written 4 on a charge 4 days late, under a boundary above 3)
        initial = session.platform_initial
        rec = initial.get(b["pos"].table, b["pos"].id) if initial is not None and b["pos"].op == "update" else None
        held = float(rec[f]) if rec is not None and is_number(rec.get(f)) else None
        # near a boundary (within one order of magnitude), not while the interval still spans several
        m = self._edge(b, lo, hi, unit) if z <= 8 * max(a, 1.0) else None
        if m is not None and m != held:
            return self._probe(session, b, m)
        if m is not None and (twin := _twin_record(initial, rec, b["pos"].table, f, m)) is not None:
            return self._probe(session, b, m, rid=twin)
        # the roundest number in the middle half: intervals shrink by at least a quarter per
        # step, and round boundaries (100, 250, 1000) get probed exactly
        quarter = (z - a) / 4
        m = nice_between(a + quarter, z - quarter)
        if z > 8 * max(a, 1.0):
            # the interval spans orders of magnitude (0 .. 127207): halve its logarithm, or
            # eight steps would only get from 127207 down to 11000
            g = math.sqrt(max(a, 1.0) * z)
            m = nice_between(max(a, g / 2), min(z, g * 2))
        if not (a < m < z):
            m = round((a + z) / 2, 2)
            if not (a < m < z):
                return None
        twin = None
        if m == held and (twin := _twin_record(initial, rec, b["pos"].table, f, m)) is None:
            # no record in the same state to write it on: the nearest number the record does not hold
            others = [x for x in (round(m - unit, 2), round(m + unit, 2)) if a < x < z]
            if not others:
                return None
            m = min(others, key=lambda x: abs(x - (a + z) / 2))
        b["steps"] += 1
        return self._probe(session, b, m, rid=twin)

    @staticmethod
    def _edge(b: dict[str, Any], neg: float, pos: float, unit: float) -> float | None:
        """One unit past a round end of the interval, once per end value (at most two per bisection).

        Thresholds are mostly round numbers, and bisection by round midpoints
        reaches one from a round end only in many steps (5000 .. 15000 probed at
        12000, 10000, 8000, 7000, 6000): the probe one unit beyond the end tells
        at once whether the boundary is there (> 5000 or >= 5000).
        """
        if abs(pos - neg) <= 2 * unit or len(b.setdefault("edges", [])) >= 2:
            return None
        toward = 1.0 if pos > neg else -1.0
        for end, step in ((neg, toward * unit), (pos, -toward * unit)):
            if end != 0 and significant_digits(end) <= 1 and end not in b["edges"]:
                b["edges"].append(end)
                return round(end + step, 2)
        return None

    def _probe(self, session: DiscoverySession, b: dict[str, Any], m: float, rid: str | None = None) -> Action:
        """The bisection's positive write with its field set to ``m`` (on record ``rid`` instead of
        the positive's own, where given)."""
        f = b["field"]
        values = dict(b["pos"].values)
        values[f] = int(m) if float(m).is_integer() else m
        if rid is None:
            rid = b["pos"].id if b["pos"].op != "insert" else session.platform.new_id(b["pos"].table)
        probe = Action(b["pos"].op, b["pos"].table, rid, values)
        b["pending"] = probe
        return probe

    def observe_bisection(self, session: DiscoverySession, obs: Observation) -> None:
        """Narrow the bisection interval that ``obs`` probed."""
        key = _write_key(obs.action)
        # bisections of several slots may probe the same write: one observation narrows them all
        for b in session.scratch.get("bisections", []):
            if b.get("pending") is not None and _write_key(b["pending"]) == key:
                _narrow(b, obs)

    # -- induction ----------------------------------------------------------------
    def induce(self, session: DiscoverySession, new: list[Observation]) -> int:
        """Run induction over all observations of this world; prune redundant rules."""
        for obs in new:
            if obs.purpose.startswith("bisect"):
                self.observe_bisection(session, obs)
        world = session.world
        may_edit = (lambda rid: True) if session.audit else (lambda rid: session.model.get(rid).origin_world == world)
        inducer = Inducer(session.platform.schema(), may_edit=may_edit, memo=session.scratch.setdefault("learned", {}),
                          literal_values=session.scratch.setdefault("literal_values", {}),
                          predictions=predictions_of(session))
        # pruning only after something changed: a quiet round costs no engine runs
        before = len(session.model.history)
        total = induce_until_stable(inducer, session.model, session.observations, world, session.note, prune=False)
        if len(session.model.history) > before:
            total += induce_until_stable(inducer, session.model, session.observations, world, session.note, passes=0)
        session.scratch.setdefault("alternatives", {}).update(inducer.alternatives)
        return total

    # -- disambiguation -------------------------------------------------------------
    def _disambiguations(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """One experiment per rule and rival hypothesis, where the two predict different effects.

        Induction keeps, for each rule it learns, the rules that explain the same
        observations as well (another condition, another where clause). The
        candidates are the writes already seen on the rule's trigger, moved to
        every other record (or, for inserts, under other parents); the first one
        on which the model with the rule and the model with its rival disagree
        is run, and the next induction keeps whichever the world agrees with.
        Every rule also has its reading of a state as a change into it, and
        each change it reads along with another, put to the test
        (``kept_rule_rivals``); where no move of the trigger's last writes tells
        a rule from such a rival, the older writes the rule fired on are moved.
        """
        s = self._scratch(session)
        tested: set[str] = s.setdefault("disambiguated", set())
        schema = session.platform.schema()
        state = session.platform_initial
        out: list[tuple[str, Action]] = []
        rules = session.model.active_rules()
        engine = Engine(schema, rules)
        seen = {repr(o.action.to_dict()) for o in session.observations}
        active = {r.id for r in rules}
        by_id = {r.id: r for r in rules}
        # the current rules' replays and predictions are the same for every rival: computed once
        # (most of this planning step's engine runs on large worlds went to recomputing them)
        base_effects: dict[str, _Outcome | None] = {}
        rivals = {rid: list(alts) for rid, alts in s.get("alternatives", {}).items() if rid in active}
        readings: set[tuple[str, str]] = set()
        for r in rules:
            # a rule kept from an earlier world (or revised in this one) is not learned again while
            # it fits: its reading of a state as a change into it, and of a change written along
            # with its trigger, are put to the test here
            for alt in kept_rule_rivals(session.model.get(r.id).rule):
                readings.add((r.id, alt["condition"]))
                if alt not in rivals.get(r.id, []):
                    rivals.setdefault(r.id, []).append(alt)
        for rid, alts in sorted(rivals.items()):
            lr = session.model.get(rid)
            trig_obs = [o for o in session.observations if o.action.table == lr.rule["table"] and o.action.op in lr.rule.get("events", [])]
            base_bad: int | None = None
            for alt in alts:
                # the pair, not the rival alone: a rival no seen write could tell from the rule's
                # first version (over 1 vs over the budget's amount) may differ from its revision
                # (over 10000, once bisected)
                key = repr((rid, lr.rule.get("condition"), lr.rule.get("actions"), alt.get("condition"), alt.get("actions")))
                if key in tested:
                    continue
                tested.add(key)
                rival_engine = _engine_with(schema, rules, {**alt, "id": rid})
                if rival_engine is None:
                    continue
                if base_bad is None:
                    base_bad = mispredicted(engine, trig_obs)
                if mispredicted(rival_engine, trig_obs) > base_bad:
                    continue  # what has been seen already rules the rival out
                # a rival value of a before rule (the waitlist's length plus one, not 5) reads through
                # a reference: an insert without it tells nothing, and such inserts would be tried first
                value_rival = lr.rule.get("when") == "before" and alt.get("actions") != lr.rule.get("actions")
                candidates = _candidates(trig_obs, state, session, leave_out_inserts=not value_rival)
                probe = _first_disagreement(engine, rival_engine, state, candidates, seen, base_effects)
                if probe is None and (rid, alt.get("condition")) in readings:
                    # the candidates come from the trigger's last writes; the writes the rule fired on
                    # may be older (an inherited rule's evidence, replayed first in this world). Only
                    # for these readings: every rival tried on older writes cost ews-A its last
                    # disambiguations (0.98)
                    fired = [o for o in trig_obs[:-12] if _fired(slot_of_rule(by_id[rid]), o)][-4:]
                    if fired:
                        candidates = _candidates(fired, state, session, leave_out_inserts=not value_rival)
                        probe = _first_disagreement(engine, rival_engine, state, candidates, seen, base_effects)
                if probe is not None:
                    seen.add(repr(probe.to_dict()))
                    out.append((f"disambiguate {rid}", probe))
        return out

    def _low_ends(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """1 written on a record at its default status where the sweep's large value showed a rule
        and the record holds 0 (so the sweep's low end, 0, was no write at all).

        Days overdue written large on an active loan show it lost; 1 shows it overdue: without
        that write no negative brackets the lost threshold, and the rule is learned without it.
        Planned ahead of the queue: the follow-ups wait for a sweep phase's queue, and in a large
        world the budget ends inside it.
        """
        s = self._scratch(session)
        done: set[tuple[str, str, str]] = s.setdefault("low_ends", set())
        out: list[tuple[str, Action]] = []
        for o in session.observations:
            a = o.action
            if not o.effects or a.op != "update" or len(a.values) != 1 or not is_aimed_number_write(o.purpose):
                continue
            fname, value = next(iter(a.values.items()))
            rec = session.platform_initial.get(a.table, a.id) if session.platform_initial is not None else None
            held = rec.get(fname) if rec is not None else None
            if not is_number(value) or not is_number(held) or float(held) != 0 or float(value) <= 1:
                continue
            key = (a.table, a.id, fname)
            if key not in done:
                done.add(key)
                out.append((f"{a.table}.{fname} = 1.0 on {a.id} (the low end)", Action("update", a.table, a.id, {fname: 1.0})))
        return out

    def _recount_events(self, session: DiscoverySession) -> list[tuple[str, Action]]:
        """For a recount the model has on only some of insert/update/delete, the missing event
        tried on a record the total counts (once per rule version and event).

        A total kept over a table's records (a member's open loans, a title's waiting holds) is
        kept on every change of them, but the sweep deletes (or inserts) whichever record it
        picks: a returned loan or a paid fine changes no total, and the rule is learned without
        that event. The write is the first one on which the model with the event added and the
        model as it is predict different effects.
        """
        s = self._scratch(session)
        tested: set[str] = s.setdefault("recount_events", set())
        schema = session.platform.schema()
        state = session.platform_initial
        rules = session.model.active_rules()
        engine = Engine(schema, rules)
        seen = {repr(o.action.to_dict()) for o in session.observations}
        base_effects: dict[str, _Outcome | None] = {}
        out: list[tuple[str, Action]] = []
        for lr in session.model.active():
            rule = lr.rule
            if rule.get("when") != "after" or not _is_recount(rule):
                continue
            table = rule["table"]
            for event in ("insert", "update", "delete"):
                if event in rule["events"]:
                    continue
                key = repr((lr.id, rule.get("condition"), rule.get("actions"), rule["events"], event))
                if key in tested:
                    continue
                tested.add(key)
                rival_engine = _engine_with(schema, rules, {**rule, "events": [*rule["events"], event]})
                if rival_engine is None:
                    continue
                probe = _first_disagreement(engine, rival_engine, state, _event_candidates(session, table, event), seen, base_effects)
                if probe is not None:
                    seen.add(repr(probe.to_dict()))
                    out.append((f"recount {lr.id} on {event}", probe))
        return out


def _inherited(session: DiscoverySession) -> bool:
    """Whether the session's model holds rules from an earlier world (a later world of a family)."""
    return any(lr.origin_world != session.world for lr in session.model.active())


def _engine_with(schema: Schema, rules: Sequence[Rule], rule: dict[str, Any]) -> Engine | None:
    """An engine of ``rules`` with the one of the same id replaced by ``rule`` (a rival version of
    it); None when ``rule`` does not parse."""
    try:
        rival = parse_rule(rule, schema)
    except MemkitError:
        return None
    return Engine(schema, [rival if r.id == rival.id else r for r in rules])


def _is_recount(rule: dict[str, Any]) -> bool:
    """Whether the rule sets a field to a count or sum over its own table's records."""
    pattern = re.compile(rf"\b(count|sum)\(\s*'?{re.escape(rule['table'])}'?\s*,")
    return any(pattern.search(str(v)) for act in rule.get("actions", []) for part in act.values()
               if isinstance(part, dict) for v in part.get("set", {}).values())


def _event_candidates(session: DiscoverySession, table: str, event: str, limit: int = 400) -> list[Action]:
    """Writes of ``event`` on ``table``: every record deleted, every record inserted again as a
    clone, or the updates seen on the table moved to other records."""
    rows = session.platform_initial.rows(table)
    if event == "delete":
        return [Action("delete", table, r["id"], {}) for r in rows][:limit]
    if event == "insert":
        return [Action("insert", table, session.platform.new_id(table), {k: v for k, v in r.items() if k != "id" and v is not None})
                for r in rows[:limit]]
    seen_updates = [o for o in session.observations if o.action.table == table and o.action.op == "update"]
    return _candidates(seen_updates, session.platform_initial, session, limit)


def _set_constant(rule: Rule) -> str | None:
    """The text a rule of one ``set`` action sets its one field to, where that is a constant
    (a choice), or None."""
    act = rule.actions[0] if len(rule.actions) == 1 else None
    if not isinstance(act, SetAction) or len(act.assignments) != 1:
        return None
    expr = act.assignments[0].expr
    return expr.value if isinstance(expr, Literal) and isinstance(expr.value, str) else None


def _shows(slot: Slot, obs: Observation) -> bool:
    """Whether the observed write shows an effect in ``slot``; for a valued slot (a slot with
    ``("=", value)`` appended, see ``_bisections``) an effect that sets the field to that value."""
    if len(slot) >= 2 and slot[-2] == "=":
        return any(values_equal(e[-1], slot[-1]) for e in effects_in_slot(slot[:-2], obs.action, obs.effects))
    return slot in slots_of_effects(obs.action, obs.effects)


def _shown_slots(obs: Observation) -> set[Slot]:
    """The slots ``obs`` shows an effect in; a field the write set that ended with another value
    counts for its own slot (side effects leave the written fields out)."""
    return {*slots_of_effects(obs.action, obs.effects), *(("own", obs.action.table, obs.action.op, f) for f in _overridden(obs))}


def _fired(slots: Sequence[Slot], obs: Observation) -> bool:
    """Whether ``obs`` shows an effect in one of ``slots`` (see ``_shown_slots``)."""
    return not _shown_slots(obs).isdisjoint(slots)


def _narrow(b: dict[str, Any], obs: Observation) -> None:
    """Move a bisection's positive or negative end to the write ``obs`` observed."""
    positive = _shows(b["slot"], obs)
    if b.pop("verify", False) and positive:
        # the positive's record shows the effect at the negative's number too: the field is not
        # what told the two records apart, and there is no boundary to find
        b["overwritten"] = True
    if positive:
        b["pos"] = obs.action
    else:
        b["neg"] = obs.action
    b["pending"] = None
    if b["field"] in _overridden(obs):
        # a rule derived the field over the written number (a stock value that follows its quantity):
        # what the next probes write would be overwritten too, so they could only repeat this one
        b["overwritten"] = True


def _new_reference(spec: TableSpec, fname: str, value: Any, obs: Observation) -> bool:
    """Whether ``fname`` refers to a record the observed write created (absent from a fresh platform)."""
    fs = spec.fields.get(fname)
    return fs is not None and fs.type == "reference" and obs.before.get(fs.ref, value) is None


def _derived_on_insert(obs: Observation, table: str, fname: str, default: Any) -> bool:
    """Whether ``obs`` inserted a ``table`` record without ``fname`` and a rule filled it (the record
    ends with a value other than the field's ``default``): a derivation on insert already seen."""
    a = obs.action
    if a.op != "insert" or a.table != table or fname in a.values or obs.after is None:
        return False
    rec = obs.after.get(table, a.id)
    return rec is not None and not values_equal(rec.get(fname), default)


def _written_where_derived(observations: Sequence[Observation], table: str, fname: str, default: Any) -> dict[str, Any] | None:
    """The fields (without id and ``fname``) of the last ``table`` record an update changed ``fname``
    of without writing it, to a value other than the field's ``default`` (which an insert would
    show no change to), as the write left them; None where no update did."""
    for obs in reversed(observations):
        a = obs.action
        if a.op != "update" or a.table != table or fname in a.values or obs.after is None or obs.rolled_back:
            continue
        before, after = obs.before.get(table, a.id), obs.after.get(table, a.id)
        if before is None or after is None or values_equal(before.get(fname), after.get(fname)) or values_equal(after.get(fname), default):
            continue
        return {k: v for k, v in {**before, **a.values}.items() if k not in ("id", fname) and v is not None}
    return None


def _twin_record(initial: Any, rec: dict[str, Any] | None, table: str, fname: str, value: float) -> str | None:
    """Another record of ``table`` in the state ``rec`` is in (its choices and flags alike) whose
    ``fname`` is a number other than ``value``: where ``rec`` holds ``value``, a write of it there
    changes nothing, and the twin shows what the write would."""
    schema = getattr(initial, "schema", None)
    if rec is None or schema is None:
        return None
    states = [k for k in schema.tables[table].fields_of_type("choice", "boolean") if k != fname]
    for other in initial.rows(table):
        if other["id"] != rec["id"] and is_number(other.get(fname)) and float(other[fname]) != value \
                and all(values_equal(other.get(k), rec.get(k)) for k in states):
            return str(other["id"])
    return None


def _whole_column(state: Any, table: str, fname: str) -> bool:
    """Whether every number ``table``'s records hold in ``fname`` is whole (True without any, or
    without the records)."""
    return state is None or all(float(r[fname]).is_integer() for r in state.rows(table) if is_number(r.get(fname)))


def _overridden(obs: Observation) -> list[str]:
    """The fields a write set on its own record that the record does not hold afterwards (a before
    rule derived them over the written values)."""
    a = obs.action
    rec = obs.after.get(a.table, a.id) if obs.after is not None else None
    if rec is None:
        return []
    return [f for f, v in a.values.items() if not values_equal(rec.get(f), v)]


def _write_key(action: Action) -> str:
    """What a write does, without the id an insert happens to get."""
    values = sorted((f, repr(v)) for f, v in action.values.items())
    return repr((action.op, action.table, None if action.op == "insert" else action.id, values))


def _cross_record_pairs(labelled: list[tuple[Action, bool]], state: Any, fields: set[str]) -> list[tuple[Action, Action, str]]:
    """Bisection starts from the same update on two records that differ in a thresholded field.

    ``submitted`` on an order of 500 creates an approval and on an order of 40
    does not: the boundary lies between 40 and 500, and is probed by the same
    write on the first order with the total set in between.
    """
    out: list[tuple[Action, Action, str]] = []
    for a, pa in labelled:
        if not pa or a.op != "update":
            continue
        rec_a = state.get(a.table, a.id)
        for b, pb in labelled:
            if pb or b.op != "update" or b.id == a.id or b.values != a.values:
                continue
            rec_b = state.get(b.table, b.id)
            if rec_a is None or rec_b is None:
                continue
            for f in sorted(fields):
                if f in a.values or not (is_number(rec_a.get(f)) and is_number(rec_b.get(f))) or rec_a[f] == rec_b[f]:
                    continue
                out.append((Action("update", a.table, a.id, {**a.values, f: rec_b[f]}), Action("update", a.table, a.id, {**a.values, f: rec_a[f]}), f))
                break
    return out


def _candidates(trig_obs: list[Observation], state: Any, session: DiscoverySession, limit: int = 400,
                leave_out_inserts: bool = True) -> list[Action]:
    """Writes seen on a trigger: with one field left out (updates, on their own record and on two
    others that hold the value left out; inserts too unless ``leave_out_inserts`` is False), moved
    to other records (updates, deletes) or other parents (inserts)."""
    out: list[Action] = []
    schema = state.schema
    # an insert with one field left out (the state a clone happened to carry, left to its
    # default) first: moving inserts under every other parent would fill the limit before them
    if leave_out_inserts:
        out.extend(Action("insert", o.action.table, session.platform.new_id(o.action.table), {g: v for g, v in o.action.values.items() if g != f})
                   for o in trig_obs[-12:] if o.action.op == "insert" and len(o.action.values) > 1 for f in o.action.values)
    for o in trig_obs[-12:]:
        a = o.action
        if a.op == "update" and len(a.values) > 1:
            # the same write with one field left out: tells a cause from a field written along with
            # it in every positive (a value a bisection carried into each of its probes)
            for f in a.values:
                rest = {g: v for g, v in a.values.items() if g != f}
                out.append(Action("update", a.table, a.id, rest))
                # and on records that already hold the value left out: tells a rule on a state
                # (an issued bill whose days overdue change) from one on the change into it
                holders = [rec["id"] for rec in state.rows(a.table) if rec["id"] != a.id and values_equal(rec.get(f), a.values[f])]
                out.extend(Action("update", a.table, rid, dict(rest)) for rid in holders[:2])
        if a.op in ("update", "delete"):
            for rec in state.rows(a.table):
                if rec["id"] != a.id:
                    out.append(Action(a.op, a.table, rec["id"], dict(a.values)))
        else:
            spec = schema.tables[a.table]
            for f, fs in spec.fields.items():
                if fs.type == "reference" and fs.ref and a.values.get(f) is not None:
                    for rec in state.rows(fs.ref):
                        if rec["id"] != a.values[f]:
                            out.append(Action("insert", a.table, session.platform.new_id(a.table), {**a.values, f: rec["id"]}))
        if len(out) >= limit:
            break
    return out[:limit]


_Outcome = tuple[Counter[tuple[Any, ...]], tuple[tuple[str, Any], ...]]


def _outcome(engine: Engine, state: Any, action: Action) -> _Outcome:
    """What a write shows: its side effects, and the final values of the fields it wrote on its own
    record (side effects leave those out, but the record read afterwards shows a before rule that
    overrode one: an emergency admission inserted as cancelled that comes out admitted)."""
    result = engine.run(state, action)
    return Counter(effect_key(e) for e in result.effects), tuple(sorted((f, value_key(v)) for f, v in result.written_final.items()))


def _first_disagreement(engine: Engine, rival: Engine, state: Any, candidates: list[Action], seen: set[str],
                        memo: dict[str, _Outcome | None]) -> Action | None:
    """The first candidate on which the two rule sets predict different outcomes (and not yet run).

    ``memo`` keeps ``engine``'s predictions by write, for the next rival tried against it.
    """
    for action in candidates:
        key = repr(action.to_dict())
        if key in seen:
            continue
        if key not in memo:
            try:
                memo[key] = _outcome(engine, state, action)
            except MemkitError:
                memo[key] = None
        a = memo[key]
        if a is None:
            continue
        try:
            b = _outcome(rival, state, action)
        except MemkitError:
            continue
        if a != b:
            return action
    return None


def _take_turns(first: list[Any], second: list[Any]) -> list[Any]:
    """The two lists merged one item from each in turn, from ``first``; the longer one's rest at the end."""
    out: list[Any] = []
    for k in range(max(len(first), len(second))):
        out.extend(lst[k] for lst in (first, second) if k < len(lst))
    return out
