"""Slots: the kinds of side effect a single rule action can cause, keyed by trigger.

A slot is what one learned rule explains: ``("own", T, E, f)`` a before rule
setting field f of the written record; ``("upd", T, E, T2, f)`` an after rule
updating field f of T2 records; ``("create", T, E, T2)``; ``("del", T, E, T2)``.
"""

from __future__ import annotations

from memkit.rules import Action, Effect, Rule
from memkit.rules.rule import CreateAction, DeleteWhereAction, SetAction, UpdateAction, UpdateWhereAction

__all__ = ["Slot", "slots_of_effects", "slot_of_rule", "effects_in_slot"]

Slot = tuple[str, ...]


def slots_of_effects(action: Action, effects: list[Effect]) -> dict[Slot, list[Effect]]:
    """Group an action's side effects by slot (the action's table and op are the trigger)."""
    out: dict[Slot, list[Effect]] = {}
    t, e = action.table, action.op
    for eff in effects:
        kind = eff[0]
        if kind == "set":
            _, t2, id2, f, _ = eff
            slot: Slot = ("own", t, e, f) if (t2 == t and id2 == action.id) else ("upd", t, e, t2, f)
        elif kind == "create":
            slot = ("create", t, e, eff[1])
        else:
            slot = ("del", t, e, eff[1])
        out.setdefault(slot, []).append(eff)
    return out


def effects_in_slot(slot: Slot, action: Action, effects: list[Effect]) -> list[Effect]:
    """The effects of ``effects`` that fall in ``slot``."""
    return slots_of_effects(action, effects).get(slot, [])


def slot_of_rule(rule: Rule) -> list[Slot]:
    """The slots a single-action learned rule explains (one per event); [] for other rules."""
    if len(rule.actions) != 1:
        return []
    act = rule.actions[0]
    t = rule.table
    out: list[Slot] = []
    for e in rule.events:
        if isinstance(act, SetAction) and len(act.assignments) == 1:
            out.append(("own", t, e, act.assignments[0].field))
        elif isinstance(act, UpdateAction) and len(act.assignments) == 1:
            out.append(("upd", t, e, act.target_table, act.assignments[0].field))
        elif isinstance(act, UpdateWhereAction) and len(act.assignments) == 1:
            out.append(("upd", t, e, act.table, act.assignments[0].field))
        elif isinstance(act, CreateAction):
            out.append(("create", t, e, act.table))
        elif isinstance(act, DeleteWhereAction):
            out.append(("del", t, e, act.table))
    return out
