"""A LangGraph ``BaseStore`` over an experience library.

Any graph compiled with ``store=ExperienceStore(library)`` reaches the
library through ``get_store()`` or ``InjectedStore``. Namespaces map to
library and tier: the library's own entries appear under
``(*library.namespace, tier)`` (``("experience", "principle")`` by default)
with their ids as keys, and ``search(prefix, query=...)`` is a semantic search
over the library's vectors.

Items put through the store keep their exact value. A value's ``text``
(else its JSON) is what gets embedded; ``tier``, ``polarity``,
``specialties`` and ``links`` in the value, or a tier name in the namespace,
fill the entry's fields. ``put`` replaces by (namespace, key) without merging
(BaseStore semantics); call ``library.add`` for merge-on-add.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from memkit.experience import POLARITIES, TIERS, EntryFilter, ExperienceEntry, ExperienceLibrary

__all__ = ["ExperienceStore"]


class ExperienceStore(BaseStore):
    """LangGraph's BaseStore interface on top of an :class:`ExperienceLibrary`."""

    supports_ttl = False

    def __init__(self, library: ExperienceLibrary) -> None:
        self.library = library

    # ---- id mapping ---------------------------------------------------------------------

    def _native(self, namespace: tuple[str, ...]) -> bool:
        """True for ``(*library.namespace, tier)``, where keys are entry ids."""
        base = self.library.namespace
        return len(namespace) == len(base) + 1 and namespace[: len(base)] == base and namespace[-1] in TIERS

    def _entry_id(self, namespace: tuple[str, ...], key: str) -> str:
        return key if self._native(namespace) else json.dumps([*namespace, key])

    @staticmethod
    def _key(entry: ExperienceEntry) -> str:
        return str(entry.data.get("store_key", entry.id))

    @staticmethod
    def _value(entry: ExperienceEntry) -> dict[str, Any]:
        if "store_value" in entry.data:
            return dict(entry.data["store_value"])
        return {
            "text": entry.text,
            "tier": entry.tier,
            "polarity": entry.polarity,
            "specialties": list(entry.specialties),
            "links": list(entry.links),
            "support": entry.support,
            "sources": list(entry.sources),
        }

    def _item(self, entry: ExperienceEntry, cls: type[Item] = Item, score: float | None = None) -> Item:
        kwargs: dict[str, Any] = {
            "value": self._value(entry),
            "key": self._key(entry),
            "namespace": tuple(entry.namespace),
            "created_at": entry.created_at,
            "updated_at": entry.updated_at,
        }
        if cls is SearchItem:
            kwargs["score"] = score
        return cls(**kwargs)

    def _to_entry(self, op: PutOp, existing: ExperienceEntry | None) -> ExperienceEntry:
        value = dict(op.value or {})
        namespace = tuple(op.namespace)
        tier = next((label for label in reversed(namespace) if label in TIERS), None)
        if tier is None:
            tier = value.get("tier") if value.get("tier") in TIERS else "case"
        text = value.get("text") if isinstance(value.get("text"), str) and value["text"].strip() else None
        if text is None:
            text = json.dumps(value, sort_keys=True, default=str) or "{}"
        now = datetime.now().astimezone()
        strings = lambda v: [x for x in v if isinstance(x, str)] if isinstance(v, list) else []  # noqa: E731
        return ExperienceEntry(
            id=self._entry_id(namespace, op.key),
            tier=tier,
            polarity=value["polarity"] if value.get("polarity") in POLARITIES else "practice",
            text=text,
            specialties=strings(value.get("specialties")),
            links=strings(value.get("links")),
            support=value["support"] if isinstance(value.get("support"), int) and value["support"] >= 1 else 1,
            sources=strings(value.get("sources")),
            namespace=list(namespace),
            data={"store_key": op.key, "store_value": value},
            created_at=existing.created_at if existing is not None else now,
            updated_at=now,
        )

    # ---- batch --------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Answer the batch's reads, then apply its puts (the last put of a (namespace, key) wins).

        This is the order LangGraph's InMemoryStore uses: a read in a batch
        does not see a put of the same batch.
        """
        ops = list(ops)
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for i, op in enumerate(ops):
            if isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
            else:
                results[i] = self._read(op)
        self._apply_puts(list(puts.values()))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _read(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            found = self.library.get_many([self._entry_id(tuple(op.namespace), op.key)])[0]
            return None if found is None else self._item(found)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise ValueError(f"Unknown operation type: {type(op)}")

    def _apply_puts(self, puts: list[PutOp]) -> None:
        deletes = [self._entry_id(tuple(op.namespace), op.key) for op in puts if op.value is None]
        writes = [op for op in puts if op.value is not None]
        if deletes:
            self.library.delete_many(deletes)
        if writes:
            existing = self.library.get_many([self._entry_id(tuple(op.namespace), op.key) for op in writes])
            self.library.put([self._to_entry(op, old) for op, old in zip(writes, existing, strict=True)])

    def _search(self, op: SearchOp) -> list[SearchItem]:
        where = EntryFilter(namespace_prefix=tuple(op.namespace_prefix)) if op.namespace_prefix else None
        limit, offset = max(op.limit, 0), max(op.offset, 0)
        if op.query:
            count = self.library.count(where)
            # Value filters are checked here, so fetch every candidate when one is given.
            k = count if op.filter else min(count, offset + limit)
            scored = self.library.search(op.query, k=k, where=where) if k else []
            hits = [(s.entry, s.score) for s in scored if _matches(self._value(s.entry), op.filter)]
            return [self._item(e, SearchItem, score) for e, score in hits[offset : offset + limit]]
        entries = [e for e in self.library.list(where) if _matches(self._value(e), op.filter)]
        return [self._item(e, SearchItem) for e in entries[offset : offset + limit]]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = {tuple(e.namespace) for e in self.library.list()}
        if op.match_conditions:
            namespaces = {ns for ns in namespaces if all(_ns_matches(c, ns) for c in op.match_conditions)}
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        return sorted(namespaces)[op.offset : op.offset + op.limit]


def _ns_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    pairs = zip(namespace, path) if condition.match_type == "prefix" else zip(reversed(namespace), reversed(path))
    return all(p == "*" or n == p for n, p in pairs)


_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _matches(value: Mapping[str, Any], flt: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter semantics: every key equals, or satisfies its ``$op`` conditions."""
    if not flt:
        return True
    for key, want in flt.items():
        have = value.get(key)
        if isinstance(want, dict) and want and all(k.startswith("$") for k in want):
            try:
                if not all(_OPS[k](have, v) for k, v in want.items()):
                    return False
            except (KeyError, TypeError):
                return False
        elif isinstance(want, dict):
            if not isinstance(have, dict) or not _matches(have, want):
                return False
        elif have != want:
            return False
    return True
