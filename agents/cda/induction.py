"""Induction: turn observations into rules, slot by slot, and keep the model consistent with them.

For every slot with side effects the model does not explain, the learner
searches (1) the target (own record, a reference path, or a where clause),
(2) a value expression consistent with every positive observation, and (3) a
condition in disjunctive normal form that holds on every positive and on no
informative negative (a negative is informative when the rule, had it fired,
would have changed something visible). Rules whose slot shows no positive in
the current world while its informative negatives pile up are retired; rules
contradicted by the current world are revised in place (same id).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import MemkitError
from memkit.rules import Action, Rule, Schema, parse_rule, same_effects
from memkit.rules.engine import ActionResult, Effect, Engine, effect_key
from memkit.rules.model import Evidence, RuleModel
from memkit.rules.rule import SetAction
from memkit.rules.schema import is_number
from memkit.rules.scoring import score_effects
from memkit.rules.state import Record, State
from memkit.rules.values import normalize, value_key, values_equal

from agents.cda.aggregates import aggregate_sources
from agents.cda.contexts import FAIL, Example, eval_on, example_of
from agents.cda.hypotheses import (
    Literal,
    clamped,
    condition_literals,
    find_value,
    join_anchors,
    learn_dnf_candidates,
    paths_from,
    significant_digits,
    value_candidates,
)
from agents.cda.predictions import PredictionCache, mispredicted
from agents.cda.session import Observation
from agents.cda.slots import Slot, effects_in_slot, slot_of_rule, slots_of_effects

__all__ = ["Inducer", "InductionResult", "InsertFill", "LearnedSlot", "induce_until_stable", "keep_threshold_boundaries", "kept_rule_rivals"]


@dataclass
class LearnedSlot:
    """A rule found for a slot, with the observations it rests on."""

    slot: Slot
    rule: dict[str, Any]
    positives: list[int]
    negatives: list[int]
    # other rules that fit the same observations equally well; an experiment can tell them apart
    alternatives: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class InductionResult:
    """What one induction pass changed."""

    added: list[str] = field(default_factory=list)
    revised: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    failed: list[Slot] = field(default_factory=list)

    @property
    def edits(self) -> int:
        return len(self.added) + len(self.revised) + len(self.retired)


def _evidence(obs: Observation, world: str, supports: bool, note: str = "") -> Evidence:
    return Evidence(action=obs.action.to_dict(), effects=[list(e) for e in obs.effects], world=world, supports=supports, note=note)


class Inducer:
    """Learns and repairs single-action rules from observations of one world."""

    def __init__(self, schema: Schema, *, may_edit: Callable[[str], bool] = lambda rid: True,
                 memo: dict[Any, list[LearnedSlot]] | None = None, predictions: PredictionCache | None = None,
                 literal_values: dict[int, tuple[Observation, dict[Any, Any]]] | None = None) -> None:
        self.schema = schema
        # whether a condition literal holds on an example, by observation (checked by identity)
        # and the example's view of it: a slot is learned again whenever its table gets a new
        # observation, and the old examples' literals are most of that work (shared across rounds
        # when given); the aggregates its examples evaluate are kept in the same per-observation dict
        self.literal_values = literal_values if literal_values is not None else {}
        # replays of the observations under the rules, shared across passes (and rounds, when given)
        self.predictions = predictions if predictions is not None else PredictionCache(schema)
        self.may_edit = may_edit
        # learning a slot depends only on the observations of its trigger, and observations are
        # only ever appended: (slot, how many there are) -> what was learned, kept across rounds
        self.memo = memo if memo is not None else {}
        # rule id -> rules that explain its observations as well as it does (see LearnedSlot)
        self.alternatives: dict[str, list[dict[str, Any]]] = {}
        self._cond_alts: dict[str | None, list[str]] = {}
        # value expressions tried before the enumerated ones: a clamped expression found by
        # _best_cover is outside the enumeration, so the rule for its cover must be told of it
        self._value_hints: list[str] = []
        # numbers of the repaired slot's table that the model's other before rules compute from
        # other fields (a net amount from the loss), each with the record's fields its expression
        # reads: set per repair, read by _condition
        self._computed_reads: frozenset[tuple[str, frozenset[str]]] = frozenset()
        # fields of the slot's table that other before rules compute from the slot's own field
        self._readers: frozenset[str] = frozenset()
        # the model's before rules on inserts into a repaired create slot's table: set per repair,
        # read by _learn_create
        self._insert_fill: InsertFill | None = None
        # the kind (choice and boolean values) of created record _split_by_signature is learning a
        # rule for: set per group, read by _learn_create to pick that record among a write's creates
        self._create_kind: str | None = None

    # -- residuals ----------------------------------------------------------
    def _predict(self, rules: Sequence[Rule], obs: Observation) -> tuple[list, list[str]]:
        result = self.predictions.run(self.predictions.engine(rules), obs)
        return result.effects, result.fired

    def residual_slots(self, model: RuleModel, observations: Sequence[Observation]) -> dict[Slot, int]:
        """Slots with effects the model misses or invents, with how many observations show it."""
        engine = self.predictions.engine(model.active_rules())
        bad: Counter[Slot] = Counter()
        for obs in observations:
            if obs.rolled_back:
                continue
            result = self.predictions.run(engine, obs)
            got = slots_of_effects(obs.action, obs.effects)
            want = slots_of_effects(obs.action, result.effects)
            for slot in set(got) | set(want):
                if not same_effects(got.get(slot, []), want.get(slot, [])):
                    bad[slot] += 1
            for f in obs.action.values:
                if _written_field_wrong(obs, result, f) or _written_choice_missed(obs, result, f):
                    bad[("own", obs.action.table, obs.action.op, f)] += 1
        return dict(bad)

    # -- the pass -------------------------------------------------------------
    def run(self, model: RuleModel, observations: Sequence[Observation], world: str) -> InductionResult:
        """One induction pass over all observations of this world."""
        result = InductionResult()
        obs = [o for o in observations if not o.rolled_back and getattr(o, "after", None) is not None]
        if not obs:
            return result
        done: set[Slot] = set()
        while True:
            # before rules on the written record first: an unexplained effect further down a
            # cascade (a request_item write that sets request.approval_required) is usually a
            # changed rule on the record in the middle, and fixing that one explains it
            bad = {slot: n for slot, n in self.residual_slots(model, obs).items() if slot not in done}
            if not bad:
                break
            derived = self._derived_downstream(model)
            slot = min(bad, key=lambda s: (s[0] != "own", _lands_on(s) in derived, -bad[s], s))
            done.add(slot)
            self._repair_slot(model, slot, obs, world, result)
        return result

    def _computed_numbers(self, model: RuleModel, table: str, exclude: Sequence[str]) -> frozenset[tuple[str, frozenset[str]]]:
        """Numbers of ``table`` that active before rules other than ``exclude`` compute from an
        expression (not a constant), each with the record's fields that expression reads: inputs
        a later rule may threshold, not its own co-effects."""
        fields = self.schema.tables[table].fields
        return frozenset((f, frozenset(g for g in fields if _reads_any(str(src), {g})))
                         for f, src in _before_sets(model, table, exclude)
                         if f in fields and fields[f].type == "number" and re.search(r"[A-Za-z_]\w*\.", str(src)))

    @property
    def _computed(self) -> frozenset[str]:
        """The numbers of ``_computed_reads``."""
        return frozenset(f for f, _ in self._computed_reads)

    @staticmethod
    def _fields_reading(model: RuleModel, table: str, f: str, exclude: Sequence[str]) -> frozenset[str]:
        """Fields of ``table`` that active before rules other than ``exclude`` compute from ``f``."""
        return frozenset(g for g, src in _before_sets(model, table, exclude) if g != f and _reads_any(str(src), {f}))

    def _derived_downstream(self, model: RuleModel) -> set[tuple[str, str]]:
        """(table, field) pairs the model's rules derive when a record of the table changes, and
        (table, "+") for tables whose records its rules create: an effect there is likelier the
        end of a cascade than a rule of its own, so such slots are repaired last."""
        out: set[tuple[str, str]] = set()
        for lr in model.active():
            rule = lr.rule
            for act in rule["actions"]:
                if rule.get("when") == "before":
                    out.update((rule["table"], f) for f in act.get("set", {}))
                if "create" in act:
                    out.add((act["create"]["table"], "+"))
        return out

    def _repair_slot(self, model: RuleModel, slot: Slot, obs: Sequence[Observation], world: str, result: InductionResult) -> None:
        """Learn the slot's rules again and add, revise or retire to match."""
        by_slot = self._rules_by_slot(model)
        existing = [rid for rid in by_slot.get(slot, []) if model.get(rid).status == "active"]
        # what is left to explain: the slot's effects the model's other rules do not already give
        # (a cascade through another record's rule), so no second rule is learned for them
        learn_obs, explained = self._unexplained(model, slot, obs, existing)
        self._computed_reads = self._computed_numbers(model, slot[1], existing)
        self._readers = self._fields_reading(model, slot[1], slot[3], existing) if slot[0] == "own" else frozenset()
        self._insert_fill = InsertFill.of(model, slot[3]) if slot[0] == "create" else None
        key = (slot, sum(1 for o in obs if o.action.table == slot[1]), explained, self._computed_reads, self._readers,
               self._insert_fill.key if self._insert_fill else ())
        if key not in self.memo:
            self.memo[key] = self.learn_slot_split(slot, learn_obs)
        learned_all = self.memo[key]
        if not learned_all:
            # no consistent hypothesis: an existing rule with no positive left is stale
            if existing and not self._has_positive(slot, learn_obs):
                by_others = self._has_positive(slot, obs)
                for rid in existing:
                    if self.may_edit(rid) and self._needed_on_other_events(model, rid, slot, obs):
                        self._narrow(model, rid, slot, world, result)
                    elif self.may_edit(rid):
                        ev = [_evidence(o, world, False, "slot effect absent") for o in self._trigger_obs(slot, obs)[:3]]
                        why = ("the model's other rules give its effect ({}) wherever it appears" if by_others
                               else "its effect ({}) no longer appears when its trigger runs").format(_slot_text(slot))
                        model.retire(rid, reason=why, evidence=ev)
                        result.retired.append(rid)
            else:
                result.failed.append(slot)
            return
        editable = [rid for rid in existing if self.may_edit(rid)]
        targets = _pair_by_likeness([learned.rule for learned in learned_all], [model.get(rid).rule for rid in editable])
        together = self._improves_together(model, [ls.rule for ls in learned_all], targets, editable, slot, obs)
        for learned, k in zip(learned_all, targets):
            ev = [_evidence(obs[i], world, True) for i in dict.fromkeys(learned.positives[:2] + learned.positives[-3:])]
            ev += [_evidence(obs[i], world, False, "rule would have changed something") for i in learned.negatives[-3:]]
            rule = learned.rule
            if k is not None:
                target = editable[k]
                if _same_rule(model.get(target).rule, rule) or not (together or self._improves(model, target, rule, slot, obs)):
                    self.alternatives[target] = learned.alternatives
                    continue  # the rule it would replace explains this world's data as well: keep it
                if not _acts_beyond(model.get(target).rule, slot[2]):
                    self.alternatives[target] = learned.alternatives
                    try:
                        model.revise(target, _replacing(model, target, rule),
                                     reason=f"observations in {world} contradict it ({_slot_text(slot)})", evidence=ev)
                        result.revised.append(target)
                    except MemkitError:
                        result.failed.append(slot)
                    continue
                # the rule also acts on other events, where nothing here contradicts it: it keeps
                # those and the slot's event gets a rule of its own (merged again when one fits all),
                # which the rivals found for it go with
                self._narrow(model, target, slot, world, result)
            added = self._add(model, rule, slot, ev, result, world)
            if added is not None:
                self.alternatives[added] = learned.alternatives
        assigned = set(targets)
        for extra in (rid for k, rid in enumerate(editable) if k not in assigned):
            if _acts_beyond(model.get(extra).rule, slot[2]):
                self._narrow(model, extra, slot, world, result)
                continue
            model.retire(extra, reason=f"superseded for {_slot_text(slot)} by rules learned in {world}")
            result.retired.append(extra)

    def _unexplained(self, model: RuleModel, slot: Slot, obs: Sequence[Observation], own: Sequence[str]) -> tuple[list[Observation], tuple[Any, ...]]:
        """``obs`` with each trigger write's slot effects reduced to those the model's rules outside
        the slot (``own`` are the slot's rules) do not predict, and a key of what was taken away.

        A rule on another record's change (the bed's cleaning task) shows up in this slot too
        (a discharge creates the task through the bed): learned again here it would be a
        shortcut that doubles the cascade. A before rule's slot (``own``) is left as it is.
        """
        if slot[0] == "own":
            return list(obs), ()
        mine = set(own)
        engine = self.predictions.engine([r for r in model.active_rules() if r.id not in mine])
        out: list[Observation] = []
        taken: list[tuple[int, tuple[Any, ...]]] = []
        for i, o in enumerate(obs):
            seen = effects_in_slot(slot, o.action, o.effects) if o.action.table == slot[1] and o.action.op == slot[2] else []
            if not seen:
                out.append(o)
                continue
            given = Counter(effect_key(e) for e in effects_in_slot(slot, o.action, self.predictions.run(engine, o).effects))
            left = []
            for e in seen:
                k = effect_key(e)
                if given[k] > 0:
                    given[k] -= 1
                else:
                    left.append(e)
            if len(left) == len(seen):
                out.append(o)
                continue
            ids = {id(e) for e in seen}
            out.append(dataclasses.replace(o, effects=[e for e in o.effects if id(e) not in ids] + left))
            taken.append((i, tuple(sorted(map(repr, map(effect_key, left))))))
        return out, tuple(taken)

    def learn_slot_split(self, slot: Slot, observations: Sequence[Observation]) -> list[LearnedSlot]:
        """One rule for the slot if one fits; otherwise, for an own or related field, sequential
        covering: the value expression that explains the most positives gets a rule for those, then
        the rest, then by written value; for created records, one rule per kind of record, and
        failing that one rule that leaves out the fields nothing explains yet."""
        one = self.learn_slot(slot, observations)
        if one is not None:
            return [one]
        if slot[0] not in ("own", "upd"):
            if slot[0] != "create":
                return []
            # records of kinds no one rule describes; failing that, a record with a field nothing
            # explains yet (a bill's amount, set by the bill's own insert rules the model has not
            # learned): created with the fields that are explained, the rest left to those rules
            split = self._split_by_signature(slot, observations)
            if split:
                return split
            partial = self.learn_slot(slot, observations, partial=True)
            return [partial] if partial is not None else self._split_by_reference(slot, observations)
        shown = {i for i, _, _ in self._shown(slot, observations)}
        own_finals: dict[int, Any] = {}
        if slot[0] == "own":
            # a choice or flag the write itself set and a rule overrode shows in the record, not the
            # effects; a number so overridden is left to the first rule's cover (one rule per value
            # it was overridden with would be constants under accidental conditions)
            numeric = self._slot_field_type(slot) == "number"
            own_finals = {i: v for i, v in self._own_finals(slot, observations).items() if not numeric or i in shown}
        remaining = set(own_finals) if slot[0] == "own" else shown
        out: list[LearnedSlot] = []
        for _ in range(4):
            if len(remaining) < 2:
                break
            cover, src, from_clamp = self._best_cover(slot, observations, remaining)
            if not cover or len(cover) < 2:
                break
            # an enumerated winner needs no hint: the rule's own search may find a more general
            # expression that fits the same cover (a capped product found beyond _best_cover's limit)
            self._value_hints = [src] if from_clamp and src is not None else []
            try:
                learned = self.learn_slot(slot, observations, only=cover)
            finally:
                self._value_hints = []
            if learned is None:
                break
            out.append(learned)
            remaining -= cover
        if remaining:
            groups: dict[Any, set[int]] = {}
            for i in remaining:
                o = observations[i]
                if slot[0] == "own":
                    values = {repr(normalize(own_finals[i]))}
                else:
                    values = {repr(normalize(e[4])) for e in effects_in_slot(slot, o.action, o.effects)}
                if len(values) != 1:
                    return out
                groups.setdefault(values.pop(), set()).add(i)
            numeric = self._slot_field_type(slot) == "number"
            for members in groups.values():
                if numeric and len(groups) > 1 and len(members) < 2:
                    # a number no expression gave, seen once among others: a constant for that one
                    # write, under whatever condition singles it out, predicts a wrong value (worse than
                    # none) for the next write it fires on
                    continue
                learned = self.learn_slot(slot, observations, only=members)
                if learned is not None:
                    out.append(learned)
        return out

    def _slot_field_type(self, slot: Slot) -> str:
        """The type of the field a slot of an own or related field writes (``slot[-1]``, of the
        written record's table or, for ``upd``, of the other table ``slot[3]``)."""
        return self.schema.tables[slot[3] if slot[0] == "upd" else slot[1]].fields[slot[-1]].type

    def _best_cover(self, slot: Slot, observations: Sequence[Observation], among: set[int]) -> tuple[set[int], str | None, bool]:
        """The positives (observation indexes) explained by the value expression that explains the most,
        that expression, and whether it is a clamped form of the enumerated winner (floored at zero,
        capped by a field), which the enumeration itself does not produce."""
        kind, table = slot[0], slot[1]
        cases: list[tuple[int, Example, Any]] = []
        for i in sorted(among):
            ex = self._example(observations[i])
            if kind == "own":
                f = slot[3]
                final = ex.after.get(table, ex.record_id)
                cases.append((i, ex.masking(self.schema, f), final.get(f) if final else None))
            else:
                rows = self._changed_rows(slot, ex)
                if len(rows) != 1:
                    continue
                (rid, v), = rows.items()
                cases.append((i, ex.masking_after(slot[3], {rid: slot[4]}), v))
        if len(cases) < 2:
            return set(), None, False
        after_rule = kind != "own"
        ftype = self._slot_field_type(slot)
        targets = [c[2] for c in cases]

        def first(src: str) -> list[Any]:
            return [None if (v := eval_on(src, self.schema, ex, after_rule=after_rule)) is FAIL else v for _, ex, _ in cases[:8]]

        best: set[int] = set()
        best_src: str | None = None
        for n, src in enumerate(value_candidates(self.schema, table, targets, target_type=ftype, first_inputs=first)):
            if n >= 4000:
                break
            # a candidate is dropped as soon as it misses too many cases to beat the best cover so far
            # (the result is the same as scoring every case; most candidates fail within a few cases)
            allowed_misses = len(cases) - len(best) - 1
            cover: set[int] = set()
            for i, ex, want in cases:
                if values_equal(eval_on(src, self.schema, ex, after_rule=after_rule), want):
                    cover.add(i)
                else:
                    allowed_misses -= 1
                    if allowed_misses < 0:
                        break
            if allowed_misses >= 0 and len(cover) > len(best):
                best, best_src = cover, src
                if len(best) == len(cases):
                    break
        from_clamp = False
        if best_src is not None and len(best) < len(cases) and all(is_number(t) for t in targets):
            # a clamp that explains no more positives can still be right where the field kept its
            # value (a loss below the excess leaves a net of 0): those writes break the tie
            quiet = self._quiet_cases(slot, observations, among) if kind == "own" else []

            def agrees(src: str) -> int:
                return sum(values_equal(eval_on(src, self.schema, ex, after_rule=False), want) for ex, want in quiet)

            best_agrees = agrees(best_src)
            for src in clamped(best_src, self.schema, table):
                cover = {i for i, ex, want in cases if values_equal(eval_on(src, self.schema, ex, after_rule=after_rule), want)}
                if len(cover) < len(best):
                    continue
                n_agree = agrees(src) if quiet else 0
                if len(cover) > len(best) or n_agree > best_agrees:
                    best, best_src, best_agrees, from_clamp = cover, src, n_agree, True
        return best, best_src, from_clamp

    def _quiet_cases(self, slot: Slot, observations: Sequence[Observation], among: set[int], limit: int = 200) -> list[tuple[Example, Any]]:
        """Writes of the slot's trigger where its field ended as written (at most ``limit``): (masked example, final value)."""
        table, event, f = slot[1], slot[2], slot[3]
        out: list[tuple[Example, Any]] = []
        for i, o in enumerate(observations):
            if i in among or o.action.table != table or o.action.op != event:
                continue
            ex = self._example(o)
            final = o.after.get(table, o.action.id)  # type: ignore[union-attr]
            if final is None or not values_equal(final.get(f), ex.written(self.schema).get(f)):
                continue
            out.append((ex.masking(self.schema, f), final.get(f)))
            if len(out) >= limit:
                break
        return out

    def _own_finals(self, slot: Slot, observations: Sequence[Observation]) -> dict[int, Any]:
        """For an own slot: index -> final value of the slot's field, for every write on the slot's
        trigger whose record ended with another value than the write left there. The snapshot shows
        an override even of a field the write itself set (an issued bill written with days overdue
        that ends overdue), which the side effects leave out."""
        table, f = slot[1], slot[3]
        out: dict[int, Any] = {}
        for i, o in enumerate(observations):
            if o.action.table != table or o.action.op != slot[2] or o.after is None:
                continue
            final = o.after.get(table, o.action.id)
            if final is None or values_equal(final.get(f), self._example(o).written(self.schema).get(f)):
                continue
            if f in o.action.values and self._created_child(o):
                # a record the write's cascade created for this one (a customs hold for the box) may
                # have set the written field back through its own rule: a before rule learned from
                # such a write is a shortcut of that cascade
                continue
            out[i] = final.get(f)
        return out

    def _created_child(self, o: Observation) -> bool:
        """Whether the write's rules created a record that refers to the written record."""
        return any(self._child_of_written(o, t2, rid) for t2 in self.schema.tables for rid in o.created_ids(t2))

    def _changed_child(self, o: Observation) -> bool:
        """Whether the write's rules changed a record that refers to the written record."""
        return any(e[0] == "set" and self._child_of_written(o, e[1], e[2]) for e in o.effects)

    def _child_of_written(self, o: Observation, t2: str, rid: Any) -> bool:
        """Whether record ``rid`` of ``t2``, as the write left it, refers to the written record."""
        a = o.action
        rec = o.after.get(t2, rid) if o.after is not None else None
        return rec is not None and any(rec.get(g) == a.id for g, fs in self.schema.tables[t2].fields.items()
                                       if fs.type == "reference" and fs.ref == a.table)

    @staticmethod
    def _shown(slot: Slot, observations: Sequence[Observation]) -> Iterator[tuple[int, Observation, list[Effect]]]:
        """(index, observation, its effects in ``slot``) for every write on the slot's trigger that
        shows the slot's effects."""
        for i, o in enumerate(observations):
            if o.action.table == slot[1] and o.action.op == slot[2] and (shown := effects_in_slot(slot, o.action, o.effects)):
                yield i, o, shown

    def _split_by_signature(self, slot: Slot, observations: Sequence[Observation]) -> list[LearnedSlot]:
        """Created records of different kinds (their choice and boolean values differ): one rule per kind.

        A write that created records of two kinds (a claim that needs authority and is a large loss
        gets a diary of each) is a positive of both kinds' rules: grouped by its first record only,
        it would be a write the other kind's rule must not fire on, and that rule's condition would
        take up whatever told the two writes apart.
        """
        t2 = slot[3]
        groups: dict[str, set[int]] = {}
        for i, o, shown in self._shown(slot, observations):
            for kind in self._created_kinds(o, t2, shown):
                groups.setdefault(kind, set()).add(i)
        if len(groups) < 2:
            return []
        out = []
        for kind, members in groups.items():
            self._create_kind = kind
            try:
                # a kind with a field nothing explains yet is learned partially (see learn_slot_split);
                # where every field is explained that is the whole rule
                learned = self.learn_slot(slot, observations, only=members, partial=True)
            finally:
                self._create_kind = None
            if learned is not None:
                out.append(learned)
        return out

    def _split_by_reference(self, slot: Slot, observations: Sequence[Observation]) -> list[LearnedSlot]:
        """Created records grouped by which of their fields name the written record: one rule per
        group of at least two writes, where no one rule fits them all.

        A record about the written one (an enrolment's tuition charge) and one about another record
        a cascade reached (the charge of the waitlisted enrolment a drop promotes) fall in one slot;
        no rule names the other record, and learning both at once finds no rule at all, not even
        the one for the written record.
        """
        groups: dict[frozenset[str], set[int]] = {}
        for i, o, shown in self._shown(slot, observations):
            groups.setdefault(frozenset(str(e[2]) for e in shown if e[3] == o.action.id), set()).add(i)
        if len(groups) < 2:
            return []
        out = []
        for members in sorted(groups.values(), key=len, reverse=True):
            if len(members) >= 2 and (learned := self.learn_slot(slot, observations, only=members, partial=True)) is not None:
                out.append(learned)
        return out

    def _kind_of(self, rec: Record, t2: str) -> str:
        """A created record's kind: its choice and boolean values."""
        return repr([rec.get(f) for f in self.schema.tables[t2].fields_of_type("choice", "boolean")])

    def _created_kinds(self, o: Observation, t2: str, shown: Sequence[Effect]) -> list[str]:
        """The kinds of the ``t2`` records ``o`` created whose choice and boolean values its slot
        effects ``shown`` still hold (a record another rule explains was taken out of them, see
        _unexplained); where none does, the kind of the record with most values shown.

        Records with more such values are matched first: one whose values are a subset of
        another's would otherwise take the other's effects.
        """
        new_ids = o.created_ids(t2)
        if not new_ids:
            return []
        keyed = self.schema.tables[t2].fields_of_type("choice", "boolean")
        left = Counter((e[2], value_key(e[3])) for e in shown)
        pairs = {rid: Counter((f, value_key(v)) for f in keyed if (v := o.after.get(t2, rid).get(f)) is not None) for rid in new_ids}
        matched: set[str] = set()
        for rid in sorted(new_ids, key=lambda r: -sum(pairs[r].values())):
            if pairs[rid] and not pairs[rid] - left:
                left -= pairs[rid]
                matched.add(rid)
        if not matched:
            matched.add(_most_described(o.after, t2, new_ids, set(left)))
        # in creation order: the groups, and so the rules learned for them, keep the world's order
        return list(dict.fromkeys(self._kind_of(o.after.get(t2, rid), t2) for rid in new_ids if rid in matched))

    def _slot_mismatches(self, rules: Sequence[Rule], slot: Slot, obs: Sequence[Observation]) -> int:
        engine = self.predictions.engine(rules)
        bad = 0
        for o in self._trigger_obs(slot, obs):
            result = self.predictions.run(engine, o)
            bad += (not same_effects(effects_in_slot(slot, o.action, o.effects), effects_in_slot(slot, o.action, result.effects))
                    or slot[0] == "own" and _written_field_wrong(o, result, slot[3]))
        return bad

    def _improves(self, model: RuleModel, target: str, rule: dict[str, Any], slot: Slot, obs: Sequence[Observation]) -> bool:
        """True when replacing ``target`` by ``rule`` explains this slot on these observations strictly better."""
        try:
            new_rule = parse_rule(_replacing(model, target, rule), self.schema)
        except MemkitError:
            return False
        current = model.active_rules()
        revised = [new_rule if r.id == target else r for r in current]
        return self._slot_mismatches(revised, slot, obs) < self._slot_mismatches(current, slot, obs)

    def _improves_together(self, model: RuleModel, learned: Sequence[dict[str, Any]], targets: Sequence[int | None],
                           editable: Sequence[str], slot: Slot, obs: Sequence[Observation]) -> bool:
        """True when the slot's learned rules, as a set, explain it strictly better than its rules now.

        Two wrong rules can share a slot's cases between them (an accidental expression that is 0
        on cancelled lines, a constant for one delivered line): replacing either alone by its right
        counterpart loses the cases the other covered, and ``_improves`` keeps both wrong ones.
        Only rules that act on the slot's event alone are swapped here (the others are narrowed
        one by one, as before).
        """
        if len(learned) < 2 or not any(k is not None for k in targets):
            return False
        current = model.active_rules()
        replaced: dict[str, Rule] = {}
        added: list[Rule] = []
        try:
            for n, (rule, k) in enumerate(zip(learned, targets)):
                if k is None:
                    added.append(parse_rule({**rule, "id": f"_together{n}"}, self.schema))
                    continue
                target = editable[k]
                if _acts_beyond(model.get(target).rule, slot[2]):
                    return False
                replaced[target] = parse_rule(_replacing(model, target, rule), self.schema)
        except MemkitError:
            return False
        assigned = {editable[k] for k in targets if k is not None}
        dropped = {rid for rid in editable if rid not in assigned and not _acts_beyond(model.get(rid).rule, slot[2])}
        revised = [replaced.get(r.id, r) for r in current if r.id not in dropped] + added
        return self._slot_mismatches(revised, slot, obs) < self._slot_mismatches(current, slot, obs)

    def _needed_on_other_events(self, model: RuleModel, rid: str, slot: Slot, obs: Sequence[Observation]) -> bool:
        """Whether this world's writes of another of the rule's events need it (the slot is explained
        worse there without it): then a rule whose effect is gone on the slot's event still holds
        there; otherwise it is stale as a whole, as a deleted rule is."""
        current = model.active_rules()
        without = [r for r in current if r.id != rid]
        for e in model.get(rid).rule["events"]:
            other = (slot[0], slot[1], e, *slot[3:])
            if e != slot[2] and self._slot_mismatches(without, other, obs) > self._slot_mismatches(current, other, obs):
                return True
        return False

    def _narrow(self, model: RuleModel, target: str, slot: Slot, world: str, result: InductionResult) -> None:
        """Take the slot's event off ``target`` (a rule on several events)."""
        old = model.get(target).rule
        events = [e for e in old["events"] if e != slot[2]]
        try:
            model.revise(target, {**old, "events": events}, reason=f"observations in {world} contradict it on {slot[2]} ({_slot_text(slot)}); it keeps {', '.join(events)}")
            result.revised.append(target)
        except MemkitError:
            result.failed.append(slot)

    def _add(self, model: RuleModel, rule: dict[str, Any], slot: Slot, ev: list[Evidence], result: InductionResult, world: str) -> str | None:
        """Add ``rule`` to the model; its id, or None when the model refuses it."""
        try:
            rid = model.add(rule, reason=f"explains {_slot_text(slot)} seen in {world}", evidence=ev, confidence=min(0.5 + 0.1 * len(ev), 0.95))
        except MemkitError:
            result.failed.append(slot)
            return None
        result.added.append(rid)
        return rid

    def _rules_by_slot(self, model: RuleModel) -> dict[Slot, list[str]]:
        out: dict[Slot, list[str]] = {}
        for lr in model.rules:
            if lr.status != "active":
                continue
            try:
                rule = parse_rule(lr.rule, self.schema)
            except MemkitError:
                continue
            for slot in slot_of_rule(rule):
                out.setdefault(slot, []).append(lr.id)
        return out

    def _trigger_obs(self, slot: Slot, obs: Sequence[Observation]) -> list[Observation]:
        return [o for o in obs if o.action.table == slot[1] and o.action.op == slot[2]]

    def _has_positive(self, slot: Slot, obs: Sequence[Observation]) -> bool:
        return any(effects_in_slot(slot, o.action, o.effects) for o in self._trigger_obs(slot, obs))

    # -- learning one slot --------------------------------------------------------
    def learn_slot(self, slot: Slot, observations: Sequence[Observation], only: set[int] | None = None,
                   *, partial: bool = False) -> LearnedSlot | None:
        """Learn one rule (dict) explaining ``slot`` on these observations, or None.

        With ``only`` (indexes into ``observations``), just those positives are
        to be explained; the other positives count as observations where this
        rule must not change anything. With ``partial``, a created record's fields
        no expression explains are left out of the rule (creates only); where every
        field is explained the rule is the one learned without it.
        """
        kind, table, event = slot[0], slot[1], slot[2]
        trig = [o for o in observations if o.action.table == table and o.action.op == event]
        examples = [self._example(o) for o in trig]
        index0 = {id(o): i for i, o in enumerate(observations)}
        if kind == "own":
            shown = self._own_finals(slot, trig)
            pos = [i for i, o in enumerate(trig) if i in shown and (only is None or index0[id(o)] in only)]
        else:
            pos = [i for i, o in enumerate(trig) if effects_in_slot(slot, o.action, o.effects) and (only is None or index0[id(o)] in only)]
        if not pos:
            return None
        pool_obs = [o for o in observations if o.action.table == table and (kind != "own" or o.action.op != "delete")]
        pool_ex = [self._example(o) for o in pool_obs]
        pool_pos = [i for i, o in enumerate(pool_obs) if effects_in_slot((kind, table, o.action.op, *slot[3:]), o.action, o.effects)]
        pool = (pool_ex, pool_pos) if len(pool_pos) > len(pos) and only is None else None
        if kind == "own":
            learned = self._learn_own(slot, examples, pos, pool)
        elif kind == "upd":
            learned = self._learn_upd(slot, examples, pos, pool)
        elif kind == "create":
            learned = self._learn_create(slot, examples, pos, pool, partial=partial)
        else:
            learned = self._learn_del(slot, examples, pos)
        if learned is None:
            return None
        cond = learned.rule.get("condition")
        learned.alternatives = [{**learned.rule, "condition": c} for c in self._cond_alts.get(cond, [])] + learned.alternatives
        if kind == "own":
            shown = [examples[i].current for i in learned.positives]
            learned.rule = _null_guarded(self.schema, learned.rule, shown)
            learned.alternatives = [_null_guarded(self.schema, r, shown) for r in learned.alternatives]
        # map example indexes back to observation indexes of the caller
        index = {id(o): i for i, o in enumerate(observations)}
        learned.positives = [index[id(trig[i])] for i in learned.positives]
        learned.negatives = [index[id(trig[i])] for i in learned.negatives]
        return learned

    def _rule_dict(self, slot: Slot, when: str, action: dict[str, Any], condition: str | None) -> dict[str, Any]:
        rule: dict[str, Any] = {"id": "candidate", "table": slot[1], "events": [slot[2]], "when": when}
        if condition:
            rule["condition"] = condition
        rule["actions"] = [action]
        return rule

    def _condition(self, slot: Slot, examples: list[Example], pos: list[int], neg: list[int], *, after_rule: bool) -> str | None | bool:
        """A condition string, None for "always", or False when none fits."""
        if not neg:
            return None
        target = slot[3] if slot[0] == "own" else None
        if target is not None:
            # a field the world set in every positive besides the target (or the write set itself)
            # may be the same rule's other effect (the status it sets along with the flag): a
            # condition reading its new value fits the observations and predicts nothing, since the
            # value appears only once the rule has fired. A condition is first looked for on the
            # record as it was before the world set such fields; only when none fits there are
            # they read as they ended (a rule may read what an earlier rule derived)
            moved = {i: self._derived_fields(slot[1], target, [examples[i]]) for i in pos}
            # a number the model's other before rules compute (the net amount from the loss) is
            # an input this rule may read as it ended (severity from the net amount), not a co-effect;
            # unless it is computed from this rule's target or another field these writes moved (an
            # outstanding amount recomputed from the late fee the rule sets): that one changed
            # because the rule fired, and a condition on it predicts nothing
            inputs = self._computed - self._downstream_of({target} | (set().union(*moved.values()) - self._computed))
            moved = {i: m - inputs for i, m in moved.items()}
            derived = set().union(*moved.values())
            co_effects = sorted(g for g in derived if all(g in examples[i].obs.action.values or g in moved[i] for i in pos))
            if co_effects:
                unset = [functools.reduce(lambda ex, g: ex.masking(self.schema, g), co_effects, ex) for ex in examples]
                chosen = self._condition_on(slot, unset, pos, neg, after_rule=after_rule, derived=derived, computed=inputs)
                if chosen is not False:
                    return chosen
            chosen = self._condition_on(slot, examples, pos, neg, after_rule=after_rule, derived=derived, computed=inputs)
            if chosen is False:
                # a field the write set that a later write of its cascade overwrote (a balance the
                # write raised, recomputed once a scholarship the same write suspended came back
                # to the student): the rule read it as written, before the cascade returned
                chosen = self._condition_as_written(slot, examples, pos, neg, after_rule=after_rule, derived=derived, computed=inputs)
            return chosen
        chosen = self._condition_on(slot, examples, pos, neg, after_rule=after_rule, derived=set())
        if chosen is False:
            # a field of the written record that ended otherwise in every write the rule fired on (a
            # discharged box, put back to 'held' by the hold the write created): the rule read it
            # as written, before its own cascade ran, so a condition on the written value tells
            # these writes apart. (A field only some writes ended otherwise, a before rule
            # recomputing it on the negatives, is read as it ended, as the rule read it too)
            moved = set.intersection(*(self._moved_fields(examples[i]) for i in pos))
            if moved:
                chosen = self._condition_as_written(slot, examples, pos, neg, after_rule=after_rule, derived=set(), only=moved)
        return chosen

    def _condition_as_written(self, slot: Slot, examples: list[Example], pos: list[int], neg: list[int], *, after_rule: bool,
                              derived: set[str], only: set[str] | None = None, computed: frozenset[str] | None = None) -> str | None | bool:
        """``_condition_on`` with the fields each write set, and that ended with another value, read
        as written (of those, only the fields in ``only`` where given); False where no example has one."""
        as_written = [self._as_written(ex, only) for ex in examples]
        if all(a is b for a, b in zip(as_written, examples)):
            return False
        return self._condition_on(slot, as_written, pos, neg, after_rule=after_rule, derived=derived, computed=computed)

    def _downstream_of(self, fields: set[str]) -> frozenset[str]:
        """The numbers in ``_computed`` computed from ``fields``, directly or through one another."""
        reached: set[str] = set()
        grew = True
        while grew:
            grew = False
            for g, reads in self._computed_reads:
                if g not in reached and reads & (fields | reached):
                    reached.add(g)
                    grew = True
        return frozenset(reached)

    def _moved_fields(self, ex: Example) -> set[str]:
        """The fields ``ex``'s write set that ended with another value."""
        written = ex.written(self.schema)
        return {f for f in ex.obs.action.values if f in ex.current and not values_equal(ex.current.get(f), written.get(f))}

    def _as_written(self, ex: Example, only: set[str] | None = None) -> Example:
        """``ex`` with the fields its write set, and that ended with another value, read as written
        (of those, only the fields in ``only`` where given; ``ex`` itself where there are none)."""
        fields = self._moved_fields(ex)
        if only is not None:
            fields &= only
        moved = [f for f in ex.obs.action.values if f in fields]
        return functools.reduce(lambda e, g: e.masking(self.schema, g), moved, ex)

    def _condition_on(self, slot: Slot, examples: list[Example], pos: list[int], neg: list[int], *, after_rule: bool,
                      derived: set[str], computed: frozenset[str] | None = None) -> str | None | bool:
        """``_condition`` on one view of the examples; literals reading ``derived`` fields cost more, and
        a change of a number in ``computed`` (default: every number the model's before rules compute)
        leads a term as a written field's does."""
        table, event = slot[1], slot[2]
        ex_idx = pos + neg
        written: set[str] = set()
        for i in pos:
            written |= set(examples[i].obs.action.values)

        def values_of(src: str, idx: Sequence[int] = ex_idx) -> list[Any]:
            return [v for v in (eval_on(src, self.schema, examples[i], after_rule=after_rule) for i in idx) if v is not FAIL]

        target = slot[3] if slot[0] == "own" else None
        # a rule on a number the model computes from the written ones (severity on the net amount,
        # derived from the loss) fires on a change of that number, which a direct write of it makes too
        lits = condition_literals(self.schema, table, event, written, values_of, lambda s: values_of(s, pos), target,
                                  computed=self._computed if computed is None else computed)
        if derived:
            # a field another before rule set in these very writes may be what the rule reads (a
            # total derived first), or a coincidence of the same writes: such literals cost more
            lits = [dataclasses.replace(lit, rank=lit.rank + 4) if _literal_reads(lit.source, derived) else lit for lit in lits]
        cache: dict[str, list[bool]] = {}
        # the covering only ever reads positives and negatives: other examples stay False unevaluated
        used = sorted(set(ex_idx))

        def truth(src: str) -> list[bool]:
            if src not in cache:
                vals = [False] * len(examples)
                for i in used:
                    vals[i] = self._holds(src, examples[i], after_rule)
                cache[src] = vals
            return cache[src]

        found = learn_dnf_candidates(lits, truth, pos, neg)
        if not found:
            return False
        dnf = found[0]
        if not dnf:
            return None
        chosen = _dnf_source(dnf)
        self._cond_alts[chosen] = [c for c in dict.fromkeys(_dnf_source(d) for d in self._dnf_alternatives(dnf, found, lits, truth, pos, neg)) if c != chosen][:4]
        return chosen

    def _observation_cache(self, obs: Observation) -> dict[Any, Any]:
        """The dict of values kept for ``obs`` (checked by identity: ids of dropped observations are reused)."""
        entry = self.literal_values.get(id(obs))
        if entry is None or entry[0] is not obs:
            entry = self.literal_values[id(obs)] = (obs, {})
        return entry[1]

    def _example(self, obs: Observation) -> Example:
        """The Example view of ``obs``, keeping what is computed on it across slots and rounds."""
        return example_of(obs, self.schema, self._observation_cache(obs))

    def _holds(self, src: str, ex: Example, after_rule: bool) -> bool:
        """Whether the literal ``src`` is true on ``ex`` (kept per observation and view, in the
        observation's dict that every example built by :meth:`_example` carries)."""
        cache = ex.cache
        key = (ex.table, ex.view, after_rule, src)
        value = cache.get(key)
        if value is None:
            value = cache[key] = eval_on(src, self.schema, ex, after_rule=after_rule) is True
        return value

    def _dnf_alternatives(self, dnf: list[list[str]], found: list[list[list[str]]], lits: Sequence[Any],
                          truth: Callable[[str], list[bool]], pos: list[int], neg: list[int]) -> list[list[list[str]]]:
        """Conditions that fit the same examples: the other strategies' answers, the answer with the
        change of a thresholded field added, its changes into states read as the states (see
        :func:`state_rival_terms`), and answers that avoid each literal of the chosen one."""
        out = [d for d in found[1:] if d]
        for k, term in enumerate(dnf):
            if any(lit.startswith("change") for lit in term):
                continue
            fields = {m for lit in term for m in re.findall(r"current\.(\w+)", lit)}
            for g in sorted(fields):
                lit = f"changed({g})"
                vals = truth(lit)
                covered = [i for i in pos if all(truth(x)[i] for x in term)]
                if covered and all(vals[i] for i in covered):
                    out.append([*dnf[:k], [lit, *term], *dnf[k + 1:]])
        # a state for a change into it, where the term has a change of another field to fire on
        # (see state_rival_terms); negatives already in the state (days overdue written back to 0
        # on an issued bill) get the cheapest literal that keeps the term's positives and rules
        # them out (a threshold), and where none does the change is what the rule reads
        for k, term in enumerate(dnf):
            for state_term in state_rival_terms(term):
                bad = [i for i in neg if all(truth(y)[i] for y in state_term)]
                if bad:
                    kept = [i for i in pos if all(truth(y)[i] for y in state_term)]
                    extra = next((x.source for x in sorted(lits, key=lambda x: x.rank) if x.source not in state_term
                                  and all(truth(x.source)[i] for i in kept) and not any(truth(x.source)[i] for i in bad)), None)
                    if extra is None:
                        continue
                    state_term = [*state_term, extra]
                out.append([*dnf[:k], state_term, *dnf[k + 1:]])
        # a plain change too: rules fire on changes, but a field the experiments wrote along in every
        # positive (a value a bisection carried into each probe) changed there as well; where no other
        # change explains the same examples no rival is found, and nothing is tested
        avoidable = {x for term in dnf for x in term if not x.startswith("changes_")}
        for lit in sorted(avoidable):
            banned = {lit}
            threshold = re.fullmatch(r"(\S+) [<>]=? -?[\d.]+", lit)
            if threshold:
                # another constant on the same path is no real rival: look for a different reason
                banned |= {x.source for x in lits if re.fullmatch(rf"{re.escape(threshold.group(1))} [<>]=? -?[\d.]+", x.source)}
            other = learn_dnf_candidates(lits, truth, pos, neg, banned=frozenset(banned))
            if other and other[0]:
                out.append(other[0])
        return out

    # own record: a before rule with set
    def _learn_own(self, slot: Slot, examples: list[Example], pos: list[int], pool: tuple[list[Example], list[int]] | None = None) -> LearnedSlot | None:
        f = slot[3]
        fspec = self.schema.tables[slot[1]].fields[f]
        derived = self._derived_fields(slot[1], f, [examples[i] for i in pos])
        examples = [ex.masking(self.schema, f) for ex in examples]
        src = None
        # values read from what the write brought (or the record held) first; a field another before
        # rule derived in these very writes (a total computed from the price being explained) last
        # never one the model computes from this very field (a late fee read back from the balance
        # due, which the model computes from the late fee): that is the same rule run backwards
        for avoid in ([derived, derived & self._readers] if derived else [set()]):
            src = self._own_value(slot, f, fspec.type, examples, pos, pool, avoid)
            if src is not None:
                break
        if src is None:
            return None
        neg = []
        for i, ex in enumerate(examples):
            if i in pos:
                continue
            would = eval_on(src, self.schema, ex, after_rule=False)
            final = (ex.after.get(ex.table, ex.record_id) or ex.current).get(f)
            if would is FAIL or not values_equal(would, final):
                neg.append(i)
        cond = self._condition(slot, examples, pos, neg, after_rule=False)
        if cond is False:
            return None
        learned = LearnedSlot(slot, self._rule_dict(slot, "before", {"set": {f: src}}, cond), pos, neg)  # type: ignore[arg-type]
        if _CONSTANT.fullmatch(src):
            targets = [examples[i].obs.after.get(slot[1], examples[i].record_id).get(f) for i in pos]
            rivals = self._value_rivals(slot[1], targets, fspec.type, [(examples[i], None) for i in pos], src, derived | self._readers)
            learned.alternatives = [self._rule_dict(slot, "before", {"set": {f: r}}, cond) for r in rivals]  # type: ignore[arg-type]
        return learned

    def _derived_fields(self, table: str, f: str, positives: list[Example]) -> set[str]:
        """Fields other than ``f`` whose final value differs from the written one in some positive:
        another before rule set them during the same write."""
        out: set[str] = set()
        for ex in positives:
            final = ex.obs.after.get(table, ex.record_id)
            if final is None:
                continue
            written = ex.written(self.schema)
            # a written field back at its value before the write, where the write changed records that
            # refer to this one (a request total written large, summed again from the lines its
            # fulfilment delivered), was put back by their cascade after the write: the rule read it
            # as written, and it is no other rule's co-effect
            put_back = self._changed_child(ex.obs)
            out |= {g for g in self.schema.tables[table].fields if g != f and not values_equal(final.get(g), written.get(g))
                    and not (put_back and g in ex.obs.action.values and values_equal(final.get(g), ex.previous.get(g)))}
        return out

    def _own_value(self, slot: Slot, f: str, ftype: str, examples: list[Example], pos: list[int],
                   pool: tuple[list[Example], list[int]] | None, avoid: set[str]) -> str | None:
        """The before-rule value for ``f``: pooled over the table's events when there is a pool."""
        src = None
        if pool is not None:
            # the expression that explains every positive of this event and the most positives of
            # the other events of the table (a rule on [insert, update] shows in both)
            pex = [ex.masking(self.schema, f) for ex in pool[0]]
            ptargets = []
            for i in pool[1]:
                rec = pex[i].obs.after.get(slot[1], pex[i].record_id)
                ptargets.append(rec.get(f) if rec else None)
            src = self._pooled_value(slot[1], f, ftype, [(pex[i], t) for i, t in zip(pool[1], ptargets)],
                                     [(examples[i], examples[i].obs.after.get(slot[1], examples[i].record_id).get(f)) for i in pos], avoid)
        if src is None:
            targets = [ex.obs.after.get(slot[1], ex.record_id).get(f) for ex in (examples[i] for i in pos)]
            src = self._find_value(slot[1], None, targets, ftype, [(examples[i], None) for i in pos], after_rule=False, avoid=avoid)
        return src

    def _pooled_value(self, table: str, f: str, ftype: str, pooled: list[tuple[Example, Any]], required: list[tuple[Example, Any]],
                      avoid: set[str] = frozenset()) -> str | None:  # type: ignore[assignment]
        """A before-rule value that fits every ``required`` case and the most ``pooled`` ones (at least two)."""
        def first(src: str) -> list[Any]:
            return [None if (v := eval_on(src, self.schema, ex, after_rule=False)) is FAIL else v for ex, _ in pooled[:8]]

        best, best_n = None, 1
        for n, src in enumerate(value_candidates(self.schema, table, [t for _, t in pooled], target_type=ftype, first_inputs=first)):
            if n >= 4000:
                break
            if _reads_any(src, avoid):
                continue
            if not all(values_equal(eval_on(src, self.schema, ex, after_rule=False), want) for ex, want in required):
                continue
            covered = sum(1 for ex, want in pooled if values_equal(eval_on(src, self.schema, ex, after_rule=False), want))
            if covered > best_n:
                best, best_n = src, covered
                if covered == len(pooled):
                    break
        return best

    def _find_value(self, table: str, row_table: str | None, targets: list[Any], ftype: str | None,
                    cases: list[tuple[Example, Record | None]], *, after_rule: bool, avoid: set[str] = frozenset()) -> str | None:  # type: ignore[assignment]
        candidates, fits = self._value_search(table, row_table, targets, ftype, cases, after_rule=after_rule, avoid=avoid)
        return find_value(candidates, fits)

    def _value_rivals(self, table: str, targets: list[Any], ftype: str | None, cases: list[tuple[Example, Record | None]],
                      chosen: str, avoid: set[str], *, limit: int = 3000, most: int = 2) -> list[str]:
        """Other before-rule values that fit the same cases as ``chosen``, a constant: every write
        seen may have been on one parent (a waitlist position of 5 on the one section written,
        whose waitlist held 4), where a number read through a reference fits as well and would
        differ on another parent. An experiment can tell them apart.

        Only values that read through a reference, with round numbers at most (not a rate read
        off the one example, nor a number times 0), that read none of ``avoid``, and not the
        rounded twin of one already kept."""
        candidates, fits = self._value_search(table, None, targets, ftype, cases, after_rule=False, avoid=avoid)
        out: list[str] = []
        seen: set[str] = set()
        for n, src in enumerate(candidates):
            if n >= limit or len(out) >= most:
                break
            if src in seen or src == chosen:
                continue
            seen.add(src)
            if not _READS_THROUGH.search(src) or any(significant_digits(float(x)) > 2 or float(x) == 0 for x in _NUMBERS.findall(src)):
                continue
            if any(src == f"round({kept}, {d})" for kept in out for d in (0, 2)) or not fits(src):
                continue
            out.append(src)
        return out

    def _value_search(self, table: str, row_table: str | None, targets: list[Any], ftype: str | None,
                      cases: list[tuple[Example, Record | None]], *, after_rule: bool,
                      avoid: set[str] = frozenset()) -> tuple[Iterable[str], Callable[[str], bool]]:  # type: ignore[assignment]
        """The candidate values for ``targets``, simplest first, and the test that one fits every case."""
        def first(src: str) -> list[Any]:
            out = []
            for ex, row in cases[:8]:
                v = eval_on(src, self.schema, ex, after_rule=after_rule, row=row, row_table=row_table)
                out.append(None if v is FAIL else v)
            return out

        def fits(src: str) -> bool:
            if _reads_any(src, avoid):
                return False
            for (ex, row), want in zip(cases, targets):
                got = eval_on(src, self.schema, ex, after_rule=after_rule, row=row, row_table=row_table)
                if got is FAIL or not values_equal(got, want):
                    return False
            return True

        # the sums that only copy a sibling's number, set aside by the same pass that reads off the rest
        deferred: list[str] = []

        def fitted() -> Iterable[str]:
            return aggregate_sources(self.schema, table, [(ex, t) for (ex, _), t in zip(cases, targets)], after_rule=after_rule,
                                     lookups=deferred)

        def lookups() -> Iterable[str]:
            return deferred

        candidates = value_candidates(self.schema, table, targets, target_type=ftype, row_table=row_table, first_inputs=first,
                                      fitted=fitted if row_table is None else None, lookups=lookups if row_table is None else None)
        return itertools.chain(self._value_hints, candidates), fits

    # another record's field: an after rule with update (path) or update_where
    def _changed_rows(self, slot: Slot, ex: Example) -> dict[str, Any]:
        t2, f = slot[3], slot[4]
        s2 = (slot[0], slot[1], ex.event, *slot[3:])
        out: dict[str, Any] = {}
        for e in effects_in_slot(s2, ex.obs.action, ex.obs.effects):
            rec = ex.after.get(t2, e[2])
            out[e[2]] = rec.get(f) if rec is not None else e[4]
        return out

    def _learn_upd(self, slot: Slot, examples: list[Example], pos: list[int], pool: tuple[list[Example], list[int]] | None = None) -> LearnedSlot | None:
        table, t2, f = slot[1], slot[3], slot[4]
        fspec = self.schema.tables[t2].fields[f]
        changed: dict[int, dict[str, Any]] = {i: self._changed_rows(slot, examples[i]) for i in pos}
        examples = list(examples)
        for i in pos:
            examples[i] = examples[i].masking_after(t2, {rid: f for rid in changed[i]})
        self._pool_changed = {}
        if pool is not None:
            pex = list(pool[0])
            for i in pool[1]:
                self._pool_changed[i] = self._changed_rows(slot, pex[i])
                pex[i] = pex[i].masking_after(t2, {rid: f for rid in self._pool_changed[i]})
            pool = (pex, pool[1])
        self._pool = pool
        # 1) a reference path when every positive changed exactly one record
        if all(len(c) == 1 for c in changed.values()):
            for src, ftype, last_table in paths_from(self.schema, table, "current", 2):
                if ftype != "reference":
                    continue
                fname = src.split(".")[-1]
                if self.schema.tables[last_table].fields[fname].ref != t2:
                    continue
                ok = all(eval_on(src, self.schema, examples[i], after_rule=True) == next(iter(changed[i])) for i in pos)
                if not ok:
                    continue
                learned = self._learn_upd_target(slot, examples, pos, changed, src)
                if learned is not None:
                    return learned
        # 2) a where clause over t2
        found: list[LearnedSlot] = []
        for where in self._where_candidates(table, t2):
            def matches(ex: Example) -> list[str]:
                out = []
                for rec in ex.before.rows(t2):
                    if ex.obs.action.op == "delete" and t2 == table and rec["id"] == ex.record_id:
                        continue
                    if eval_on(where, self.schema, ex, after_rule=True, row=rec, row_table=t2) is True:
                        out.append(rec["id"])
                return out

            cases: list[tuple[Example, Record | None]] = []
            targets: list[Any] = []
            ok = True
            for i in pos:
                m = matches(examples[i])
                if not set(changed[i]) <= set(m):
                    ok = False
                    break
                for rid, v in changed[i].items():
                    cases.append((examples[i], examples[i].before.get(t2, rid)))
                    targets.append(v)
            if not ok:
                continue
            src = self._find_value(table, t2, targets, fspec.type, cases, after_rule=True)
            if src is None:
                continue
            # matched rows that did not change must already hold the value
            consistent = True
            for i in pos:
                ex = examples[i]
                for rid in matches(ex):
                    if rid in changed[i]:
                        continue
                    row = ex.before.get(t2, rid)
                    would = eval_on(src, self.schema, ex, after_rule=True, row=row, row_table=t2)
                    if would is FAIL or not values_equal(would, row.get(f) if row else None):
                        consistent = False
                        break
                if not consistent:
                    break
            if not consistent:
                continue
            neg = []
            for i, ex in enumerate(examples):
                if i in pos:
                    continue
                for rid in matches(ex):
                    row = ex.before.get(t2, rid)
                    final = ex.after.get(t2, rid)
                    would = eval_on(src, self.schema, ex, after_rule=True, row=row, row_table=t2)
                    if would is FAIL or not values_equal(would, final.get(f) if final else None):
                        neg.append(i)
                        break
            cond = self._condition(slot, examples, pos, neg, after_rule=True)
            if cond is False:
                continue
            action = {"update_where": {"table": t2, "where": where, "set": {f: src}}}
            found.append(LearnedSlot(slot, self._rule_dict(slot, "after", action, cond), pos, neg))  # type: ignore[arg-type]
            if sum(1 for ls in found if not ls.negatives) >= 3:
                break
        # the where clause that leaves the fewest writes for the condition to rule out is the likeliest
        return _best_with_alternatives(found)

    def _learn_upd_target(self, slot: Slot, examples: list[Example], pos: list[int], changed: dict[int, dict[str, Any]], target: str) -> LearnedSlot | None:
        table, t2, f = slot[1], slot[3], slot[4]
        fspec = self.schema.tables[t2].fields[f]
        src = None
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pex, ppos = pool
            pcases, ptargets = [], []
            for i in ppos:
                rows = self._pool_changed[i]
                tid = eval_on(target, self.schema, pex[i], after_rule=True)
                if len(rows) == 1 and tid in rows:
                    pcases.append((pex[i], None))
                    ptargets.append(rows[tid])
            if len(pcases) > len(pos):
                src = self._find_value(table, None, ptargets, fspec.type, pcases, after_rule=True)
        if src is None:
            targets = [next(iter(changed[i].values())) for i in pos]
            src = self._find_value(table, None, targets, fspec.type, [(examples[i], None) for i in pos], after_rule=True)
        if src is None:
            return None
        neg = []
        for i, ex in enumerate(examples):
            if i in pos:
                continue
            tid = eval_on(target, self.schema, ex, after_rule=True)
            rec = ex.after.get(t2, tid) if isinstance(tid, str) else None
            if rec is None:
                continue
            would = eval_on(src, self.schema, ex, after_rule=True)
            if would is FAIL or not values_equal(would, rec.get(f)):
                neg.append(i)
        cond = self._condition(slot, examples, pos, neg, after_rule=True)
        if cond is False:
            return None
        action = {"update": {"target": target, "set": {f: src}}}
        return LearnedSlot(slot, self._rule_dict(slot, "after", action, cond), pos, neg)  # type: ignore[arg-type]

    def _where_candidates(self, table: str, t2: str) -> list[str]:
        anchors = join_anchors(self.schema, table)
        base: list[str] = []
        # the records that refer to the written one first, then those that share a record with it
        # (a deleted enrollment's charges, not its student's, where the examples show no difference)
        for asrc, atable in anchors:
            for rname, rspec in self.schema.tables[t2].fields.items():
                if rspec.type == "reference" and rspec.ref == atable:
                    base.append(f"row.{rname} == {asrc}")
        out = list(base)
        # two references at once: the stock row of this product *in this warehouse*
        for i, b1 in enumerate(base):
            for b2 in base[i + 1:]:
                if b1.split(" == ")[0] != b2.split(" == ")[0]:
                    out.append(f"{b1} and {b2}")
        for b in base:
            for cname, cspec in self.schema.tables[t2].fields.items():
                if cspec.type == "choice":
                    for choice in cspec.choices or ():
                        out.append(f"{b} and row.{cname} == '{choice}'")
                        out.append(f"{b} and row.{cname} != '{choice}'")
                elif cspec.type == "boolean":
                    out.append(f"{b} and row.{cname} == true")
                    out.append(f"{b} and row.{cname} == false")
        return out

    # created records: an after rule with create
    def _learn_create(self, slot: Slot, examples: list[Example], pos: list[int], pool: tuple[list[Example], list[int]] | None = None,
                      *, partial: bool = False) -> LearnedSlot | None:
        table, t2 = slot[1], slot[3]
        spec = self.schema.tables[t2]
        examples = list(examples)
        created: dict[int, Record] = {}
        # the other records of the kind each write created, and the (field, value) pairs of the
        # slot's effects (what other rules explain taken out)
        siblings: dict[int, list[Record]] = {}
        shown_of: dict[int, set[tuple[str, Any]]] = {}
        for i in pos:
            ex = examples[i]
            new_ids = ex.obs.created_ids(t2)
            if not new_ids:
                return None
            # of several new records, the one the slot's effects describe (those other rules give
            # were taken out of them, see _unexplained)
            shown = {(e[2], value_key(e[3])) for e in effects_in_slot(slot, ex.obs.action, ex.obs.effects)}
            described = new_ids
            if self._create_kind is not None:
                # a rule for one kind of record (see _split_by_signature) describes a record of that kind
                described = [rid for rid in new_ids
                             if self._kind_of(ex.after.get(t2, rid), t2) == self._create_kind] or new_ids
            rid0 = _most_described(ex.after, t2, described, shown)
            created[i] = ex.after.get(t2, rid0)  # type: ignore[assignment]
            siblings[i] = [rec for rid in described if rid != rid0
                           for rec in [ex.after.get(t2, rid)] if rec is not None]
            shown_of[i] = shown
            examples[i] = ex.masking_after(t2, {rid: None for rid in new_ids})
        values: dict[str, str] = {}
        left_out = False
        fill = self._insert_fill
        for fname, fspec in spec.fields.items():
            targets = [created[i].get(fname) for i in pos]
            if all(t is None for t in targets):
                continue
            if fspec.has_default and all(values_equal(t, fspec.default) for t in targets):
                continue
            # (each example's after-state has the created records taken out by now, see above)
            if fill is not None and all(fill.sets(created[i], fname, examples[i].after) for i in pos):
                continue  # the model's insert rules of the created table set it (an overdue fine waived for a child)
            src = self._find_value(table, None, targets, fspec.type, [(examples[i], None) for i in pos], after_rule=True)
            if src is not None and fspec.type == "reference" and _QUOTED.fullmatch(src) and any(
                    rec.get(fname) is not None and not values_equal(rec.get(fname), created[i].get(fname))
                    and (fname, value_key(rec.get(fname))) in shown_of[i]
                    for i in pos for rec in siblings[i]):
                # a write that made records like it about other parents too, which no other rule
                # explains: one record per child of a cascade (every product of a suspended
                # supplier raises its alert), which one create naming one parent would explain
                # once, and wrongly on any other write
                src = None
            if src is None:
                if partial and fspec.type not in ("choice", "boolean"):
                    left_out = True
                    continue  # (a choice or flag left out would give every record one kind)
                return None  # records of different kinds: _split_by_signature learns one rule per kind
            values[fname] = src
        if not values or (left_out and not any(spec.fields[f].type == "reference" for f in values)):
            return None  # (a partial record tied to nothing would not say what it is about)
        neg = [i for i in range(len(examples)) if i not in pos]
        cond = self._condition(slot, examples, pos, neg, after_rule=True)
        if cond is False:
            return None
        action = {"create": {"table": t2, "values": values}}
        return LearnedSlot(slot, self._rule_dict(slot, "after", action, cond), pos, neg)  # type: ignore[arg-type]

    # deleted records: an after rule with delete_where
    def _learn_del(self, slot: Slot, examples: list[Example], pos: list[int]) -> LearnedSlot | None:
        table, t2 = slot[1], slot[3]
        deleted = {i: {e[2] for e in effects_in_slot(slot, examples[i].obs.action, examples[i].obs.effects)} for i in pos}
        found: list[LearnedSlot] = []
        for where in self._where_candidates(table, t2):
            def matches(ex: Example) -> set[str]:
                return {rec["id"] for rec in ex.before.rows(t2)
                        if not (ex.obs.action.op == "delete" and t2 == table and rec["id"] == ex.record_id)
                        and eval_on(where, self.schema, ex, after_rule=True, row=rec, row_table=t2) is True}

            if not all(matches(examples[i]) == deleted[i] for i in pos):
                continue
            neg = [i for i, ex in enumerate(examples) if i not in pos and matches(ex)]
            cond = self._condition(slot, examples, pos, neg, after_rule=True)
            if cond is False:
                continue
            action = {"delete_where": {"table": t2, "where": where}}
            found.append(LearnedSlot(slot, self._rule_dict(slot, "after", action, cond), pos, neg))  # type: ignore[arg-type]
            if not neg:
                break
        return _best_with_alternatives(found)

    # -- merging rules across events ------------------------------------------------
    def unify_events(self, model: RuleModel, observations: Sequence[Observation], world: str) -> list[tuple[str, str]]:
        """Merge this world's rules that act the same way on one table under different events.

        Rules are learned per (table, event). When an update rule settled on a
        constant that every update seen so far happened to produce (a count that
        was 1 each time), while the insert rule found the count itself, one rule
        for both events is the better model. Rule ``a`` takes ``b``'s events (and
        ``b`` is retired) when ``a`` then explains the writes of all those events
        as the two did (no write they reproduced is lost); returns (kept, retired) pairs.
        """
        obs = [o for o in observations if not o.rolled_back]
        merged: list[tuple[str, str]] = []
        while True:
            pair = self._first_mergeable(model, obs, world)
            if pair is None:
                return merged
            a, b, rule = pair
            ev = [e for e in model.get(b).evidence if e.supports][-3:]
            model.revise(a, rule, reason=f"also explains what {b} did in {world}, so one rule covers {', '.join(rule['events'])}", evidence=ev)
            model.retire(b, reason=f"merged into {a}: that rule explains its writes at least as well ({world})")
            merged.append((a, b))

    def _first_mergeable(self, model: RuleModel, obs: Sequence[Observation], world: str) -> tuple[str, str, dict[str, Any]] | None:
        own = [lr for lr in model.active() if self.may_edit(lr.id) and lr.origin_world == world]
        # an inherited rule this world's writes took an event off (a GPA threshold raised, seen on
        # updates) is the rest of a rule learned here: it may be absorbed too (the inserts keep
        # the old threshold otherwise), though never absorb one, on this world's few writes
        narrowed = {h.rule_id for h in model.history if h.op == "revise" and h.world == world and h.before and h.after
                    and set(h.after.get("events", [])) < set(h.before.get("events", []))}
        absorbable = own + [lr for lr in model.active() if lr.id in narrowed and self.may_edit(lr.id) and lr.origin_world != world]
        current = model.active_rules()
        # what the model as it stands gets wrong, per (table, events): the same for every pair tried
        baseline: dict[tuple[str, tuple[str, ...]], list[float]] = {}
        for a in own:
            for b in absorbable:
                ra, rb = a.rule, b.rule
                if (a.id == b.id or ra["table"] != rb["table"] or ra.get("when") != rb.get("when")
                        or set(ra["events"]) & set(rb["events"]) or _action_shape(ra) != _action_shape(rb)):
                    continue
                events = [e for e in ("insert", "update", "delete") if e in ra["events"] or e in rb["events"]]
                rule = {**ra, "id": a.id, "events": events}
                try:
                    merged_rule = parse_rule(rule, self.schema)
                except MemkitError:
                    continue
                trial = [merged_rule if r.id == a.id else r for r in current if r.id != b.id]
                seen = [o for o in obs if o.action.table == ra["table"] and o.action.op in events]
                if not seen:
                    continue
                key = (ra["table"], tuple(events))
                if key not in baseline:
                    baseline[key] = self._scores(current, seen)
                # no write may be explained worse, not just as well on the whole: where other
                # rules get a write wrong anyway, a merge could drop a rule that was right there
                if all(t >= c - 1e-9 for t, c in zip(self._scores(trial, seen), baseline[key])):
                    return a.id, b.id, rule
        return None

    def _scores(self, rules: Sequence[Rule], obs: Sequence[Observation]) -> list[float]:
        """Per observation, how well the rules reproduce its side effects (IoU)."""
        engine = self.predictions.engine(rules)
        return [score_effects(self.predictions.run(engine, o).effects, o.effects).iou for o in obs]

    # -- pruning --------------------------------------------------------------------
    def prune_redundant(self, model: RuleModel, observations: Sequence[Observation], world: str) -> list[str]:
        """Retire editable rules whose removal loses nothing on the observations they fire in."""
        obs = [o for o in observations if not o.rolled_back]
        retired: list[str] = []
        # the current rules, their engine and the observations they get wrong change only when a
        # rule is retired: built again then, not for every rule looked at
        rules: list[Rule] = []
        with_engine = None
        wrong: list[Observation] | None = None
        for lr in sorted(model.active(), key=lambda r: len(r.evidence)):
            if not self.may_edit(lr.id):
                continue
            inherited = lr.origin_world != world
            if with_engine is None:
                rules = model.active_rules()
                with_engine = self.predictions.engine(rules)
            without = self.predictions.engine([r for r in rules if r.id != lr.id])
            if inherited:
                # only an inherited rule that makes some write worse can go: one it fires in among
                # the writes the model gets wrong must be better without it (checked there first,
                # since an inherited model has many rules and each full check replays every write)
                if wrong is None:
                    wrong = [o for o in obs if not same_effects(self.predictions.run(with_engine, o).effects, o.effects)]
                if not any(lr.id in (res := self.predictions.run(with_engine, o)).fired
                           and score_effects(self.predictions.run(without, o).effects, o.effects).iou > score_effects(res.effects, o.effects).iou + 1e-9
                           for o in wrong):
                    continue
            fired_any = False
            needed = False
            hurts = False
            for o in obs:
                res = self.predictions.run(with_engine, o)
                if lr.id not in res.fired:
                    continue
                fired_any = True
                s_with = score_effects(res.effects, o.effects).iou
                s_without = score_effects(self.predictions.run(without, o).effects, o.effects).iou
                # per observation, not summed: a rule right in one write and wrong in another is
                # not redundant, and retiring it only has the next pass learn it again
                if s_with > s_without + 1e-9:
                    needed = True
                    break
                hurts = hurts or s_without > s_with + 1e-9
            # an inherited rule rests on the earlier worlds' evidence too: this world's few
            # observations overlapping with another rule are no reason to drop it, but one that only
            # makes them worse (a shortcut duplicating a cascade the model also has) is wrong here
            if fired_any and not needed and (hurts or not inherited):
                why = "it only makes the predictions worse" if hurts and inherited else "the other rules explain every observation it fires in"
                model.retire(lr.id, reason=f"redundant: {why} ({world})")
                retired.append(lr.id)
                with_engine, wrong = None, None
        return retired


def _written_and_final(obs: Observation, result: ActionResult, f: str) -> tuple[Any, Any, Any] | None:
    """For field ``f`` the write set on its own record: what it wrote, what the rules leave there and
    what the world left there; None for a delete, a field it did not write, or no record after."""
    if obs.action.op == "delete" or f not in obs.action.values or f not in result.written_final or obs.after is None:
        return None
    final = obs.after.get(obs.action.table, obs.action.id)
    if final is None:
        return None
    return obs.action.values[f], result.written_final[f], final.get(f)


def _written_field_wrong(obs: Observation, result: ActionResult, f: str) -> bool:
    """Whether the rules override field ``f``, which the write set on its own record, where the
    world kept the value written. Side effects leave such a field out, yet a before rule that
    overrides it is as wrong as a wrong effect: an amount recomputed over the amount written."""
    seen = _written_and_final(obs, result, f)
    if seen is None:
        return False
    written, predicted, final = seen
    # only that direction for numbers: where the world overrode the write, learning the slot
    # already counts it (learn_slot's positives), and flagging a miss there sent induction after
    # every written number a rule recomputes (constant rules, one per value)
    return values_equal(final, written) and not values_equal(predicted, written)


def _written_choice_missed(obs: Observation, result: ActionResult, f: str) -> bool:
    """Whether the world overrode a flag or choice the write set on its own record (an emergency
    admission inserted as cancelled comes out admitted) and the rules do not. Side effects leave
    such a field out, so nothing else points induction at the rule. Numbers are left to the
    effects (see _written_field_wrong)."""
    seen = _written_and_final(obs, result, f)
    if seen is None:
        return False
    written, predicted, final = seen
    if final is None or is_number(final):
        return False
    return not values_equal(final, written) and not values_equal(predicted, final)


def _most_described(state: State, table: str, ids: Sequence[str], shown: set[tuple[str, Any]]) -> str:
    """Of the ``table`` records ``ids``, the one with most (field, value key) pairs in ``shown``
    (the first of those on a tie)."""
    return max(ids, key=lambda rid: sum((f, value_key(v)) in shown for f, v in state.get(table, rid).items()))


def _replacing(model: RuleModel, target: str, rule: dict[str, Any]) -> dict[str, Any]:
    """``rule`` (learned, at the default order) as the revision of ``target``: with its id, and with
    the order ``target`` was given to run after the rules that set what it reads: a revision that
    dropped it would read a derived number as the write left it (the net amount before the net
    rule ran) and be judged, and predict, on that."""
    old = model.get(target).rule
    if "order" in old and "order" not in rule:
        return {**rule, "order": old["order"], "id": target}
    return {**rule, "id": target}


def _acts_beyond(rule: dict[str, Any], event: str) -> bool:
    """Whether ``rule`` also fires on events other than ``event``."""
    return bool(set(rule["events"]) - {event})


def _lands_on(slot: Slot) -> tuple[str, str]:
    """Where a slot's effect lands: (table, field) for updates, (table, "+") for creates."""
    if slot[0] == "upd":
        return (slot[3], slot[4])
    if slot[0] == "create":
        return (slot[3], "+")
    return ("", "")


def _action_shape(rule: dict[str, Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """What a rule's actions write, without how: (kind, target or table, fields set)."""
    out = []
    for act in rule["actions"]:
        for kind, body in act.items():
            if not isinstance(body, dict):
                out.append((kind, "", ()))
                continue
            where = str(body.get("target") or body.get("table") or "")
            fields = tuple(sorted(body.get("set", {}))) if kind != "set" else tuple(sorted(body))
            out.append((kind, where, fields))
    return out


def _null_guarded(schema: Schema, rule: dict[str, Any], shown: Sequence[Record]) -> dict[str, Any]:
    """``rule`` (one own-field set) with ``not is_empty(current.r)`` added to its condition for each
    reference ``r`` its value reads through that every record it was seen on held.

    The observations say nothing of such a rule on a record without the reference: literally
    read it would write null there (a service order's parts cost, from a part it has not got).
    World rules guard their reads instead, so the guard is the likelier reading, and it leaves
    every observation the rule explains as it was."""
    action = rule["actions"][0]
    if "set" not in action:
        return rule
    fields = schema.tables[rule["table"]].fields
    refs = sorted({r for src in action["set"].values() for r in _READS_THROUGH.findall(str(src))
                   if r in fields and fields[r].type == "reference"})
    cond = rule.get("condition")
    guards = [f"not is_empty(current.{r})" for r in refs
              if all(rec.get(r) not in (None, "") for rec in shown) and (cond is None or f"is_empty(current.{r})" not in cond)]
    if not guards:
        return rule
    return {**rule, "condition": " and ".join(([f"({cond})"] if cond else []) + guards)}


def _dnf_source(dnf: Sequence[Sequence[str]]) -> str:
    terms = [" and ".join(t) for t in dnf]
    if len(terms) == 1:
        return terms[0]
    return " or ".join(f"({t})" if " and " in t else t for t in terms)


def _best_with_alternatives(found: list[LearnedSlot]) -> LearnedSlot | None:
    """The candidate with the fewest negatives to rule out; the runners-up become its alternatives."""
    if not found:
        return None
    ranked = sorted(found, key=lambda ls: len(ls.negatives))
    best = ranked[0]
    best.alternatives = [ls.rule for ls in ranked[1:4]]
    return best


# a number written as a literal: a before rule's value that reads nothing
_CONSTANT = re.compile(r"-?\d+(?:\.\d+)?")
# a string literal: a record named by its id
_QUOTED = re.compile(r"'[^']*'")
# a path through a reference of the record (current.section.waitlisted; the group is the
# reference), and number literals
_READS_THROUGH = re.compile(r"\bcurrent\.(\w+)\.\w+")
_NUMBERS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def _before_sets(model: RuleModel, table: str, exclude: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """(field, value expression) of every set of the active before rules on ``table`` other than ``exclude``."""
    for lr in model.active():
        if lr.id not in exclude and lr.rule.get("when") == "before" and lr.rule["table"] == table:
            for act in lr.rule["actions"]:
                yield from act.get("set", {}).items()


def _reads_any(src: str, fields: set[str]) -> bool:
    """True when the expression reads ``current.<f>`` (the record's own field) for an ``f`` in ``fields``."""
    return bool(fields) and any(re.search(rf"\bcurrent\.{re.escape(g)}\b(?!\.)", src) for g in fields)


# the field a change function reads: changed(f), changes_to(f, v), changes_from(f, v)
_CHANGE_OF = re.compile(r"\bchange(?:d|s_to|s_from)\(\s*([A-Za-z_]\w*)\b")
# a change into a state, as a whole literal: changes_to(status, 'issued') (field, value)
_CHANGES_TO = re.compile(r"changes_to\((\w+), ('[^']*'|true|false)\)")
# a plain change, as a whole literal: changed(amount) (field)
_CHANGED = re.compile(r"changed\((\w+)\)")


def _literal_reads(src: str, fields: set[str]) -> bool:
    """True when a condition literal reads the written record's ``current`` value or change of a field in ``fields``."""
    return _reads_any(src, fields) or any(g in fields for g in _CHANGE_OF.findall(src))


def _pair_by_likeness(learned: Sequence[dict[str, Any]], existing: Sequence[dict[str, Any]]) -> list[int | None]:
    """For each learned rule, the index of the existing rule it replaces (None: it is added).

    A slot can hold several rules (a denial letter and a renewal letter): each learned rule
    replaces the existing one that does the same thing, failing that one that acts the same
    way or fires on the same condition, and only then any left over, so that a rule is not
    rewritten into its neighbour's.
    """
    def likeness(a: dict[str, Any], b: dict[str, Any]) -> int:
        return 4 * (a["actions"] == b["actions"]) + 2 * (a.get("condition") == b.get("condition")) + (a["events"] == b["events"])

    out: list[int | None] = [None] * len(learned)
    free = set(range(len(existing)))
    pairs = sorted(((-likeness(a, existing[k]), i, k) for i, a in enumerate(learned) for k in range(len(existing))))
    for _, i, k in pairs:
        if out[i] is None and k in free:
            out[i] = k
            free.discard(k)
    return out


def _same_rule(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("table", "events", "when", "condition", "actions")
    return all(a.get(k) == b.get(k) for k in keys)


def _slot_text(slot: Slot) -> str:
    kind = slot[0]
    if kind == "own":
        return f"{slot[1]} {slot[2]} sets its own {slot[3]}"
    if kind == "upd":
        return f"{slot[1]} {slot[2]} updates {slot[3]}.{slot[4]}"
    if kind == "create":
        return f"{slot[1]} {slot[2]} creates a {slot[3]}"
    return f"{slot[1]} {slot[2]} deletes {slot[3]} records"


def normalize_value(v: Any) -> Any:
    """Exposed for tests: the canonical form used when comparing values."""
    return normalize(v)


def _fields_read(rule: dict[str, Any]) -> set[str]:
    """The fields of its own record a rule's condition and set values read (``changes_to(status, ...)``
    reads the status another before rule may set first, as ``current.status`` does)."""
    text = " ".join([rule.get("condition", "") or ""] + [str(v) for a in rule["actions"] for v in a.get("set", {}).values()])
    return set(re.findall(r"current\.([A-Za-z_]\w*)", text)) | set(_CHANGE_OF.findall(text))


def order_before_rules(model: RuleModel, may_edit: Callable[[str], bool], note: Callable[[str], None],
                       observations: Sequence[Observation] = ()) -> int:
    """Give before rules on one trigger an order so a rule runs after the rules that set what it reads.

    Learned rules all start at order 100; when one derives a field another reads
    (a price looked up, then a total computed from it), the order matters. Two
    rules that set one field without reading each other's fields are ordered by
    ``observations``: the one whose value a write that fired both shows runs last.
    """
    edits = 0
    wanted: dict[str, int] = {}
    groups: dict[tuple[str, str], list[Any]] = {}
    for lr in model.active():
        if lr.rule.get("when") == "before":
            for e in lr.rule["events"]:
                groups.setdefault((lr.rule["table"], e), []).append(lr)
    sets_of = {lr.id: {f for a in lr.rule["actions"] for f in a.get("set", {})} for rules in groups.values() for lr in rules}
    reads_of = {lr.id: _fields_read(lr.rule) for rules in groups.values() for lr in rules}
    for rules in groups.values():
        if len(rules) < 2:
            continue
        sets = {lr.id: sets_of[lr.id] for lr in rules}
        reads = {lr.id: reads_of[lr.id] for lr in rules}
        # a conjunction's terms in any order are one condition (each rule's search may list them
        # in another order)
        conditions = {lr.id: _conjunction_key(lr.rule.get("condition")) for lr in rules}
        depth: dict[str, int] = {}

        def shares_guard(x: str, y: str) -> bool:
            # two rules learned on one condition that reads a field x sets (a late fee and the late
            # status, both while the charge is open): both read it as written, so x runs after y
            return x != y and conditions[x] is not None and conditions[x] == conditions[y] and bool(sets[x] & reads[y] & reads[x])

        def level(rid: str, seen: frozenset[str] = frozenset()) -> int:
            if rid in depth:
                return depth[rid]
            deps = [o for o in sets if o != rid and o not in seen
                    and (sets[o] & (reads[rid] - sets[rid]) and not shares_guard(o, rid) or shares_guard(rid, o))]
            depth[rid] = 1 + max((level(o, seen | {rid}) for o in deps), default=0)
            return depth[rid]

        for lr in rules:
            wanted[lr.id] = max(wanted.get(lr.id, 0), 90 + 10 * level(lr.id))
    if observations:
        _order_rivals_by_evidence(model, groups, wanted, observations, sets_of, reads_of)
    # a rule on several events takes the latest place any of them needs (a total computed
    # after the price lookup that only inserts have)
    for rid, want in wanted.items():
        lr = model.get(rid)
        if lr.rule.get("order", 100) != want and may_edit(rid):
            try:
                model.revise(rid, {**lr.rule, "order": want}, reason=f"runs after the rules that set what it reads (order {want})")
            except MemkitError:
                continue
            note(f"ordered {rid}: {want}")
            edits += 1
    return edits


def _conjunction_terms(condition: str | None) -> list[str] | None:
    """The terms of a plain conjunction (no ``or``, no parentheses but the change and emptiness
    functions'), in order; None for any other condition."""
    if condition is None or " or " in condition or "(" in condition.replace("changed(", "").replace("changes_to(", "").replace("is_empty(", ""):
        return None
    return [t.strip() for t in condition.split(" and ")]


def _conjunction_key(condition: str | None) -> str | frozenset[str] | None:
    """A condition as the set of its terms where it is a plain conjunction, else as written."""
    terms = _conjunction_terms(condition)
    return condition if terms is None else frozenset(terms)


def state_rival_terms(term: Sequence[str]) -> Iterator[list[str]]:
    """``term`` (a conjunction's literals) with a change into a state read as the state instead
    (``changes_to(status, 'issued')`` -> ``current.status == 'issued'``), once per such literal
    where another literal is a change of another field.

    Every positive may have written the state along with that field (an issued bill's days
    overdue written with 'issued'), and a rule on the state (any issued bill whose days overdue
    change) fits them as well; a write on a record already in the state tells the two apart.
    Without another change the state reading would fire on writes that change nothing."""
    for j, lit in enumerate(term):
        m = _CHANGES_TO.fullmatch(lit)
        if m is None or not any(g != m.group(1) for x in term if x != lit for g in _CHANGE_OF.findall(x)):
            continue
        yield [*term[:j], f"current.{m.group(1)} == {m.group(2)}", *term[j + 1:]]


def kept_rule_rivals(rule: dict[str, Any]) -> list[dict[str, Any]]:
    """``rule`` with its plain-conjunction condition read on states instead of changes into them
    (see :func:`state_rival_terms`), and without each ``changed(f)`` where the condition has a
    change of another field to fire on (a number every positive wrote along: a sweep write sets
    them all); [] for other conditions. For rules kept from an earlier world, or revised in
    this one, whose rivals induction does not compute again while they fit."""
    terms = _conjunction_terms(rule.get("condition"))
    if not terms:
        return []
    rivals = list(state_rival_terms(terms))
    for j, lit in enumerate(terms):
        m = _CHANGED.fullmatch(lit)
        if m and any(g != m.group(1) for x in terms if x != lit for g in _CHANGE_OF.findall(x)):
            rivals.append([*terms[:j], *terms[j + 1:]])
    return [{**rule, "condition": " and ".join(t)} for t in rivals]


def _order_rivals_by_evidence(model: RuleModel, groups: dict[tuple[str, str], list[Any]], wanted: dict[str, int],
                              observations: Sequence[Observation], sets: dict[str, set[str]], reads: dict[str, set[str]]) -> None:
    """Move one of two before rules that set one field (and read none of each other's) after the
    other where the writes on their trigger show that order better than the wanted orders do.

    A line's total follows its quantity, and a cancelled line's total is 0: only a write that
    cancels a line and changes its quantity at once shows which runs last, and reading them
    in the other order revises both rules into what no other write needs."""
    for (table, event), rules in groups.items():
        if len(rules) < 2:
            continue
        seen = [o for o in observations if o.action.table == table and o.action.op == event and not o.rolled_back]
        now: dict[tuple[Slot, ...], int] = {}  # mispredictions with the wanted orders, per slots
        for x in rules:
            for y in rules:
                if x.id == y.id or not sets[x.id] & sets[y.id] or wanted[x.id] > wanted[y.id]:
                    continue
                if sets[x.id] & reads[y.id] or sets[y.id] & reads[x.id]:
                    continue  # the structural order stands
                # x runs no later than y now; x last must not pass a rule reading what x sets
                later = wanted[y.id] + 5
                if any(wanted[z.id] <= later and sets[x.id] & reads[z.id] for z in rules if z.id not in (x.id, y.id)):
                    continue
                slots = tuple(("own", table, event, f) for f in sorted(sets[x.id] & sets[y.id]))
                if slots not in now:
                    now[slots] = _mismatched(model, wanted, seen, slots)
                if now[slots] and _mismatched(model, {**wanted, x.id: later}, seen, slots) < now[slots]:
                    wanted[x.id] = later
                    now = {}


def _mismatched(model: RuleModel, orders: dict[str, int], observations: Sequence[Observation], slots: Sequence[Slot]) -> int:
    """How many of ``observations`` the model's active rules, with ``orders`` for the before rules
    named there, mispredict in ``slots`` (the rest of a write may be another rule's to explain)."""
    if not observations:
        return 0
    rules = [parse_rule(lr.rule if lr.id not in orders else {**lr.rule, "order": orders[lr.id]}, model.schema) for lr in model.active()]
    return mispredicted(Engine(model.schema, rules), observations, slots)


def induce_until_stable(
    inducer: Inducer,
    model: RuleModel,
    observations: Sequence[Observation],
    world: str,
    note: Callable[[str], None],
    *,
    passes: int = 3,
    prune: bool = True,
    label: str = "",
) -> int:
    """Induction passes until nothing changes (at most ``passes``), then pruning of redundant rules.

    Every edit is written to ``note``; returns the number of edits.
    """
    # two inherited rules that set one field may only have run in the wrong order (a write that
    # fired both is new): ordered first, before a repair rewrites them
    total = order_before_rules(model, inducer.may_edit, note, observations)
    for _ in range(passes):
        try:
            result = inducer.run(model, observations, world)
        except MemkitError as exc:  # a learned rule the engine refuses is a learner bug: keep going, but say so
            note(f"{label}induction error: {exc}")
            break
        total += result.edits
        for rid in result.added:
            note(f"{label}added {rid}: {model.get(rid).text}")
        for rid in result.revised:
            note(f"{label}revised {rid}: {model.get(rid).text}")
        for rid in result.retired:
            note(f"{label}retired {rid}")
        if result.edits == 0:
            break
    for kept, merged in inducer.unify_events(model, observations, world):
        note(f"{label}merged {merged} into {kept}: {model.get(kept).text}")
        total += 1
    total += order_before_rules(model, inducer.may_edit, note, observations)
    if prune:
        pruned = inducer.prune_redundant(model, observations, world)
        for rid in pruned:
            note(f"{label}retired {rid} (redundant)")
        total += len(pruned)
    return total


_THRESHOLD = re.compile(r"current\.(\w+) [<>]=? (-?[\d.]+)")


def keep_threshold_boundaries(model: RuleModel, observations: Sequence[Observation], world: str,
                              may_edit: Callable[[str], bool] = lambda rid: True) -> list[str]:
    """Give each threshold rule, as evidence, this world's bisection probes nearest its threshold on
    either side (of the writes that fired it and of those that did not, the one nearest the threshold);
    the ids of the rules given any.

    A rule's evidence is what the next world's audit replays, and it is set when the rule is
    learned, before the bisection has found the boundary: a threshold that moves a little (a fraud
    score of 70 lowered to 60) then shows in no replay, and is never bisected again. The probes
    nearest the boundary show a move either way (60, which did not fire, fires now).
    """
    given: list[str] = []
    for lr in model.active():
        condition = lr.rule.get("condition") or ""
        if not may_edit(lr.id) or not _THRESHOLD.search(condition):
            continue
        try:
            slots = set(slot_of_rule(parse_rule(lr.rule, model.schema)))
        except MemkitError:
            continue
        known = [e.action for e in lr.evidence]
        added = False
        for fname, bound in _THRESHOLD.findall(condition):
            probes = [o for o in observations if not o.rolled_back and o.purpose.startswith("bisect")
                      and o.action.table == lr.rule["table"] and o.action.op in lr.rule["events"]
                      and is_number(o.action.values.get(fname))]
            for fired in (True, False):
                side = [o for o in probes if bool(slots & set(slots_of_effects(o.action, o.effects))) == fired]
                if not side:
                    continue
                nearest = min(side, key=lambda o: abs(float(o.action.values[fname]) - float(bound)))
                if nearest.action.to_dict() not in known:
                    model.add_evidence(lr.id, _evidence(nearest, world, fired, "" if fired else "the nearest write to the threshold that did not fire"))
                    known.append(nearest.action.to_dict())
                    added = True
        if added:
            given.append(lr.id)
    return given


@dataclass(frozen=True)
class InsertFill:
    """The model's before rules on inserts into one table, asked what they set on a record that
    a create makes: a field they set need not be part of the create (a child's fine is waived by
    the fine table's rule, whatever rule creates the fine)."""

    table: str
    engine: Engine
    fields: frozenset[str]
    key: tuple[str, ...]

    @classmethod
    def of(cls, model: RuleModel, table: str) -> InsertFill | None:
        """The fill of ``table`` under the model's active rules, or None where no rule sets anything on insert."""
        rules = tuple(r for r in model.active_rules() if r.table == table and r.when == "before" and "insert" in r.events)
        if not rules:
            return None
        fields = frozenset(a.field for r in rules for act in r.actions if isinstance(act, SetAction) for a in act.assignments)
        return cls(table, Engine(model.schema, rules), fields, tuple(repr(r.to_dict()) for r in rules))

    def sets(self, record: Record, fname: str, state: State) -> bool:
        """Whether the rules give ``record`` its ``fname`` when it is inserted without it among
        the records of ``state``, which must not hold the record itself (the state the create
        ran in, or the records after the write less those it created: a rule counting the
        table's records would otherwise count the record twice)."""
        if fname not in self.fields:
            return False
        work = state.copy()
        nid = work.new_id(self.table)
        values = {k: v for k, v in record.items() if k not in ("id", fname)}
        try:
            self.engine.run(work, Action("insert", self.table, nid, values), in_place=True)
        except MemkitError:
            return False
        rec = work.get(self.table, nid)
        return rec is not None and values_equal(rec.get(fname), record.get(fname))
