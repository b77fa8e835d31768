"""Aggregate values found from the data: which rows a count or sum takes, read off the examples.

Enumerating ``count``/``sum`` expressions with every possible row filter is
hopeless once a filter combines two fields or keeps three of six states (the
open claims of an adjuster, the issued indemnity payments of a claim): there
are thousands of such filters, each evaluated by scanning a table. Here the
rows each example would join are grouped once by the values of their choice
and boolean fields, so a filter ``row.a in [...] and row.b in [...]`` is
scored by adding a few group totals, and only the filters that give every
example's target come out as sources (simplest first).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from memkit.rules import Schema
from memkit.rules.ast import literal_source
from memkit.rules.schema import is_number
from memkit.rules.values import round_half_away, values_equal

from agents.cda.contexts import FAIL, Example, eval_on
from agents.cda.hypotheses import join_anchors, paths_from

__all__ = ["aggregate_sources"]

# subsets of a field's values considered in one filter: a field with more choices than this
# only gets single values and all-but-one (2^8 subsets per field is already 256)
_MAX_SUBSET_FIELD = 7


def _subsets(values: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Proper non-empty subsets of ``values``, small ones first (all but one at the end)."""
    n = len(values)
    if n <= 1:
        return []
    if n > _MAX_SUBSET_FIELD:
        return [(v,) for v in values] + [tuple(x for x in values if x != v) for v in values]
    return [c for k in range(1, n) for c in combinations(values, k)]


def _test(field: str, subset: tuple[Any, ...], domain: Sequence[Any]) -> str:
    """The shortest filter text for ``row.field in subset``."""
    if len(subset) == 1:
        return f"row.{field} == {literal_source(subset[0])}"
    rest = [v for v in domain if v not in subset]
    if len(rest) == 1:
        return f"row.{field} != {literal_source(rest[0])}"
    return f"row.{field} in [{', '.join(literal_source(v) for v in subset)}]"


def aggregate_sources(schema: Schema, table: str, cases: Sequence[tuple[Example, Any]], *,
                      after_rule: bool, limit: int = 6, lookups: list[str] | None = None) -> Iterator[str]:
    """``count``/``sum`` sources that give every case's target (to the cent), joined on the rule's
    record or a record it references and filtered on up to two choice/boolean fields of the
    aggregated table, simplest filter first. Each comes as it is and rounded to cents (the caller
    checks which fits exactly); at most ``limit`` filters are given.

    A sum that takes one row in every case only copies a number of a sibling record (a new
    lease priced like the unit's other lease): those are not yielded but appended to
    ``lookups`` (at most ``limit`` filters too; complete once this is exhausted), so that the
    caller can try a lookup after arithmetic on the record's own numbers, which a coincidence
    like that would otherwise shadow. One pass joins the rows for both."""
    if len(cases) < 2 or not all(is_number(t) for _, t in cases):
        return
    targets = [float(t) for _, t in cases]
    found = deferred = 0
    bases = _offset_bases(schema, table, cases, targets, after_rule=after_rule)
    for where, t3, joined in _joins(schema, table, cases, after_rule=after_rule):
        spec3 = schema.tables[t3]
        kinds = {f: s for f, s in spec3.fields.items() if s.type in ("choice", "boolean")}
        numbers = [f for f, s in spec3.fields.items() if s.type == "number"]
        # counts and sums, then ratios of two sums over the same rows (a grade point
        # average: quality points over credits of the completed courses)
        measures = [(w, None) for w in [None, *numbers]] + [(a, b) for a in numbers for b in numbers if a != b]
        for weight, divisor in measures:
            for src, lookup in _filters(joined, targets, kinds, weight, divisor):
                if (deferred if lookup else found) >= limit:
                    continue
                body = _total(t3, where, src, weight)
                if divisor is not None:
                    body = f"{body} / {_total(t3, where, src, divisor)}"
                if lookup:
                    deferred += 1
                    if lookups is not None:
                        lookups += [body, f"round({body}, 2)"]
                else:
                    found += 1
                    yield body
                    yield f"round({body}, 2)"
                if found >= limit and deferred >= limit:
                    return
        # a number of a related record less a total (a leave balance: the grade's annual
        # leave less the approved annual leave), after the plain totals
        for base, base_values in bases:
            rest = [b - t for b, t in zip(base_values, targets)]
            for weight in [None, *numbers]:
                if found >= limit:
                    return
                if not _within_totals(joined, weight, rest):
                    continue
                for src, lookup in _filters(joined, rest, kinds, weight):
                    if lookup or found >= limit:
                        continue
                    body = _total(t3, where, src, weight)
                    found += 1
                    yield f"{base} - {body}"
                    yield f"round({base} - {body}, 2)"


def _total(t3: str, where: str, filt: str, weight: str | None) -> str:
    """``count`` (no ``weight``) or ``sum`` over ``t3``'s rows joined by ``where`` and kept by ``filt``."""
    rows = f"{where} and {filt}" if filt else where
    return f"count({t3}, {rows})" if weight is None else f"sum({t3}, {weight}, {rows})"


def _joins(schema: Schema, table: str, cases: Sequence[tuple[Example, Any]], *,
           after_rule: bool) -> Iterator[tuple[str, str, list[list[dict[str, Any]]]]]:
    """(join text, aggregated table, the rows each case joins) for every way a total can be tied to
    the rule's record: the rows of any table that reference it or a record it references, then the
    rows of its own table that share a record two references away (a tenant's charges over all
    their leases: ``row.lease.tenant == current.lease.tenant``)."""
    def state_of(ex: Example) -> Any:
        return ex.after if after_rule else ex.before

    for anchor_src, anchor_table in join_anchors(schema, table):
        keys = [eval_on(anchor_src, schema, ex, after_rule=after_rule) for ex, _ in cases]
        if any(k is FAIL for k in keys):
            continue
        for t3, spec3 in schema.tables.items():
            for rname, rspec in spec3.fields.items():
                if rspec.type != "reference" or rspec.ref != anchor_table:
                    continue
                joined = [[r for r in state_of(ex).tables.get(t3, {}).values() if key is not None and values_equal(r.get(rname), key)]
                          for (ex, _), key in zip(cases, keys)]
                yield f"row.{rname} == {anchor_src}", t3, joined
    for r1, s1 in schema.tables[table].fields.items():
        if s1.type != "reference" or not s1.ref:
            continue
        for r2, s2 in schema.tables[s1.ref].fields.items():
            if s2.type != "reference" or not s2.ref:
                continue
            path = f"current.{r1}.{r2}"
            keys = [eval_on(path, schema, ex, after_rule=after_rule) for ex, _ in cases]
            if any(k is FAIL for k in keys) or all(k is None for k in keys):
                continue
            joined = []
            for (ex, _), key in zip(cases, keys):
                state = state_of(ex)
                parents = state.tables.get(s1.ref, {})
                joined.append([r for r in state.tables.get(table, {}).values()
                               if key is not None and values_equal((parents.get(r.get(r1)) or {}).get(r2), key)])
            yield f"row.{r1}.{r2} == {path}", table, joined


def _offset_bases(schema: Schema, table: str, cases: Sequence[tuple[Example, Any]], targets: list[float], *,
                  after_rule: bool) -> list[tuple[str, list[float]]]:
    """The numbers of the rule's record and of records it reaches (two hops) that lie at or above
    every target and differ from it by amounts that vary: the minuends ``base - total`` may take."""
    out = []
    for src, ftype, _ in paths_from(schema, table, "current", 2):
        if ftype != "number":
            continue
        values = [eval_on(src, schema, ex, after_rule=after_rule) for ex, _ in cases]
        if not all(is_number(v) for v in values):
            continue
        rest = [float(v) - t for v, t in zip(values, targets)]
        # a difference that is one value everywhere is arithmetic (base - 5), not a total
        if all(r >= 0 for r in rest) and len({round(r, 6) for r in rest}) > 1:
            out.append((src, [float(v) for v in values]))
    return out


def _within_totals(joined: list[list[dict[str, Any]]], weight: str | None, wanted: list[float]) -> bool:
    """Whether some filter could give ``wanted``: each at most the total of every joined row, where
    no row's weight is negative (a filter only drops rows)."""
    for rows, want in zip(joined, wanted):
        weights = [1.0 if weight is None else (float(r[weight]) if is_number(r.get(weight)) else 0.0) for r in rows]
        if any(w < 0 for w in weights):
            continue
        if want > sum(weights) + 1e-6:
            return False
    return True


def _filters(joined: list[list[dict[str, Any]]], targets: list[float], kinds: dict[str, Any],
             weight: str | None, divisor: str | None = None) -> Iterator[tuple[str, bool]]:
    """Filter texts ("" for none) under which the weighted row totals (divided by the kept rows'
    total of ``divisor``, where given) equal every target (to cents), each with whether it is a
    lookup: a sum that takes at most one row in every case (a count never is)."""
    def num(r: dict[str, Any], f: str | None) -> float:
        if f is None:
            return 1.0
        v = r.get(f)
        return float(v) if is_number(v) else 0.0

    fields = list(kinds)
    # per case: (values of the filter fields, weight, divisor) of every joined row, computed once
    rows_by_case = [[(tuple(r.get(f) for f in fields), num(r, weight), num(r, divisor)) for r in rows] for rows in joined]

    def rows_taken(keep: Any) -> int | None:
        """The most rows that add to a total under ``keep`` (a sibling with no number adds
        nothing), or None where some total misses its target."""
        most = 0
        for rows, t in zip(rows_by_case, targets):
            kept = [(x, y) for vals, x, y in rows if keep(vals)]
            total = sum(x for x, _ in kept)
            if divisor is not None:
                under = sum(y for _, y in kept)
                if under == 0:
                    return None
                total /= under
            # to cents as the engine rounds (half away from zero), or exactly (an unrounded average)
            if abs(total - t) >= 1e-6 and abs(round_half_away(total, 2) - t) >= 1e-6:  # type: ignore[operator]
                return None
            most = max(most, sum(1 for x, _ in kept if x != 0))
        return most

    def lookup(most: int) -> bool:
        return weight is not None and most <= 1

    if (unfiltered := rows_taken(lambda vals: True)) is not None:
        # where every row counts, a filter that drops one changes some total: none fits either
        yield "", lookup(unfiltered)
        return
    tests: list[list[tuple[str, set[Any]]]] = []
    for f, spec in kinds.items():
        domain = list(spec.choices or ()) if spec.type == "choice" else [True, False]
        per_field = []
        for subset in _subsets(domain):
            rest = [v for v in domain if v not in subset]
            # "!=" keeps empty values too, as the language's null semantics do
            allowed = set(subset) | ({None} if len(subset) > 1 and len(rest) == 1 else set())
            per_field.append((_test(f, subset, domain), allowed))
        tests.append(per_field)
    for i, per_field in enumerate(tests):
        for text, allowed in per_field:
            if (most := rows_taken(lambda vals, i=i, allowed=allowed: vals[i] in allowed)) is not None:
                yield text, lookup(most)
    for i, j in combinations(range(len(fields)), 2):
        if len(tests[i]) * len(tests[j]) > 4096:
            continue
        for text_a, a in tests[i]:
            for text_b, b in tests[j]:
                if (most := rows_taken(lambda vals, i=i, j=j, a=a, b=b: vals[i] in a and vals[j] in b)) is not None:
                    yield f"{text_a} and {text_b}", lookup(most)
