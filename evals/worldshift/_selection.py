"""Picking a world's tests from candidate writes by running its true rules (shared by the WorldShift generators).

``select_tests`` takes about half tests that trigger rules (every rule of a
world fires in at least 3 of them), a quarter near misses (a write on a
rule's trigger whose condition just fails: a threshold met exactly, another
choice value, a delete with nothing hanging off it) and a quarter unrelated
writes; updates, inserts and deletes in roughly 60/25/15 shares. With a
focus rule (B's changed, C's added one) it takes up to 12 tests on that
rule's trigger first; ``deleted_rule_tests`` finds the writes that show a
deleted rule's effect gone (D's).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from memkit.errors import MemkitError
from memkit.rules import Action, Engine, World

__all__ = ["condition_fields", "deleted_rule_tests", "select_tests", "thresholds"]


def thresholds(world: World) -> dict[tuple[str, str], set[float]]:
    """(table, field) -> the numbers that rule conditions compare that field with."""
    out: dict[tuple[str, str], set[float]] = {}
    for rule in world.rules:
        text = rule.to_dict().get("condition") or ""
        for fname, num in re.findall(r"current\.(\w+)\s*[<>]=?\s*(-?\d+(?:\.\d+)?)", text):
            out.setdefault((rule.table, fname), set()).add(float(num))
    return out


def condition_fields(world: World) -> dict[tuple[str, str], set[str]]:
    """(table, event) -> fields of the triggering record that the conditions of that trigger's rules read."""
    out: dict[tuple[str, str], set[str]] = {}
    for r in world.rules:
        text = r.to_dict().get("condition") or ""
        names = set(re.findall(r"(?:current|previous)\.(\w+)", text)) | set(re.findall(r"\b(?:changed|changes_to|changes_from)\((\w+)", text))
        for e in r.events:
            out.setdefault((r.table, e), set()).update(names)
    return out


def _key(a: Action) -> tuple[Any, ...]:
    """Tests with the same key are too alike for both to be picked (same record, same fields written)."""
    return (a.op, a.table, a.id, tuple(sorted(a.values)) if a.op == "update" else ())


_OP_SHARE = {"update": 0.6, "insert": 0.25, "delete": 0.15}


def select_tests(world: World, candidates: list[Action], n: int, seed: int, *, focus: str | None = None,
                 previous: World | None = None, prefer: list[Action] | None = None) -> list[Action]:
    """Pick ``n`` tests from ``candidates`` by running the world's true rules on each.

    About half trigger rules (every rule of the world fires in at least 3
    picked tests: a greedy cover), a quarter are near misses (nothing changes
    although the write is on a rule's trigger and touches what its condition
    reads, or the rule fires and changes nothing), the rest unrelated writes.
    ``prefer`` tests come first; with ``focus``, up to 12 tests that fire that
    rule, those whose effects differ from ``previous`` (the world before the
    shift) first. Candidates the schema refuses or that roll back are skipped.
    """
    rng = random.Random(seed)
    engine = Engine(world.schema, world.rules)
    initial = world.initial_state()
    before = Engine(previous.schema, previous.rules) if previous is not None else None
    cond = condition_fields(world)
    rule_triggers = {(r.table, e) for r in world.rules for e in r.events}
    pools: dict[str, list[tuple[Action, list[str]]]] = {"trigger": [], "near": [], "unrelated": []}
    effects: dict[tuple[Any, ...], list[Any]] = {}
    for a in candidates:
        try:
            res = engine.run(initial, a, validate=True)
        except MemkitError:  # a candidate the schema refuses is simply not a test
            continue
        if res.error:
            continue
        fired = sorted(set(res.fired))
        effects[_key(a)] = res.effects
        if res.effects:
            pools["trigger"].append((a, fired))
        elif fired or ((a.table, a.op) in rule_triggers and (a.op != "update" or set(a.values) & cond.get((a.table, a.op), set()))):
            pools["near"].append((a, fired))
        else:
            pools["unrelated"].append((a, fired))
    for pool in pools.values():
        rng.shuffle(pool)
    chosen: list[Action] = []
    keys: set[tuple[Any, ...]] = set()
    counts: Counter[str] = Counter()
    ops: Counter[str] = Counter()

    def take(a: Action, fired: list[str]) -> bool:
        if _key(a) in keys:
            return False
        chosen.append(a)
        keys.add(_key(a))
        counts.update(fired)
        ops[a.op] += 1
        return True

    for a in prefer or []:
        take(a, sorted(set(engine.run(initial, a).fired)))
    if focus is not None:
        ranked = []
        per_op: Counter[str] = Counter()
        for a, f in pools["trigger"]:
            if focus in f:
                same = before is not None and before.run(initial, a).effects == effects[_key(a)]
                ranked.append((same, per_op[a.op], a, f))
                per_op[a.op] += 1
        for _same, _rank, a, f in sorted(ranked, key=lambda r: (r[0], r[1])):
            if counts[focus] >= 12:
                break
            take(a, f)
    while True:  # greedy cover: each pick fires as many rules still short of 3 tests as it can
        gains = [(sum(1 for r in f if counts[r] < 3), -i) for i, (a, f) in enumerate(pools["trigger"]) if _key(a) not in keys]
        if not gains or max(gains)[0] == 0:
            break
        take(*pools["trigger"][-max(gains)[1]])
    have = {"trigger": len(chosen), "near": 0, "unrelated": 0}
    quotas = {"trigger": max(n // 2, have["trigger"])}
    quotas["near"] = (n - quotas["trigger"]) // 2
    quotas["unrelated"] = n - quotas["trigger"] - quotas["near"]
    def fill(kind: str, limit: int) -> None:
        pool = [p for p in pools[kind] if _key(p[0]) not in keys]
        while have[kind] < limit and len(chosen) < n and pool:
            # least-used op (against its share) first, so that inserts and deletes are not crowded out by updates
            least = min(_OP_SHARE, key=lambda o: (ops[o] / _OP_SHARE[o], o))
            pick = next((p for p in pool if p[0].op == least), pool[0])
            pool.remove(pick)
            if take(*pick):
                have[kind] += 1

    for kind in ("trigger", "near", "unrelated"):
        fill(kind, quotas[kind])
    for kind in ("near", "unrelated", "trigger"):  # when a pool ran dry, the others make up the number
        fill(kind, n)
    rng.shuffle(chosen)
    return chosen


def deleted_rule_tests(world_before: World, candidates: list[Action], rule_id: str, n: int = 12) -> list[Action]:
    """Up to ``n`` candidates whose effects in the world before the deletion of ``rule_id`` differ without that rule."""
    engine = Engine(world_before.schema, world_before.rules)
    without = Engine(world_before.schema, [r for r in world_before.rules if r.id != rule_id])
    initial = world_before.initial_state()
    groups: dict[tuple[Any, ...], list[Action]] = {}
    for a in candidates:
        try:
            res = engine.run(initial, a, validate=True)
        except MemkitError:
            continue
        if rule_id in res.fired and not res.error and res.effects != without.run(initial, a).effects:
            group = groups.setdefault((a.op, a.table, tuple(sorted(a.values))), [])
            if all(_key(x) != _key(a) for x in group):
                group.append(a)
    # round robin over kinds of write (table, op, fields), so that every way to the trigger is tested
    out: list[Action] = []
    for i in range(max((len(g) for g in groups.values()), default=0)):
        out += [g[i] for g in groups.values() if i < len(g)]
    return out[:n]
