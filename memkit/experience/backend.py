"""The storage protocol every experience-library backend implements.

A backend stores entries with their vectors and answers nearest-neighbour
queries under an :class:`~memkit.experience.entry.EntryFilter`. It knows
nothing of embedding, merging or tiers beyond filtering: the
:class:`~memkit.experience.library.ExperienceLibrary` builds those on top, the
way LangGraph's BaseStore builds every user method on ``batch``.

Backends live in ``stores/experience`` (an in-memory numpy reference, Chroma);
all of them pass ``stores.experience.conformance``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from memkit.experience.entry import EntryFilter, ExperienceEntry

__all__ = ["ExperienceBackend"]


@runtime_checkable
class ExperienceBackend(Protocol):
    """Where entries and their unit vectors live.

    Scores are cosine similarities (vectors are unit length). ``list`` orders
    by ``(created_at, id)``. ``upsert`` returns only once the entries are
    durable for a persistent backend.
    """

    def upsert(self, entries: Sequence[ExperienceEntry], vectors: np.ndarray) -> None:
        """Insert or replace ``entries`` (by id) with their vectors, shape ``(len(entries), dim)``."""
        ...

    def get(self, ids: Sequence[str]) -> list[ExperienceEntry | None]:
        """The entries with these ids, ``None`` where absent, in the order asked."""
        ...

    def get_vectors(self, ids: Sequence[str]) -> np.ndarray:
        """The stored vectors of these ids (all must exist), shape ``(len(ids), dim)``."""
        ...

    def delete(self, ids: Sequence[str]) -> int:
        """Delete these ids; returns how many existed."""
        ...

    def query(
        self, vectors: np.ndarray, k: int, where: EntryFilter | None = None
    ) -> list[list[tuple[ExperienceEntry, float]]]:
        """For each query row, up to ``k`` matching entries with their scores, best first."""
        ...

    def list(self, where: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0) -> list[ExperienceEntry]:
        """Matching entries ordered by ``(created_at, id)``, paged by ``offset``/``limit``."""
        ...

    def count(self, where: EntryFilter | None = None) -> int:
        """How many entries match."""
        ...

    def close(self) -> None:
        """Release files and connections; the backend is unusable afterwards."""
        ...
