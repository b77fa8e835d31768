"""Sums of three or four numbers (a bill's total = days x rate - discount + extras + fee) and a
number plus another at a rate (parts + hours x 65) are read off the examples: the term-by-term
enumeration stops long before such sums, and without them the total is learned as constants."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.rules import Action, Engine

from agents.cda.linear import linear_sources
from tests.agents.cda.helpers import hand_made_world, induced

_BILLS = [  # days, rate, discount, extras, fee, km
    (2, 45, 9, 0, 0, 300), (5, 69, 34.5, 54, 0, 2100), (7, 139, 97.3, 109, 153, 4800), (1, 89.5, 0, 18, 12.6, 90),
    (3, 45, 13.5, 30, 64, 1700), (10, 69, 0, 0, 210.4, 5200), (4, 139, 55.6, 72, 0, 900),
]
_JOBS = [(40, 1), (212.5, 2.5), (0, 4), (88.2, 1.5), (130, 6), (19.99, 2)]


def _predicted(world, rules, action: Action) -> dict:
    state = world.initial_state()
    Engine(world.schema, rules).run(state, action, in_place=True)
    return state.get(action.table, action.id)


def test_a_total_of_four_numbers_is_learned_from_inserts():
    world = hand_made_world("bills-A")
    writes = [Action("insert", "bill", f"N{i}", dict(zip(("days", "rate", "discount", "extras", "fee", "km"), b)))
              for i, b in enumerate(_BILLS)]
    model = induced(world, writes)
    new = Action("insert", "bill", "B9", {"days": 4, "rate": 52.5, "discount": 21, "extras": 30, "fee": 12.4, "km": 800})
    assert _predicted(world, world.rules, new)["total"] == 231.4
    assert _predicted(world, model.active_rules(), new)["total"] == 231.4


def test_parts_plus_hours_at_a_rate_is_learned_from_inserts():
    world = hand_made_world("bills-A")
    model = induced(world, [Action("insert", "job", f"N{i}", {"parts": p, "hours": h}) for i, (p, h) in enumerate(_JOBS)])
    new = Action("insert", "job", "J9", {"parts": 17.25, "hours": 3})
    assert _predicted(world, model.active_rules(), new)["total"] == 212.25


def test_too_few_distinct_examples_give_no_sum():
    # two examples: any two terms fit two equations, so nothing may be read off them
    rows = [{"a": 1, "b": 2, "c": 5}, {"a": 3, "b": 7, "c": 1}]
    terms = ["current.a", "current.b", "current.c"]
    assert list(linear_sources(terms, lambda s: [r[s[8:]] for r in rows], [8, 11])) == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(2, 4))
def test_a_random_signed_sum_is_found_and_fits_every_example(seed: int, size: int):
    rng = random.Random(seed)
    names = [f"current.f{i}" for i in range(7)]
    rows = [{n: round(rng.uniform(0, 500), rng.choice([0, 2])) for n in names} for _ in range(8)]
    picked = rng.sample(names, size)
    signs = [1] + [rng.choice([1, -1]) for _ in picked[1:]]
    targets = [round(sum(s * r[n] for s, n in zip(signs, picked)), 2) for r in rows]
    found = list(linear_sources(names, lambda src: [r[src] for r in rows], targets))
    assert found, "the sum that made the targets was not found"
    # the first source offered fits every example (evaluated the way the engine would)
    first = found[0]
    for r, t in zip(rows, targets):
        assert round(eval(first.replace("round(", "_round("), {"_round": round}, dict(current=_Row(r))), 2) == t


class _Row:
    def __init__(self, values: dict) -> None:
        self._values = {k.split(".")[1]: v for k, v in values.items()}

    def __getattr__(self, name: str) -> float:
        return self._values[name]
