"""The in-memory backend agrees with a brute-force model through random upserts, deletes and compactions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.experience import TIERS, EntryFilter, ExperienceEntry
from stores.experience import InMemoryBackend

DIM = 8
ops = st.lists(
    st.tuples(st.sampled_from(["put", "put", "delete"]), st.integers(0, 120), st.sampled_from(TIERS), st.integers(0, 3)),
    min_size=1,
    max_size=150,
)


@given(ops, st.integers(0, 2**31 - 1))
@settings(max_examples=30, deadline=None)
def test_random_operations_match_brute_force(sequence: list, seed: int) -> None:
    rng = np.random.default_rng(seed)
    backend = InMemoryBackend()
    model: dict[str, tuple[ExperienceEntry, np.ndarray]] = {}
    for op, n, tier, link in sequence:
        entry_id = f"e{n}"
        if op == "delete":
            assert backend.delete([entry_id]) == (1 if entry_id in model else 0)
            model.pop(entry_id, None)
            continue
        vec = rng.standard_normal(DIM).astype(np.float32)
        vec /= np.linalg.norm(vec)
        entry = ExperienceEntry(id=entry_id, tier=tier, text=f"t{n}", links=[f"l{link}"], polarity="warning" if n % 3 == 0 else "practice")
        backend.upsert([entry], vec[None, :])
        model[entry_id] = (entry, vec)
    assert backend.count() == len(model)
    q = rng.standard_normal(DIM).astype(np.float32)
    for flt in (None, EntryFilter(tiers=("case",)), EntryFilter(links_any=("l1", "l2")), EntryFilter(polarity="warning", tiers=("pattern", "case"))):
        want = sorted(
            ((float(v @ q), i) for i, (e, v) in model.items() if flt is None or flt.matches(e)), reverse=True
        )[:7]
        got = backend.query(q[None, :], 7, flt)[0]
        assert [e.id for e, _ in got] == [i for _, i in want]
        assert np.allclose([s for _, s in got], [s for s, _ in want], atol=1e-5)
