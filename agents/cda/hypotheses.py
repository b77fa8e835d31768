"""Enumerative hypothesis spaces: value expressions, conditions (as DNF over literals), targets.

Nothing here knows a domain: every candidate is built from the schema
(fields, reference paths, aggregates over tables that refer back) and from
values seen in observations. Candidates come in order of complexity, and the
first one consistent with every observation wins.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memkit.rules import EvalContext, Schema, State, compile_expression, parse_expression
from memkit.rules.ast import literal_source
from memkit.rules.schema import is_number
from memkit.rules.values import normalize, round_half_away, values_equal

from agents.cda.linear import linear_sources

__all__ = [
    "clamped",
    "comparable_numbers",
    "join_anchors",
    "paths_from",
    "copied_fields",
    "value_candidates",
    "find_value",
    "Literal",
    "condition_literals",
    "learn_dnf",
    "learn_dnf_candidates",
    "dnf_cost",
    "nice_between",
    "significant_digits",
]


def paths_from(schema: Schema, table: str, root: str = "current", hops: int = 2) -> list[tuple[str, str, str]]:
    """Every path ``root.f``, ``root.r.f``, ... up to ``hops`` reference hops: (source, field type, table of the last field)."""
    out: list[tuple[str, str, str]] = [(f"{root}.id", "id", table)]
    frontier: list[tuple[str, str]] = [(root, table)]
    for depth in range(hops + 1):
        nxt: list[tuple[str, str]] = []
        for prefix, t in frontier:
            for fname, spec in schema.tables[t].fields.items():
                src = f"{prefix}.{fname}"
                if depth > 0 or prefix != root:
                    pass
                out.append((src, spec.type, t))
                if spec.type == "reference" and spec.ref and depth < hops:
                    nxt.append((src, spec.ref))
        frontier = nxt
    # de-duplicate while keeping order
    seen: set[str] = set()
    uniq = []
    for item in out:
        if item[0] not in seen:
            seen.add(item[0])
            uniq.append(item)
    return uniq


def copied_fields(state: State, table: str, min_share: float = 0.8) -> dict[str, str]:
    """Numbers and references of ``table`` whose value equals a field of the same type one or two
    references away (a line's unit cost is its product's) in at least ``min_share`` of the records
    that fill them: field -> the path it copies.

    A rule may fill such a field on insert when it is left empty, and a clone, which carries the
    value, shows nothing of it: the tests' inserts leave it out.
    """
    schema = state.schema
    spec = schema.tables[table]
    rows = state.rows(table)
    out: dict[str, str] = {}
    # each path read once per record (None where the record refers to itself through the path's
    # first reference, its own manager: it would copy its own field); every field compares to these
    paths: list[tuple[str, str, str, str | None, list[Any]]] = []
    for src, kind, last_table in paths_from(schema, table, "current", 2):
        hops = src.split(".")[1:]
        # through a reference, and not back into this table two references on (a department's
        # head's department is the department itself: its fields would copy themselves)
        if (len(hops) < 2 or kind not in ("number", "reference") or spec.fields[hops[0]].type != "reference"
                or (len(hops) == 3 and last_table == table)):
            continue
        read = compile_expression(parse_expression(src), schema, table, None)
        own = spec.fields[hops[0]].ref == table
        values = [None if own and r.get(hops[0]) == r["id"] else read(EvalContext(state, table, current=r)) for r in rows]
        paths.append((".".join(hops), hops[0], kind, schema.tables[last_table].fields[hops[-1]].ref, values))
    for f, fs in spec.fields.items():
        if fs.type not in ("number", "reference"):
            continue
        have = [i for i, r in enumerate(rows) if r.get(f) is not None]
        if len(have) < 3:
            continue
        best: tuple[int, str] | None = None
        for path, first, kind, ref, values in paths:
            if first == f or kind != fs.type or (fs.type == "reference" and ref != fs.ref):
                continue
            same = [rows[i][f] for i in have if values_equal(values[i], rows[i][f])]
            # zeros match by chance (an unpaid amount and an unused allowance): two records at least
            # must copy a value other than zero
            if len(same) >= min_share * len(have) and sum(1 for v in same if v not in (0, 0.0)) >= 2:
                if best is None or len(same) > best[0]:
                    best = (len(same), path)
        if best is not None:
            out[f] = best[1]
    return out


def _aggregates(schema: Schema, table: str, anchors: list[tuple[str, str]]) -> list[str]:
    """sum/count over tables with a reference into an anchor's table, joined on that anchor."""
    out: list[str] = []
    for anchor_src, anchor_table in anchors:
        for t3, spec3 in schema.tables.items():
            for rname, rspec in spec3.fields.items():
                if rspec.type != "reference" or rspec.ref != anchor_table:
                    continue
                where = f"row.{rname} == {anchor_src}"
                out.append(f"count({t3}, {where})")
                for gname, gspec in spec3.fields.items():
                    if gspec.type == "number":
                        out.append(f"sum({t3}, {gname}, {where})")
                for cname, cspec in spec3.fields.items():
                    if cspec.type != "choice":
                        continue
                    choices = list(cspec.choices or ())
                    # one value, then two (the open states of a record), then all but one
                    tests = [f"row.{cname} == {literal_source(c)}" for c in choices]
                    tests += [f"row.{cname} in [{literal_source(a)}, {literal_source(b)}]"
                              for i, a in enumerate(choices) for b in choices[i + 1:]] if len(choices) > 3 else []
                    tests += [f"row.{cname} != {literal_source(c)}" for c in choices] if len(choices) > 2 else []
                    for test in tests:
                        w2 = f"{where} and {test}"
                        out.append(f"count({t3}, {w2})")
                        for gname, gspec in spec3.fields.items():
                            if gspec.type == "number":
                                out.append(f"sum({t3}, {gname}, {w2})")
    return out


def join_anchors(schema: Schema, table: str) -> list[tuple[str, str]]:
    """(source, table) of the records a rule on ``table`` can join other tables on: itself and what it references."""
    anchors = [("current.id", table)]
    for src, ftype, t in paths_from(schema, table, "current", hops=1):
        if ftype == "reference":
            fname = src.split(".")[-1]
            ref = schema.tables[t].fields[fname].ref
            if ref:
                anchors.append((src, ref))
    return anchors


def value_candidates(
    schema: Schema,
    table: str,
    targets: Sequence[Any],
    *,
    target_type: str | None = None,
    row_table: str | None = None,
    first_inputs: Callable[[str], Any] | None = None,
    fitted: Callable[[], Iterable[str]] | None = None,
    lookups: Callable[[], Iterable[str]] | None = None,
) -> Iterator[str]:
    """Candidate expressions for a written value, simplest first.

    ``targets`` are the values to explain; ``first_inputs(src)`` evaluates a
    source on every example, in the order of ``targets`` (used to infer the
    constants of ``a * c`` and ``a + c`` and the rates of products). ``fitted()`` gives sources already
    known to fit the examples (aggregates read off the data): they come right
    after the plain fields, before arithmetic that may fit by coincidence. ``lookups()`` gives
    aggregates read off the data that take one row in every example (a sibling's number): they
    come after arithmetic on two numbers, which they would otherwise shadow by coincidence.
    """
    all_same = all(values_equal(t, targets[0]) for t in targets)
    atoms = paths_from(schema, table, "current", 2)
    prev_atoms = [(s.replace("current.", "previous.", 1), ty, t) for s, ty, t in paths_from(schema, table, "current", 0)]
    row_atoms = paths_from(schema, row_table, "row", 1) if row_table else []
    all_atoms = atoms + row_atoms + prev_atoms
    const = literal_source(normalize(targets[0])) if targets and targets[0] is not _MISSING else None
    if target_type == "reference" or (targets and isinstance(targets[0], str) and not all_same):
        for src, _, _ in all_atoms:
            yield src
        if all_same and const is not None:
            yield const
    else:
        if all_same and const is not None:
            if is_number(targets[0]) and (len(targets) == 1 or not float(targets[0]).is_integer()):
                # one number seen once: a value looked up through a reference explains it as well as
                # the constant, and generalises (a price taken from the catalog item). So does a
                # fraction seen several times (an hourly rate of 25.72 on two timesheets of one
                # employee): a business constant is a whole number far more often than data is
                for src, ty, _ in atoms:
                    if src.count(".") >= 2 and ty == "number":
                        yield src
            elif target_type == "string" and isinstance(targets[0], str):
                # one text on every example, where text that a rule writes is copied far more often
                # than a fixed text (a payslip's period is its timesheet's week): the record's own
                # text first, then text a reference or two away, then the constant
                for src, ty, _ in atoms:
                    if ty == "string":
                        yield src
            yield const
        for src, _, _ in all_atoms:
            yield src
    if targets and not all_same and all(isinstance(t, bool) for t in targets):
        # a flag that is a comparison (needs authority = net amount > the adjuster's limit): two
        # numbers of the record, or one of the record against one of a record it references
        own, near = comparable_numbers(schema, table)
        for i, a in enumerate(own):
            for b in own[i + 1:] + near:
                for op in (">", ">=", "<", "<="):
                    yield f"{a} {op} {b}"
        return
    # a null among numbers is an expression that came out empty (a ratio over a zero premium):
    # arithmetic still explains it, so it does not end the numeric search
    # (a few of them: where most targets are null the field is mostly left empty, and the long
    # arithmetic enumeration would only fit the rest by coincidence)
    numbers = [t for t in targets if t is not None]
    if not numbers or not all(is_number(t) for t in numbers) or 2 * len(numbers) <= len(targets):
        return
    if fitted is not None and not all_same:
        yield from fitted()
    nums = [src for src, ty, _ in atoms + row_atoms + prev_atoms if ty == "number"]
    if first_inputs is not None:
        # each source evaluated once on the first examples, for this loop and the sums and
        # products further on, which read the same numbers of the record
        first_inputs = _memoised(first_inputs)
    inputs_of = {a: first_inputs(a) for a in nums} if first_inputs is not None else {}
    # numbers that are one value on every example: a rate equal to one of them is that number (an
    # extra's price times its rental's days, every example on a 10-day rental), which also holds
    # where the number differs
    steady = {a: float(v[0]) for a, v in inputs_of.items()
              if v and is_number(v[0]) and all(is_number(x) and values_equal(x, v[0]) for x in v)}
    # whole-number targets may be rounded to units (a scholarship of 1238, not 1237.5)
    whole = all(float(t).is_integer() for t in numbers)
    digits = (2, 0) if whole else (2,)
    rates_of = {a: _rates(v, targets) for a, v in inputs_of.items()}
    for a in nums:
        if first_inputs is not None:
            inputs = inputs_of[a]
            pairs = [(x, t) for x, t in zip(inputs, targets) if is_number(x) and is_number(t)]
            rates = rates_of[a]
            for c in rates:
                for b, v in steady.items():
                    if b != a and c not in (0, 1) and values_equal(v, c):
                        yield f"{a} * {b}"
                        yield f"round({a} * {b}, 2)"
            if rates:
                # ahead of the bare rate, as the steady number itself is, rounded to units too: the
                # factor is rounder than the rate, which read to six decimals fits whole numbers to
                # the cent by coincidence (percent x 49.500986 for percent x 412.5 x 0.12)
                for b, r in _steady_factors(inputs, targets, steady, a, whole):
                    for d in digits:
                        yield f"round({a} * {b} * {literal_source(normalize(r))}, {d})"
            for k, d in _divisors(inputs, targets, digits):
                yield f"round({a} / {k}, {d})" if d is not None else f"{a} / {k}"
            for c in rates:
                yield f"{a} * {literal_source(normalize(c))}"
                yield f"round({a} * {literal_source(normalize(c))}, 2)"
            for c, floor in _floored_rates(pairs, rates):
                yield f"max({literal_source(normalize(floor))}, round({a} * {literal_source(normalize(c))}, 2))"
            if pairs:
                a0, t0 = float(pairs[0][0]), float(pairs[0][1])
                c2 = round(t0 - a0, 6)
                if c2 < 0:
                    yield f"{a} - {literal_source(normalize(-c2))}"
                    yield f"max({a} - {literal_source(normalize(-c2))}, 0)"
                else:
                    yield f"{a} + {literal_source(normalize(c2))}"
                if t0 == 0:
                    # a first example at the floor (no overtime under 40 hours) says nothing of the
                    # threshold: it is read off the first example above it, and kept where it is one
                    # a business would set (40 hours, 23.5 kg; not 17405.55 or 0.0005, which two
                    # examples fit by chance) and the first example lies at or below it
                    above = next(((float(x), float(t)) for x, t in pairs if float(t) > 0), None)
                    threshold = round(above[0] - above[1], 6) if above is not None else 0.0
                    if threshold >= 1 and round(threshold, 2) == threshold and significant_digits(threshold) <= 3 \
                            and a0 <= threshold and threshold != -c2:
                        yield f"max({a} - {literal_source(normalize(threshold))}, 0)"
    for i, a in enumerate(nums):
        for b in nums[i:]:
            yield f"{a} * {b}"
            yield f"round({a} * {b}, 2)"
            yield f"{a} + {b}"
    for a in nums:
        for b in nums:
            if a != b:
                yield f"{a} - {b}"
                yield f"{a} / {b}"
                yield f"round({a} / {b}, 2)"
    if first_inputs is not None and not all_same:
        yield from _percentages(_own_numbers(schema, table), targets, first_inputs)
        for a in nums:
            yield from _affine(a, inputs_of[a], targets)
    if lookups is not None and not all_same:
        yield from lookups()
    for agg in _aggregates(schema, table, join_anchors(schema, table)):
        yield agg
        yield f"round({agg}, 2)"
    if whole and first_inputs is not None:
        # rounded to units: after the sums and aggregates, since rounding away up to half a unit
        # lets a rate fit whole numbers by coincidence
        for a in nums:
            for c in rates_of[a]:
                yield f"round({a} * {literal_source(normalize(c))}, 0)"
    # a computed value capped by another field (a fine never above the item's cost): after the
    # plain products and aggregates, since there are many and a cap is rarer
    for a in nums:
        for c in nums:
            if c != a:
                yield f"min({a}, {c})"
    # three numbers of the record: past the 4000 candidates sequential covering and the pooled
    # search try (they have a rule's whole examples to check these against, in _find_value)
    yield from _signed_sums(schema, table)
    if first_inputs is not None:
        yield from _scaled_products(schema, table, targets, first_inputs, digits)
        if not all_same:
            # three or four numbers added and subtracted, or two and a constant or a rate: solved
            # for on the first examples rather than enumerated (too many to reach term by term)
            yield from _linear(schema, table, targets, first_inputs)
            yield from _product_plus_one(nums, first_inputs, targets)
    for i, a in enumerate(nums):
        for b in nums[i:]:
            for c in nums:
                if c not in (a, b):
                    yield f"min({a} * {b}, {c})"
                    yield f"round(min({a} * {b}, {c}), 2)"


# the most numbers of a record whose triples are searched: the candidates grow with the cube
_MAX_OWN_NUMBERS = 8


def _own_numbers(schema: Schema, table: str) -> list[str]:
    """The record's own numbers (``current.f``), or [] where there are more than _MAX_OWN_NUMBERS."""
    own = [f"current.{f}" for f in schema.tables[table].fields_of_type("number")]
    return own if len(own) <= _MAX_OWN_NUMBERS else []


def _percentages(own: Sequence[str], targets: Sequence[Any], first_inputs: Callable[[str], Any]) -> Iterator[str]:
    """A share of two of the record's numbers in percent, rounded to 1, 2 or 0 decimals: ``a * 100
    / b`` (a defect rate: defects per sample), ``a * 100 / (a + b)`` (a yield: good parts of good
    and scrapped) and ``(b - a) * 100 / b`` (a margin: price less cost, of the price).

    Offered only where the first examples meet the form to its rounding: there are many pairs,
    and the checked ones are few. Every rounding that fits is offered (first examples with one
    decimal fit a rule rounding to two), and the share is multiplied before it is divided, as
    such rules are written: ``23 / 160 * 100`` rounds to 14.37 in floating point, ``23 * 100 /
    160`` to 14.38.
    """
    # (index among the first examples, target) where the target is a number
    pairs = [(i, t) for i, t in enumerate(targets[:8]) if is_number(t)]
    if not any(float(t) != 0 for _, t in pairs):
        return
    for a in own:
        for b in own:
            if a == b:
                continue
            for base in (f"{a} * 100 / {b}", f"{a} * 100 / ({a} + {b})", f"({b} - {a}) * 100 / {b}"):
                got = first_inputs(base)
                for d in (1, 2, 0):
                    if all(i < len(got) and is_number(got[i]) and values_equal(round_half_away(got[i], d), t)
                           for i, t in pairs):
                        yield f"round({base}, {d})"


def _signed_sums(schema: Schema, table: str) -> Iterator[str]:
    """``a + b - c`` and ``a - b - c`` over three numbers of the record itself (a balance due =
    amount + late fee - amount paid), plain and rounded to cents.

    Only the record's own numbers: with paths through references there are too many
    triples, and a sum of three arbitrary numbers fits a few examples by coincidence.
    """
    own = _own_numbers(schema, table)
    for i, a in enumerate(own):
        for b in own[i + 1:]:
            for c in own:
                if c not in (a, b):
                    yield f"{a} + {b} - {c}"
                    yield f"round({a} + {b} - {c}, 2)"
    for a in own:
        for i, b in enumerate(own):
            for c in own[i + 1:]:
                if a not in (b, c):
                    yield f"{a} - {b} - {c}"
                    yield f"round({a} - {b} - {c}, 2)"


def _scaled_products(schema: Schema, table: str, targets: Sequence[Any], first_inputs: Callable[[str], Any],
                     digits: Sequence[int] = (2,)) -> Iterator[str]:
    """Products of numbers of the record times a rate read off the examples: two numbers
    (a premium = sum insured x term x a rate), or a difference of two, floored at zero or not,
    and a third (a storage charge = days over the free days x TEU x a daily rate).

    Only the record's own numbers, as for signed sums; the rate is inferred from the example
    with the largest product, as for ``a * c``. A difference times a third is also tried
    without a rate (days late x a fee per day); a plain product is enumerated earlier.
    """
    own = _own_numbers(schema, table)
    bases = [(f"{a} * {b}", False) for i, a in enumerate(own) for b in own[i + 1:]]
    for i, a in enumerate(own):
        for j, b in enumerate(own):
            if b != a:
                bases += [(f"max({a} - {b}, 0) * {c}", True) for c in own if c not in (a, b)]
                if i < j:  # (b - a) * c is (a - b) * c at the opposite rate
                    bases += [(f"({a} - {b}) * {c}", True) for c in own if c not in (a, b)]
    for base, bare in bases:
        if bare:
            yield base
            yield f"round({base}, 2)"
        for c in _rates(first_inputs(base), targets):
            if c not in (0, 1):
                for d in digits:
                    yield f"round({base} * {literal_source(normalize(c))}, {d})"
                yield f"{base} * {literal_source(normalize(c))}"


def _linear(schema: Schema, table: str, targets: Sequence[Any], first_inputs: Callable[[str], Any]) -> Iterator[str]:
    """Signed sums of the record's numbers, their pairwise products and the numbers of the records
    it references directly, read off the first examples (see ``linear_sources``)."""
    own = [f"current.{f}" for f in schema.tables[table].fields_of_type("number")]
    near = [src for src, ty, _ in paths_from(schema, table, "current", 1) if ty == "number" and src.count(".") == 2]
    products = [(i, j) for i in range(len(own)) for j in range(i + 1, len(own))]
    yield from linear_sources(own + near, first_inputs, list(targets[:8]), products=products)


def _product_plus_one(nums: Sequence[str], first_inputs: Callable[[str], Any], targets: Sequence[Any]) -> Iterator[str]:
    """``a * b + c`` and ``a * b + k``: a quantity at a rate a referenced record holds, plus a fixed
    charge it holds too or a constant (a bill = kWh x the tariff's unit rate + its standing charge),
    read off the first examples. Sums of terms and products of the record's own numbers are
    ``_linear``'s; here the product may reach through references (two hops), which would make too
    many terms for its search, and only one more term is added.

    A form is offered only where the three numbers take more distinct combinations over the
    examples than it has unknowns, and the caller checks it against every case.
    """
    head = list(targets[:8])
    keep = [k for k, t in enumerate(head) if is_number(t)]
    if len(keep) < 3:
        return
    vectors: dict[str, tuple[float, ...]] = {}
    for a in nums:
        v = first_inputs(a)
        if len(v) >= len(head) and all(is_number(v[k]) for k in keep):
            vec = tuple(float(v[k]) for k in keep)
            if vec not in vectors.values():
                vectors[a] = vec
    target = tuple(float(head[k]) for k in keep)
    # the numbers by their values in cents: the rest of a target once the product is taken off is
    # looked up, and a rounded target is within half a cent of it
    by_cents: dict[tuple[int, ...], str] = {}
    for a, vec in vectors.items():
        by_cents.setdefault(tuple(round(x * 100) for x in vec), a)
    names = list(vectors)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            prod = [x * y for x, y in zip(vectors[a], vectors[b])]
            if len(set(prod)) < 2:
                continue
            rest = [t - p for t, p in zip(target, prod)]
            c = by_cents.get(tuple(round(r * 100) for r in rest))
            if c is not None and c not in (a, b) and len(set(zip(vectors[a], vectors[b], vectors[c]))) > 3:
                yield f"{a} * {b} + {c}"
                yield f"round({a} * {b} + {c}, 2)"
            elif max(rest) - min(rest) <= 0.0102 and len(set(zip(vectors[a], vectors[b]))) > 2 and (k := round(rest[0], 2)):
                form = f"{a} * {b} {'+' if k > 0 else '-'} {literal_source(normalize(abs(k)))}"
                yield form
                yield f"round({form}, 2)"


def _steady_factors(inputs: Sequence[Any], targets: Sequence[Any], steady: dict[str, float], a: str,
                    whole: bool) -> Iterator[tuple[str, float]]:
    """Numbers ``b`` steady over the examples and round factors ``r`` (two significant digits)
    with ``a * b * r`` the target on the example with the largest ``a``, within what rounding
    to cents (or to units, for ``whole`` targets) moves it: a scholarship of percent x the
    major's fee per credit x 0.12 (12 credits, percent / 100), every example seen on one major.
    The caller checks every example."""
    largest = _largest_example(inputs, targets)
    if largest is None:
        return
    x0, t0 = largest
    slack = 0.5 if whole else 0.005
    for b, v in steady.items():
        if b == a or v == 0 or t0 == 0:
            continue
        r = float(f"{t0 / (x0 * v):.2g}")
        # only a factor rounder than the bare rate itself (49.5 = 412.5 x 0.12), else any plain
        # rate would be a steady number (a year of 2) times half the rate
        if r not in (0, 1) and v != 1 and significant_digits(r) < significant_digits(t0 / x0) \
                and abs(x0 * v * r - t0) <= slack + 1e-9:
            yield b, r


def _rates(inputs: Sequence[Any], targets: Sequence[Any]) -> list[float]:
    """Rates target / input read off the example with the largest input (a rounded output says
    least about the rate on a small one), to 2, 3, 4 and 6 decimals, without repeats; [] where no
    input is a non-zero number."""
    largest = _largest_example(inputs, targets)
    if largest is None:
        return []
    x0, t0 = largest
    return list(dict.fromkeys(round(t0 / x0, d) for d in (2, 3, 4, 6)))


def _divisors(inputs: Sequence[Any], targets: Sequence[Any], digits: Sequence[int]) -> list[tuple[int, int | None]]:
    """(k, d): a whole number k >= 3 of at most three significant digits with ``round(input / k, d)``
    the target on the example with the largest input (d None: unrounded), where 1 / k has no
    short decimal form: an hourly rate of a salary / 2080, a third of a sum. A rate read to six
    decimals misses such a k on large inputs (0.000481 for 1 / 2080), and where 1 / k is short
    (0.25, 0.05) the rates find it. None where a round rate (two significant digits) meets that
    example. The caller checks every example."""
    largest = _largest_example(inputs, targets)
    if largest is None or largest[1] == 0:
        return []
    x0, t0 = largest
    if not math.isfinite(x0 / t0):
        return []
    # a round rate that meets the example is the likelier reading: 15% of 60 is 9, and so,
    # rounded to units, is 60 / 7 (which is 14, not 15, of 100)
    if any(significant_digits(c) <= 2 and values_equal(x0 * c, t0) for c in (round(t0 / x0, d) for d in (2, 3, 4))):
        return []
    k = round(x0 / t0)
    # a divisor a business would use (2080 hours, 52 weeks, 365 days): on large inputs some whole
    # number within rounding of any target is found by chance (2083, 17407)
    if k < 3 or abs(round(1 / k, 6) - 1 / k) < 1e-12 or significant_digits(k) > 3:
        return []
    out: list[tuple[int, int | None]] = [(k, None)] if values_equal(x0 / k, t0) else []
    return out + [(k, d) for d in digits if values_equal(round_half_away(x0 / k, d), t0)]


def _affine(a: str, inputs: Sequence[Any], targets: Sequence[Any]) -> Iterator[str]:
    """``round(a * r + k, 2)``: a fixed amount plus a rate per unit (a call-out fee of 35 plus 0.8
    per km), and ``max(round(a * r - k, 2), 0)``: a rate on what lies above a threshold (overtime
    paid at 27 an hour over 40 hours, nothing below), the examples at zero being those below it.

    The line is read off the examples with the largest and the smallest input among those with a
    non-zero target (the farther apart, the less the targets' rounding moves the rate) and must
    meet every such example to the cent; at least three distinct inputs are needed, since two
    points fit any line. The floored form is offered where examples at zero lie on or below the
    line, whatever the sign of its constant.
    """
    pairs = [(float(x), float(t)) for x, t in zip(inputs, targets) if is_number(x) and is_number(t)]
    moved = [(x, t) for x, t in pairs if t != 0]
    xs = sorted({x for x, _ in moved}, reverse=True)
    if len(xs) < 3:
        return
    (x1, t1), (x2, t2) = (next(p for p in moved if p[0] == xs[0]), next(p for p in moved if p[0] == xs[-1]))
    for d in (2, 3, 4, 6):
        r = round((t1 - t2) / (x1 - x2), d)
        k = round(t1 - r * x1, 2)
        if r in (0, 1, -1) or k == 0:
            continue
        if not all(abs(round(x * r + k, 2) - t) <= 0.0051 for x, t in moved):
            continue
        body = f"{a} * {literal_source(normalize(r))} {'+' if k > 0 else '-'} {literal_source(normalize(abs(k)))}"
        if len(moved) < len(pairs):
            if all(x * r + k <= 0.005 for x, t in pairs if t == 0):
                yield f"max(round({body}, 2), 0)"
        else:
            yield f"round({body}, 2)"
        return


def _floored_rates(pairs: Sequence[tuple[Any, Any]], rates: Sequence[float]) -> list[tuple[float, float]]:
    """(rate, floor) where the targets are the input at that rate but never below the smallest
    target (a late fee of 5% of the amount, at least 50): the examples at the floor are those
    whose input at the rate falls short of it, and some examples are above it."""
    if not pairs:
        return []
    floor = min(float(t) for _, t in pairs)
    at_floor = [float(x) for x, t in pairs if values_equal(float(t), floor)]
    # a floor and a rate a business would set (50 and 5%), and two examples above the floor: with
    # one, any rate read off it fits (a committed budget of max(2965, committed x 1.048947))
    if floor <= 0 or significant_digits(floor) > 2 or len(pairs) - len(at_floor) < 2:
        return []
    # at the floor: the input at the rate comes to it or short of it, as the engine rounds
    return [(c, floor) for c in rates if 0 < c != 1 and significant_digits(c) <= 2 and all(round(x * c, 2) <= floor for x in at_floor)]


def _largest_example(inputs: Sequence[Any], targets: Sequence[Any]) -> tuple[float, float] | None:
    """(input, target) of the example with the largest non-zero numeric input (the first of equals),
    or None where there is none."""
    pairs = [(float(x), float(t)) for x, t in zip(inputs, targets) if is_number(x) and is_number(t) and x != 0]
    return max(pairs, key=lambda p: abs(p[0])) if pairs else None


def _memoised(first_inputs: Callable[[str], Any]) -> Callable[[str], Any]:
    """``first_inputs`` evaluating each source once."""
    cache: dict[str, Any] = {}

    def inputs(src: str) -> Any:
        if src not in cache:
            cache[src] = first_inputs(src)
        return cache[src]
    return inputs


def clamped(source: str, schema: Schema, table: str) -> Iterator[str]:
    """``source`` floored at zero and/or capped by a number of the record or a record it references
    (a net amount never below zero nor above the policy's limit), plain and rounded to cents."""
    caps = [src for src, ty, _ in paths_from(schema, table, "current", 2) if ty == "number"]
    forms = [f"max({source}, 0)"]
    for c in caps:
        forms += [f"min({source}, {c})", f"min(max({source}, 0), {c})"]
    for form in forms:
        yield form
        yield f"round({form}, 2)"


_MISSING = object()


def find_value(candidates: Iterable[str], fits: Callable[[str], bool], limit: int = 20000) -> str | None:
    """The first candidate for which ``fits`` holds (at most ``limit`` tried)."""
    seen: set[str] = set()
    for n, src in enumerate(candidates):
        if n >= limit:
            break
        if src in seen:
            continue
        seen.add(src)
        if fits(src):
            return src
    return None


@dataclass(frozen=True)
class Literal:
    """A condition literal with a preference rank (lower is preferred when coverage ties)."""

    source: str
    rank: int


def significant_digits(x: float) -> int:
    """Significant digits of x (fewer is 'rounder'): 1000 -> 1, 1250 -> 3, 999.99 -> 5."""
    text = format(abs(float(x)), ".6f").rstrip("0").rstrip(".").replace(".", "").lstrip("0")
    return len(text.rstrip("0")) or 1


def nice_between(lo: float, hi: float) -> float:
    """The 'roundest' number x with lo < x <= hi (fewest significant digits)."""
    if hi <= lo:
        return hi
    for step in (1000, 500, 100, 50, 10, 5, 1, 0.5, 0.1, 0.05, 0.01, 0.001, 0.0001):
        x = math.floor(hi / step) * step
        if lo < x <= hi:
            return round(x, 6)
    return hi


def _distinct(values: Iterable[Any], exclude: Sequence[Any] = ()) -> list[Any]:
    """The values in first-seen order without repeats (by ``values_equal``) or any of ``exclude``."""
    out: list[Any] = []
    for v in values:
        if not any(values_equal(v, s) for s in (*exclude, *out)):
            out.append(v)
    return out


def condition_literals(
    schema: Schema,
    table: str,
    event: str,
    written: set[str],
    values_of: Callable[[str], list[Any]],
    pos_values_of: Callable[[str], list[Any]],
    target: str | None = None,
    computed: frozenset[str] = frozenset(),
) -> list[Literal]:
    """Candidate literals for a rule on (table, event).

    ``values_of(src)`` gives the value of a path over all examples,
    ``pos_values_of(src)`` over the positives only (thresholds sit between
    positive and negative values). ``target`` is the field of the written
    record the rule sets, if any: "fill it only while it is empty" is so
    common a guard that its literals rank first. ``computed`` are fields
    other rules derive from the written ones (a net amount from the loss):
    on an update a change of one of them may lead a term as a written field's
    does.
    """
    lits: list[Literal] = []
    spec = schema.tables[table]
    if event != "delete":
        # a change the write made leads a term (rank 0) on an update only: on an insert every
        # written field counts as changed, and what the experiment happened to write along says
        # nothing of what triggers the rule
        lead = 0 if event == "update" else 1
        derived = computed if event == "update" else frozenset()
        for fname in spec.fields:
            lits.append(Literal(f"changed({fname})", lead if fname in written or fname in derived else 6))
    for src, ftype, _ in paths_from(schema, table, "current", 2):
        hop = src.count(".") - 1
        base_rank = 1 + 2 * hop
        if ftype in ("choice", "boolean", "string", "reference"):
            seen = _distinct(pos_values_of(src))
            for v in seen[:12]:
                lit = f"{src} == {literal_source(v)}"
                # equality with one record's id or one text is the last resort: it rarely generalises
                lits.append(Literal(lit, base_rank + (20 if ftype in ("string", "reference") else 0)))
                if hop == 0 and event == "update":
                    fname = src.split(".")[1]
                    lits.append(Literal(f"changes_to({fname}, {literal_source(v)})", 0 if fname in written else 5))
                    lits.append(Literal(f"previous.{fname} == {literal_source(v)}", base_rank + (20 if ftype in ("string", "reference") else 2)))
            if ftype in ("string", "reference"):
                guard = 0 if target is not None and src == f"current.{target}" else base_rank + 1
                lits.append(Literal(f"is_empty({src})", guard))
                lits.append(Literal(f"not is_empty({src})", guard))
            for v in seen[:6]:
                lits.append(Literal(f"{src} != {literal_source(v)}", base_rank + (20 if ftype in ("string", "reference") else 2)))
            if ftype == "choice":
                # a state no positive is in but some other write is ("not while denied"): the guard
                # a rule keeps against one state reads as its exclusion
                for v in _distinct(values_of(src), exclude=seen)[:6]:
                    lits.append(Literal(f"{src} != {literal_source(v)}", base_rank + 2))
        elif ftype == "number":
            # emptiness first: positives that all lack the number give no threshold, but the guard fits
            guard = 0 if target is not None and src == f"current.{target}" else base_rank + 2
            lits.append(Literal(f"is_empty({src})", guard))
            lits.append(Literal(f"not is_empty({src})", guard))
            pos = sorted({float(v) for v in pos_values_of(src) if is_number(v)})
            allv = sorted({float(v) for v in values_of(src) if is_number(v)})
            if not pos or not allv:
                continue
            lo_pos, hi_pos = pos[0], pos[-1]
            below = [v for v in allv if v < lo_pos]
            above = [v for v in allv if v > hi_pos]
            if below:
                t = below[-1]
                gt, ge = f"{src} > {literal_source(normalize(t))}", f"{src} >= {literal_source(normalize(lo_pos))}"
                first, second = (gt, ge) if significant_digits(t) <= significant_digits(lo_pos) else (ge, gt)
                lits.append(Literal(first, base_rank + 1))
                lits.append(Literal(second, base_rank + 2))
            if above:
                t = above[0]
                lt, le = f"{src} < {literal_source(normalize(t))}", f"{src} <= {literal_source(normalize(hi_pos))}"
                first, second = (lt, le) if significant_digits(t) <= significant_digits(hi_pos) else (le, lt)
                lits.append(Literal(first, base_rank + 1))
                lits.append(Literal(second, base_rank + 2))
            lits.append(Literal(f"{src} > 0", base_rank + 3))
    if event == "update":
        for fname, fspec in spec.fields.items():
            if fspec.type == "number":
                lits.extend(_relative_change_literals(fname, values_of, pos_values_of))
    own_numbers, parent_numbers = comparable_numbers(schema, table)
    for i, a in enumerate(own_numbers):
        for b in own_numbers[i + 1:]:
            for op in (">", ">=", "<", "<="):
                lits.append(Literal(f"{a} {op} {b}", 2))
    # a number against one on a referenced record: days > ward.max_stay, quantity > stock.on_hand
    for a in own_numbers:
        for b in parent_numbers:
            for op in (">", ">=", "<", "<="):
                lits.append(Literal(f"{a} {op} {b}", 3))
    return lits


def _relative_change_literals(fname: str, values_of: Callable[[str], list[Any]],
                              pos_values_of: Callable[[str], list[Any]]) -> list[Literal]:
    """``current.f > previous.f * k`` (or ``<``): a change by more than a share of the value before
    (a raise above 10% opens a pay review). As with a threshold on one number, ``k`` is the nearest
    negative's ratio (``>``), the positives' own (``>=``) or the roundest share between them, the
    rounder first, and only a round one (three significant digits at most). A threshold on the
    number alone fits such writes on one record only."""

    def ratios(values: Callable[[str], list[Any]]) -> list[float]:
        cur, prev = values(f"current.{fname}"), values(f"previous.{fname}")
        if len(cur) != len(prev):
            return []
        # rounded: 1100 / 1000 is 1.1 to the engine's eye, not 1.1000000000000001
        return [round(float(c) / float(p), 6) for c, p in zip(cur, prev) if is_number(c) and is_number(p) and float(p) > 0]

    def literal(op: str, k: float) -> str:
        return f"current.{fname} {op} previous.{fname}" + (f" * {literal_source(normalize(k))}" if k != 1 else "")

    pos = ratios(pos_values_of)
    if not pos:
        return []
    every = ratios(values_of)
    lo, hi = min(pos), max(pos)
    # (strict op, nearest negative's ratio, loose op, positives' edge, the roundest share between)
    pairs: list[tuple[str, float, str, float, float]] = []
    below = [r for r in every if r < lo]
    if lo > 1 and below and max(below) >= 1:
        pairs.append((">", max(below), ">=", lo, nice_between(max(below), lo)))
    above = [r for r in every if r > hi]
    if hi < 1 and above and min(above) <= 1:
        pairs.append(("<", min(above), "<=", hi, -nice_between(-min(above), -hi)))
    out: list[Literal] = []
    for strict, t, loose, edge, between in pairs:
        shares = [(strict, t), (loose, edge)]
        # a bisection on one record stops at round values, not round shares (988 -> 1100 is 1.113,
        # 1000.01 is 1.012): the share the rule was written with (1.1) lies between. Only where the
        # two lie within a factor of 2: a sweep's large numbers (ten times the column's largest)
        # would make "more than ten times the value before" a rival of every threshold (sealed-A
        # lost 0.1 to the writes that tested them)
        if between != edge and max(t, edge) <= 2 * min(t, edge):
            shares.append((strict, between))
        # only a round share (1.1, 1.25, 2): a threshold on the number alone fits the same writes
        # as well until one on another record tells them apart, and that costs a write per rule
        nice = [(significant_digits(k), literal(op, k)) for op, k in shares if significant_digits(k) <= 3]
        out += [Literal(src, 3 + n) for n, (_, src) in enumerate(sorted(nice, key=lambda p: p[0]))]
    return out


def comparable_numbers(schema: Schema, table: str) -> tuple[list[str], list[str]]:
    """The numbers a comparison on ``table`` reads: the record's own (``current.f``) and those of the
    records it references (``current.ref.f``)."""
    own = [f"current.{f}" for f, fs in schema.tables[table].fields.items() if fs.type == "number"]
    parent = [src for src, ftype, _ in paths_from(schema, table, "current", 1) if ftype == "number" and src.count(".") == 2]
    return own, parent


def _greedy_dnf(
    table: dict[str, list[bool]],
    ranks: dict[str, int],
    positives: Sequence[int],
    negatives: Sequence[int],
    *,
    rank_first: bool,
    max_terms: int,
    max_literals: int,
) -> list[list[str]] | None:
    """One sequential-covering pass; ``rank_first`` prefers simple literals over wide coverage."""
    uncovered = set(positives)
    terms: list[list[str]] = []
    while uncovered and len(terms) < max_terms:
        term: list[str] = []
        cov_pos = set(uncovered)
        cov_neg = set(negatives)
        # a term starts with the change that triggers it when one change covers every positive left:
        # rules fire on changes, and without it a threshold would be pushed up by writes of other fields
        seeds = [src for src, vals in table.items() if ranks[src] == 0 and src.startswith("change")
                 and all(vals[i] for i in cov_pos)]
        if seeds:
            best_seed = min(seeds, key=lambda src: (sum(1 for i in cov_neg if table[src][i]), len(src)))
            if sum(1 for i in cov_neg if table[best_seed][i]) < len(cov_neg):
                term.append(best_seed)
                cov_neg = {i for i in cov_neg if table[best_seed][i]}
        while cov_neg and len(term) < max_literals:
            best = None
            best_key = None
            for src, vals in table.items():
                if src in term:
                    continue
                p = sum(1 for i in cov_pos if vals[i])
                if p == 0:
                    continue
                n = sum(1 for i in cov_neg if vals[i])
                if n == len(cov_neg):
                    continue
                if rank_first:
                    key: tuple = (n == 0, -ranks[src], p - 2 * n, -len(src))
                else:
                    key = (n == 0, p - 2 * n, -ranks[src], -len(src))
                if best_key is None or key > best_key:
                    best, best_key = src, key
            if best is None:
                break
            term.append(best)
            vals = table[best]
            cov_pos = {i for i in cov_pos if vals[i]}
            cov_neg = {i for i in cov_neg if vals[i]}
        if cov_neg or not cov_pos:
            break
        terms.append(term)
        uncovered -= cov_pos
    if uncovered:
        return None
    return terms


def _simplify(dnf: list[list[str]], table: dict[str, list[bool]], positives: Sequence[int], negatives: Sequence[int]) -> list[list[str]]:
    """Drop literals a term does not need and terms the others make unnecessary."""
    out: list[list[str]] = []
    for term in dnf:
        term = list(term)
        for lit in list(term):
            rest = [x for x in term if x != lit]
            if rest and not any(all(table[x][i] for x in rest) for i in negatives):
                term = rest
        out.append(term)

    def covers(term: list[str]) -> set[int]:
        return {i for i in positives if all(table[x][i] for x in term)}

    for term in sorted(out, key=len, reverse=True):
        others = [t for t in out if t is not term]
        if others and covers(term) <= set().union(*(covers(t) for t in others)):
            out.remove(term)
    return out


def dnf_cost(dnf: Sequence[Sequence[str]], ranks: dict[str, int]) -> int:
    """Description length of a condition: one per literal plus its rank (simpler literals cost less)."""
    return sum(1 + ranks.get(lit, 0) for term in dnf for lit in term)


def learn_dnf_candidates(
    literals: Sequence[Literal],
    truth: Callable[[str], list[bool]],
    positives: Sequence[int],
    negatives: Sequence[int],
    *,
    max_terms: int = 3,
    max_literals: int = 3,
    banned: frozenset[str] = frozenset(),
) -> list[list[list[str]]]:
    """Every distinct consistent DNF the covering strategies find, cheapest first (``[[]]`` without negatives).

    Two greedy strategies (widest coverage first; simplest literal first) can
    disagree: the data does not always tell ``kind == 'fulfil'`` from
    ``is_empty(assigned_to)``. Both answers are kept so that the cheaper one
    wins and the other can be tested by an experiment.
    """
    if not positives:
        return []
    if not negatives:
        return [[]]
    table: dict[str, list[bool]] = {}
    for lit in literals:
        if lit.source not in table and lit.source not in banned:
            vals = truth(lit.source)
            if any(vals[i] for i in positives):
                table[lit.source] = vals
    ranks = {lit.source: lit.rank for lit in literals}
    found: list[list[list[str]]] = []
    for rank_first in (False, True):
        dnf = _greedy_dnf(table, ranks, positives, negatives, rank_first=rank_first, max_terms=max_terms, max_literals=max_literals)
        if dnf is None:
            continue
        dnf = _simplify(dnf, table, positives, negatives)
        if dnf not in found:
            found.append(dnf)
    if not any(len(dnf) == 1 for dnf in found):
        # covering failed or needed several terms: one conjunction may still fit every positive
        # (where covering found one, its change-first, widest-coverage choice is kept: a cheaper
        # conjunction can read a field the same write's other effects set, which predicts nothing)
        term = _cheapest_conjunction(table, ranks, positives, negatives, max_literals=max_literals)
        if term is not None:
            found.append([term])
    return sorted(found, key=lambda d: dnf_cost(d, ranks))


def _cheapest_conjunction(
    table: dict[str, list[bool]],
    ranks: dict[str, int],
    positives: Sequence[int],
    negatives: Sequence[int],
    *,
    max_literals: int,
    max_pool: int = 60,
) -> list[str] | None:
    """The cheapest single conjunction true on every positive and no negative, by exhaustive search.

    Greedy covering commits to its first literal: a change every positive shares but that
    excludes few negatives (a field the experiments happened to write along) can leave no
    room for the threshold and the state that do separate them, and the pass ends with a
    disjunction of accidents, or nothing. One conjunction, where one exists, is the simpler
    rule; the search is over the literals true on every positive (the ``max_pool`` that
    exclude the most negatives), as bitmasks of the negatives they keep. As in the greedy
    pass, a change every positive shares must be part of it (rules fire on changes; without
    one, writes of other fields push a threshold up), and one positive alone is left to the
    greedy pass: any few literals isolate a single write, which says nothing about the rule.
    """
    if len(positives) < 2:
        return None
    neg_bit = {i: 1 << k for k, i in enumerate(negatives)}
    pool: list[tuple[str, int]] = []
    for src, vals in table.items():
        if all(vals[i] for i in positives):
            pool.append((src, sum(bit for i, bit in neg_bit.items() if vals[i])))
    pool.sort(key=lambda item: (bin(item[1]).count("1"), ranks.get(item[0], 0), len(item[0])))
    pool = pool[:max_pool]
    changes = {k for k, (src, _) in enumerate(pool) if ranks.get(src, 0) == 0 and src.startswith("change")}
    best: list[str] | None = None
    best_cost = None
    for size in range(1, max_literals + 1):
        for combo in itertools.combinations(range(len(pool)), size):
            if changes and changes.isdisjoint(combo):
                continue
            mask = -1
            for k in combo:
                mask &= pool[k][1]
            if mask:
                continue
            term = [pool[k][0] for k in combo]
            cost = dnf_cost([term], ranks)
            if best_cost is None or cost < best_cost:
                best, best_cost = term, cost
        if best_cost is not None and best_cost <= size + 1:
            break  # a longer conjunction costs at least one per literal
    return best


def learn_dnf(
    literals: Sequence[Literal],
    truth: Callable[[str], list[bool]],
    positives: Sequence[int],
    negatives: Sequence[int],
    *,
    max_terms: int = 3,
    max_literals: int = 3,
) -> list[list[str]] | None:
    """Sequential covering: a disjunction of conjunctions true on every positive and no negative.

    Returns [] for "always true" (no negatives), None when no such formula
    is found within the bounds; of the formulas the strategies find, the one
    with the shortest description (``dnf_cost``).
    """
    found = learn_dnf_candidates(literals, truth, positives, negatives, max_terms=max_terms, max_literals=max_literals)
    if not found:
        return None
    return found[0]
