"""Sums of several numbers read off the examples: a computed amount that adds and subtracts
three or four numbers of its record (a total = days x daily rate - discount + extras +
mileage fee), or two plus a constant, or one plus another at a rate.

The enumerative value search builds such sums term by term and runs out of candidates
long before it gets to four terms. Here the examples are solved for them instead: every
signed subset of at most two terms is keyed by its values on the examples, and a sum of
two such halves that meets the targets is found by lookup (meet in the middle). Only
sums that fit the examples come out, and each is still checked against every case by
the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from memkit.rules.ast import literal_source
from memkit.rules.schema import is_number
from memkit.rules.values import normalize

__all__ = ["linear_sources"]

# a half is a signed subset of terms: ((term index, sign), ...) with its values on the examples
_Half = tuple[tuple[tuple[int, int], ...], tuple[float, ...]]

# how many sums one search yields at most: the caller checks each against every case
_MAX_YIELDED = 40
# how far a sum may be from its target on an example: half a cent, what rounding to cents moves it
_TOLERANCE = 0.0051


def _halves(vectors: Sequence[tuple[float, ...]], m: int) -> list[_Half]:
    """Every signed subset of at most two terms, the empty one first."""
    out: list[_Half] = [((), (0.0,) * m)]
    for i, x in enumerate(vectors):
        for s in (1, -1):
            out.append((((i, s),), tuple(s * v for v in x)))
    for i, x in enumerate(vectors):
        for j in range(i + 1, len(vectors)):
            y = vectors[j]
            for s in (1, -1):
                for t in (1, -1):
                    out.append((((i, s), (j, t)), tuple(s * a + t * b for a, b in zip(x, y))))
    return out


def _render(terms: Sequence[str], signed: Sequence[tuple[int, int]], constant: float = 0.0, rate: tuple[int, float] | None = None) -> str | None:
    """``a - b + c * r + k`` with the positive terms first; None where every term is subtracted."""
    parts = [(s, terms[i]) for i, s in sorted(signed, key=lambda p: (-p[1], p[0]))]
    if rate is not None:
        i, r = rate
        parts.insert(0, (1, f"{terms[i]} * {literal_source(normalize(abs(r)))}") if r > 0 else (-1, f"{terms[i]} * {literal_source(normalize(-r))}"))
        parts.sort(key=lambda p: -p[0])
    if constant:
        parts.append((1 if constant > 0 else -1, literal_source(normalize(abs(constant)))))
        parts.sort(key=lambda p: -p[0])
    if not parts or parts[0][0] < 0:
        return None
    text = parts[0][1]
    for s, src in parts[1:]:
        text += f" {'+' if s > 0 else '-'} {src}"
    return text


def _distinct_rows(vectors: Sequence[tuple[float, ...]], used: Sequence[int], m: int) -> int:
    return len({tuple(vectors[i][k] for i in used) for k in range(m)})


def linear_sources(terms: Sequence[str], values_of: Callable[[str], Sequence[Any]], targets: Sequence[Any], *,
                   products: Sequence[tuple[int, int]] = (), max_terms: int = 4) -> Iterator[str]:
    """Sources ``±a ± b ± c ± d`` (at most ``max_terms`` of ``terms`` and of the ``products`` of two
    of them), ``±a ± b + k`` and ``±a + b * r`` that equal ``targets`` on the examples, fewest terms
    first, each plain and rounded to cents.

    ``values_of(src)`` gives a term's values on the examples in the order of ``targets`` (at most
    as many); a term without a number on every example is left out. A sum is only offered where
    its terms take more distinct combinations of values over the examples than it has unknowns,
    so that a few examples cannot be met by coincidence (every example alike fits anything).
    """
    m = len(targets)
    raw = {src: list(values_of(src))[:m] for src in terms}
    # every example with a number to explain; a term without a number on one of them is left out
    # (a reference that is empty on some examples), rather than the examples
    keep = [k for k in range(m) if is_number(targets[k])]
    if len(keep) < 3:
        return
    names: list[str] = []
    vectors: list[tuple[float, ...]] = []
    seen: set[tuple[float, ...]] = set()

    def add(src: str, vec: Sequence[Any]) -> None:
        if len(vec) < m or not all(is_number(vec[k]) for k in keep):
            return
        v = tuple(float(vec[k]) for k in keep)
        if any(v) and v not in seen:  # a term equal to another on every example cannot be told apart from it
            seen.add(v)
            names.append(src)
            vectors.append(v)

    for src in terms:
        add(src, raw[src])
    for a, b in products:
        va, vb = raw[terms[a]], raw[terms[b]]
        add(f"{terms[a]} * {terms[b]}", [x * y if is_number(x) and is_number(y) else None for x, y in zip(va, vb)])
    target = tuple(float(targets[k]) for k in keep)
    n = len(keep)
    halves = _halves(vectors, n)
    found: list[tuple[int, str]] = []
    done: set[tuple[frozenset[tuple[int, int]], float]] = set()

    def offer(signed: tuple[tuple[int, int], ...], unknowns: int, constant: float = 0.0, rate: tuple[int, float] | None = None) -> None:
        used = [i for i, _ in signed] + ([rate[0]] if rate else [])
        if len(set(used)) < len(used) or len(used) > max_terms:
            return
        key = (frozenset(signed) | ({(rate[0], 0)} if rate else set()), constant)
        if key in done or _distinct_rows(vectors, used, n) <= unknowns:
            return
        done.add(key)
        src = _render(names, signed, constant, rate)
        if src is not None:
            found.append((len(used) + (1 if constant else 0), src))

    # halves bucketed by their value on the first example and by their rise from the first example
    # to the second (for a sum with a constant), in cents; a bucket's neighbours are looked in too and
    # the whole vector is then checked within half a cent, since a sum that rounds to the target may
    # fall either side of a cent boundary
    by_first: dict[int, list[_Half]] = {}
    by_rise: dict[int, list[_Half]] = {}
    for h in halves:
        by_first.setdefault(round(h[1][0] * 100), []).append(h)
        by_rise.setdefault(round((h[1][1] - h[1][0]) * 100), []).append(h)
    for a_signed, a_vec in halves:
        rest = [t - v for t, v in zip(target, a_vec)]
        k0 = round(rest[0] * 100)
        for k in (k0 - 1, k0, k0 + 1):
            for b_signed, b_vec in by_first.get(k, ()):
                if all(abs(r - b) <= _TOLERANCE for r, b in zip(rest, b_vec)):
                    both = a_signed + b_signed
                    offer(both, len(both))
        # the same plus a constant: the rest and the other half differ by one number on every example
        k1 = round((rest[1] - rest[0]) * 100)
        tried = 0
        for k in (k1 - 1, k1, k1 + 1):
            for b_signed, b_vec in by_rise.get(k, ()):
                c = rest[0] - b_vec[0]
                if tried >= 8 or not all(abs(r - b - c) <= 2 * _TOLERANCE for r, b in zip(rest, b_vec)):
                    continue
                tried += 1
                both = a_signed + b_signed
                c = round(c, 2)
                if both and c:
                    offer(both, len(both) + 1, constant=c)
    # one term at a rate, with at most one more: a total = parts + labour hours x an hourly rate;
    # the rate is read off each term's largest value (a rounded output says least on a small one)
    largest = [max(range(n), key=lambda k: abs(x[k])) for x in vectors]
    for a_signed, a_vec in (h for h in halves if len(h[0]) <= 1):
        rest = [t - v for t, v in zip(target, a_vec)]
        for i, x in enumerate(vectors):
            k0 = largest[i]
            if x[k0] == 0:
                continue
            for d in (2, 3, 4, 6):
                r = round(rest[k0] / x[k0], d)
                if r in (0, 1, -1):
                    continue
                if all(abs(rv - r * xv) <= _TOLERANCE + 1e-9 * abs(rv) for rv, xv in zip(rest, x)):
                    offer(a_signed, len(a_signed) + 2, rate=(i, r))
                    break
    found.sort(key=lambda p: p[0])
    for _, src in found[:_MAX_YIELDED]:
        yield src
        yield f"round({src}, 2)"
