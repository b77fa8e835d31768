"""The Chroma experience backend: a local persistent directory or a Chroma server.

One collection per library (cosine space). Each entry is stored as its text
(the document), its vector, and metadata with the filterable fields (tier,
polarity, specialties and links as string arrays, the namespace as
``ns_len``/``ns_0``..) plus the whole entry as JSON, so a round trip is exact.
Telemetry is off. chromadb errors are translated to :class:`StoreError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from memkit.errors import ConfigError, NotFoundError, StoreError
from memkit.experience import EntryFilter, ExperienceEntry

__all__ = ["ChromaBackend", "chroma_settings"]

T = TypeVar("T")
_DEFAULT_COLLECTION = "memkit-experience"


def chroma_settings() -> Any:
    """chromadb Settings with anonymized telemetry off (and reset allowed for tests' temp dirs)."""
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


class ChromaBackend:
    """Entries in a Chroma collection.

    Build it with :meth:`persistent` (a directory) or :meth:`http` (a running
    ``chroma run`` server), or pass any chromadb client.
    """

    def __init__(self, client: Any, collection: str = _DEFAULT_COLLECTION, *, description: str = "chroma") -> None:
        self.client = client
        self.description = description
        self._collection_name = collection
        self._col = self._call(
            lambda: client.get_or_create_collection(
                collection, metadata={"hnsw:space": "cosine", "memkit": "experience/1"}
            ),
            "open collection",
        )
        try:
            self._max_batch = int(client.get_max_batch_size())
        except Exception:  # noqa: BLE001 - older clients lack it; Chroma's documented floor is ~5k
            self._max_batch = 5000
        self._closed = False

    @classmethod
    def persistent(cls, path: str | Path, collection: str = _DEFAULT_COLLECTION) -> ChromaBackend:
        """A library in a local directory (created when missing)."""
        import chromadb

        target = Path(path)
        try:
            target.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(target), settings=chroma_settings())
        except Exception as exc:  # noqa: BLE001 - chromadb raises many kinds; all mean "cannot open"
            raise StoreError(f"cannot open Chroma library at {target}: {exc}") from exc
        return cls(client, collection, description=f"chroma:{target}")

    @classmethod
    def http(cls, host: str = "127.0.0.1", port: int = 8000, collection: str = _DEFAULT_COLLECTION) -> ChromaBackend:
        """A library on a Chroma server (``chroma run --host H --port P``)."""
        import chromadb

        try:
            client = chromadb.HttpClient(host=host, port=port, settings=chroma_settings())
        except Exception as exc:  # noqa: BLE001
            raise StoreError(f"cannot reach the Chroma server at {host}:{port}: {exc}") from exc
        return cls(client, collection, description=f"chroma-http:{host}:{port}")

    # ---- helpers ------------------------------------------------------------------------

    def _call(self, fn: Callable[[], T], what: str) -> T:
        try:
            return fn()
        except (StoreError, ConfigError):
            raise
        except Exception as exc:  # noqa: BLE001 - translate every chromadb/transport failure
            raise StoreError(f"Chroma {what} failed: {type(exc).__name__}: {exc}") from exc

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the Chroma experience backend is closed")

    @staticmethod
    def _metadata(entry: ExperienceEntry) -> dict[str, Any]:
        meta: dict[str, Any] = {
            "tier": entry.tier,
            "polarity": entry.polarity,
            "ns_len": len(entry.namespace),
            "created": entry.created_at.timestamp(),
            "entry_json": entry.model_dump_json(),
        }
        # Chroma rejects empty arrays: absent means "none".
        if entry.specialties:
            meta["specialties"] = list(entry.specialties)
        if entry.links:
            meta["links"] = list(entry.links)
        for i, label in enumerate(entry.namespace):
            meta[f"ns_{i}"] = label
        return meta

    @staticmethod
    def _entry(meta: dict[str, Any]) -> ExperienceEntry:
        return ExperienceEntry.model_validate_json(meta["entry_json"])

    @staticmethod
    def where(flt: EntryFilter | None) -> dict[str, Any] | None:
        """Translate an :class:`EntryFilter` into a Chroma ``where`` clause (``None`` for no filter)."""
        if flt is None:
            return None
        parts: list[dict[str, Any]] = []
        if flt.tiers is not None:
            parts.append({"tier": {"$in": list(flt.tiers)}})
        if flt.polarity is not None:
            parts.append({"polarity": flt.polarity})
        for key, values in (("specialties", flt.specialties_any), ("links", flt.links_any)):
            if values is None:
                continue
            options = [{key: {"$contains": v}} for v in dict.fromkeys(values)]
            parts.append(options[0] if len(options) == 1 else {"$or": options})
        if flt.namespace_prefix:
            parts.append({"ns_len": {"$gte": len(flt.namespace_prefix)}})
            parts += [{f"ns_{i}": label} for i, label in enumerate(flt.namespace_prefix)]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else {"$and": parts}

    @staticmethod
    def _matches_nothing(flt: EntryFilter | None) -> bool:
        # "Any of no values" can hold for no entry; Chroma has no clause for it.
        return flt is not None and (flt.specialties_any == () or flt.links_any == () or flt.tiers == ())

    # ---- writes -------------------------------------------------------------------------

    def upsert(self, entries: Sequence[ExperienceEntry], vectors: np.ndarray) -> None:
        """Insert or replace entries by id, in chunks of the server's maximum batch size."""
        self._check_open()
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(entries):
            raise ConfigError(f"expected {len(entries)} vectors, got shape {vectors.shape}")
        if len({e.id for e in entries}) != len(entries):
            # Chroma rejects duplicate ids in one call; the last write of an id wins, as in memory.
            last = {e.id: i for i, e in enumerate(entries)}
            keep = sorted(last.values())
            entries = [entries[i] for i in keep]
            vectors = vectors[keep]
        for start in range(0, len(entries), self._max_batch):
            chunk = entries[start : start + self._max_batch]
            self._call(
                lambda chunk=chunk, start=start: self._col.upsert(
                    ids=[e.id for e in chunk],
                    embeddings=vectors[start : start + len(chunk)],
                    documents=[e.text for e in chunk],
                    metadatas=[self._metadata(e) for e in chunk],
                ),
                "upsert",
            )

    def delete(self, ids: Sequence[str]) -> int:
        """Delete these ids; returns how many existed."""
        self._check_open()
        ids = list(dict.fromkeys(ids))
        if not ids:
            return 0
        existing = self._call(lambda: self._col.get(ids=ids, include=[]), "get")["ids"]
        if existing:
            self._call(lambda: self._col.delete(ids=list(existing)), "delete")
        return len(existing)

    # ---- reads --------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[ExperienceEntry | None]:
        """Entries by id, ``None`` where absent, in the order asked."""
        self._check_open()
        ids = list(ids)
        if not ids:
            return []
        got = self._call(lambda: self._col.get(ids=list(dict.fromkeys(ids)), include=["metadatas"]), "get")
        found = {i: self._entry(m) for i, m in zip(got["ids"], got["metadatas"], strict=True)}
        return [found[i].model_copy(deep=True) if i in found else None for i in ids]

    def get_vectors(self, ids: Sequence[str]) -> np.ndarray:
        """Stored vectors of these ids."""
        self._check_open()
        ids = list(ids)
        got = self._call(lambda: self._col.get(ids=list(dict.fromkeys(ids)), include=["embeddings"]), "get")
        found = dict(zip(got["ids"], got["embeddings"], strict=True))
        missing = [i for i in ids if i not in found]
        if missing:
            raise NotFoundError(f"no experience entry with id {missing[0]!r}")
        return np.asarray([found[i] for i in ids], dtype=np.float32)

    def query(
        self, vectors: np.ndarray, k: int, where: EntryFilter | None = None
    ) -> list[list[tuple[ExperienceEntry, float]]]:
        """Top ``k`` matches per query row; cosine similarity is ``1 - distance``."""
        self._check_open()
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim == 1:
            vectors = vectors[None, :]
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        if self._matches_nothing(where):
            return [[] for _ in range(len(vectors))]
        clause = self.where(where)
        res = self._call(
            lambda: self._col.query(
                query_embeddings=vectors, n_results=k, where=clause, include=["metadatas", "distances"]
            ),
            "query",
        )
        out: list[list[tuple[ExperienceEntry, float]]] = []
        for metas, dists in zip(res["metadatas"] or [], res["distances"] or [], strict=True):
            hits = [(self._entry(m), 1.0 - float(d)) for m, d in zip(metas, dists, strict=True)]
            hits.sort(key=lambda h: -h[1])
            out.append(hits[:k])
        while len(out) < len(vectors):
            out.append([])
        return out

    def _all(self, where: EntryFilter | None) -> list[ExperienceEntry]:
        if self._matches_nothing(where):
            return []
        clause = self.where(where)
        found: list[ExperienceEntry] = []
        page = self._max_batch
        offset = 0
        while True:
            got = self._call(
                lambda offset=offset: self._col.get(where=clause, include=["metadatas"], limit=page, offset=offset),
                "get",
            )
            found += [self._entry(m) for m in got["metadatas"]]
            if len(got["ids"]) < page:
                return found
            offset += page

    def list(self, where: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0) -> list[ExperienceEntry]:
        """Matching entries by ``(created_at, id)``."""
        self._check_open()
        found = self._all(where)
        found.sort(key=lambda e: (e.created_at, e.id))
        end = None if limit is None else offset + limit
        return found[offset:end]

    def count(self, where: EntryFilter | None = None) -> int:
        """How many entries match."""
        self._check_open()
        if self._matches_nothing(where):
            return 0
        if where is None or self.where(where) is None:
            return int(self._call(self._col.count, "count"))
        clause = self.where(where)
        total = 0
        offset = 0
        while True:
            got = self._call(
                lambda offset=offset: self._col.get(where=clause, include=[], limit=self._max_batch, offset=offset),
                "get",
            )
            total += len(got["ids"])
            if len(got["ids"]) < self._max_batch:
                return total
            offset += self._max_batch

    def close(self) -> None:
        """Forget the client (Chroma flushes on every write; there is nothing to close)."""
        self._closed = True

    def __repr__(self) -> str:
        return f"ChromaBackend({self.description!r}, collection={self._collection_name!r})"
