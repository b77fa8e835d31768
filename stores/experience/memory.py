"""The in-memory experience backend: the executable spec every other backend must match.

Entries live in one segment per tier (a float32 matrix growing by doubling,
rows tombstoned on delete and compacted when half dead), so a tier-filtered
query only multiplies that tier's rows. Specialties and links have inverted
indexes (value -> rows): a ``links_any`` query (the hierarchical step of
retrieval) scores only the linked rows. The rest of an
:class:`EntryFilter` is checked on candidates in score order.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from memkit.errors import ConfigError, NotFoundError, StoreError
from memkit.experience import TIERS, EntryFilter, ExperienceEntry, Tier

__all__ = ["InMemoryBackend"]


class _Segment:
    """The rows of one tier: vectors, ids, liveness, polarity, and inverted indexes."""

    def __init__(self, dim: int) -> None:
        self.matrix = np.zeros((16, dim), dtype=np.float32)
        self.alive = np.zeros(16, dtype=bool)
        self.warning = np.zeros(16, dtype=bool)
        self.ids: list[str | None] = []
        self.n = 0
        self.live = 0
        self.by_link: dict[str, set[int]] = {}
        self.by_spec: dict[str, set[int]] = {}

    def grow(self, need: int) -> None:
        cap = len(self.alive)
        if need <= cap:
            return
        new_cap = max(need, cap * 2)
        for name in ("matrix", "alive", "warning"):
            old = getattr(self, name)
            grown = np.zeros((new_cap, *old.shape[1:]), dtype=old.dtype)
            grown[: self.n] = old[: self.n]
            setattr(self, name, grown)

    def index(self, row: int, entry: ExperienceEntry) -> None:
        for link in entry.links:
            self.by_link.setdefault(link, set()).add(row)
        for spec in entry.specialties:
            self.by_spec.setdefault(spec, set()).add(row)

    def unindex(self, row: int, entry: ExperienceEntry) -> None:
        for link in entry.links:
            self.by_link.get(link, set()).discard(row)
        for spec in entry.specialties:
            self.by_spec.get(spec, set()).discard(row)


class InMemoryBackend:
    """Entries and vectors in process memory (nothing persists)."""

    def __init__(self) -> None:
        self._entries: dict[str, ExperienceEntry] = {}
        self._where: dict[str, tuple[Tier, int]] = {}  # id -> (tier, row)
        self._segments: dict[Tier, _Segment] = {}
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
                self._segments = {t: _Segment(self._dim) for t in TIERS}
            if vectors.shape[1] != self._dim:
                raise ConfigError(f"vector dimension {vectors.shape[1]} does not match the library's {self._dim}")
            for entry, vector in zip(entries, vectors, strict=True):
                place = self._where.get(entry.id)
                if place is not None and place[0] != entry.tier:
                    self._remove(entry.id)  # a tier change moves the entry to another segment
                    place = None
                seg = self._segments[entry.tier]
                if place is None:
                    seg.grow(seg.n + 1)
                    row = seg.n
                    seg.n += 1
                    seg.live += 1
                    seg.ids.append(entry.id)
                else:
                    row = place[1]
                    seg.unindex(row, self._entries[entry.id])
                seg.matrix[row] = vector
                seg.alive[row] = True
                seg.warning[row] = entry.polarity == "warning"
                seg.index(row, entry)
                self._where[entry.id] = (entry.tier, row)
                self._entries[entry.id] = entry.model_copy(deep=True)

    def _remove(self, entry_id: str) -> None:
        tier, row = self._where.pop(entry_id)
        seg = self._segments[tier]
        seg.unindex(row, self._entries.pop(entry_id))
        seg.alive[row] = False
        seg.ids[row] = None
        seg.live -= 1
        if seg.n > 64 and seg.live < seg.n // 2:
            self._compact(tier)

    def _compact(self, tier: Tier) -> None:
        seg = self._segments[tier]
        keep = np.flatnonzero(seg.alive[: seg.n])
        fresh = _Segment(seg.matrix.shape[1])
        fresh.grow(max(16, len(keep)))
        fresh.matrix[: len(keep)] = seg.matrix[keep]
        fresh.alive[: len(keep)] = True
        fresh.warning[: len(keep)] = seg.warning[keep]
        fresh.ids = [seg.ids[i] for i in keep]
        fresh.n = fresh.live = len(keep)
        for row, entry_id in enumerate(fresh.ids):
            assert entry_id is not None
            fresh.index(row, self._entries[entry_id])
            self._where[entry_id] = (tier, row)
        self._segments[tier] = fresh

    def delete(self, ids: Sequence[str]) -> int:
        """Delete these ids; returns how many existed."""
        self._check_open()
        removed = 0
        with self._lock:
            for entry_id in dict.fromkeys(ids):
                if entry_id in self._where:
                    self._remove(entry_id)
                    removed += 1
        return removed

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
            missing = [i for i in ids if i not in self._where]
            if missing:
                raise NotFoundError(f"no experience entry with id {missing[0]!r}")
            rows = [self._segments[t].matrix[r] for t, r in (self._where[i] for i in ids)]
            return np.stack(rows).copy() if rows else np.zeros((0, self._dim or 0), dtype=np.float32)

    def _candidates(self, seg: _Segment, where: EntryFilter | None) -> np.ndarray | None:
        """Rows allowed by the indexed parts of ``where`` (``None``: every row)."""
        rows: set[int] | None = None
        if where is not None:
            for values, index in ((where.links_any, seg.by_link), (where.specialties_any, seg.by_spec)):
                if values is None:
                    continue
                hit: set[int] = set()
                for value in values:
                    hit |= index.get(value, set())
                rows = hit if rows is None else rows & hit
        if rows is None:
            return None
        return np.fromiter(sorted(rows), dtype=np.int64, count=len(rows))

    def query(
        self, vectors: np.ndarray, k: int, where: EntryFilter | None = None
    ) -> list[list[tuple[ExperienceEntry, float]]]:
        """Top ``k`` matches per query row by cosine similarity."""
        self._check_open()
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim == 1:
            vectors = vectors[None, :]
        with self._lock:
            if k <= 0 or not self._entries:
                return [[] for _ in range(len(vectors))]
            if vectors.shape[1] != self._dim:
                raise ConfigError(f"query dimension {vectors.shape[1]} does not match the library's {self._dim}")
            tiers = where.tiers if where is not None and where.tiers is not None else TIERS
            # Per segment: (segment, rows considered or None for all, scores (m, rows))
            pools = []
            for tier in tiers:
                seg = self._segments[tier]
                if seg.live == 0:
                    continue
                rows = self._candidates(seg, where)
                if rows is not None and len(rows) == 0:
                    continue
                idx = np.arange(seg.n) if rows is None else rows
                ok = seg.alive[idx]
                if where is not None and where.polarity is not None:
                    ok &= seg.warning[idx] == (where.polarity == "warning")
                idx = idx[ok]
                if len(idx) == 0:
                    continue
                block = seg.matrix[: seg.n] if rows is None and ok.all() else seg.matrix[idx]
                pools.append((seg, idx, vectors @ block.T))
            # Namespace prefixes are not indexed: check them on candidates.
            check = where is not None and where.namespace_prefix is not None
            out: list[list[tuple[ExperienceEntry, float]]] = []
            for qi in range(len(vectors)):
                ranked: list[tuple[float, str]] = []
                for seg, idx, scores in pools:
                    row_scores = scores[qi]
                    take = len(idx) if check else min(k, len(idx))
                    top = _top(row_scores, take)
                    ranked += [(float(row_scores[j]), seg.ids[idx[j]]) for j in top]  # type: ignore[misc]
                ranked.sort(key=lambda item: -item[0])
                hits: list[tuple[ExperienceEntry, float]] = []
                for score, entry_id in ranked:
                    entry = self._entries[entry_id]
                    if check and not where.matches(entry):  # type: ignore[union-attr]
                        continue
                    hits.append((entry.model_copy(deep=True), score))
                    if len(hits) == k:
                        break
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
            raise StoreError("the in-memory experience backend is closed")


def _top(scores: np.ndarray, take: int) -> np.ndarray:
    """Positions of the ``take`` highest scores, best first."""
    take = min(take, len(scores))
    if take <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, take - 1)[:take] if take < len(scores) else np.arange(len(scores))
    return part[np.argsort(-scores[part], kind="stable")]
