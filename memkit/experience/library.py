"""The experience library: merge-on-add and hierarchical retrieval over any backend.

::

    add(entries) ── embed ── nearest of same tier+polarity ──┬─ below novelty threshold: insert
                                                              └─ at/above: MergePolicy → merge | discard
    retrieve(query) ── principles (top k)
                       └─ patterns linked to them (top k; topped up with the nearest)
                          └─ cases linked to those (top k; topped up with the nearest)

``add`` has sequential semantics within a batch (the third entry sees the
first two), yet embeds once and writes once per call, so the library's own
overhead stays small next to embedding.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from memkit.embeddings import Embedder
from memkit.errors import ConfigError, DataFormatError, NotFoundError, StoreError
from memkit.experience.backend import ExperienceBackend
from memkit.experience.entry import (
    TIERS,
    AddResult,
    EntryFilter,
    ExperienceEntry,
    RetrievalBundle,
    ScoredEntry,
    Tier,
    utcnow,
)
from memkit.experience.merge import DefaultMergePolicy, MergePolicy

__all__ = ["ExperienceLibrary", "DEFAULT_K", "DEFAULT_NOVELTY_THRESHOLD", "read_entries_jsonl"]

DEFAULT_K: dict[Tier, int] = {"principle": 3, "pattern": 3, "case": 5}
# Calibrated on the hand-made paraphrase / distinct pairs in
# tests/memkit/test_experience_merge_quality.py with all-MiniLM-L6-v2.
DEFAULT_NOVELTY_THRESHOLD = 0.8


class ExperienceLibrary:
    """Experience entries in three tiers, merged by similarity on ``add``, retrieved hierarchically.

    Args:
        backend: where entries live (``stores.experience``).
        embedder: turns texts into unit vectors (``memkit.embeddings``).
        merge_policy: decides merge vs discard for near-duplicates; default needs no model.
        novelty_threshold: cosine similarity at or above which an entry counts as a near-duplicate.
        namespace: entries added without a namespace get ``(*namespace, tier)``, which is where
            the LangGraph store adapter (``stores.langgraph_store``) shows them.
    """

    def __init__(
        self,
        backend: ExperienceBackend,
        embedder: Embedder,
        *,
        merge_policy: MergePolicy | None = None,
        novelty_threshold: float = DEFAULT_NOVELTY_THRESHOLD,
        namespace: Sequence[str] = ("experience",),
    ) -> None:
        if not -1.0 <= novelty_threshold <= 1.0:
            raise ConfigError(f"novelty_threshold must be a cosine in [-1, 1], got {novelty_threshold}")
        self.backend = backend
        self.embedder = embedder
        self.merge_policy: MergePolicy = merge_policy or DefaultMergePolicy()
        self.novelty_threshold = novelty_threshold
        self.namespace = tuple(namespace)
        # Writers exclude each other (merge is read-modify-write); readers do not wait.
        self._write_lock = threading.RLock()

    # ---- writes -------------------------------------------------------------------------

    def add(self, entries: Sequence[ExperienceEntry] | ExperienceEntry) -> list[AddResult]:
        """Add entries through the merge policy; returns one :class:`AddResult` per entry, in order."""
        batch = self._placed(entries)
        if not batch:
            return []
        vectors = self.embedder.embed([e.text for e in batch])
        with self._write_lock:
            return self._add_locked(batch, vectors)

    def _placed(self, entries: Sequence[ExperienceEntry] | ExperienceEntry) -> list[ExperienceEntry]:
        batch = [entries] if isinstance(entries, ExperienceEntry) else list(entries)
        return [e if e.namespace else e.model_copy(update={"namespace": [*self.namespace, e.tier]}) for e in batch]

    def _add_locked(self, batch: list[ExperienceEntry], vectors: np.ndarray) -> list[AddResult]:
        # Nearest stored neighbour of every new entry, one backend query per (tier, polarity) group.
        nearest: list[tuple[ExperienceEntry, float] | None] = [None] * len(batch)
        groups: dict[tuple[str, str], list[int]] = {}
        for i, entry in enumerate(batch):
            groups.setdefault((entry.tier, entry.polarity), []).append(i)
        for (tier, polarity), rows in groups.items():
            where = EntryFilter(tiers=(tier,), polarity=polarity)  # type: ignore[arg-type]
            for row, hits in zip(rows, self.backend.query(vectors[rows], 1, where), strict=True):
                nearest[row] = hits[0] if hits else None

        # Entries written or changed by this call, with their current vectors.
        pending: dict[str, tuple[ExperienceEntry, np.ndarray]] = {}
        results: list[AddResult] = []
        for i, new in enumerate(batch):
            vec = vectors[i]
            best: tuple[ExperienceEntry, float] | None = None
            hit = nearest[i]
            if hit is not None:
                stored, score = hit
                if stored.id in pending:  # changed earlier in this batch: compare with what it is now
                    stored, pvec = pending[stored.id]
                    score = float(pvec @ vec)
                best = (stored, score)
            for other, pvec in pending.values():
                if other.tier == new.tier and other.polarity == new.polarity and other.id != new.id:
                    score = float(pvec @ vec)
                    if best is None or score > best[1]:
                        best = (other, score)
            if best is None or best[1] < self.novelty_threshold or best[0].id == new.id:
                pending[new.id] = (new, vec)
                results.append(AddResult(action="inserted", id=new.id, target_id=new.id, similarity=best[1] if best else None))
                continue
            existing, score = best
            decision = self.merge_policy.decide(existing, new, score)
            updated = existing.model_copy(
                update={
                    "support": existing.support + new.support,
                    "sources": list(dict.fromkeys([*existing.sources, *new.sources])),
                    "specialties": list(dict.fromkeys([*existing.specialties, *new.specialties])),
                    "links": list(dict.fromkeys([*existing.links, *new.links])),
                    "updated_at": utcnow(),
                }
            )
            new_vec = pending[existing.id][1] if existing.id in pending else None
            if decision.action == "merge" and decision.text and decision.text != existing.text:
                updated = updated.model_copy(update={"text": decision.text})
                new_vec = self.embedder.embed([decision.text])[0]
            if new_vec is None:
                new_vec = self.backend.get_vectors([existing.id])[0]
            pending[existing.id] = (updated, new_vec)
            action = "merged" if decision.action == "merge" else "discarded"
            results.append(AddResult(action=action, id=new.id, target_id=existing.id, similarity=score))
        if pending:
            items = list(pending.values())
            self.backend.upsert([e for e, _ in items], np.stack([v for _, v in items]).astype(np.float32))
        return results

    def put(self, entries: Sequence[ExperienceEntry] | ExperienceEntry) -> None:
        """Insert or replace entries by id exactly as given: no merging (import, adapters, repairs)."""
        batch = self._placed(entries)
        if not batch:
            return
        vectors = self.embedder.embed([e.text for e in batch])
        with self._write_lock:
            self.backend.upsert(batch, vectors)

    def delete(self, entry_id: str) -> None:
        """Delete one entry; :class:`NotFoundError` when it does not exist."""
        if self.delete_many([entry_id]) == 0:
            raise NotFoundError(f"no experience entry with id {entry_id!r}")

    def delete_many(self, ids: Sequence[str]) -> int:
        """Delete the entries with these ids; returns how many existed."""
        with self._write_lock:
            return self.backend.delete(list(ids))

    # ---- reads --------------------------------------------------------------------------

    def get(self, entry_id: str) -> ExperienceEntry:
        """One entry by id; :class:`NotFoundError` when absent."""
        found = self.backend.get([entry_id])[0]
        if found is None:
            raise NotFoundError(f"no experience entry with id {entry_id!r}")
        return found

    def get_many(self, ids: Sequence[str]) -> list[ExperienceEntry | None]:
        """Entries by id, ``None`` where absent, in the order asked."""
        return self.backend.get(list(ids))

    def list(self, where: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0) -> list[ExperienceEntry]:
        """Entries ordered by creation time, filtered and paged."""
        return self.backend.list(where, limit=limit, offset=offset)

    def count(self, where: EntryFilter | None = None) -> int:
        """How many entries match ``where`` (all when ``None``)."""
        return self.backend.count(where)

    def search(self, query: str, k: int = 5, where: EntryFilter | None = None) -> list[ScoredEntry]:
        """Flat semantic search: the ``k`` entries nearest ``query`` under ``where``."""
        vector = self.embedder.embed([query])
        return [ScoredEntry(entry=e, score=s) for e, s in self.backend.query(vector, k, where)[0]]

    def retrieve(
        self,
        query: str,
        *,
        k: int | Mapping[Tier, int] | None = None,
        where: EntryFilter | None = None,
    ) -> RetrievalBundle:
        """Hierarchical retrieval for one query (see :meth:`retrieve_many`)."""
        return self.retrieve_many([query], k=k, where=where)[0]

    def retrieve_many(
        self,
        queries: Sequence[str],
        *,
        k: int | Mapping[Tier, int] | None = None,
        where: EntryFilter | None = None,
    ) -> list[RetrievalBundle]:
        """Hierarchical retrieval: principles, then patterns linked to them, then cases linked to those.

        ``k`` is per tier (an int applies to all three). A lower tier first
        takes entries linked to the tier above, best first, and tops up with
        the nearest entries of its tier when fewer than ``k`` are linked.
        ``where`` filters every tier (its ``tiers`` field is ignored).
        """
        vectors = self.embedder.embed(list(queries))
        return [
            self.retrieve_by_vector(vec, k=k, where=where, query=query)
            for query, vec in zip(queries, vectors, strict=True)
        ]

    def retrieve_by_vector(
        self,
        vector: np.ndarray,
        *,
        k: int | Mapping[Tier, int] | None = None,
        where: EntryFilter | None = None,
        query: str = "",
    ) -> RetrievalBundle:
        """Hierarchical retrieval from an already embedded query (a unit vector of the library's dim)."""
        ks = self._ks(k)
        base = where or EntryFilter()
        q = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        bundle = RetrievalBundle(query=query)
        parents: list[str] = []
        for tier in TIERS:
            want = ks[tier]
            if want <= 0:
                parents = []
                continue
            chosen: list[ScoredEntry] = []
            if parents:
                linked = self.backend.query(q, want, base.also(tiers=(tier,), links_any=tuple(parents)))[0]
                chosen = [ScoredEntry(entry=e, score=s, via="link") for e, s in linked]
            if len(chosen) < want:
                seen = {c.entry.id for c in chosen}
                extra = self.backend.query(q, want + len(seen), base.also(tiers=(tier,), links_any=None))[0]
                for e, s in extra:
                    if e.id not in seen and len(chosen) < want:
                        chosen.append(ScoredEntry(entry=e, score=s, via="nearest"))
            bundle.tier(tier).extend(chosen)
            parents = [c.entry.id for c in chosen]
        return bundle

    @staticmethod
    def _ks(k: int | Mapping[Tier, int] | None) -> dict[Tier, int]:
        if k is None:
            return dict(DEFAULT_K)
        if isinstance(k, int):
            return {t: k for t in TIERS}
        unknown = set(k) - set(TIERS)
        if unknown:
            raise ConfigError(f"unknown tier(s) in k: {sorted(unknown)}; tiers are {list(TIERS)}")
        return {t: int(k.get(t, DEFAULT_K[t])) for t in TIERS}

    # ---- files --------------------------------------------------------------------------

    def export_jsonl(self, path: str | Path, where: EntryFilter | None = None) -> int:
        """Write matching entries (without vectors) to ``path``, one JSON a line; returns the count."""
        entries = self.list(where)
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        try:
            with tmp.open("w", encoding="utf-8") as fh:
                for entry in entries:
                    fh.write(entry.model_dump_json() + "\n")
            tmp.replace(target)
        except OSError as exc:
            raise StoreError(f"cannot write {target}: {exc}") from exc
        return len(entries)

    def import_jsonl(self, path: str | Path, *, merge: bool = False, batch_size: int = 256) -> int:
        """Read entries written by :meth:`export_jsonl`; ``merge=True`` sends them through ``add``.

        The whole file is validated before anything is written; a bad line
        raises :class:`DataFormatError` naming the file and line.
        """
        entries = list(read_entries_jsonl(path))
        for start in range(0, len(entries), batch_size):
            chunk = entries[start : start + batch_size]
            if merge:
                self.add(chunk)
            else:
                self.put(chunk)
        return len(entries)

    def close(self) -> None:
        """Close the backend."""
        self.backend.close()


def read_entries_jsonl(path: str | Path) -> Iterable[ExperienceEntry]:
    """Parse a JSONL file of entries; :class:`DataFormatError` with the line on the first bad one."""
    source = Path(path)
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataFormatError(f"cannot read: {exc}", path=str(source)) from exc
    out: list[ExperienceEntry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(ExperienceEntry.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DataFormatError(f"invalid JSON: {exc.msg}", path=str(source), line=number) from exc
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "entry"
            raise DataFormatError(f"invalid entry: {where}: {first['msg']}", path=str(source), line=number) from exc
    return out
