"""The one conformance suite for experience-library backends.

Every backend registers a :class:`BackendHarness` (how to make a fresh, empty
backend, and, when it persists, how to reopen it) and must pass every check
in :data:`CHECKS`, as LangGraph's checkpoint-conformance does for
checkpointers. The in-memory backend is the executable spec: each check
compares a backend with :meth:`EntryFilter.matches` and exact cosine scores.

Run it from pytest (``tests/stores/experience/test_conformance.py``
parametrizes over backends and checks) or directly::

    from stores.experience.conformance import BackendHarness, run_all
    failures = run_all(BackendHarness("memory", InMemoryBackend))

Checks use :class:`~memkit.embeddings.HashingEmbedder` so that they are fast
and deterministic; semantics of the default embedder are tested elsewhere.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from memkit.embeddings import Embedder, HashingEmbedder
from memkit.errors import MemkitError, NotFoundError
from memkit.experience import (
    TIERS,
    EntryFilter,
    ExperienceBackend,
    ExperienceEntry,
    ExperienceLibrary,
)

__all__ = ["BackendHarness", "CHECKS", "check", "run_all", "make_entries"]


@dataclass
class BackendHarness:
    """How the suite gets backends: ``make()`` returns a fresh empty one; ``reopen(old)`` a new handle on the same data."""

    name: str
    make: Callable[[], ExperienceBackend]
    reopen: Callable[[ExperienceBackend], ExperienceBackend] | None = None
    embedder: Embedder = field(default_factory=lambda: HashingEmbedder(dim=64))

    def library(self, **kwargs: object) -> ExperienceLibrary:
        """A library over a fresh backend."""
        return ExperienceLibrary(self.make(), self.embedder, **kwargs)  # type: ignore[arg-type]


Check = Callable[[BackendHarness], None]
CHECKS: dict[str, Check] = {}


def check(fn: Check) -> Check:
    """Register a conformance check under its function name."""
    CHECKS[fn.__name__] = fn
    return fn


def run_all(harness: BackendHarness) -> dict[str, str]:
    """Run every check; returns ``{check name: failure message}`` for the failures."""
    failures: dict[str, str] = {}
    for name, fn in CHECKS.items():
        try:
            fn(harness)
        except AssertionError as exc:
            failures[name] = str(exc) or "assertion failed"
    return failures


_T0 = datetime(2024, 1, 1, tzinfo=UTC)
_WORDS = (
    "aspirin fever cough kidney liver heart stroke insulin biopsy cohort trial screening sepsis asthma anemia "
    "rash fracture migraine pregnancy infant elderly dose placebo mortality survival risk"
).split()


def make_entries(n: int, *, seed: int = 0) -> list[ExperienceEntry]:
    """``n`` varied entries with distinct texts, spread over tiers, polarities, tags, links and namespaces."""
    rng = random.Random(seed)
    out: list[ExperienceEntry] = []
    for i in range(n):
        tier = TIERS[i % 3]
        above = [e.id for e in out if TIERS.index(e.tier) == TIERS.index(tier) - 1]
        out.append(
            ExperienceEntry(
                id=f"e{seed}-{i:04d}",
                tier=tier,
                polarity="warning" if i % 4 == 3 else "practice",
                text=f"entry {i} " + " ".join(rng.sample(_WORDS, 5)),
                specialties=rng.sample(["cardiology", "neurology", "general", "pediatrics"], rng.randint(0, 2)),
                links=rng.sample(above, min(len(above), rng.randint(0, 2))),
                support=rng.randint(1, 4),
                sources=[f"traj-{rng.randint(0, 9)}"],
                namespace=["lib", tier] if i % 2 else ["lib", tier, "sub"],
                data={"i": i, "nested": {"ok": True}},
                created_at=_T0 + timedelta(seconds=n - i),  # creation order differs from id order
                updated_at=_T0 + timedelta(seconds=n - i),
            )
        )
    return out


def _filters(entries: list[ExperienceEntry]) -> list[EntryFilter]:
    some_link = next(e.links[0] for e in entries if e.links)
    return [
        EntryFilter(),
        EntryFilter(tiers=("case",)),
        EntryFilter(tiers=("principle", "pattern")),
        EntryFilter(polarity="warning"),
        EntryFilter(specialties_any=("cardiology",)),
        EntryFilter(specialties_any=("neurology", "pediatrics"), tiers=("case",)),
        EntryFilter(links_any=(some_link,)),
        EntryFilter(namespace_prefix=("lib",)),
        EntryFilter(namespace_prefix=("lib", "case", "sub")),
        EntryFilter(namespace_prefix=("other",)),
        EntryFilter(specialties_any=()),
        EntryFilter(tiers=("pattern",), polarity="practice", specialties_any=("general",)),
    ]


def _filled(h: BackendHarness, n: int = 30) -> tuple[ExperienceBackend, list[ExperienceEntry], np.ndarray]:
    backend = h.make()
    entries = make_entries(n)
    vectors = h.embedder.embed([e.text for e in entries])
    backend.upsert(entries, vectors)
    return backend, entries, vectors


# ---- storage ------------------------------------------------------------------------------


@check
def upsert_then_get_round_trips_every_field(h: BackendHarness) -> None:
    backend, entries, _ = _filled(h)
    got = backend.get([e.id for e in entries])
    for want, have in zip(entries, got, strict=True):
        assert have == want, f"round trip changed {want.id}: {have!r} != {want!r}"


@check
def get_absent_ids_gives_none_in_order(h: BackendHarness) -> None:
    backend, entries, _ = _filled(h, 6)
    got = backend.get(["nope", entries[2].id, "also-nope", entries[0].id])
    assert got[0] is None and got[2] is None
    assert got[1] == entries[2] and got[3] == entries[0]
    assert backend.get([]) == []


@check
def upsert_replaces_by_id(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 6)
    changed = entries[1].model_copy(update={"text": "replaced text", "support": 9})
    backend.upsert([changed], h.embedder.embed([changed.text]))
    assert backend.count() == 6
    assert backend.get([changed.id])[0] == changed
    hit = backend.query(h.embedder.embed(["replaced text"]), 1)[0][0]
    assert hit[0].id == changed.id and abs(hit[1] - 1.0) < 1e-4


@check
def get_vectors_returns_what_was_stored(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 9)
    ids = [entries[4].id, entries[0].id]
    np.testing.assert_allclose(backend.get_vectors(ids), vectors[[4, 0]], atol=1e-5)
    try:
        backend.get_vectors(["missing"])
    except NotFoundError:
        pass
    else:
        raise AssertionError("get_vectors of a missing id must raise NotFoundError")


@check
def delete_counts_existing_and_removes_everywhere(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 12)
    gone = [entries[0].id, entries[5].id]
    assert backend.delete([*gone, "missing", gone[0]]) == 2
    assert backend.count() == 10
    assert backend.get(gone) == [None, None]
    listed = {e.id for e in backend.list()}
    assert not listed & set(gone)
    hits = backend.query(vectors[[0]], 12)[0]
    assert gone[0] not in {e.id for e, _ in hits}
    assert backend.delete([]) == 0


@check
def query_scores_are_cosines_best_first(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 30)
    q = h.embedder.embed(["aspirin heart risk trial"])
    hits = backend.query(q, 7)[0]
    expected = sorted(((float(vectors[i] @ q[0]), e.id) for i, e in enumerate(entries)), reverse=True)[:7]
    assert [e.id for e, _ in hits] == [i for _, i in expected] or np.allclose(
        [s for _, s in hits], [s for s, _ in expected], atol=1e-4
    ), "query must return the k nearest entries"
    for (entry, score), (want, _) in zip(hits, expected, strict=True):
        assert abs(score - want) < 1e-4, f"score {score} != cosine {want}"
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)


@check
def query_many_rows_and_k_larger_than_matches(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 9)
    results = backend.query(vectors[:3], 50)
    assert len(results) == 3
    for row, hits in enumerate(results):
        assert len(hits) == 9
        assert hits[0][0].id == entries[row].id
    assert backend.query(vectors[:2], 0) == [[], []]


@check
def empty_backend_answers_empty(h: BackendHarness) -> None:
    backend = h.make()
    assert backend.count() == 0
    assert backend.list() == []
    assert backend.query(h.embedder.embed(["anything"]), 5) == [[]]
    assert backend.get(["x"]) == [None]
    assert backend.delete(["x"]) == 0


@check
def filters_agree_with_the_reference(h: BackendHarness) -> None:
    backend, entries, vectors = _filled(h, 36)
    q = h.embedder.embed(["fever cough infant"])[0]
    for flt in _filters(entries):
        want = [e for e in entries if flt.matches(e)]
        assert backend.count(flt) == len(want), f"count({flt}) = {backend.count(flt)}, expected {len(want)}"
        assert {e.id for e in backend.list(flt)} == {e.id for e in want}, f"list({flt}) differs"
        hits = backend.query(q[None, :], 5, flt)[0]
        ranked = sorted(want, key=lambda e: -float(vectors[entries.index(e)] @ q))[:5]
        assert len(hits) == len(ranked), f"query({flt}) returned {len(hits)}, expected {len(ranked)}"
        assert all(flt.matches(e) for e, _ in hits), f"query({flt}) returned a non-matching entry"
        want_scores = [float(vectors[entries.index(e)] @ q) for e in ranked]
        assert np.allclose([s for _, s in hits], want_scores, atol=1e-4), f"query({flt}) scores differ"


@check
def list_orders_by_creation_and_pages(h: BackendHarness) -> None:
    backend, entries, _ = _filled(h, 20)
    ordered = sorted(entries, key=lambda e: (e.created_at, e.id))
    assert [e.id for e in backend.list()] == [e.id for e in ordered]
    assert [e.id for e in backend.list(limit=5, offset=3)] == [e.id for e in ordered[3:8]]
    assert backend.list(offset=100) == []


@check
def persistent_backends_survive_reopen(h: BackendHarness) -> None:
    if h.reopen is None:
        return  # capability not offered: nothing persists in memory
    backend, entries, vectors = _filled(h, 15)
    backend.close()
    again = h.reopen(backend)
    assert again.count() == 15
    assert again.get([e.id for e in entries]) == entries
    np.testing.assert_allclose(again.get_vectors([entries[3].id]), vectors[[3]], atol=1e-5)


@check
def closed_backend_refuses_work(h: BackendHarness) -> None:
    backend = h.make()
    backend.close()
    try:
        backend.count()
    except MemkitError:
        return
    raise AssertionError("a closed backend must raise a MemkitError")


# ---- the library over the backend ---------------------------------------------------------


@check
def add_inserts_novel_and_merges_near_duplicates(h: BackendHarness) -> None:
    lib = h.library(novelty_threshold=0.8)
    first = ExperienceEntry(tier="pattern", text="fever and cough in an infant suggest bronchiolitis", sources=["t1"])
    other = ExperienceEntry(tier="pattern", text="renal biopsy shows crescents in rapidly progressive disease", sources=["t2"])
    res = lib.add([first, other])
    assert [r.action for r in res] == ["inserted", "inserted"]
    dup = ExperienceEntry(tier="pattern", text="fever and cough in an infant suggest bronchiolitis", sources=["t3"])
    (r,) = lib.add([dup])
    assert r.action == "discarded" and r.target_id == first.id
    kept = lib.get(first.id)
    assert kept.support == 2 and kept.sources == ["t1", "t3"]
    assert lib.count() == 2


@check
def add_compares_within_tier_and_polarity_only(h: BackendHarness) -> None:
    lib = h.library(novelty_threshold=0.8)
    text = "a retrospective cohort cannot prove causation"
    res = lib.add(
        [
            ExperienceEntry(tier="principle", text=text),
            ExperienceEntry(tier="case", text=text),
            ExperienceEntry(tier="principle", polarity="warning", text=text),
        ]
    )
    assert [r.action for r in res] == ["inserted"] * 3
    assert lib.count() == 3


@check
def add_sees_earlier_entries_of_the_same_batch(h: BackendHarness) -> None:
    lib = h.library(novelty_threshold=0.8)
    a = ExperienceEntry(tier="case", text="insulin dose for the elderly patient with sepsis", sources=["s1"])
    b = ExperienceEntry(tier="case", text="insulin dose for the elderly patient with sepsis", sources=["s2"])
    res = lib.add([a, b])
    assert [r.action for r in res] == ["inserted", "discarded"]
    assert lib.count() == 1 and lib.get(a.id).support == 2 and lib.get(a.id).sources == ["s1", "s2"]


@check
def merge_rewrites_text_and_vector(h: BackendHarness) -> None:
    lib = h.library(novelty_threshold=0.5)
    a = ExperienceEntry(tier="pattern", text="aspirin lowers stroke risk in trial patients", sources=["x"])
    b = ExperienceEntry(tier="pattern", text="aspirin lowers stroke risk in elderly trial patients with anemia", sources=["y"])
    lib.add([a])
    (r,) = lib.add([b])
    assert r.action == "merged" and r.target_id == a.id
    merged = lib.get(a.id)
    assert "elderly" in merged.text and merged.support == 2 and merged.sources == ["x", "y"]
    stored = lib.backend.get_vectors([a.id])[0]
    np.testing.assert_allclose(stored, h.embedder.embed([merged.text])[0], atol=1e-5)


@check
def retrieve_is_hierarchical(h: BackendHarness) -> None:
    lib = h.library()
    p1 = ExperienceEntry(id="p1", tier="principle", text="weigh study design before effect size")
    p2 = ExperienceEntry(id="p2", tier="principle", text="kidney function guides drug dosing")
    t1 = ExperienceEntry(id="t1", tier="pattern", text="cohort studies of screening rarely prove benefit", links=["p1"])
    t2 = ExperienceEntry(id="t2", tier="pattern", text="renal clearance dose adjustment", links=["p2"])
    t3 = ExperienceEntry(id="t3", tier="pattern", text="unlinked pattern about study design screening")
    c1 = ExperienceEntry(id="c1", tier="case", text="screening cohort mortality question answered no", links=["t1"])
    c2 = ExperienceEntry(id="c2", tier="case", text="dose of insulin in kidney failure", links=["t2"])
    lib.put([p1, p2, t1, t2, t3, c1, c2])
    bundle = lib.retrieve("study design of a screening cohort", k={"principle": 1, "pattern": 2, "case": 1})
    assert [s.entry.id for s in bundle.principles] == ["p1"]
    assert bundle.patterns[0].entry.id == "t1" and bundle.patterns[0].via == "link"
    assert len(bundle.patterns) == 2 and bundle.patterns[1].via == "nearest"
    assert bundle.cases[0].entry.id == "c1" and bundle.cases[0].via == "link"
    assert len(bundle) == 4 and "Principles:" in bundle.as_text()
    flat = lib.retrieve("anything", k=0)
    assert len(flat) == 0


@check
def retrieve_applies_filters_to_every_tier(h: BackendHarness) -> None:
    lib = h.library()
    lib.put(
        [
            ExperienceEntry(tier="principle", text="cardiac rule", specialties=["cardiology"]),
            ExperienceEntry(tier="principle", text="neuro rule", specialties=["neurology"]),
            ExperienceEntry(tier="case", text="cardiac case", specialties=["cardiology"]),
            ExperienceEntry(tier="case", text="neuro case", specialties=["neurology"]),
        ]
    )
    bundle = lib.retrieve("rule case", k=5, where=EntryFilter(specialties_any=("neurology",)))
    assert {s.entry.text for s in bundle.all()} == {"neuro rule", "neuro case"}


@check
def batch_forms_match_single_forms(h: BackendHarness) -> None:
    lib = h.library()
    entries = make_entries(12, seed=3)
    lib.put(entries)
    assert lib.get_many([entries[0].id, "zz"]) == [entries[0], None]
    singles = [lib.retrieve(q) for q in ("aspirin trial", "infant fever")]
    many = lib.retrieve_many(["aspirin trial", "infant fever"])
    assert [[s.entry.id for s in b.all()] for b in many] == [[s.entry.id for s in b.all()] for b in singles]
    assert lib.delete_many([entries[0].id, entries[1].id, "zz"]) == 2
    try:
        lib.delete(entries[0].id)
    except NotFoundError:
        pass
    else:
        raise AssertionError("deleting a missing id must raise NotFoundError")
    try:
        lib.get(entries[0].id)
    except NotFoundError:
        pass
    else:
        raise AssertionError("getting a missing id must raise NotFoundError")


@check
def export_then_import_round_trips(h: BackendHarness) -> None:
    lib = h.library()
    entries = make_entries(10, seed=5)
    lib.put(entries)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lib.jsonl"
        assert lib.export_jsonl(path) == 10
        fresh = h.library()
        assert fresh.import_jsonl(path) == 10
        assert fresh.list() == lib.list()
        assert fresh.count(EntryFilter(tiers=("case",))) == lib.count(EntryFilter(tiers=("case",)))
