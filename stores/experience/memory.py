"""The in-memory experience backend: the executable spec every other backend must match.

Vectors sit in one float32 matrix that grows by doubling; deleted rows are
tombstoned and compacted when they pass half the matrix. A query is one
matrix-vector product over every row; the tier and polarity filters are
vectorised, the rest of an :class:`EntryFilter` is checked on candidates in
score order, so a selective filter costs only what it rejects.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from memkit.errors import ConfigError, NotFoundError
from memkit.experience import POLARITIES, TIERS, EntryFilter, ExperienceEntry

__all__ = ["InMemoryBackend"]

_TIER_CODE = {t: i for i, t in enumerate(TIERS)}
_POL_CODE = {p: i for i, p in enumerate(POLARITIES)}


class InMemoryBackend:
    """Entries and vectors in process memory (nothing persists)."""

    def __init__(self) -> None:
        self._entries: dict[str, ExperienceEntry] = {}
        self._row: dict[str, int] = {}
        self._ids: list[str | None] = []
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._tier = np.zeros(0, dtype=np.int8)
        self._pol = np.zeros(0, dtype=np.int8)
        self._alive = np.zeros(0, dtype=bool)
        self._n = 0  # rows in use (alive or tombstoned)
        self._dim: int | None = None
        self._lock = threading.RLock()
        self._closed = False

    # ---- writes -------------------------------------------------------------------------

    def upsert(self, entries: Sequence[ExperienceEntry], vectors: np.ndarray) -> None:
        """Insert or replace entries by id."""
        self._check_open()
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(entries):
            raise ConfigError(f"expected {len(entries)} vectors, got shape {vectors.shape}")
        with self._lock:
            if self._dim is None:
                self._dim = int(vectors.shape[1])
                self._matrix = np.zeros((max(16, len(entries)), self._dim), dtype=np.float32)
                self._tier = np.zeros(self._matrix.shape[0], dtype=np.int8)
                self._pol = np.zeros(self._matrix.shape[0], dtype=np.int8)
                self._alive = np.zeros(self._matrix.shape[0], dtype=bool)
            if vectors.shape[1] != self._dim:
                raise ConfigError(f"vector dimension {vectors.shape[1]} does not match the library's {self._dim}")
            self._grow(self._n + len(entries))
            for entry, vector in zip(entries, vectors, strict=True):
                row = self._row.get(entry.id)
                if row is None:
                    row = self._n
                    self._n += 1
                    self._row[entry.id] = row
                    self._ids.append(entry.id)
                self._matrix[row] = vector
                self._tier[row] = _TIER_CODE[entry.tier]
                self._pol[row] = _POL_CODE[entry.polarity]
                self._alive[row] = True
                self._entries[entry.id] = entry.model_copy(deep=True)

    def _grow(self, need: int) -> None:
        cap = self._matrix.shape[0]
        if need <= cap:
            return
        new_cap = max(need, cap * 2)
        for name in ("_matrix", "_tier", "_pol", "_alive"):
            old = getattr(self, name)
            grown = np.zeros((new_cap, *old.shape[1:]), dtype=old.dtype)
            grown[: self._n] = old[: self._n]
            setattr(self, name, grown)

    def delete(self, ids: Sequence[str]) -> int:
        """Tombstone the rows of these ids; returns how many existed."""
        self._check_open()
        removed = 0
        with self._lock:
            for entry_id in dict.fromkeys(ids):
                row = self._row.pop(entry_id, None)
                if row is None:
                    continue
                removed += 1
                self._alive[row] = False
                self._ids[row] = None
                del self._entries[entry_id]
            if self._n and self._n - len(self._row) > self._n // 2:
                self._compact()
        return removed

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self._n])
        for name in ("_matrix", "_tier", "_pol", "_alive"):
            arr = getattr(self, name)
            arr[: len(keep)] = arr[keep]
            arr[len(keep) : self._n] = 0
        self._ids = [self._ids[i] for i in keep]
        self._row = {entry_id: i for i, entry_id in enumerate(self._ids) if entry_id is not None}
        self._n = len(keep)

    # ---- reads --------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[ExperienceEntry | None]:
        """Entries by id (copies), ``None`` where absent."""
        self._check_open()
        with self._lock:
            return [e.model_copy(deep=True) if (e := self._entries.get(i)) is not None else None for i in ids]

    def get_vectors(self, ids: Sequence[str]) -> np.ndarray:
        """Stored vectors of these ids."""
        self._check_open()
        with self._lock:
            missing = [i for i in ids if i not in self._row]
            if missing:
                raise NotFoundError(f"no experience entry with id {missing[0]!r}")
            return self._matrix[[self._row[i] for i in ids]].copy()

    def query(
        self, vectors: np.ndarray, k: int, where: EntryFilter | None = None
    ) -> list[list[tuple[ExperienceEntry, float]]]:
        """Top ``k`` matches per query row by cosine similarity."""
        self._check_open()
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim == 1:
            vectors = vectors[None, :]
        with self._lock:
            if k <= 0 or self._n == 0 or not self._row:
                return [[] for _ in range(len(vectors))]
            if vectors.shape[1] != self._dim:
                raise ConfigError(f"query dimension {vectors.shape[1]} does not match the library's {self._dim}")
            mask = self._alive[: self._n].copy()
            if where is not None and where.tiers is not None:
                mask &= np.isin(self._tier[: self._n], [_TIER_CODE[t] for t in where.tiers])
            if where is not None and where.polarity is not None:
                mask &= self._pol[: self._n] == _POL_CODE[where.polarity]
            # Whatever the vectorised part cannot decide is checked entry by entry.
            rest = where is not None and any(
                v is not None for v in (where.specialties_any, where.links_any, where.namespace_prefix)
            )
            scores_all = vectors @ self._matrix[: self._n].T  # (m, n)
            out: list[list[tuple[ExperienceEntry, float]]] = []
            candidates = int(mask.sum())
            for scores in scores_all:
                scores = np.where(mask, scores, -np.inf)
                hits: list[tuple[ExperienceEntry, float]] = []
                take = min(candidates, k if not rest else max(4 * k, 64))
                while True:
                    top = _top(scores, take)
                    hits = []
                    for row in top:
                        entry = self._entries[self._ids[row]]  # type: ignore[index]
                        if rest and where is not None and not where.matches(entry):
                            continue
                        hits.append((entry.model_copy(deep=True), float(scores[row])))
                        if len(hits) == k:
                            break
                    if len(hits) == k or take >= candidates:
                        break
                    take = min(candidates, take * 4)
                out.append(hits)
            return out

    def list(self, where: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0) -> list[ExperienceEntry]:
        """Matching entries by ``(created_at, id)``."""
        self._check_open()
        with self._lock:
            found = [e for e in self._entries.values() if where is None or where.matches(e)]
        found.sort(key=lambda e: (e.created_at, e.id))
        end = None if limit is None else offset + limit
        return [e.model_copy(deep=True) for e in found[offset:end]]

    def count(self, where: EntryFilter | None = None) -> int:
        """How many entries match."""
        self._check_open()
        with self._lock:
            if where is None:
                return len(self._entries)
            return sum(1 for e in self._entries.values() if where.matches(e))

    def close(self) -> None:
        """Drop everything; later calls raise."""
        self._closed = True
        self._entries.clear()

    def _check_open(self) -> None:
        if self._closed:
            from memkit.errors import StoreError

            raise StoreError("the in-memory experience backend is closed")


def _top(scores: np.ndarray, take: int) -> np.ndarray:
    """Indices of the ``take`` highest finite scores, best first (ties by row order)."""
    take = min(take, len(scores))
    if take <= 0:
        return np.zeros(0, dtype=np.int64)
    if take < len(scores):
        part = np.argpartition(-scores, take - 1)[:take]
    else:
        part = np.arange(len(scores))
    part = part[np.isfinite(scores[part])]
    order = np.lexsort((part, -scores[part]))
    return part[order]
