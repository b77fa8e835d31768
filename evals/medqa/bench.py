"""``make bench`` for the experience library: add overhead and retrieval latency, as ratios.

- add throughput vs raw embedding throughput of the same texts (fresh caches
  both times): target ratio >= 0.8, i.e. the library's own overhead at most a quarter;
- hierarchical retrieval p50 at 100k entries (10k with ``quick``) on the
  in-memory and Chroma backends, from stored random unit vectors with the
  query already embedded: target < 10 ms; the baseline is a brute-force
  numpy scan (matrix-vector product + top-k) over the same vectors.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from evals.medqa.loaders import load_dataset
from memkit.embeddings import SentenceTransformerEmbedder
from memkit.experience import ExperienceBackend, ExperienceEntry, ExperienceLibrary
from stores.experience import InMemoryBackend

__all__ = ["run"]


def _add_throughput(quick: bool) -> list[dict[str, Any]]:
    from stores.experience.chroma import ChromaBackend

    texts = [q.question for q in load_dataset("medqa")][: 128 if quick else 512]
    embedder = SentenceTransformerEmbedder(num_threads=1)
    embedder.embed(["warm the model up", "and its kernels"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("memory", InMemoryBackend), ("chroma", lambda: ChromaBackend.persistent(tmp, "bench-add"))):
            embedder.clear_cache()
            t0 = time.perf_counter()
            for start in range(0, len(texts), 64):
                embedder.embed(texts[start : start + 64])
            raw = len(texts) / (time.perf_counter() - t0)
            embedder.clear_cache()
            library = ExperienceLibrary(make(), embedder)
            t0 = time.perf_counter()
            actions: dict[str, int] = {}
            for start in range(0, len(texts), 64):
                for r in library.add([ExperienceEntry(tier="case", text=t) for t in texts[start : start + 64]]):
                    actions[r.action] = actions.get(r.action, 0) + 1
            added = len(texts) / (time.perf_counter() - t0)
            rows.append(
                {
                    "metric": "add throughput / raw embedding throughput",
                    "backend": name,
                    "n": len(texts),
                    "baseline": f"{raw:.1f} texts/s embedded",
                    "value": f"{added:.1f} texts/s added ({actions})",
                    "ratio": added / raw,
                    "target": ">= 0.8",
                    "met": added / raw >= 0.8,
                }
            )
    return rows


def _fill(backend: ExperienceBackend, n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """n entries: 10% principles, 30% patterns linked to principles, 60% cases linked to patterns."""
    vectors = rng.standard_normal((n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    n_p, n_t = n // 10, (3 * n) // 10
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    batch = 5000
    for start in range(0, n, batch):
        entries = []
        for i in range(start, min(n, start + batch)):
            if i < n_p:
                tier, links = "principle", []
            elif i < n_p + n_t:
                tier, links = "pattern", [f"x{rng.integers(0, n_p)}"]
            else:
                tier, links = "case", [f"x{rng.integers(n_p, n_p + n_t)}"]
            entries.append(
                ExperienceEntry(id=f"x{i}", tier=tier, text=f"stored entry {i}", links=links, created_at=t0 + timedelta(seconds=i))  # type: ignore[arg-type]
            )
        backend.upsert(entries, vectors[start : start + len(entries)])
    return vectors


def _retrieval(quick: bool) -> list[dict[str, Any]]:
    from stores.experience.chroma import ChromaBackend

    n = 10_000 if quick else 100_000
    dim, n_queries = 384, 50 if quick else 200
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, backend in (("memory", InMemoryBackend()), ("chroma", ChromaBackend.persistent(tmp, "bench-retrieve"))):
            rng = np.random.default_rng(0)
            t0 = time.perf_counter()
            vectors = _fill(backend, n, dim, rng)
            fill_s = time.perf_counter() - t0
            library = ExperienceLibrary(backend, SentenceTransformerEmbedder(num_threads=1))  # embedder unused: vectors given
            queries = rng.standard_normal((n_queries, dim)).astype(np.float32)
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)
            library.retrieve_by_vector(queries[0])  # first call builds lazy state
            lat, scan = [], []
            for q in queries:
                t0 = time.perf_counter()
                bundle = library.retrieve_by_vector(q)
                lat.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                scores = vectors @ q
                top = np.argpartition(-scores, 10)[:10]
                _ = top[np.argsort(-scores[top])]
                scan.append((time.perf_counter() - t0) * 1000)
            assert len(bundle) > 0
            p50, base = statistics.median(lat), statistics.median(scan)
            rows.append(
                {
                    "metric": f"hierarchical retrieval p50 at {n:,} entries (3 tiers, query pre-embedded)",
                    "backend": name,
                    "n": n,
                    "baseline": f"numpy scan p50 {base:.2f} ms",
                    "value": f"p50 {p50:.2f} ms, p95 {float(np.percentile(lat, 95)):.2f} ms (fill {fill_s:.0f}s)",
                    "ratio": p50 / base if base else None,
                    "target": "p50 < 10 ms",
                    "met": p50 < 10.0,
                }
            )
            backend.close()
    return rows


def run(quick: bool = False) -> list[dict[str, Any]]:
    """The EMR benchmark rows (see the module docstring)."""
    return _add_throughput(quick) + _retrieval(quick)
